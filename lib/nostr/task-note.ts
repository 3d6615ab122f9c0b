// The device's short-term task list on Nostr (the second seed's task_list / task_manage): a self note
// (./self-note) with d=tasks whose text is `{"tasks":[{id, text, status, updated}]}`. The actions change the
// list the relays hold, one at a time; a note that is not a task list is refused, never overwritten.
import { HaloError } from "../errors";
import { toJson } from "../util/json";
import type { NostrEvent } from "./event";
import type { PublishOutcome } from "./pool";
import type { SelfNote } from "./self-note";

/** The task list's d tag (kind 30078). */
export const NOSTR_TASKS_D = "tasks";
/** Tasks in the list at most, and the longest task text (characters). */
export const NOSTR_TASKS_MAX = 50;
export const NOSTR_TASK_TEXT_MAX_CHARS = 500;
export const TASK_STATUSES = ["pending", "active", "blocked", "done"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_ACTIONS = ["list", "add", "update", "remove", "clear", "replace"] as const;
const TASK_ID = /^t[0-9]{1,6}$/;

export interface Task {
  id: string;
  text: string;
  status: TaskStatus;
  /** When it was added or last changed (seconds). */
  updated: number;
}

/** One call of task.manage, as its schema lets it through. */
export interface TaskAction {
  action: (typeof TASK_ACTIONS)[number];
  id?: string;
  text?: string;
  status?: TaskStatus;
  tasks?: Array<{ text: string; status?: TaskStatus }>;
}

/** The tasks of a note's text ("" is none); a text that is not a task list throws (it is not overwritten). */
export function parseTasks(text: string): Task[] {
  if (!text) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = undefined;
  }
  const list =
    v && typeof v === "object" && Array.isArray((v as { tasks?: unknown }).tasks) ? (v as { tasks: unknown[] }).tasks : undefined;
  if (!list) throw new HaloError("invalid", "the tasks note on the relays is not a task list; it was left as it is.");
  return list
    .filter((t): t is Task => {
      const x = t as Task;
      return !!x && typeof x.id === "string" && typeof x.text === "string" && (TASK_STATUSES as readonly string[]).includes(x.status);
    })
    .slice(0, NOSTR_TASKS_MAX);
}

/** The list after one action, and a sentence saying what changed. */
export function applyTaskAction(tasks: Task[], a: TaskAction, nowSeconds: number): { tasks: Task[]; summary: string } {
  const find = (): Task => {
    const t = a.id !== undefined && TASK_ID.test(a.id) ? tasks.find((x) => x.id === a.id) : undefined;
    if (!t) throw new HaloError("not-found", "no task has that id (see task.list).");
    return t;
  };
  const text = (raw: string | undefined): string => {
    const clean = (raw ?? "").replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
    if (!clean) throw new HaloError("invalid", "a task has some text.");
    if (clean.length > NOSTR_TASK_TEXT_MAX_CHARS)
      throw new HaloError("too-large", `a task is at most ${NOSTR_TASK_TEXT_MAX_CHARS} characters.`);
    return clean;
  };
  switch (a.action) {
    case "list":
      return { tasks, summary: `${tasks.length} task(s).` };
    case "add": {
      if (tasks.length >= NOSTR_TASKS_MAX) throw new HaloError("full", `at most ${NOSTR_TASKS_MAX} tasks; remove or clear some first.`);
      const task: Task = { id: nextId(tasks), text: text(a.text), status: a.status ?? "pending", updated: nowSeconds };
      return { tasks: [...tasks, task], summary: `Added ${task.id}.` };
    }
    case "update": {
      const old = find();
      if (a.text === undefined && a.status === undefined) throw new HaloError("invalid", "an update changes the text, the status or both.");
      const task: Task = {
        ...old,
        text: a.text === undefined ? old.text : text(a.text),
        status: a.status ?? old.status,
        updated: nowSeconds,
      };
      return { tasks: tasks.map((t) => (t.id === old.id ? task : t)), summary: `Updated ${task.id}.` };
    }
    case "remove": {
      const old = find();
      return { tasks: tasks.filter((t) => t.id !== old.id), summary: `Removed ${old.id}.` };
    }
    case "clear":
      return { tasks: [], summary: `Cleared ${tasks.length} task(s).` };
    case "replace": {
      const given = a.tasks ?? [];
      if (given.length > NOSTR_TASKS_MAX) throw new HaloError("too-large", `at most ${NOSTR_TASKS_MAX} tasks.`);
      const next: Task[] = [];
      for (const g of given)
        next.push({ id: `t${next.length + 1}`, text: text(g.text), status: g.status ?? "pending", updated: nowSeconds });
      return { tasks: next, summary: `Replaced the list with ${next.length} task(s).` };
    }
    default:
      throw new HaloError("invalid", `the action is one of ${TASK_ACTIONS.join(", ")}.`);
  }
}

function nextId(tasks: Task[]): string {
  let max = 0;
  for (const t of tasks) {
    const n = TASK_ID.test(t.id) ? Number(t.id.slice(1)) : 0;
    if (n > max) max = n;
  }
  return `t${max + 1}`;
}

/** The task list as a context block. */
export function tasksBlock(tasks: Task[]): string {
  if (tasks.length === 0) return "The task list is empty.";
  const order: readonly string[] = TASK_STATUSES;
  const sorted = tasks.slice().sort((x, y) => order.indexOf(x.status) - order.indexOf(y.status));
  return `Current tasks (${tasks.length}):\n${sorted.map((t) => `- [${t.status}] ${t.id}: ${t.text}`).join("\n")}`;
}

/** The task list: read and changed on the relays one action at a time (./self-note). */
export class NostrTasks {
  constructor(
    private readonly note: SelfNote,
    private readonly nowSeconds: () => number,
  ) {}

  async list(): Promise<Task[]> {
    return parseTasks((await this.note.read()).text);
  }

  /** Applies one changing action and publishes the list. */
  async apply(a: TaskAction): Promise<{ event: NostrEvent; outcomes: PublishOutcome[]; tasks: Task[]; summary: string }> {
    const r = await this.note.change((current) => {
      const next = applyTaskAction(parseTasks(current), a, this.nowSeconds());
      return { text: toJson({ tasks: next.tasks }), result: next };
    });
    return { event: r.event, outcomes: r.outcomes, ...r.result };
  }
}
