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
  WEEKDAYS,
} from "../util/schedule";
import { assertMayCall } from "../registry/policy";
import { defineTool } from "../registry/define";
import type { ToolRegistry } from "../registry/registry";
import type { ToolResult } from "../registry/types";
import { clipForMessage } from "../util/text";

export interface LoopToolDeps {
  routines: Routines;
  scheduler: RoutineScheduler;
  offsetMinutes(): number;
}

const ID = { type: "string", minLength: 1, maxLength: 16, description: "a routine (r...) or wakeup (w...) id from loop.list" } as const;

/** wakeup.set, loop.create, loop.list, loop.cancel: admin-only, never in a routine's own turn for loop.create. */
export function registerLoopTools(registry: ToolRegistry, deps: LoopToolDeps): void {
  const { routines } = deps;
  const when = (ms: number): string => formatLocalTime(ms, deps.offsetMinutes());

  const wakeupMarks = { name: "wakeup.set", adminOnly: true };
  registry.register(
    defineTool({
      ...wakeupMarks,
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
      handler: (args, ctx): ToolResult => {
        assertMayCall(wakeupMarks, ctx.principal);
        const w = routines.setWakeup(ctx.principal.ns, args.minutes, args.note);
        return { text: `Wakeup ${w.id} armed for ${when(w.nextRun!)}.`, structured: { id: w.id, due: w.nextRun } };
      },
    }),
  );

  const createMarks = { name: "loop.create", adminOnly: true, refuseScheduled: true };
  registry.register(
    defineTool({
      ...createMarks,
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
      handler: (args, ctx): ToolResult => {
        assertMayCall(createMarks, ctx.principal);
        const schedule = parseSchedule(args.schedule);
        if (typeof schedule === "string") throw new HaloError("invalid-arguments", `${schedule}`);
        const r = routines.create(ctx.principal.ns, {
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
    }),
  );

  const listMarks = { name: "loop.list", adminOnly: true };
  registry.register(
    defineTool({
      ...listMarks,
      effect: "read",
      description: "List all routines and wakeups with schedule, next run, last result and approval.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      handler: (_args, ctx): ToolResult => {
        assertMayCall(listMarks, ctx.principal);
        const all = routines.list();
        if (all.length === 0) return { text: "No routines or wakeups." };
        return { text: all.map((r) => describe(r, when, deps.scheduler.isRunning(r.id))).join("\n") };
      },
    }),
  );

  const cancelMarks = { name: "loop.cancel", adminOnly: true };
  registry.register(
    defineTool({
      ...cancelMarks,
      effect: "destroy",
      description: "Cancel (delete) a routine or wakeup by its id.",
      inputSchema: { type: "object", properties: { id: ID }, required: ["id"], additionalProperties: false },
      handler: (args, ctx): ToolResult => {
        assertMayCall(cancelMarks, ctx.principal);
        const r = routines.cancel(args.id);
        const running = deps.scheduler.isRunning(r.id) ? " Its turn in progress finishes, but nothing fires again." : "";
        return { text: `Cancelled ${r.kind} ${r.id}.${running}` };
      },
    }),
  );
}

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
