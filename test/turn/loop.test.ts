// The tool loop inside a turn: registry dispatch (via "turn"), continuation,
// the round cap (owner knob), calls per round, the per-result and total clamps
// with overflow in the results ring, hidden/unknown tools, the deadline.
import assert from "node:assert/strict";
import { RESULT_CLAMP_BYTES } from "../../lib/limits.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { TOOL_CALLS_PER_ROUND_MAX, TOOL_RESULTS_TOTAL_MAX_BYTES, TURN_DEADLINE_MS } from "../../lib/turn/bounds.ts";
import { answer, openAiAnswer, openAiTools, person, turnRig, type TurnRig } from "./support.ts";

/** Registers `test.echo` (returns `size` bytes of `fill`) on the rig's registry; returns the principals it saw. */
function echoTool(rig: TurnRig, onCall?: () => void): Principal[] {
  const seen: Principal[] = [];
  rig.core.registry.register(
    {
      name: "test.echo",
      needs: [],
      description: "Returns size bytes of fill.",
      inputSchema: { type: "object", properties: { size: { type: "integer" }, fill: { type: "string" } }, additionalProperties: false },
      validate: () => true,
      handler: (args, ctx) => {
        seen.push(ctx.principal);
        onCall?.();
        return { text: String(args.fill ?? "x").repeat(Number(args.size ?? 1)) };
      },
    },
    {},
  );
  return seen;
}

const bytes = (s: string): number => Buffer.byteLength(s, "utf8");
/** The function_call_output items of an OpenAI request. */
const outputs = (json: any): Array<{ call_id: string; output: string }> => json.input.filter((i: any) => i.type === "function_call_output");

describe("turn: the tool loop", () => {
  let rig: TurnRig;
  beforeEach(async () => {
    rig = await turnRig();
  });
  afterEach(async () => {
    await rig.close();
  });

  it("runs the model's tool calls through the registry as a turn and continues the response by id", async () => {
    const seen = echoTool(rig);
    const openai = rig.servers.openai;
    const calls = openAiTools(["test_echo", '{"size":3,"fill":"ab"}'], ["docs_search", '{"query":"device"}']);
    openai.reply(calls, openAiAnswer(answer({ reply: "done" })));
    const r = await rig.core.turn.runTurn(person(), { text: "use tools" });
    assert.equal(r.ok, true, r.reply);
    assert.equal(r.rounds, 1);
    assert.deepEqual(
      r.toolCalls.map((c) => [c.round, c.name, c.ok]),
      [
        [1, "test.echo", true],
        [1, "docs.search", true],
      ],
    );
    assert.equal(seen[0].via, "turn");
    assert.equal(seen[0].ns, "owner");
    const second = openai.seen[1].json;
    assert.equal(second.previous_response_id, (calls.body as { id: string }).id);
    // Only the new items go with a continuation: the two results, under the call ids the model gave.
    const callIds = (calls.body as { output: any[] }).output.filter((o) => o.type === "function_call").map((o) => o.call_id);
    assert.deepEqual(
      outputs(second).map((o) => o.call_id),
      callIds,
    );
    assert.equal(second.input.length, 2);
    assert.equal(outputs(second)[0].output, "ababab");
  });

  it("stops running tools at the owner's round cap and asks for the answer", async () => {
    assert.equal(rig.core.config.apply([["toolLoopRounds", 2]], "owner"), undefined);
    let calls = 0;
    echoTool(rig, () => calls++);
    const openai = rig.servers.openai;
    const call = (): { body: object } => openAiTools(["test_echo", '{"size":1}']);
    openai.reply(call(), call(), call(), openAiAnswer(answer({ reply: "final" })));
    const r = await rig.core.turn.runTurn(person(), { text: "loop" });
    assert.equal(r.ok, true);
    assert.equal(r.reply, "final");
    assert.equal(r.rounds, 2);
    assert.equal(calls, 2);
    assert.match(outputs(openai.seen[3].json)[0].output, /^\[error\] limit: the tool round cap of 2 for this turn is reached/);
    assert.match(openai.seen[0].json.instructions, /at most 2 rounds of calls/);
  });

  it("ends the turn when the model keeps calling tools past the cap", async () => {
    rig.core.config.apply([["toolLoopRounds", 1]], "owner");
    echoTool(rig);
    const call = (): { body: object } => openAiTools(["test_echo", "{}"]);
    rig.servers.openai.reply(call(), call(), call());
    const r = await rig.core.turn.runTurn(person(), { text: "loop forever" });
    assert.equal(r.ok, false);
    assert.equal(r.failure?.kind, "rounds");
    assert.match(r.reply, /^limit: the model kept calling tools after the round cap of 1/);
    assert.equal(rig.servers.openai.seen.length, 3);
  });

  it("defaults to 4 rounds and lets the owner allow at most 12; no tool or device action may change it", async () => {
    assert.equal(rig.core.turn.maxRounds(), 4);
    assert.match(rig.core.config.apply([["toolLoopRounds", 13]], "owner") ?? "", /from 1 to 12/);
    assert.equal(rig.core.config.apply([["toolLoopRounds", 12]], "owner"), undefined);
    assert.equal(rig.core.turn.maxRounds(), 12);
    const control = await rig.core.registry.dispatch("device.control", { action: { config: { toolLoopRounds: 1 } } }, person());
    assert.equal(control.isError, true);
    assert.match(control.text, /^protected-BLOCKED:/);
    assert.equal(rig.core.turn.maxRounds(), 12);
  });

  it("clamps one long result and keeps the whole of it in the results ring", async () => {
    echoTool(rig);
    rig.servers.openai.reply(openAiTools(["test_echo", '{"size":10000,"fill":"z"}']), openAiAnswer(answer()));
    const r = await rig.core.turn.runTurn(person(), { text: "big" });
    const shown = outputs(rig.servers.openai.seen[1].json)[0].output;
    assert.ok(bytes(shown) <= RESULT_CLAMP_BYTES, String(bytes(shown)));
    const tag = r.toolCalls[0].tag!;
    assert.equal(r.toolCalls[0].truncated, true);
    assert.ok(shown.includes(tag));
    assert.equal(rig.core.ring.get("owner", tag)?.text.length, 10000);
  });

  it("clamps the total of a turn's results and leaves the overflow in the ring", async () => {
    echoTool(rig);
    const size = 3900;
    const calls: Array<[string, string]> = Array.from({ length: TOOL_CALLS_PER_ROUND_MAX }, (_, i) => [
      "test_echo",
      JSON.stringify({ size, fill: String.fromCharCode(97 + i) }),
    ]);
    rig.servers.openai.reply(openAiTools(...calls), openAiAnswer(answer()));
    const r = await rig.core.turn.runTurn(person(), { text: "many" });
    const shown = outputs(rig.servers.openai.seen[1].json).map((o) => o.output);
    const total = shown.reduce((n, s) => n + bytes(s), 0);
    assert.ok(total <= TOOL_RESULTS_TOTAL_MAX_BYTES + 200 * shown.length, String(total));
    assert.ok(shown.slice(0, 6).every((s) => bytes(s) === size));
    const cut = r.toolCalls.filter((c) => c.truncated);
    assert.ok(cut.length >= 2);
    for (const c of cut) {
      assert.match(shown[r.toolCalls.indexOf(c)], /turn's tool output budget is spent; the full result is in the results ring, tag r\w+/);
      assert.equal(rig.core.ring.get("owner", c.tag!)?.text.length, size);
    }
    // Another person cannot read the overflow.
    assert.equal(rig.core.ring.get("visitor", cut[0].tag!), undefined);
  });

  it("runs at most the per-round number of calls and refuses the rest", async () => {
    let calls = 0;
    echoTool(rig, () => calls++);
    const many: Array<[string, string]> = Array.from({ length: TOOL_CALLS_PER_ROUND_MAX + 2 }, () => ["test_echo", "{}"]);
    rig.servers.openai.reply(openAiTools(...many), openAiAnswer(answer()));
    await rig.core.turn.runTurn(person(), { text: "flood" });
    assert.equal(calls, TOOL_CALLS_PER_ROUND_MAX);
    const out = outputs(rig.servers.openai.seen[1].json);
    assert.equal(out.length, TOOL_CALLS_PER_ROUND_MAX + 2);
    assert.match(out[TOOL_CALLS_PER_ROUND_MAX].output, /^\[error\] limit: at most 8 tool calls run per round/);
  });

  it("answers hidden, unknown and malformed calls with an error result and goes on", async () => {
    rig.servers.openai.reply(
      openAiTools(["tenant.list", "{}"], ["ghost_tool", "{}"], ["memory_search", "{not json"], ["memory_search", '{"query": 5}']),
      openAiAnswer(answer({ reply: "recovered" })),
    );
    const r = await rig.core.turn.runTurn(person("guest", "visitor"), { text: "poke around" });
    assert.equal(r.ok, true);
    assert.equal(r.reply, "recovered");
    const out = outputs(rig.servers.openai.seen[1].json).map((o) => o.output);
    assert.match(out[0], /^\[error\] admin-only: tenant\.list needs an admin conversation\./);
    assert.match(out[1], /^\[error\] unknown tool: ghost_tool; call only the tools listed in CAPABILITIES\./);
    assert.match(out[2], /^\[error\] invalid arguments: the arguments are not valid JSON\./);
    assert.match(out[3], /^\[error\] invalid arguments/);
    assert.deepEqual(
      r.toolCalls.map((c) => c.ok),
      [false, false, false, false],
    );
  });

  it("stops at the deadline: no provider call starts after it", async () => {
    echoTool(rig, () => rig.clock.advance(TURN_DEADLINE_MS));
    rig.servers.openai.reply(openAiTools(["test_echo", "{}"], ["test_echo", "{}"]), openAiAnswer(answer()));
    const r = await rig.core.turn.runTurn(person(), { text: "slow" });
    assert.equal(r.ok, false);
    assert.equal(r.failure?.kind, "timeout");
    assert.match(r.reply, /^timeout: the turn's deadline passed after 1 tool rounds\./);
    assert.equal(rig.servers.openai.seen.length, 1);
    assert.equal(r.toolCalls[1].ok, false);
  });
});
