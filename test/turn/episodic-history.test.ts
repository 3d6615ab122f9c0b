// The episodic history a turn leaves: the person's message, each tool output
// (with its results-ring tag when cut), the reply, or why there was none, in the
// caller's namespace and the channel's session; memory.episodic finds them; a
// pulled card costs the history, never the turn. And the boot row of "system".
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { createHalo } from "../../lib/app/halo.ts";
import { episodicOverStorage } from "../../lib/memory/build.ts";
import type { EpisodicRow } from "../../lib/memory/episodic/format.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { TOOL_OUTPUT_HISTORY_MAX_BYTES } from "../../lib/turn/bounds.ts";
import { answer, openAiAnswer, openAiTools, person, turnRig, type TurnRig } from "./support.ts";

function echoTool(rig: TurnRig): void {
  rig.core.registry.register({
    name: "test.echo",
    description: "Returns size bytes of fill.",
    inputSchema: { type: "object", properties: { size: { type: "integer" }, fill: { type: "string" } }, additionalProperties: false },
    validate: () => true,
    handler: (args) => ({ text: String(args.fill ?? "x").repeat(Number(args.size ?? 1)) }),
  });
}

describe("turn: the episodic history", () => {
  let rig: TurnRig;
  afterEach(async () => rig.close());

  /** Every row of `ns`, oldest first. */
  const rows = (ns: string): EpisodicRow[] => rig.core.episodic!.query({ namespaces: [ns] }, 100).rows.reverse();
  const episodic = async (args: object, p: Principal = person()): Promise<string> =>
    (await rig.core.registry.dispatch("memory.episodic", args, p)).text;

  it("records the message, each tool output and the reply in the caller's namespace and the channel's session", async () => {
    rig = await turnRig();
    echoTool(rig);
    rig.servers.openai.reply(
      openAiTools(
        ["test_echo", '{"size":3,"fill":"ab"}'],
        ["test_echo", '{"size":9000,"fill":"z"}'],
        ["files_read", '{"project":"nope","name":"x.md"}'],
      ),
      openAiAnswer(answer({ reply: "Here is the lighthouse summary.", ask: "Shall I save it?" })),
    );
    const r = await rig.core.turn.runTurn(person(), { text: "Summarise the lighthouse notes", channel: "web" });
    assert.equal(r.ok, true, r.reply);
    const tag = r.toolCalls[1].tag;
    assert.ok(tag && r.toolCalls[1].truncated, "the long output was cut for the model");

    const mine = rows("owner");
    assert.deepEqual(
      mine.map((row) => [row.session, row.role, row.kind]),
      [
        ["web", "user", "message"],
        ["web", "tool", "tool_output"],
        ["web", "tool", "tool_output"],
        ["web", "tool", "tool_output"],
        ["web", "assistant", "llm_response"],
      ],
    );
    assert.equal(mine[0].text, "Summarise the lighthouse notes");
    assert.equal(mine[1].text, "test.echo: ababab");
    assert.ok(mine[2].text.startsWith(`test.echo [results ring tag ${tag}]: zzz`), mine[2].text.slice(0, 80));
    assert.equal(
      Buffer.byteLength(mine[2].text),
      Buffer.byteLength(`test.echo [results ring tag ${tag}]: `) + TOOL_OUTPUT_HISTORY_MAX_BYTES,
      "the output is bounded",
    );
    assert.match(mine[3].text, /^files\.read \(failed\): not-found: /);
    assert.equal(mine[4].text, "Here is the lighthouse summary.\n[ask] Shall I save it?");

    // memory.episodic finds them by kind, session and text, the cut output by its tag.
    assert.match(
      await episodic({ kind: "message", session: "web" }),
      /^- \d{8}-\d{2}:0 \S+ \[web\] user message: Summarise the lighthouse notes$/,
    );
    assert.match(
      await episodic({ kind: "llm_response" }),
      /\[web\] assistant llm_response: Here is the lighthouse summary\. \[ask\] Shall I save it\?$/,
    );
    assert.equal((await episodic({ kind: "tool_output" })).split("\n").length, 3);
    assert.match(await episodic({ text: tag }), new RegExp(`tool tool_output: test\\.echo \\[results ring tag ${tag}\\]: z+…$`));
    assert.equal(await episodic({ session: "telegram" }), "No episodic rows match.");
  });

  it("keeps each person's rows in their own namespace, under the session given or the channel's", async () => {
    rig = await turnRig();
    const alice = person("user", "alice");
    rig.servers.openai.reply(
      openAiAnswer(answer({ reply: "hi alice" })),
      openAiAnswer(answer({ reply: "report" })),
      openAiAnswer(answer({ reply: "plain" })),
    );
    await rig.core.turn.runTurn(alice, { text: "hello from alice", channel: "telegram" });
    await rig.core.turn.runTurn(person(), { text: "routine text", channel: "routine", session: "routine:r0123abcd" });
    await rig.core.turn.runTurn(person(), { text: "no channel" });
    assert.deepEqual(
      rows("alice").map((row) => [row.session, row.kind, row.text]),
      [
        ["telegram", "message", "hello from alice"],
        ["telegram", "llm_response", "hi alice"],
      ],
    );
    assert.deepEqual(
      rows("owner").map((row) => row.session),
      ["routine:r0123abcd", "routine:r0123abcd", "turn", "turn"],
    );
    assert.equal(
      await episodic({ text: "alice" }),
      "No episodic rows match.",
      "the owner's own history does not show another person's rows",
    );
    assert.equal(await episodic({ text: "routine text" }, alice), "No episodic rows match.");
    assert.match(await episodic({ session: "telegram" }, alice), /hi alice/);
    for (const session of ["", "has space", "x".repeat(65), "slash/no"]) {
      assert.match((await rig.core.turn.runTurn(person(), { text: "x", session })).reply, /^invalid: the session is 1-64 of/);
    }
    assert.equal(rows("owner").length, 4, "a refused turn records nothing");
  });

  it("records a failed turn's message and why it failed", async () => {
    rig = await turnRig({ keys: [] });
    const r = await rig.core.turn.runTurn(person(), { text: "anyone there?", channel: "voice" });
    assert.equal(r.failure?.kind, "no-provider");
    assert.deepEqual(
      rows("owner").map((row) => [row.session, row.role, row.kind, row.text.slice(0, 60)]),
      [
        ["voice", "user", "message", "anyone there?"],
        ["voice", "system", "log", "turn failed (no-provider): No language-model key is set yet,"],
      ],
    );
    rig.core.secrets.set("openai", "sk-test-openai-KEYVALUE");
    rig.servers.openai.reply({
      status: 401,
      body: { error: { message: "Incorrect API key provided: sk-test-openai-KEYVALUE", type: "invalid_request_error" } },
    });
    const refused = await rig.core.turn.runTurn(person(), { text: "again", channel: "voice" });
    assert.equal(refused.ok, false);
    const last = rows("owner").pop()!;
    assert.match(last.text, /^turn failed \(provider\): /);
    assert.ok(!last.text.includes("KEYVALUE"), "a provider's error body is not copied into the history");
  });

  it("never fails a turn over a pulled card: one short log line, and recording resumes when it is back", async () => {
    rig = await turnRig();
    echoTool(rig);
    rig.servers.openai.reply(openAiAnswer(answer({ reply: "first" })));
    await rig.core.turn.runTurn(person(), { text: "before the pull" });
    rig.storage.pull();
    rig.servers.openai.reply(openAiTools(["test_echo", '{"size":2}']), openAiAnswer(answer({ reply: "still answering" })));
    const during = await rig.core.turn.runTurn(person(), { text: "while the card is out" });
    assert.deepEqual([during.ok, during.reply], [true, "still answering"]);
    const warnings = rig.log.lines.filter((l) => l.startsWith("warning: episodic: "));
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(
      warnings[0],
      /^warning: episodic: a row was not recorded \(no-card: .{1,81}\); later failures are not logged until one succeeds$/,
    );
    rig.storage.insert();
    rig.servers.openai.reply(openAiAnswer(answer({ reply: "back" })));
    await rig.core.turn.runTurn(person(), { text: "after the insert" });
    assert.ok(rig.log.lines.includes("episodic: recording again"));
    assert.deepEqual(
      rows("owner").map((row) => row.text),
      ["before the pull", "first", "after the insert", "back"],
    );
  });
});

describe("device events: the boot row", () => {
  it("records each boot in session system, read by admins only; a card out at boot skips it quietly", async () => {
    const clock = fakeClock(Date.UTC(2026, 2, 1, 8, 0));
    const storage = memoryStorage();
    const log = memoryLog();
    const boot = () => {
      const ports = memoryPorts({ clock, storage, log });
      return createHalo({ ports, firmwareVersion: "9.9.9-test", hostRoutes: [], core: { episodic: episodicOverStorage(ports) } });
    };
    const first = boot();
    const read = async (p: Principal): Promise<string> =>
      (await first.core.registry.dispatch("memory.episodic", { session: "system" }, p)).text;
    assert.match(
      await read(person()),
      /^- \d{8}-00:0 2026-03-01T08:00:00Z \[system\] device log: boot: firmware 9\.9\.9-test, .*reset reason [^,]+$/,
    );
    assert.equal(await read(person("user", "alice")), "No episodic rows match.");
    storage.pull();
    clock.advance(60_000);
    const second = boot();
    assert.ok(second.core.registry.has("memory.episodic"));
    assert.equal(log.lines.filter((l) => l.startsWith("warning: episodic: a row was not recorded (no-card")).length, 1);
    storage.insert();
    clock.advance(60_000);
    const third = boot();
    const lines = (await third.core.registry.dispatch("memory.episodic", { session: "system" }, person())).text.split("\n");
    assert.equal(lines.length, 2, "two boots recorded, the one with the card out skipped");
    assert.match(lines[0], /2026-03-01T08:02:00Z/);
  });
});
