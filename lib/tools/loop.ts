import { HaloError } from "../errors";
import {
  ROUTINE_CHAT_ID_MAX_CHARS,
  ROUTINE_NAME_MAX_CHARS,
  ROUTINE_PROMPT_MAX_CHARS,
  WAKEUP_MAX_MINUTES,
  WAKEUP_MIN_MINUTES,
  WAKEUPS_MAX_ARMED,
} from "../agents/bounds";
import type { RoutineRecord, Routines } from "../agents/routines";
import type { RoutineScheduler } from "../agents/scheduler";
import {
  describeSchedule,
  formatLocalTime,
  parseSchedule,
  ROUTINE_MAX_INTERVAL_S,
  ROUTINE_MIN_INTERVAL_S,
  utcOffsetMinutes,
  WEEKDAYS,
} from "../util/schedule";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { clipForMessage } from "../util/text";

/** What the loop tools work on: the routines, the scheduler (what runs now), the knobs (the owner's UTC offset). */
export interface LoopToolDeps {
  routines: Routines;
  scheduler: Pick<RoutineScheduler, "isRunning">;
  config: { number(key: "utcOffsetMin"): number };
}

/** A time as the owner's local clock shows it. */
function when(ms: number, deps: Pick<LoopToolDeps, "config">): string {
  return formatLocalTime(ms, utcOffsetMinutes(deps.config));
}

const ID = { type: "string", minLength: 1, maxLength: 16, description: "a routine (r...) or wakeup (w...) id from loop.list" } as const;

export const wakeupSet = defineTool({
  name: "wakeup.set",
  adminOnly: true,
  needs: ["routines", "config"],
  effect: "write",
  description: `Schedule ONE future wakeup for yourself, no owner approval: in ${WAKEUP_MIN_MINUTES} min to 7 days you get a single automatic turn carrying your note (one retry if that turn fails, then the owner is alerted). At most ${WAKEUPS_MAX_ARMED} armed; cancel with loop.cancel.`,
  inputSchema: {
    type: "object",
    properties: {
      minutes: { type: "integer", minimum: WAKEUP_MIN_MINUTES, maximum: WAKEUP_MAX_MINUTES, description: "minutes from now" },
      note: {
        type: "string",
        minLength: 1,
        maxLength: ROUTINE_PROMPT_MAX_CHARS,
        description: "what the wakeup turn should do or check",
      },
    },
    required: ["minutes", "note"],
    additionalProperties: false,
  },
  handler: (args, ctx, deps: Pick<LoopToolDeps, "routines" | "config">): ToolResult => {
    const w = deps.routines.setWakeup(ctx.principal.ns, args.minutes, args.note);
    return { text: `Wakeup ${w.id} armed for ${when(w.nextRun!, deps)}.`, structured: { id: w.id, due: w.nextRun } };
  },
});

export const loopCreate = defineTool({
  name: "loop.create",
  adminOnly: true,
  refuseScheduled: true,
  needs: ["routines"],
  effect: "write",
  description: "Schedule a recurring or timed task that fires as a future turn; saved pending the owner's approval.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, maxLength: ROUTINE_NAME_MAX_CHARS },
      prompt: {
        type: "string",
        minLength: 1,
        maxLength: ROUTINE_PROMPT_MAX_CHARS,
        description: "what the routine's turn is asked each time",
      },
      chat_id: {
        type: "string",
        minLength: 1,
        maxLength: ROUTINE_CHAT_ID_MAX_CHARS,
        description: "an allow-listed chat the routine reports to",
      },
      schedule: {
        type: "object",
        properties: {
          kind: { type: "string", enum: ["interval", "daily", "weekly"] },
          every_seconds: {
            type: "integer",
            minimum: ROUTINE_MIN_INTERVAL_S,
            maximum: ROUTINE_MAX_INTERVAL_S,
            description: "interval only",
          },
          at: {
            type: "string",
            pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$",
            minLength: 5,
            maxLength: 5,
            description: "daily/weekly: local HH:MM",
          },
          days: {
            type: "array",
            items: { type: "string", enum: WEEKDAYS.slice() },
            minItems: 1,
            maxItems: 7,
            description: "weekly (required) or daily (optional filter)",
          },
        },
        required: ["kind"],
        additionalProperties: false,
      },
    },
    required: ["name", "prompt", "schedule"],
    additionalProperties: false,
  },
  handler: (args, ctx, deps: Pick<LoopToolDeps, "routines">): ToolResult => {
    const schedule = parseSchedule(args.schedule);
    if (typeof schedule === "string") throw new HaloError("invalid-arguments", `${schedule}`);
    const r = deps.routines.create(ctx.principal.ns, {
      name: args.name,
      prompt: args.prompt,
      chatId: args.chat_id,
      schedule,
    });
    return {
      text: `Routine ${r.id} "${clipForMessage(r.name)}" (${describeSchedule(schedule)}) is saved and awaits the owner's approval; it cannot fire until then.`,
      structured: { id: r.id, approved: false },
    };
  },
});

export const loopList = defineTool({
  name: "loop.list",
  adminOnly: true,
  needs: ["routines", "scheduler", "config"],
  effect: "read",
  description: "List all routines and wakeups with schedule, next run, last result and approval.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, deps: LoopToolDeps): ToolResult => {
    const all = deps.routines.list();
    if (all.length === 0) return { text: "No routines or wakeups." };
    return { text: all.map((r) => describe(r, (ms) => when(ms, deps), deps.scheduler.isRunning(r.id))).join("\n") };
  },
});

export const loopCancel = defineTool({
  name: "loop.cancel",
  adminOnly: true,
  needs: ["routines", "scheduler"],
  effect: "destroy",
  description: "Cancel (delete) a routine or wakeup by its id.",
  inputSchema: { type: "object", properties: { id: ID }, required: ["id"], additionalProperties: false },
  handler: (args, _ctx, deps: Pick<LoopToolDeps, "routines" | "scheduler">): ToolResult => {
    const r = deps.routines.cancel(args.id);
    const running = deps.scheduler.isRunning(r.id) ? " Its turn in progress finishes, but nothing fires again." : "";
    return { text: `Cancelled ${r.kind} ${r.id}.${running}` };
  },
});

/** wakeup.set, loop.create, loop.list, loop.cancel: admin-only, never in a routine's own turn for loop.create. */
export const LOOP_TOOLS = [wakeupSet, loopCreate, loopList, loopCancel] as const;

function describe(r: RoutineRecord, when: (ms: number) => string, running: boolean): string {
  const head =
    r.kind === "wakeup"
      ? `- ${r.id} wakeup: "${clipForMessage(r.prompt, 80)}"`
      : `- ${r.id} routine "${clipForMessage(r.name)}": ${describeSchedule(r.schedule!)}`;
  const parts: string[] = [];
  if (r.kind === "routine") parts.push(r.approved ? "approved" : "awaiting the owner's approval");
  if (running) parts.push("running now");
  else if (r.nextRun !== undefined) parts.push(`next ${when(r.nextRun)}`);
  if (r.chatId) parts.push(`reports to chat ${clipForMessage(r.chatId, 20)}`);
  if (r.lastResult) parts.push(`last: ${r.lastResult}`);
  return `${head}; ${parts.join("; ")}`;
}
