// Every session.*, wakeup.set and loop.* tool refuses bad input with one clear sentence,
// starts nothing, sends nothing and stores nothing.
import assert from "node:assert/strict";
import { agentRig, owner, type AgentRig } from "./support.ts";

const long = (n: number): string => "x".repeat(n);
const schedule = { kind: "daily", at: "08:00" };

const cases: Array<[string, unknown, RegExp]> = [
  ["session.spawn", {}, /^invalid arguments: 'task' is required\.$/],
  ["session.spawn", { task: 5 }, /'task' must be string/],
  ["session.spawn", { task: "" }, /'task' must NOT have fewer than 1 characters/],
  ["session.spawn", { task: "  \n " }, /^invalid arguments: the task is empty\.$/],
  ["session.spawn", { task: long(8001) }, /'task' must NOT have more than 8000 characters/],
  ["session.spawn", { task: "t", provider: "gemini" }, /'provider' must be one of openai, anthropic, mistral/],
  ["session.spawn", { task: "t", provider: null }, /'provider' must be string/],
  ["session.spawn", { task: "t", model: "bad model!" }, /'model' must match pattern/],
  ["session.spawn", { task: "t", model: long(65) }, /'model'/],
  ["session.spawn", { task: "t", skill: "Bad Skill" }, /'skill' must match pattern/],
  ["session.spawn", { task: "t", name: "-dash" }, /'name' must match pattern/],
  ["session.spawn", { task: "t", name: long(41) }, /'name'/],
  ["session.spawn", { task: "t", project: "Upper" }, /'project' must match pattern/],
  ["session.spawn", { task: "t", project: "con" }, /^invalid arguments: invalid project: that name is reserved/],
  ["session.spawn", { task: "t", attach: ["a/1.md", "a/2.md", "a/3.md", "a/4.md", "a/5.md"] }, /'attach' must NOT have more than 4 items/],
  ["session.spawn", { task: "t", attach: ["noslash"] }, /'attach.0' must match pattern/],
  ["session.spawn", { task: "t", attach: ["a/b/c.md"] }, /'attach.0' must match pattern/],
  ["session.spawn", { task: "t", attach: [5] }, /'attach.0' must be string/],
  ["session.spawn", { task: "t", attach: "a/b.md" }, /'attach' must be array/],
  ["session.spawn", { task: "t", attach: ["a/..x.md"] }, /^invalid name: paths/],
  ["session.spawn", { task: "t", tools: ["memory.search"] }, /unknown argument 'tools'/],
  ["session.spawn", ["t"], /arguments must be an object/],
  ["session.list", { all: true }, /unknown argument 'all'/],
  ["session.terminate", {}, /'id' is required/],
  ["session.terminate", { id: "" }, /'id' must NOT have fewer than 1 characters/],
  ["session.terminate", { id: 5 }, /'id' must be string/],
  ["session.terminate", { id: long(17) }, /'id' must NOT have more than 16 characters/],
  ["session.terminate", { id: "sa12345678" }, /^not-found: no sub-agent sa12345678\.$/],
  ["session.tell", { id: "sa12345678" }, /'message' is required/],
  ["session.tell", { message: "hi" }, /'id' is required/],
  ["session.tell", { id: "sa12345678", message: "" }, /'message'/],
  ["session.tell", { id: "sa12345678", message: " " }, /^invalid arguments: the message is empty\.$/],
  ["session.tell", { id: "sa12345678", message: long(4001) }, /'message' must NOT have more than 4000 characters/],
  ["session.tell", { id: "sa12345678", message: "hi" }, /^not-found: no sub-agent sa12345678\.$/],
  ["session.poll", {}, /'id' is required/],
  ["session.poll", { id: null }, /'id' must be string/],
  ["session.poll", { id: "sa12345678", extra: 1 }, /unknown argument 'extra'/],
  ["session.poll", { id: "nope" }, /^not-found: no sub-agent nope\.$/],
  ["wakeup.set", {}, /'minutes' is required/],
  ["wakeup.set", { minutes: 5 }, /'note' is required/],
  ["wakeup.set", { minutes: "5", note: "n" }, /'minutes' must be integer/],
  ["wakeup.set", { minutes: 1, note: "n" }, /'minutes' must be >= 2/],
  ["wakeup.set", { minutes: 10081, note: "n" }, /'minutes' must be <= 10080/],
  ["wakeup.set", { minutes: 2.5, note: "n" }, /'minutes' must be integer/],
  ["wakeup.set", { minutes: Number.NaN, note: "n" }, /'minutes'/],
  ["wakeup.set", { minutes: Number.POSITIVE_INFINITY, note: "n" }, /'minutes'/],
  ["wakeup.set", { minutes: 5, note: "" }, /'note' must NOT have fewer than 1 characters/],
  ["wakeup.set", { minutes: 5, note: "  " }, /^invalid arguments: note is empty\.$/],
  ["wakeup.set", { minutes: 5, note: long(1001) }, /'note' must NOT have more than 1000 characters/],
  ["wakeup.set", { minutes: 5, note: "bell\u0007" }, /^invalid arguments: note contains control characters\.$/],
  ["wakeup.set", { minutes: 5, note: "n", repeat: true }, /unknown argument 'repeat'/],
  ["loop.create", { prompt: "p", schedule }, /'name' is required/],
  ["loop.create", { name: "n", schedule }, /'prompt' is required/],
  ["loop.create", { name: "n", prompt: "p" }, /'schedule' is required/],
  ["loop.create", { name: "n", prompt: "p", schedule: "daily" }, /'schedule' must be object/],
  ["loop.create", { name: "n", prompt: "p", schedule: {} }, /'kind' is required/],
  ["loop.create", { name: "n", prompt: "p", schedule: { kind: "hourly" } }, /'schedule.kind' must be one of interval, daily, weekly/],
  ["loop.create", { name: "n", prompt: "p", schedule: { ...schedule, tz: "UTC" } }, /unknown argument 'tz'/],
  [
    "loop.create",
    { name: "n", prompt: "p", schedule: { kind: "interval", every_seconds: 299 } },
    /'schedule.every_seconds' must be >= 300/,
  ],
  ["loop.create", { name: "n", prompt: "p", schedule: { kind: "interval", every_seconds: Number.NaN } }, /every_seconds/],
  [
    "loop.create",
    { name: "n", prompt: "p", schedule: { kind: "interval" } },
    /^invalid arguments: an interval schedule needs every_seconds/,
  ],
  ["loop.create", { name: "n", prompt: "p", schedule: { kind: "daily", at: "8:00" } }, /'schedule.at'/],
  ["loop.create", { name: "n", prompt: "p", schedule: { kind: "daily", at: "25:00" } }, /'schedule.at' must match pattern/],
  [
    "loop.create",
    { name: "n", prompt: "p", schedule: { kind: "weekly", at: "08:00" } },
    /^invalid arguments: a weekly schedule needs days/,
  ],
  [
    "loop.create",
    { name: "n", prompt: "p", schedule: { kind: "weekly", at: "08:00", days: ["mon", "funday"] } },
    /'schedule.days.1' must be one of sun, mon/,
  ],
  [
    "loop.create",
    { name: "n", prompt: "p", schedule: { kind: "weekly", at: "08:00", days: [] } },
    /'schedule.days' must NOT have fewer than 1 items/,
  ],
  [
    "loop.create",
    { name: "n", prompt: "p", schedule: { kind: "weekly", at: "08:00", days: Array(8).fill("mon") } },
    /'schedule.days' must NOT have more than 7 items/,
  ],
  [
    "loop.create",
    { name: "n", prompt: "p", schedule: { kind: "daily", at: "08:00", every_seconds: 600 } },
    /^invalid arguments: a daily schedule takes at/,
  ],
  ["loop.create", { name: long(61), prompt: "p", schedule }, /'name' must NOT have more than 60 characters/],
  ["loop.create", { name: " ", prompt: "p", schedule }, /^invalid arguments: name is empty\.$/],
  ["loop.create", { name: "n", prompt: long(1001), schedule }, /'prompt' must NOT have more than 1000 characters/],
  ["loop.create", { name: "n", prompt: "a\u0000b", schedule }, /^invalid arguments: prompt contains control characters\.$/],
  ["loop.create", { name: "n", prompt: "p", schedule, chat_id: "" }, /'chat_id'/],
  ["loop.create", { name: "n", prompt: "p", schedule, chat_id: long(65) }, /'chat_id' must NOT have more than 64 characters/],
  ["loop.create", { name: "n", prompt: "p", schedule, chat_id: "12345" }, /^not-allowed: chat_id is not on the owner's chat allow-list\.$/],
  ["loop.list", { verbose: true }, /unknown argument 'verbose'/],
  ["loop.cancel", {}, /'id' is required/],
  ["loop.cancel", { id: 7 }, /'id' must be string/],
  ["loop.cancel", { id: long(17) }, /'id' must NOT have more than 16 characters/],
  ["loop.cancel", { id: "r00000000" }, /^not-found: no routine or wakeup r00000000\.$/],
];

describe("sub-agent and routine tools: bad input", () => {
  let rig: AgentRig;
  before(async () => {
    rig = await agentRig({ keyed: ["openai"] });
  });
  after(async () => rig.close());

  for (const [tool, args, expected] of cases) {
    it(`${tool} ${JSON.stringify(args, (_k, v) => (typeof v === "string" && v.length > 20 ? `${v.length} chars` : v))}`, async () => {
      const r = await rig.call(tool, args, owner);
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, expected);
      assert.ok(r.text.length < 240, "one short sentence");
    });
  }

  it("started, sent and stored nothing", () => {
    assert.equal(rig.core.agents.list(owner).length, 0);
    assert.equal(rig.servers.openai.seen.length, 0);
    assert.equal(rig.core.routines.list().length, 0);
  });
});
