import { HaloError, type ErrorTag } from "../errors";
import type { Principal } from "../registry/principal";
import { ACTION_KINDS, LED_MODES, MAX_DEVICE_ACTIONS, TTS_MAX_CHARS, validateDeviceAction, validateDeviceActions } from "../device/actions";
import type { DeviceActuator } from "../device/actuator";
import { healthItems, healthText } from "../status/health";
import type { IntrospectionDeps } from "../status/sources";
import { PROVIDERS } from "../device/knobs";
import { runSelfTest, selfTestText } from "../status/selftest";
import { deviceStatusText, otaStatusText } from "../status/status";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";

/** What the device tools read and drive: the status sources (ports, knobs, usage) and the actuator. */
export interface DeviceToolDeps {
  status: IntrospectionDeps;
  actuator: DeviceActuator;
}

const NO_ARGS = { type: "object", properties: {}, additionalProperties: false } as const;
const BYTE = { type: "integer", minimum: 0, maximum: 255 } as const;

/** One device[] element, as device.control takes it. `config` stays open so protected keys reach the rail. */
const ACTION_SCHEMA = {
  type: "object",
  description: `exactly one of ${ACTION_KINDS.join(", ")} (reboot is refused here)`,
  properties: {
    led: {
      type: "object",
      properties: {
        mode: { type: "string", enum: LED_MODES.slice() },
        r: BYTE,
        g: BYTE,
        b: BYTE,
        brightness: { ...BYTE, description: "omit for the ledBrightness knob; capped at 153 (60%)" },
      },
      required: ["mode"],
      additionalProperties: false,
    },
    lights: {
      type: "object",
      properties: { value: { type: "string", enum: ["off", "full"] } },
      required: ["value"],
      additionalProperties: false,
    },
    config: { type: "object", description: "knob: value pairs (at most 8); see docs device-actions for the knobs" },
    orch_model: {
      type: "object",
      properties: { provider: { type: "string", enum: PROVIDERS.slice() }, model: { type: "string", minLength: 1, maxLength: 64 } },
      required: ["provider", "model"],
      additionalProperties: false,
    },
    reboot: { type: "object", properties: {}, additionalProperties: false },
    tts: {
      type: "object",
      properties: { text: { type: "string", minLength: 1, maxLength: TTS_MAX_CHARS } },
      required: ["text"],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** One element, or a list of them as a turn's device[] holds them: each entry is checked on its own. */
const ACTIONS_SCHEMA = {
  description: `one device[] element, or a list of 1-${MAX_DEVICE_ACTIONS} of them run in order`,
  anyOf: [ACTION_SCHEMA, { type: "array", minItems: 1, maxItems: MAX_DEVICE_ACTIONS, items: ACTION_SCHEMA }],
} as const;

export const deviceControl = defineTool({
  name: "device.control",
  needs: ["status", "actuator"],
  effect: "act",
  description:
    "Apply device actions immediately, mid-turn: action is one device[] element (led / lights / config / orch_model / tts) " +
    "or a list of them as device[] holds them, run in order. " +
    "Same knobs, validator and rails as device[]; changes are real and persist. reboot is refused here.",
  inputSchema: { type: "object", properties: { action: ACTIONS_SCHEMA }, required: ["action"], additionalProperties: false },
  handler: async (args, ctx, { status, actuator }: DeviceToolDeps): Promise<ToolResult> => {
    const list: readonly unknown[] | undefined = Array.isArray(args.action) ? args.action : undefined;
    if (list && list.length > 1) return runList(list, ctx.principal, status, actuator);
    // One element, or a list of one: the same answer.
    const check = validateDeviceAction(list ? list[0] : args.action, { principal: ctx.principal, config: status.config, midTurn: true });
    if (!check.ok) throw new HaloError(check.tag, check.sentence);
    const outcome = await actuator.apply(check.action, ctx.principal);
    if (!outcome.ok) throw new HaloError(outcome.tag, outcome.sentence);
    return { text: outcome.text };
  },
});

/**
 * The list form, as device[] runs it: every entry validated on its own, the allowed ones carried out in order,
 * one numbered line each. The call fails only when no entry ran (with the first refusal's tag).
 */
async function runList(
  list: readonly unknown[],
  principal: Principal,
  status: IntrospectionDeps,
  actuator: DeviceActuator,
): Promise<ToolResult> {
  const report = validateDeviceActions(list, { principal, config: status.config, midTurn: true });
  const lines: string[] = [];
  let ran = 0;
  let first: { tag: ErrorTag; sentence: string } | undefined;
  for (const v of report.verdicts) {
    if (!v.allowed || !v.action) {
      first ??= { tag: v.tag ?? "invalid", sentence: v.sentence ?? "refused." };
      lines.push(`${v.index + 1}. ${v.reason ?? "invalid: refused."}`);
      continue;
    }
    const outcome = await actuator.apply(v.action, principal);
    if (outcome.ok) ran++;
    else first ??= { tag: outcome.tag, sentence: outcome.sentence };
    lines.push(`${v.index + 1}. ${outcome.text}`);
  }
  const n = report.verdicts.length;
  if (ran === 0 && first) throw new HaloError(first.tag, `none of the ${n} actions ran:\n${lines.join("\n")}`);
  return { text: `${ran} of ${n} actions ran:\n${lines.join("\n")}` };
}

export const deviceStatus = defineTool({
  name: "device.status",
  needs: ["status"],
  effect: "read",
  description:
    "Read the complete live device state: firmware and build, update engine, time and time zone, heap and PSRAM, SD and flash, " +
    "Wi-Fi, memory and file-store usage against caps, sub-agents, token budget, provider priority, and every config knob.",
  inputSchema: NO_ARGS,
  handler: (_args, ctx, { status }: Pick<DeviceToolDeps, "status">): ToolResult => ({ text: deviceStatusText(status, ctx.principal) }),
});

export const systemHealth = defineTool({
  name: "system.health",
  needs: ["status"],
  effect: "read",
  description:
    "Report live hardware + subsystem health (ring, mic listened to for a second, speaker, SD, memory, PSRAM, Wi-Fi, chat link).",
  inputSchema: NO_ARGS,
  handler: async (_args, ctx, { status }: Pick<DeviceToolDeps, "status">): Promise<ToolResult> => ({
    text: healthText(await healthItems(status, ctx.principal)),
  }),
});

export const deviceSelftest = defineTool({
  name: "device.selftest",
  needs: ["status"],
  effect: "act",
  description: "Run a hardware self-test; returns per-item PASS/FAIL/SKIP.",
  inputSchema: {
    type: "object",
    properties: { audible: { type: "boolean", description: "also run the speaker tone and mic loopback (refused on silent)" } },
    additionalProperties: false,
  },
  handler: async (args, _ctx, { status }: Pick<DeviceToolDeps, "status">): Promise<ToolResult> => {
    const result = await runSelfTest(status, args.audible === true);
    return { text: selfTestText(result, status.ports.system?.info().simulated === true) };
  },
});

export const otaStatus = defineTool({
  name: "ota.status",
  needs: ["status"],
  effect: "read",
  description: "Read the firmware-update engine: state, latest version seen + its release notes, last install outcome.",
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { status }: Pick<DeviceToolDeps, "status">): ToolResult => ({ text: otaStatusText(status) }),
});

/** device.control, device.status, system.health, device.selftest, ota.status. */
export const DEVICE_TOOLS = [deviceControl, deviceStatus, systemHealth, deviceSelftest, otaStatus] as const;
