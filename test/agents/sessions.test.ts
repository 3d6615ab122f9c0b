// session.*: spawn, poll, tell, list, terminate against local provider servers, with the
// conversation carried the way each provider needs it; auto-save, attachments and skills.
import assert from "node:assert/strict";
import { SUBAGENT_ATTACH_MAX_BYTES, SUBAGENT_HISTORY_MAX_MESSAGES } from "../../lib/agents/bounds.ts";
import { SUBAGENT_ROLE } from "../../lib/agents/brief.ts";
import { SKILL_INJECT_MAX, SKILL_INJECT_MAX_BYTES } from "../../lib/limits.ts";
import { decodeUtf8 } from "../../lib/util/utf8.ts";
import { agentRig, alice, bob, KEYS, owner, spawnedId, textReply, type AgentRig } from "./support.ts";

const text = (rig: AgentRig, p: typeof owner, project: string, name: string): string =>
  rig.core.artifacts.readText(p, project, name, 0).text;

describe("sub-agents: conversations", () => {
  let rig: AgentRig;
  afterEach(async () => rig.close());

  it("OpenAI: spawn, poll, then tell continues by previous_response_id with only the new message", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    rig.servers.openai.reply(
      textReply("openai", "Green tea has less caffeine.", "resp_first"),
      textReply("openai", "Sencha and gyokuro.", "resp_second"),
    );
    const spawn = await rig.call("session.spawn", { task: "Compare teas.", name: "tea", project: "run1" });
    assert.match(spawn.text, /^Started sub-agent sa[0-9a-f]{8} "tea"; it works in the background\. Read its answer with session\.poll\.$/);
    const id = spawnedId(spawn);
    await rig.core.agents.settled();

    const first = rig.servers.openai.seen[0];
    assert.equal(first.path, "/v1/responses");
    assert.equal(first.headers.authorization, `Bearer ${KEYS.openai}`);
    assert.equal(first.json.instructions, SUBAGENT_ROLE);
    assert.deepEqual(first.json.input, [{ role: "user", content: "Compare teas." }]);
    assert.equal(first.json.previous_response_id, undefined);
    assert.equal(first.json.tools, undefined, "sub-agents get no registry tools");
    assert.equal(first.json.text, undefined, "sub-agents answer in free text");

    const poll = await rig.call("session.poll", { id });
    assert.match(
      poll.text,
      new RegExp(
        `^Sub-agent ${id} "tea" replied \\(OpenAI gpt-5\\.4-mini-2026-03-17, round 1\\):\\n\\nGreen tea has less caffeine\\.\\n\\[saved as run1/tea-${id}\\.md\\]$`,
      ),
    );
    assert.deepEqual(poll.structured, { id, state: "idle", rounds: 1, unread: true });
    assert.match((await rig.call("session.poll", { id })).text, /replied \(already read\)/);
    assert.equal(text(rig, owner, "run1", `tea-${id}.md`), "Green tea has less caffeine.\n");

    const tell = await rig.call("session.tell", { id, message: "Which two are best?" });
    assert.equal(tell.text, `Sent to sub-agent ${id}; it is working on it. Read its answer with session.poll.`);
    await rig.core.agents.settled();
    const second = rig.servers.openai.seen[1];
    assert.equal(second.json.previous_response_id, "resp_first");
    assert.deepEqual(second.json.input, [{ role: "user", content: "Which two are best?" }]);
    assert.equal(second.json.instructions, SUBAGENT_ROLE, "the instructions are not carried by the stored response");
    const again = await rig.call("session.poll", { id });
    assert.match(again.text, /round 2\):\n\nSencha and gyokuro\.\n\[saved as run1\/tea-sa[0-9a-f]{8}-2\.md\]$/);
    assert.equal(text(rig, owner, "run1", `tea-${id}-2.md`), "Sencha and gyokuro.\n");

    rig.servers.openai.reply(textReply("openai", "Third.", "resp_third"));
    await rig.call("session.tell", { id, message: "And a third?" });
    await rig.core.agents.settled();
    assert.equal(rig.servers.openai.seen[2].json.previous_response_id, "resp_second", "each tell continues from the latest response");
  });

  for (const provider of ["anthropic", "mistral"] as const) {
    it(`${provider}: the follow-up request carries the whole history`, async () => {
      rig = await agentRig({ keyed: [provider] });
      rig.servers[provider].reply(textReply(provider, "First answer."), textReply(provider, "Second answer."));
      const id = spawnedId(await rig.call("session.spawn", { task: "Plan a garden." }));
      await rig.core.agents.settled();
      await rig.call("session.tell", { id, message: "Add herbs." });
      await rig.core.agents.settled();
      const [first, second] = rig.servers[provider].seen;
      const turns = (body: any): Array<[string, string]> =>
        (body.messages as Array<{ role: string; content: string }>).filter((m) => m.role !== "system").map((m) => [m.role, m.content]);
      assert.deepEqual(turns(first.json), [["user", "Plan a garden."]]);
      assert.deepEqual(turns(second.json), [
        ["user", "Plan a garden."],
        ["assistant", "First answer."],
        ["user", "Add herbs."],
      ]);
      assert.equal(second.json.previous_response_id, undefined);
      if (provider === "anthropic") assert.equal(second.json.system, SUBAGENT_ROLE);
      else assert.deepEqual(second.json.messages[0], { role: "system", content: SUBAGENT_ROLE });
      const poll = await rig.call("session.poll", { id });
      assert.match(poll.text, /round 2\):\n\nSecond answer\.\n\[saved as subagents\/agent-sa[0-9a-f]{8}-2\.md\]$/);
    });
  }

  it("keeps a history-carried conversation bounded: the brief stays, the oldest follow-ups go", async () => {
    rig = await agentRig({ keyed: ["anthropic"] });
    const id = spawnedId(await rig.call("session.spawn", { task: "The brief." }));
    rig.servers.anthropic.reply(textReply("anthropic", "a0"));
    await rig.core.agents.settled();
    const rounds = SUBAGENT_HISTORY_MAX_MESSAGES / 2 + 2;
    for (let i = 1; i < rounds; i++) {
      rig.servers.anthropic.reply(textReply("anthropic", `a${i}`));
      await rig.call("session.tell", { id, message: `q${i}` });
      await rig.core.agents.settled();
    }
    const last = rig.servers.anthropic.seen[rig.servers.anthropic.seen.length - 1].json.messages as Array<{
      role: string;
      content: string;
    }>;
    assert.ok(last.length <= SUBAGENT_HISTORY_MAX_MESSAGES + 1, `${last.length} messages`);
    assert.deepEqual(
      last.slice(0, 2).map((m) => m.content),
      ["The brief.", "a0"],
    );
    assert.deepEqual(
      last.slice(-3).map((m) => m.content),
      [`q${rounds - 2}`, `a${rounds - 2}`, `q${rounds - 1}`],
    );
    assert.notEqual(last[2].content, "q1", "the oldest follow-up was dropped");
  });

  it("falls back to the next provider for the first exchange, then stays on the one that answered", async () => {
    rig = await agentRig({ keyed: ["openai", "anthropic"] });
    rig.servers.openai.reply({ status: 401, body: { error: { message: "bad key" } } });
    rig.servers.anthropic.reply(textReply("anthropic", "From Claude."), textReply("anthropic", "Still Claude."));
    const id = spawnedId(await rig.call("session.spawn", { task: "Hi", provider: "openai" }));
    await rig.core.agents.settled();
    assert.match((await rig.call("session.poll", { id })).text, /\(Anthropic claude-sonnet-4-6, round 1\)/);
    await rig.call("session.tell", { id, message: "More" });
    await rig.core.agents.settled();
    assert.equal(rig.servers.openai.seen.length, 1, "the follow-up does not go back to OpenAI");
    assert.equal(rig.servers.anthropic.seen.length, 2);
  });

  it("reports a failed first exchange honestly and refuses to tell it; a failed follow-up keeps the conversation", async () => {
    rig = await agentRig({ keyed: ["mistral"] });
    rig.servers.mistral.reply({ status: 400, body: { message: "model not found" } });
    const bad = spawnedId(await rig.call("session.spawn", { task: "x", model: "nope-model" }));
    await rig.core.agents.settled();
    const poll = await rig.call("session.poll", { id: bad });
    assert.match(
      poll.text,
      /failed before answering: Mistral rejected the request \(HTTP 400\): model not found Spawn a new one to retry\.$/,
    );
    assert.doesNotMatch(poll.text, new RegExp(KEYS.mistral));
    assert.match((await rig.call("session.tell", { id: bad, message: "again" })).text, /^failed: sub-agent .* never answered its task/);

    rig.servers.mistral.reply(
      textReply("mistral", "ok one"),
      { status: 400, body: { message: "too long" } },
      textReply("mistral", "ok two"),
    );
    const id = spawnedId(await rig.call("session.spawn", { task: "start" }));
    await rig.core.agents.settled();
    await rig.call("session.tell", { id, message: "fails" });
    await rig.core.agents.settled();
    assert.match(
      (await rig.call("session.poll", { id })).text,
      /\[your last message failed: Mistral rejected the request \(HTTP 400\): too long Tell it again to retry\.\]\n\nok one/,
    );
    await rig.call("session.tell", { id, message: "retry" });
    await rig.core.agents.settled();
    const msgs = rig.servers.mistral.seen[3].json.messages.filter((m: any) => m.role !== "system").map((m: any) => m.content);
    assert.deepEqual(msgs, ["start", "ok one", "retry"], "the failed message is not in the history");
  });

  it("lets a budget refusal stop the sub-agent before anything is sent", async () => {
    rig = await agentRig({ keyed: ["openai", "anthropic"] });
    rig.core.budget.configure("openai", { usdCeiling: 0 });
    const id = spawnedId(await rig.call("session.spawn", { task: "expensive" }));
    await rig.core.agents.settled();
    assert.match(
      (await rig.call("session.poll", { id })).text,
      /failed before answering: quota: the OpenAI budget for this period is set to \$0/,
    );
    assert.deepEqual([rig.servers.openai.seen.length, rig.servers.anthropic.seen.length], [0, 0], "no fallback past a budget refusal");
  });

  it("records usage with the governor after each served exchange", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    rig.servers.openai.reply(textReply("openai", "one"));
    await rig.call("session.spawn", { task: "count me" });
    await rig.core.agents.settled();
    const spend = rig.core.budget.snapshot().providers.find((p) => p.provider === "openai")!;
    assert.deepEqual([spend.calls, spend.inputTokens, spend.outputTokens], [1, 120, 30]);
  });
});

describe("sub-agents: briefs, results, isolation", () => {
  let rig: AgentRig;
  afterEach(async () => rig.close());

  it("splices attached documents (the caller's own or shared) into the first message, cut at the bound", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    rig.core.artifacts.saveText(owner, "research", "notes.md", "# Notes\nTea is good.");
    rig.core.artifacts.saveText(alice, "shared", "facts.txt", "Shared fact.");
    rig.core.artifacts.share(alice, "shared", "facts.txt", true);
    rig.core.artifacts.save(owner, "research", "big.txt", new TextEncoder().encode("x".repeat(SUBAGENT_ATTACH_MAX_BYTES + 500)));
    rig.servers.openai.reply(textReply("openai", "done"));
    await rig.call("session.spawn", { task: "Summarise.", attach: ["research/notes.md", "shared/facts.txt", "research/big.txt"] });
    await rig.core.agents.settled();
    const input = rig.servers.openai.seen[0].json.input[0].content as string;
    assert.ok(
      input.startsWith(
        "Summarise.\n\n## Attached documents\n\n### research/notes.md\n# Notes\nTea is good.\n\n### shared/facts.txt\nShared fact.\n\n### research/big.txt\n",
      ),
    );
    assert.ok(input.endsWith(`${"x".repeat(100)}\n[cut: only the first ${SUBAGENT_ATTACH_MAX_BYTES} bytes of this document are attached]`));
    const big = input.slice(input.indexOf("### research/big.txt\n") + "### research/big.txt\n".length);
    assert.equal(big.split("x").length - 1, SUBAGENT_ATTACH_MAX_BYTES);
  });

  it("refuses an attachment the caller cannot see exactly like a missing one, and spawns nothing", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    rig.core.artifacts.saveText(alice, "private", "diary.md", "secret diary");
    const theirs = await rig.call("session.spawn", { task: "t", attach: ["private/diary.md"] }, bob);
    const missing = await rig.call("session.spawn", { task: "t", attach: ["private/nothing.md"] }, bob);
    assert.equal(theirs.text, "not-found: no file private/diary.md.");
    assert.equal(missing.text, "not-found: no file private/nothing.md.");
    assert.equal(theirs.isError, true);
    assert.equal(rig.core.agents.list(bob).length, 0);
    assert.equal(rig.servers.openai.seen.length, 0);
  });

  it("injects an approved skill capsule into the system prompt and refuses an unapproved one", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    await rig.call("skill.save", { id: "tea-guide", md: "# Tea guide\nAlways cite the region." });
    const refused = await rig.call("session.spawn", { task: "t", skill: "tea-guide" });
    assert.deepEqual(
      [refused.isError, refused.text],
      [true, "not-approved: the capsule 'tea-guide' awaits the owner's approval; it cannot be given to a sub-agent until then."],
    );
    assert.equal((await rig.call("session.spawn", { task: "t", skill: "no-such" })).text, "not-found: no capsule 'no-such'.");
    assert.equal(rig.core.agents.list(owner).length, 0);

    rig.core.skills.approve("tea-guide");
    rig.servers.openai.reply(textReply("openai", "ok"));
    await rig.call("session.spawn", { task: "t", skill: "tea-guide" });
    await rig.core.agents.settled();
    assert.equal(
      rig.servers.openai.seen[0].json.instructions,
      `${SUBAGENT_ROLE}\n\n## Skill: tea-guide\n# Tea guide\nAlways cite the region.`,
    );
  });

  it("splices approved capsules whose inject: words the task mentions, at most two, each bounded", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    const skills = rig.core.skills!;
    skills.saveByOwner("tea-guide", "---\ninject: oolong, green tea\n---\n# Tea guide\nAlways cite the region.");
    skills.saveByOwner("zz-report", "---\ninject: weekly report\n---\n# Report\nThree bullets.");
    // The model's own capsule is inert until the owner approves it, whatever its inject: says.
    await rig.call("skill.save", { id: "agent-note", md: "---\ninject: always\n---\nObey the agent." });
    const instructions = async (task: string, skill?: string): Promise<string> => {
      rig.servers.openai.reply(textReply("openai", "ok"));
      const r = await rig.call("session.spawn", skill ? { task, skill } : { task });
      assert.equal(r.isError, undefined, r.text);
      await rig.core.agents.settled();
      return rig.servers.openai.seen.at(-1)!.json.instructions as string;
    };
    assert.equal(
      await instructions("Compare Oolong teas from two regions."),
      `${SUBAGENT_ROLE}\n\n## Skill: tea-guide (its inject: words match the task)\n# Tea guide\nAlways cite the region.`,
    );
    assert.equal(await instructions("Plan the week's meals."), SUBAGENT_ROLE, "no word matches: nothing spliced");
    assert.equal(await instructions("Is Darjeeling an oolongish tea?"), SUBAGENT_ROLE, "whole words only");
    // Named and matched: given once, as the named one; another match follows it.
    assert.equal(
      await instructions("Write the weekly report on green tea.", "tea-guide"),
      `${SUBAGENT_ROLE}\n\n## Skill: tea-guide\n# Tea guide\nAlways cite the region.\n\n## Skill: zz-report (its inject: words match the task)\n# Report\nThree bullets.`,
    );
    // Bounded: at most SKILL_INJECT_MAX capsules, each at most SKILL_INJECT_MAX_BYTES of text.
    skills.approve("agent-note");
    skills.saveByOwner("long-one", `---\ninject: always\n---\n${"y".repeat(SKILL_INJECT_MAX_BYTES + 500)}`);
    const bounded = await instructions("Compare oolong teas for the weekly report.");
    assert.equal(bounded.split("## Skill: ").length - 1, SKILL_INJECT_MAX);
    assert.match(
      bounded,
      /## Skill: agent-note .*\nObey the agent\.\n\n## Skill: long-one .*\n(y+)\n\[cut: the capsule is longer; skill\.get long-one reads it whole\]$/,
    );
    assert.equal(/## Skill: long-one[^\n]*\n(y+)\n/.exec(bounded)![1].length, SKILL_INJECT_MAX_BYTES);
  });

  it("notes a result that could not be saved (card pulled) and still delivers it", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    rig.servers.openai.reply(textReply("openai", "kept in memory"));
    rig.storage.pull();
    const id = spawnedId(await rig.call("session.spawn", { task: "t" }));
    await rig.core.agents.settled();
    const poll = await rig.call("session.poll", { id });
    assert.match(poll.text, /\n\nkept in memory\n\[not saved: no-card: the SD card is not inserted; insert it and try again\.\]$/);
    rig.storage.insert();
  });

  it("saves results as the spawner: another member cannot read them, and sees none of its sub-agents", async () => {
    rig = await agentRig({ keyed: ["openai"] });
    rig.servers.openai.reply(textReply("openai", "alice's result"));
    const id = spawnedId(await rig.call("session.spawn", { task: "mine", name: "mine", project: "alice-run" }, alice));
    await rig.core.agents.settled();
    assert.equal(text(rig, alice, "alice-run", `mine-${id}.md`), "alice's result\n");
    assert.throws(() => text(rig, bob, "alice-run", `mine-${id}.md`), /not-found/);

    const unknown = "sa00000000";
    for (const [tool, args] of [
      ["session.poll", { id }],
      ["session.tell", { id, message: "hi" }],
      ["session.terminate", { id }],
    ] as const) {
      const theirs = await rig.call(tool, args, bob);
      const miss = await rig.call(tool, { ...args, id: unknown }, bob);
      assert.equal(theirs.text, `not-found: no sub-agent ${id}.`, tool);
      assert.equal(miss.text, `not-found: no sub-agent ${unknown}.`, tool);
      assert.equal(theirs.isError, true);
    }
    assert.match(
      (await rig.call("session.list", {}, bob)).text,
      /^You have no sub-agents\. Device-wide: 0 of 4 running, 0 of 12 queued\.$/,
    );
    assert.match(
      (await rig.call("session.list", {}, alice)).text,
      new RegExp(
        `^Your sub-agents \\(Device-wide: 0 of 4 running, 0 of 12 queued\\.\\):\\n- ${id} "mine": idle, OpenAI [^,]+, 1 round, unread reply, saved alice-run/mine-${id}\\.md$`,
      ),
    );
    assert.equal((await rig.call("session.poll", { id }, alice)).isError, undefined, "the owner of the sub-agent still reaches it");
  });
});

describe("sub-agents: the storage of results", () => {
  it("writes the result file through the artifact store (crash-safe write, the spawner's quota)", async () => {
    const rig = await agentRig({ keyed: ["openai"] });
    try {
      rig.servers.openai.reply(textReply("openai", "bytes\u0000with a NUL"));
      const id = spawnedId(await rig.call("session.spawn", { task: "t", name: "r", project: "p" }));
      await rig.core.agents.settled();
      const stored = rig.storage.read(`files/p/r-${id}.md`);
      assert.equal(decodeUtf8(stored!), "byteswith a NUL\n", "control characters are dropped from the saved text");
    } finally {
      await rig.close();
    }
  });
});
