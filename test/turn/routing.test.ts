// The turn over the provider router: fallback (also mid tool loop), the
// head's own provider (orch_model), budget refusals, the no-key sentence,
// and the budget in device.status.
import { scheduledTurns } from "../../lib/app/subsystems/agents.ts";
import assert from "node:assert/strict";
import { NO_PROVIDER_KEY_REPLY } from "../../lib/turn/engine.ts";
import { answer, anthropicAnswer, mistralAnswer, openAiAnswer, openAiTools, person, turnRig, type TurnRig } from "./support.ts";

describe("turn: providers, fallback and budget", () => {
  let rig: TurnRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it("falls back to the next keyed provider when the first keeps failing", async () => {
    rig = await turnRig({ keys: ["openai", "anthropic"] });
    const fail = { status: 500, body: { error: { message: "boom" } } };
    rig.servers.openai.reply(fail, fail, fail);
    rig.servers.anthropic.reply(anthropicAnswer(answer({ reply: "from claude" })));
    const r = await rig.core.turn.runTurn(person(), { text: "hi" });
    assert.equal(r.ok, true, r.reply);
    assert.equal(r.reply, "from claude");
    assert.equal(r.provider, "anthropic");
    assert.equal(rig.servers.openai.seen.length, 3);
    assert.equal(rig.sleeps.length, 2);
    const req = rig.servers.anthropic.seen[0].json;
    assert.equal(req.tool_choice.type, "any");
    assert.ok(req.tools.some((t: any) => t.name === "turn_answer"));
    assert.match(req.system, /## CAPABILITIES/);
  });

  it("falls back mid tool loop with the whole history when the continuation fails", async () => {
    rig = await turnRig({ keys: ["openai", "mistral"] });
    const fail = { status: 503, body: { error: { message: "overloaded" } } };
    rig.servers.openai.reply(openAiTools(["docs_list", "{}"]), fail, fail, fail, fail, fail, fail);
    rig.servers.mistral.reply(mistralAnswer(answer({ reply: "mistral finished it" })));
    const r = await rig.core.turn.runTurn(person(), { text: "look at the docs" });
    assert.equal(r.ok, true, r.reply);
    assert.equal(r.provider, "mistral");
    assert.equal(r.rounds, 1);
    const messages = rig.servers.mistral.seen[0].json.messages;
    assert.deepEqual(
      messages.map((m: any) => m.role),
      ["system", "user", "assistant", "tool"],
    );
    assert.equal(messages[2].tool_calls[0].function.name, "docs_list");
    assert.equal(messages[3].name, "docs_list");
  });

  it("tries the head's own provider and model first (the orch_model action)", async () => {
    rig = await turnRig({ keys: ["openai", "mistral"] });
    assert.equal(
      rig.core.config.apply(
        [
          ["orchProvider", "mistral"],
          ["orchModel", "mistral-small-latest"],
        ],
        "orch_model",
      ),
      undefined,
    );
    rig.servers.mistral.reply(mistralAnswer(answer({ reply: "mistral here" })));
    const r = await rig.core.turn.runTurn(person(), { text: "hi" });
    assert.equal(r.provider, "mistral");
    assert.equal(rig.servers.mistral.seen[0].json.model, "mistral-small-latest");
    assert.equal(rig.servers.openai.seen.length, 0);
  });

  it("stops at a budget refusal before anything is sent, without falling back", async () => {
    rig = await turnRig({ keys: ["openai", "anthropic"] });
    rig.core.budget.configure("openai", { usdCeiling: 0 });
    const r = await rig.core.turn.runTurn(person(), { text: "hi" });
    assert.equal(r.ok, false);
    assert.equal(r.failure?.kind, "budget");
    assert.match(r.reply, /^quota: the OpenAI budget for this period is set to \$0; it resets on \d{4}-\d{2}-\d{2}\./);
    assert.equal(rig.servers.openai.seen.length + rig.servers.anthropic.seen.length, 0);
  });

  it("answers with how to add a key when no provider has one, and sends nothing", async () => {
    rig = await turnRig({ keys: [] });
    const r = await rig.core.turn.runTurn(person(), { text: "hi" });
    assert.equal(r.ok, false);
    assert.equal(r.failure?.kind, "no-provider");
    assert.equal(r.reply, NO_PROVIDER_KEY_REPLY);
    assert.match(r.reply, /curl -X PUT http:\/\/<device>\/api\/secrets\/openai/);
    assert.equal(rig.servers.openai.seen.length, 0);
  });

  it("records usage against the budget and shows it in device.status", async () => {
    rig = await turnRig();
    rig.core.budget.configure("openai", { usdPerMTokIn: 2, usdPerMTokOut: 8, usdCeiling: 5, tokenCeiling: 100000 });
    rig.servers.openai.reply(openAiAnswer(answer({ reply: "hi" }), { input: 1000, output: 500 }));
    await rig.core.turn.runTurn(person(), { text: "hi" });
    const status = await rig.core.registry.dispatch("device.status", {}, person());
    assert.match(
      status.text,
      /Token usage and budget: OpenAI tokens this period \(resets \d{4}-\d{2}-\d{2}\) 1500 of 100000; OpenAI estimated spend in US cents \(1 calls\) 1 of 500; last turn tokens \(openai [^)]+\) 1500; turns since boot 1; tokens since boot 1500/,
    );
  });

  it("refuses an empty, oversized or unapproved turn without calling anyone", async () => {
    rig = await turnRig();
    assert.match((await rig.core.turn.runTurn(person(), { text: "   " })).reply, /^invalid: the text is empty\./);
    assert.match(
      (await rig.core.turn.runTurn(person(), { text: "x".repeat(9000) })).reply,
      /^invalid: the text is longer than 8192 bytes\./,
    );
    assert.match((await rig.core.turn.runTurn(person(), { text: "hi", channel: "bad channel!" })).reply, /^invalid: the channel/);
    assert.match((await rig.core.turn.runTurn(person("unknown", "stranger"), { text: "hi" })).reply, /^not-approved:/);
    assert.equal(rig.servers.openai.seen.length, 0);
  });

  it("runs routines and wakeups as scheduled turns of the same engine", async () => {
    rig = await turnRig();
    const runner = scheduledTurns(rig.core.turn, { channel: rig.core.telegram, alerts: rig.core.alerts }, rig.core.ports.log);
    rig.servers.openai.reply(openAiAnswer(answer({ reply: "morning report" })), { status: 400, body: { error: { message: "bad" } } });
    assert.deepEqual(await runner.runScheduledTurn(person(), { text: "Morning report.", routineId: "r1" }), { ok: true });
    const prompt = rig.servers.openai.seen[0].json.instructions as string;
    assert.match(prompt, /via routine\.\nThis is a scheduled turn/);
    assert.ok(
      !rig.servers.openai.seen[0].json.tools.some((t: any) => t.name === "tenant_set_role"),
      "admin-only tools are hidden in scheduled turns",
    );
    const failed = await runner.runScheduledTurn(person(), { text: "Again.", routineId: "r1" });
    assert.equal(failed.ok, false);
  });

  it("runs one turn per person at a time", async () => {
    rig = await turnRig();
    rig.servers.openai.reply({ ...openAiAnswer(answer({ reply: "one" })), delayMs: 50 }, openAiAnswer(answer({ reply: "two" })));
    const [a, b] = await Promise.all([
      rig.core.turn.runTurn(person(), { text: "first" }),
      rig.core.turn.runTurn(person(), { text: "second" }),
    ]);
    assert.deepEqual([a.reply, b.reply], ["one", "two"]);
    // The second turn saw the first one in its history.
    assert.deepEqual(
      rig.servers.openai.seen[1].json.input.map((i: any) => i.content),
      ["first", "one", "second"],
    );
  });
});
