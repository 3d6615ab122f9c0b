// Sub-agent capacity: 4 running, 12 queued, then refusal; FIFO start; terminate while
// queued or running; the per-member cap; busy tells; forgetting the oldest inactive session.
import assert from "node:assert/strict";
import {
  SUBAGENTS_MAX_ACTIVE_PER_MEMBER,
  SUBAGENTS_MAX_KEPT,
  SUBAGENTS_MAX_QUEUED,
  SUBAGENTS_MAX_RUNNING,
} from "../../lib/agents/bounds.ts";
import { agentRig, alice, heldReplies, owner, spawnedId, textReply, until, type AgentRig } from "./support.ts";

describe("sub-agents: capacity", () => {
  let rig: AgentRig;
  afterEach(async () => rig.close());

  /** Answers held requests until nothing runs or waits. */
  async function drain(gate: ReturnType<typeof heldReplies>): Promise<void> {
    for (;;) {
      const { running, queued } = rig.core.agents.capacity();
      if (running === 0 && queued === 0) return;
      await until(() => gate.held() > 0 && gate.held() === rig.core.agents.capacity().running);
      gate.release();
      await until(
        () =>
          rig.core.agents.capacity().running < running ||
          rig.core.agents.capacity().queued < queued ||
          rig.core.agents.capacity().running === 0,
      );
    }
  }

  it("runs 4, queues the 5th to the 16th, refuses the 17th, and starts queued ones in order", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    const gate = heldReplies();
    for (let i = 0; i < 20; i++) rig.servers.openai.reply(gate.hold(textReply("openai", `answer`, `resp_${i}`)));
    const ids: string[] = [];
    for (let i = 0; i < SUBAGENTS_MAX_RUNNING + SUBAGENTS_MAX_QUEUED; i++) {
      const r = await rig.call("session.spawn", { task: `task ${i}` });
      ids.push(spawnedId(r));
      if (i < SUBAGENTS_MAX_RUNNING) assert.match(r.text, /^Started sub-agent/, `spawn ${i + 1}`);
      else
        assert.match(
          r.text,
          new RegExp(
            `^Queued sub-agent ${ids[i]} "agent": 4 are running; it starts when a slot frees \\(${i - 3} of 12 waiting\\)\\. Check it with session\\.poll\\.$`,
          ),
          `spawn ${i + 1}`,
        );
      assert.equal((r.structured as { state: string }).state, i < SUBAGENTS_MAX_RUNNING ? "running" : "queued");
    }
    const refused = await rig.call("session.spawn", { task: "one too many" });
    assert.deepEqual(
      [refused.isError, refused.text],
      [true, "limit: 4 sub-agents are running and 12 are queued; wait for one to finish or terminate one."],
    );
    assert.equal(ids.length, 16);
    await until(() => gate.held() === SUBAGENTS_MAX_RUNNING);
    assert.deepEqual(rig.core.agents.capacity(), { running: 4, queued: 12 });
    assert.match(
      (await rig.call("device.status", {})).text,
      /Sub-agents: sub-agents running 4 of 4; sub-agents queued 12 of 12; your sub-agents 16; routines 0 of 16; wakeups armed 0 of 4; scheduled turns today 0 of 24\n/,
    );

    assert.match(
      (await rig.call("session.tell", { id: ids[1], message: "hurry" })).text,
      /^busy: sub-agent .* is still working on its last message/,
    );
    assert.match((await rig.call("session.tell", { id: ids[9], message: "hurry" })).text, /^busy:/, "a queued one is busy too");
    assert.equal((await rig.call("session.terminate", { id: ids[10] })).text, `Terminated sub-agent ${ids[10]} "agent".`);
    assert.deepEqual(rig.core.agents.capacity(), { running: 4, queued: 11 }, "a queued one leaves the queue at once");
    assert.equal(
      (await rig.call("session.terminate", { id: ids[0] })).text,
      `Terminated sub-agent ${ids[0]} "agent". Its request in flight finishes on its own; its answer is discarded.`,
    );
    assert.equal((await rig.call("session.terminate", { id: ids[0] })).text, `Sub-agent ${ids[0]} was already terminated.`);
    assert.equal(rig.core.agents.capacity().running, 4, "a running request holds its slot until it ends");
    assert.match(
      (await rig.call("session.tell", { id: ids[0], message: "x" })).text,
      /^terminated: sub-agent .* was stopped; spawn a new one\.$/,
    );

    await drain(gate);
    const tasks = rig.servers.openai.seen.map((s) => s.json.input[0].content as string);
    assert.equal(tasks.length, 15, "the terminated queued one never ran");
    assert.deepEqual(
      tasks.slice(4),
      [4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15].map((i) => `task ${i}`),
      "queued ones start first in, first out",
    );
    assert.equal((await rig.call("session.poll", { id: ids[0] })).text, `Sub-agent ${ids[0]} "agent" was terminated before answering.`);
    assert.equal((await rig.call("session.poll", { id: ids[10] })).text, `Sub-agent ${ids[10]} "agent" was terminated before answering.`);
    for (const id of ids.filter((_, i) => i !== 0 && i !== 10))
      assert.match((await rig.call("session.poll", { id })).text, /replied .*\n\nanswer\n/);
  });

  it("holds a member to 4 working sub-agents; the owner is not held to it", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    const gate = heldReplies();
    for (let i = 0; i < 5; i++) rig.servers.openai.reply(gate.hold(textReply("openai", "a")));
    for (let i = 0; i < SUBAGENTS_MAX_ACTIVE_PER_MEMBER; i++) await rig.call("session.spawn", { task: `a${i}` }, alice);
    const refused = await rig.call("session.spawn", { task: "a5" }, alice);
    assert.equal(refused.text, "limit: you have 4 sub-agents working; wait for one to answer or terminate one.");
    assert.match((await rig.call("session.spawn", { task: "owner's" }, owner)).text, /^Queued sub-agent/);
    await drain(gate);
    rig.servers.openai.reply(textReply("openai", "b"));
    assert.match((await rig.call("session.spawn", { task: "a6" }, alice)).text, /^Started sub-agent/, "answered ones no longer count");
    await rig.core.agents.settled();
  });

  it("remembers at most 16 sub-agents, forgetting the least recently active one first", async () => {
    rig = await agentRig({ keyed: ["mistral"] });
    const ids: string[] = [];
    for (let i = 0; i < SUBAGENTS_MAX_KEPT; i++) {
      rig.servers.mistral.reply(textReply("mistral", `r${i}`));
      ids.push(spawnedId(await rig.call("session.spawn", { task: `t${i}` })));
      await rig.core.agents.settled();
      rig.clock.advance(1000);
    }
    rig.servers.mistral.reply(textReply("mistral", "again"), textReply("mistral", "new"));
    await rig.call("session.tell", { id: ids[0], message: "keep me" });
    await rig.core.agents.settled();
    rig.clock.advance(1000);
    const newest = spawnedId(await rig.call("session.spawn", { task: "newest" }));
    await rig.core.agents.settled();
    assert.equal(rig.core.agents.list(owner).length, SUBAGENTS_MAX_KEPT);
    assert.equal(
      (await rig.call("session.poll", { id: ids[1] })).text,
      `not-found: no sub-agent ${ids[1]}.`,
      "the oldest inactive one was forgotten",
    );
    assert.match((await rig.call("session.poll", { id: ids[0] })).text, /again/, "the one told recently stays");
    assert.match((await rig.call("session.poll", { id: newest })).text, /new/);
  });
});
