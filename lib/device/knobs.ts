// The owner knobs a device config action (or the owner API) may set: each with
// its type and range. Anything not listed here is refused; the protected keys
// (lib/device/protected-keys.ts) are refused before this table is consulted.
import { UTC_OFFSET_MAX_MINUTES, UTC_OFFSET_MIN_MINUTES } from "../util/schedule";
import { NIGHT_WINDOW_TEXT } from "./night-window";

export type KnobValue = number | boolean | string;
/** Who may write a knob: a device config action, only the owner API, or the orch_model action. */
export type KnobWriter = "device" | "owner" | "orch_model";

export interface KnobSpec {
  key: string;
  type: "int" | "bool" | "enum" | "string";
  min?: number;
  max?: number;
  values?: readonly string[];
  pattern?: RegExp;
  default: KnobValue;
  writer: KnobWriter;
  description: string;
}

/** Tool rounds per turn: the default, and the most the owner may allow (knob toolLoopRounds). */
export const TOOL_ROUNDS_DEFAULT = 4;
export const TOOL_ROUNDS_MAX = 12;
/** Scheduled turns (routines and wakeups) per day: the owner knob's default and largest value. */
export const SCHEDULED_TURNS_PER_DAY_DEFAULT = 24;
export const SCHEDULED_TURNS_PER_DAY_MAX = 96;

/** The most the ring is ever driven (60% of 255), for the hardware's safety. */
export const LED_MAX_BRIGHTNESS = 153;
export const PROVIDERS = ["openai", "anthropic", "mistral"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const KNOBS = [
  {
    key: "ledBrightness",
    type: "int",
    min: 0,
    max: 255,
    default: 96,
    writer: "device",
    description: `ring brightness 0-255; the ring never exceeds ${LED_MAX_BRIGHTNESS}`,
  },
  {
    key: "posture",
    type: "enum",
    values: ["full", "subtle", "off"],
    default: "full",
    writer: "device",
    description: "how much the ring shows: every state, only attention and errors, or nothing",
  },
  {
    key: "profile",
    type: "enum",
    values: ["normal", "quiet", "silent"],
    default: "normal",
    writer: "device",
    description: "sound profile: quiet mutes effects, silent mutes everything (speech and audible tests too)",
  },
  {
    key: "theme",
    type: "enum",
    values: ["aurora", "ember", "ocean", "mono"],
    default: "aurora",
    writer: "device",
    description: "the ring's colour theme",
  },
  {
    key: "attnHoldMs",
    type: "int",
    min: 0,
    max: 60000,
    default: 8000,
    writer: "device",
    description: "how long the ring holds the attention state, in ms",
  },
  { key: "sfxVol", type: "int", min: 0, max: 100, default: 60, writer: "device", description: "speaker volume 0-100" },
  {
    key: "sfxTheme",
    type: "enum",
    values: ["classic", "soft", "none"],
    default: "classic",
    writer: "device",
    description: "the sound-effect set: classic, soft (lower and longer), or none",
  },
  {
    key: "sfxLvlO",
    type: "int",
    min: 0,
    max: 100,
    default: 100,
    writer: "device",
    description: "sound-effect level by day, 0-100 percent of the speaker volume",
  },
  {
    key: "sfxLvlN",
    type: "int",
    min: 0,
    max: 100,
    default: 100,
    writer: "device",
    description: `sound-effect level at night (${NIGHT_WINDOW_TEXT} owner time), 0-100 percent of the speaker volume`,
  },
  {
    key: "sleepOvr",
    type: "enum",
    values: ["auto", "asleep", "awake"],
    default: "auto",
    writer: "device",
    description: "night by the clock (auto), or held at night (asleep) or at day (awake) whatever the time",
  },
  {
    key: "brightOvr",
    type: "int",
    min: -1,
    max: 255,
    default: -1,
    writer: "device",
    description: `ring brightness at night 0-255 in place of ledBrightness, or -1 for none; the ring never exceeds ${LED_MAX_BRIGHTNESS}`,
  },
  { key: "ttsOn", type: "bool", default: true, writer: "device", description: "speak replies aloud" },
  {
    key: "ttsVoice",
    type: "string",
    pattern: /^[a-z0-9_-]{1,32}$/,
    default: "alloy",
    writer: "device",
    description: "the speech voice name (1-32 of a-z 0-9 _ -)",
  },
  {
    key: "ttsProv",
    type: "enum",
    values: ["openai", "mistral"],
    default: "openai",
    writer: "device",
    description: "the speech synthesis service",
  },
  {
    key: "sttProv",
    type: "enum",
    values: ["openai", "mistral"],
    default: "openai",
    writer: "device",
    description: "the transcription service",
  },
  {
    key: "voiceMode",
    type: "enum",
    values: ["pipeline", "realtime"],
    default: "pipeline",
    writer: "owner",
    description: "spoken requests through speech-to-text, a turn and speech (pipeline), or OpenAI Realtime (owner API only)",
  },
  {
    key: "micMute",
    type: "bool",
    default: false,
    writer: "owner",
    description: "the microphone is muted: nothing is captured (the button's double press toggles it; owner API only)",
  },
  {
    key: "voicePerson",
    type: "string",
    pattern: /^(-?[a-z0-9][a-z0-9._-]{0,47})?$/,
    default: "",
    writer: "owner",
    description: "the person a spoken request on the device runs as; empty means the owner (owner API only)",
  },
  {
    key: "devName",
    type: "string",
    pattern: /^[A-Za-z0-9][A-Za-z0-9 ._'-]{0,31}$/,
    default: "Halo",
    writer: "device",
    description: "the device's name (1-32 letters, digits, space . _ ' -)",
  },
  {
    key: "hwTests",
    type: "bool",
    default: true,
    writer: "owner",
    description: "whether device.selftest may run audible items (owner API only)",
  },
  {
    key: "guestCredit",
    type: "bool",
    default: false,
    writer: "owner",
    description: "whether guests may spend provider credit: POST /api/chat turns and session.spawn (owner API only)",
  },
  {
    key: "userCredit",
    type: "bool",
    default: true,
    writer: "owner",
    description: "whether users may spend provider credit: POST /api/chat turns and session.spawn (owner API only)",
  },
  // Named with "loop" so a device config action carrying it is refused as protected-BLOCKED (lib/device/protected-keys.ts).
  {
    key: "toolLoopRounds",
    type: "int",
    min: 1,
    max: TOOL_ROUNDS_MAX,
    default: TOOL_ROUNDS_DEFAULT,
    writer: "owner",
    description: `tool rounds one conversation turn may run, 1-${TOOL_ROUNDS_MAX} (owner API only)`,
  },
  {
    key: "ownerChatId",
    type: "string",
    pattern: /^(-?[0-9]{1,20})?$/,
    default: "",
    writer: "owner",
    description: "the owner's Telegram chat id: where reply.telegram and files.send go by default; empty means none (owner API only)",
  },
  {
    key: "webSearchBudget",
    type: "int",
    min: 0,
    max: 100000,
    default: 1000,
    writer: "owner",
    description: "web.search calls allowed per calendar month (UTC); 0 switches web search off (owner API only)",
  },
  {
    key: "utcOffsetMin",
    type: "int",
    min: UTC_OFFSET_MIN_MINUTES,
    max: UTC_OFFSET_MAX_MINUTES,
    default: 0,
    writer: "owner",
    description:
      "the owner's time zone as minutes from UTC (e.g. 120 for UTC+2; no daylight-saving rule): routines' daily/weekly times and the daily governor use it (owner API only)",
  },
  // Named with "routine" so a device config action carrying it is refused as protected-BLOCKED.
  {
    key: "routineTurnsPerDay",
    type: "int",
    min: 0,
    max: SCHEDULED_TURNS_PER_DAY_MAX,
    default: SCHEDULED_TURNS_PER_DAY_DEFAULT,
    writer: "owner",
    description: `scheduled turns (routines and wakeups) allowed per day, 0-${SCHEDULED_TURNS_PER_DAY_MAX}; 0 stops them all (owner API only)`,
  },
  {
    key: "orchProvider",
    type: "enum",
    values: PROVIDERS,
    default: "openai",
    writer: "orch_model",
    description: "the provider of the orchestrator's own model (set with the orch_model action)",
  },
  {
    key: "orchModel",
    type: "string",
    pattern: /^[A-Za-z0-9._:/-]{0,64}$/,
    default: "",
    writer: "orch_model",
    description: "the orchestrator's model name; empty means the provider's default (set with the orch_model action)",
  },
] as const satisfies readonly KnobSpec[];

/** One knob of the table, with its key as a literal type. */
export type Knob = (typeof KNOBS)[number];
/** Every knob's name. */
export type KnobKey = (typeof KNOBS)[number]["key"];
/** The knobs of one type, e.g. KnobKeyOf<"int">. */
export type KnobKeyOf<T extends KnobSpec["type"]> = Extract<(typeof KNOBS)[number], { type: T }>["key"];

const BY_LOWER = new Map<string, Knob>(KNOBS.map((k) => [k.key.toLowerCase(), k]));

/** The knob a name refers to, matched case-insensitively. */
export function knobByName(name: string): Knob | undefined {
  return BY_LOWER.get(name.toLowerCase());
}

/** Why `value` does not fit `spec`, in one sentence that never repeats the value; undefined when it fits. */
export function knobValueProblem(spec: KnobSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case "int":
      if (typeof value !== "number" || !Number.isInteger(value) || value < spec.min! || value > spec.max!) {
        return `${spec.key} must be an integer from ${spec.min} to ${spec.max}.`;
      }
      return undefined;
    case "bool":
      return typeof value === "boolean" ? undefined : `${spec.key} must be true or false.`;
    case "enum":
      return typeof value === "string" && spec.values!.indexOf(value) >= 0
        ? undefined
        : `${spec.key} must be one of ${spec.values!.join(", ")}.`;
    case "string":
      return typeof value === "string" && spec.pattern!.test(value)
        ? undefined
        : `${spec.key} is not in the accepted form (${spec.description}).`;
  }
}
