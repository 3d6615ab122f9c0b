import { taggedText, type ErrorTag } from "../errors";
// The device[] validator: every element of a turn's device[] array (and the one
// action of device.control) is checked here, item by item, with a reason for
// each refusal. A reason never repeats a value the caller sent.
import type { LedMode } from "../ports";
import type { Principal } from "../registry/principal";
import type { ConfigStore } from "./config";
import { PROVIDERS, type KnobValue, type Provider } from "./knobs";
import { scanForProtectedKeys } from "./protected-keys";

/** Most device[] elements run in one turn; the rest are refused unread. */
export const MAX_DEVICE_ACTIONS = 8;
/** Most knobs one config action may set. */
export const MAX_CONFIG_KEYS = 8;
/** Longest text a tts action may speak. */
export const TTS_MAX_CHARS = 600;

export const ACTION_KINDS = ["led", "lights", "config", "orch_model", "reboot", "tts"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
export const LED_MODES: readonly LedMode[] = ["solid", "spinner", "pulse", "flash", "rainbow"];
const MODEL_PATTERN = /^[A-Za-z0-9._:/-]{1,64}$/;
/** Actions that change durable or device-wide state: an admin's only. */
const ADMIN_ACTIONS: readonly ActionKind[] = ["config", "orch_model", "reboot"];

export type DeviceAction =
  | { kind: "led"; mode: LedMode; r: number; g: number; b: number; brightness: number | null }
  | { kind: "lights"; value: "off" | "full" }
  | { kind: "config"; changes: Array<[string, KnobValue]> }
  | { kind: "orch_model"; provider: Provider; model: string }
  | { kind: "reboot" }
  | { kind: "tts"; text: string };

export interface ValidationContext {
  principal: Principal;
  config: ConfigStore;
  /** True for device.control: reboot is refused mid-turn. */
  midTurn: boolean;
}

/** A refusal carries its tag, its sentence alone, and `reason` (the two written together: "<tag>: <sentence>"). */
export type ActionCheck = { ok: true; action: DeviceAction } | { ok: false; tag: ErrorTag; sentence: string; reason: string };

export interface ActionVerdict {
  index: number;
  allowed: boolean;
  action?: DeviceAction;
  reason?: string;
  /** A refusal's tag and its sentence alone (`reason` is the two written together). */
  tag?: ErrorTag;
  sentence?: string;
}

export interface DeviceActionsReport {
  verdicts: ActionVerdict[];
  /** Elements past MAX_DEVICE_ACTIONS, refused without being read. */
  dropped: number;
}

const ONE_OF = `an action is an object with exactly one of ${ACTION_KINDS.join(", ")}.`;

/** Validates a whole device[] array: at most MAX_DEVICE_ACTIONS elements are read, each judged on its own. */
export function validateDeviceActions(items: unknown, ctx: ValidationContext): DeviceActionsReport {
  if (!Array.isArray(items))
    return { verdicts: [{ index: 0, allowed: false, reason: "invalid: device must be an array of actions." }], dropped: 0 };
  const verdicts: ActionVerdict[] = [];
  const n = Math.min(items.length, MAX_DEVICE_ACTIONS);
  for (let i = 0; i < n; i++) {
    const check = validateDeviceAction(items[i], ctx);
    verdicts.push(
      check.ok
        ? { index: i, allowed: true, action: check.action }
        : { index: i, allowed: false, reason: check.reason, tag: check.tag, sentence: check.sentence },
    );
  }
  return { verdicts, dropped: items.length - n };
}

/** The sentence for elements past the bound. */
export function droppedReason(dropped: number): string {
  return `limit: at most ${MAX_DEVICE_ACTIONS} device actions per turn; ${dropped} more were not run.`;
}

/** Validates one device[] element. */
export function validateDeviceAction(raw: unknown, ctx: ValidationContext): ActionCheck {
  if (!isPlainObject(raw)) return refuse("invalid", `${ONE_OF}`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) return refuse("invalid", `the element has ${keys.length} keys; ${ONE_OF}`);
  const kind = keys[0];
  if ((ACTION_KINDS as readonly string[]).indexOf(kind) < 0) return refuse("invalid", `unknown action; ${ONE_OF}`);
  const params = raw[kind];
  // The protected rail comes first: a config carrying a protected key is refused whole, whatever else it holds.
  if (kind === "config") {
    const scan = scanForProtectedKeys(params);
    if (scan === "protected")
      return refuse("protected-BLOCKED", "this config change touches a setting only the owner may change, through the owner API.");
    if (scan === "too-deep") return refuse("invalid", "the config action nests too deeply.");
    if (scan === "too-many-keys") return refuse("invalid", "the config action holds too many keys.");
  }
  if (ADMIN_ACTIONS.indexOf(kind as ActionKind) >= 0 && ctx.principal.role !== "admin") {
    return refuse("admin-only", `a ${kind} action needs an admin conversation.`);
  }
  switch (kind as ActionKind) {
    case "led":
      return checkLed(params);
    case "lights":
      return checkLights(params);
    case "config":
      return checkConfig(params, ctx.config);
    case "orch_model":
      return checkOrchModel(params);
    case "reboot":
      if (params !== true && !(isPlainObject(params) && Object.keys(params).length === 0))
        return refuse("invalid", "reboot takes no parameters ({}).");
      if (ctx.midTurn) return refuse("not-mid-turn", "reboot is refused here; put it in the end-of-turn device[].");
      return { ok: true, action: { kind: "reboot" } };
    case "tts":
      return checkTts(params);
  }
}

function checkLed(p: unknown): ActionCheck {
  if (!isPlainObject(p)) return refuse("invalid", "led takes {mode, r, g, b, brightness}.");
  if (!onlyFields(p, ["mode", "r", "g", "b", "brightness"]))
    return refuse("invalid", "led has an unknown field; its fields are mode, r, g, b, brightness.");
  if (typeof p.mode !== "string" || (LED_MODES as readonly string[]).indexOf(p.mode) < 0) {
    return refuse("invalid", `led mode must be one of ${LED_MODES.join(", ")}.`);
  }
  // No colour at all means white; a partial colour means the missing channels are 0.
  const anyColour = p.r !== undefined || p.g !== undefined || p.b !== undefined;
  const rgb: number[] = [];
  for (const c of ["r", "g", "b"]) {
    const v = p[c] === undefined ? (anyColour ? 0 : 255) : p[c];
    if (!isIntIn(v, 0, 255)) return refuse("invalid", `led ${c} must be an integer from 0 to 255.`);
    rgb.push(v as number);
  }
  const brightness = p.brightness === undefined ? null : p.brightness;
  if (brightness !== null && !isIntIn(brightness, 0, 255))
    return refuse("invalid", "led brightness must be an integer from 0 to 255, or null.");
  return {
    ok: true,
    action: { kind: "led", mode: p.mode as LedMode, r: rgb[0], g: rgb[1], b: rgb[2], brightness: brightness as number | null },
  };
}

function checkLights(p: unknown): ActionCheck {
  if (!isPlainObject(p) || !onlyFields(p, ["value"]) || (p.value !== "off" && p.value !== "full")) {
    return refuse("invalid", 'lights takes {value: "off" | "full"}.');
  }
  return { ok: true, action: { kind: "lights", value: p.value } };
}

function checkConfig(p: unknown, config: ConfigStore): ActionCheck {
  if (!isPlainObject(p)) return refuse("invalid", "config takes an object of knob: value pairs.");
  const changes = Object.keys(p).map((k): [string, unknown] => [k, p[k]]);
  if (changes.length === 0) return refuse("invalid", "config names no knob.");
  if (changes.length > MAX_CONFIG_KEYS) return refuse("invalid", `at most ${MAX_CONFIG_KEYS} knobs in one config action.`);
  const checked = config.check(changes, "device");
  if ("problem" in checked) return refuse("invalid", `${checked.problem}`);
  return {
    ok: true,
    action: { kind: "config", changes: checked.specs.map((spec, i): [string, KnobValue] => [spec.key, changes[i][1] as KnobValue]) },
  };
}

function checkOrchModel(p: unknown): ActionCheck {
  if (!isPlainObject(p) || !onlyFields(p, ["provider", "model"])) return refuse("invalid", "orch_model takes {provider, model}.");
  if (typeof p.provider !== "string" || (PROVIDERS as readonly string[]).indexOf(p.provider) < 0) {
    return refuse("invalid", `orch_model provider must be one of ${PROVIDERS.join(", ")}.`);
  }
  if (typeof p.model !== "string" || !MODEL_PATTERN.test(p.model))
    return refuse("invalid", "orch_model model is 1-64 of A-Z a-z 0-9 . _ : / -.");
  return { ok: true, action: { kind: "orch_model", provider: p.provider as Provider, model: p.model } };
}

function checkTts(p: unknown): ActionCheck {
  if (!isPlainObject(p) || !onlyFields(p, ["text"]) || typeof p.text !== "string") return refuse("invalid", "tts takes {text}.");
  if (p.text.trim().length === 0 || p.text.length > TTS_MAX_CHARS)
    return refuse("invalid", `tts text must be 1-${TTS_MAX_CHARS} characters.`);
  return { ok: true, action: { kind: "tts", text: p.text } };
}

function refuse(tag: ErrorTag, sentence: string): ActionCheck {
  return { ok: false, tag, sentence, reason: taggedText(tag, sentence) };
}

function isPlainObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function onlyFields(o: { [key: string]: unknown }, allowed: string[]): boolean {
  for (const k of Object.keys(o)) if (allowed.indexOf(k) < 0) return false;
  return true;
}

function isIntIn(v: unknown, min: number, max: number): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
}
