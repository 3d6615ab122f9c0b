// task.list and task.manage (the second seed's task_list / task_manage): the device's short-term task list on
// its relays, kind 30078 d=tasks, NIP-44-encrypted to its own key (lib/nostr/task-note.ts). The owner's only,
// like the memory note: the list is the device's private working memory.
import { NOSTR_TASK_TEXT_MAX_CHARS, NOSTR_TASKS_MAX, TASK_ACTIONS, TASK_STATUSES, tasksBlock } from "../nostr/task-note";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { published } from "./nostr";

/** What the task tools use: the device's key and relays. */
export interface NostrTaskToolDeps {
  nostr: NostrSubsystem;
}

const TASK_TEXT = { type: "string", minLength: 1, maxLength: NOSTR_TASK_TEXT_MAX_CHARS } as const;
const STATUS = { type: "string", enum: TASK_STATUSES } as const;

export const taskList = defineTool({
  name: "task.list",
  needs: ["nostr"],
  description: "The device's current task list as a context block (its short-term task memory on Nostr, kind 30078 d=tasks).",
  adminOnly: true,
  effect: "read",
  openWorld: true,
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: async (_args, _ctx, { nostr }: NostrTaskToolDeps): Promise<ToolResult> => ({ text: tasksBlock(await nostr.tasks.list()) }),
});

export const taskManage = defineTool({
  name: "task.manage",
  needs: ["nostr"],
  description:
    "Change the device's task list on Nostr (kind 30078 d=tasks, encrypted to itself): list, add (text, status), update (id, text and/or status), remove (id), clear, or replace (tasks).",
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: {
      action: { type: "string", enum: TASK_ACTIONS },
      id: { type: "string", pattern: "^t[0-9]{1,6}$" },
      text: TASK_TEXT,
      status: STATUS,
      tasks: {
        type: "array",
        maxItems: NOSTR_TASKS_MAX,
        items: { type: "object", properties: { text: TASK_TEXT, status: STATUS }, required: ["text"], additionalProperties: false },
      },
    },
    required: ["action"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: NostrTaskToolDeps): Promise<ToolResult> => {
    if (args.action === "list") return { text: tasksBlock(await nostr.tasks.list()) };
    const r = await nostr.tasks.apply(args);
    return published(r.event, r.outcomes, `${r.summary}\n${tasksBlock(r.tasks)}`);
  },
});

/** The tools of this file. */
export const NOSTR_TASK_TOOLS = [taskList, taskManage] as const;
