// Carries out a parsed turn answer after its reply: scratchpad, mem_write[]
// (memory.write), mem_query[] (memory.search; results kept for the next turn),
// session_ops[] (session.spawn / session.terminate when those tools exist) and
// device[] (the device validator, then the actuator; a reboot is held back and
// run by the caller as the very last step). Each item gets one line of outcome.
import { validateDeviceActions, type DeviceAction } from "../device/actions";
import type { DeviceActuator } from "../device/actuator";
import type { ConfigStore } from "../device/config";
import type { ScratchpadTier } from "../memory/scratchpad";
import { HaloError } from "../errors";
import type { Principal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import { clipForMessage } from "../util/text";
import { truncateUtf8 } from "../util/utf8";
import { QUERY_RESULT_MAX_BYTES } from "./bounds";
import type { ScratchpadUpdate, SessionOp, TurnAnswer } from "./contract";
import type { QueryResult } from "./conversation";

/** The scratchpad as the turn writes it (lib/memory/scratchpad.ts). */
export interface ScratchpadWriter {
  setActive(text: string): void;
  replace(tier: ScratchpadTier, items: string[]): void;
}

export interface ApplyDeps {
  registry: ToolRegistry;
  config: ConfigStore;
  actuator: DeviceActuator;
  scratchpad?: ScratchpadWriter;
}

/** One item's outcome: a failure's text starts with its policy tag. */
export interface Outcome {
  ok: boolean;
  text: string;
}

export interface AppliedTurn {
  scratchpad?: Outcome;
  memoryWritten: Outcome[];
  memoryQueried: Outcome[];
  /** For the next turn's prompt. */
  queryResults: QueryResult[];
  sessionOps: Array<Outcome & { op: SessionOp["op"] }>;
  device: Array<Outcome & { index: number }>;
  /** The allowed reboot, to run after everything else (state saved, reply delivered). */
  reboot?: () => Promise<Outcome>;
}

/** Runs a registry tool for the turn; a missing tool or a throw is an outcome, never an exception. */
async function dispatch(registry: ToolRegistry, name: string, args: { [key: string]: unknown }, principal: Principal): Promise<Outcome> {
  if (!registry.has(name)) return { ok: false, text: `not available: ${name} does not exist on this device.` };
  try {
    const r = await registry.dispatch(name, args, principal);
    return { ok: !r.isError, text: r.text };
  } catch {
    return { ok: false, text: `internal error: ${name} failed.` };
  }
}

function withoutUndefined(o: { [key: string]: unknown }): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

export async function applyAnswer(deps: ApplyDeps, principal: Principal, answer: TurnAnswer): Promise<AppliedTurn> {
  const applied: AppliedTurn = { memoryWritten: [], memoryQueried: [], queryResults: [], sessionOps: [], device: [] };
  if (answer.scratchpad) applied.scratchpad = writeScratchpad(deps.scratchpad, principal, answer.scratchpad);
  for (const item of answer.memWrite) {
    applied.memoryWritten.push(await dispatch(deps.registry, "memory.write", withoutUndefined({ ...item }), principal));
  }
  for (const q of answer.memQuery) {
    const r = await dispatch(deps.registry, "memory.search", withoutUndefined({ ...q }), principal);
    applied.memoryQueried.push(r);
    applied.queryResults.push({ query: q.query, text: truncateUtf8(r.text, QUERY_RESULT_MAX_BYTES) });
  }
  for (const op of answer.sessionOps) applied.sessionOps.push({ op: op.op, ...(await sessionOp(deps.registry, principal, op)) });
  await runDevice(deps, principal, answer.device, applied);
  return applied;
}

async function sessionOp(registry: ToolRegistry, principal: Principal, op: SessionOp): Promise<Outcome> {
  const name = op.op === "spawn" ? "session.spawn" : "session.terminate";
  if (!registry.has(name)) return { ok: false, text: "not available: sub-agents are not available on this device yet." };
  const { op: _op, ...args } = op;
  return dispatch(registry, name, withoutUndefined(args), principal);
}

function writeScratchpad(pad: ScratchpadWriter | undefined, principal: Principal, update: ScratchpadUpdate): Outcome {
  if (!pad) return { ok: false, text: "not available: this device has no scratchpad." };
  // The scratchpad is device-wide and shown in every admin turn, so only an admin conversation writes it.
  if (principal.role !== "admin") return { ok: false, text: "admin-only: the scratchpad is written only in admin conversations." };
  const done: string[] = [];
  try {
    if (update.active !== undefined) {
      pad.setActive(update.active);
      done.push("active");
    }
    for (const tier of ["short", "mid", "long"] as const) {
      const items = update[tier];
      if (items === undefined) continue;
      pad.replace(tier, items);
      done.push(tier);
    }
  } catch (e) {
    const why = e instanceof HaloError ? e.message : "internal error: the scratchpad could not be written.";
    return { ok: false, text: done.length ? `${why} (already written: ${done.join(", ")})` : why };
  }
  return { ok: true, text: `scratchpad: ${done.join(", ")} updated.` };
}

async function runDevice(deps: ApplyDeps, principal: Principal, items: unknown[], applied: AppliedTurn): Promise<void> {
  if (!items.length) return;
  const report = validateDeviceActions(items, { principal, config: deps.config, midTurn: false });
  let reboot: DeviceAction | undefined;
  for (const v of report.verdicts) {
    if (!v.allowed || !v.action) applied.device.push({ index: v.index, ok: false, text: v.reason ?? "invalid: refused." });
    else if (v.action.kind === "reboot") {
      if (reboot) applied.device.push({ index: v.index, ok: false, text: "invalid: one reboot per turn." });
      else {
        reboot = v.action;
        applied.device.push({ index: v.index, ok: true, text: "reboot: runs at the end of the turn." });
      }
    } else {
      const outcome = await deps.actuator.apply(v.action, principal);
      applied.device.push({ index: v.index, ok: outcome.ok, text: outcome.text });
    }
  }
  if (reboot) {
    const action = reboot;
    applied.reboot = async (): Promise<Outcome> => {
      try {
        return await deps.actuator.apply(action);
      } catch (e) {
        return { ok: false, text: `failed: the reboot did not start (${clipForMessage(e instanceof Error ? e.message : "unknown", 60)}).` };
      }
    };
  }
}
