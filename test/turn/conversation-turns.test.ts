// Scripted multi-turn conversations against a local OpenAI Responses server:
// every array of the contract, and what the next turn's prompt shows of it.
import assert from "node:assert/strict";
import { TURN_ANSWER_NAME } from "../../lib/turn/contract.ts";
import { answer, openAiAnswer, openAiPrompt, person, turnRig, type TurnRig } from "./support.ts";

describe("turn: a scripted multi-turn conversation", () => {
  let rig: TurnRig;
  beforeEach(async () => {
    rig = await turnRig();
  });
  afterEach(async () => {
    await rig.close();
  });

  it("writes memories after the reply, shows note, recall and query results in the next turn", async () => {
    const openai = rig.servers.openai;
    openai.reply(
      openAiAnswer(
        answer({
          reply: "Noted: you like green tea.",
          memory: "They told me their tea preference.",
          mem_write: [{ content: "The owner likes green tea with no sugar.", importance: 0.8, permanent: null, ttl: "months" }],
          mem_query: [{ query: "tea", n_results: null }],
        }),
        { input: 300, output: 50 },
      ),
      openAiAnswer(answer({ reply: "Green tea, no sugar." })),
    );
    const delivered: string[] = [];
    const onReply = (r: { reply: string }): void => {
      // Delivered before anything of the answer is applied.
      assert.equal(rig.core.memory.store.countIn("owner"), 0);
      delivered.push(r.reply);
    };
    const first = await rig.core.turn.runTurn(person(), { text: "I like green tea, no sugar.", channel: "web", onReply });
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.equal(first.reply, "Noted: you like green tea.");
    assert.deepEqual(delivered, ["Noted: you like green tea."]);
    assert.equal(first.memoryWritten.length, 1);
    assert.equal(first.memoryWritten[0].ok, true, first.memoryWritten[0].text);
    assert.equal(first.memoryQueried.length, 1);
    assert.deepEqual(first.usage, { inputTokens: 300, outputTokens: 50 });
    assert.equal(first.provider, "openai");

    // The request: the answer schema strict, the registry's tools, the World prompt.
    const req1 = openai.seen[0];
    assert.equal(req1.path, "/v1/responses");
    assert.equal(req1.json.text.format.name, TURN_ANSWER_NAME);
    assert.equal(req1.json.text.format.strict, true);
    assert.ok(req1.json.tools.some((t: any) => t.name === "memory_search"));
    const p1 = openAiPrompt(req1);
    assert.match(p1.instructions, /## CAPABILITIES\nTools you may call:\n- docs\.list/);
    assert.match(p1.instructions, /- memory\.write\(content, importance\?/);
    assert.match(p1.instructions, /via web/);
    assert.deepEqual(p1.input, [{ role: "user", content: "I like green tea, no sugar." }]);

    const second = await rig.core.turn.runTurn(person(), { text: "What tea do I like?" });
    assert.equal(second.reply, "Green tea, no sugar.");
    const p2 = openAiPrompt(openai.seen[1]);
    assert.match(p2.instructions, /## RECALLED MEMORIES\n- \[\d+%\] The owner likes green tea with no sugar\./);
    assert.match(p2.instructions, /## YOUR NOTE FROM THE LAST TURN\nThey told me their tea preference\./);
    assert.match(p2.instructions, /## RESULTS OF YOUR LAST MEMORY QUERIES\n### tea\n/);
    assert.deepEqual(p2.input, [
      { role: "user", content: "I like green tea, no sugar." },
      { role: "assistant", content: "Noted: you like green tea." },
      { role: "user", content: "What tea do I like?" },
    ]);
    // Query results are shown once; the note is replaced by the last turn's (empty) note.
    openai.reply(openAiAnswer(answer({ reply: "third" })));
    await rig.core.turn.runTurn(person(), { text: "And now?" });
    const p3 = openAiPrompt(openai.seen[2]);
    assert.doesNotMatch(p3.instructions, /RESULTS OF YOUR LAST MEMORY QUERIES/);
    assert.doesNotMatch(p3.instructions, /YOUR NOTE FROM THE LAST TURN/);
  });

  it("applies device[] at the end of the turn: led on the ring, protected config refused, reboot last", async () => {
    rig.servers.openai.reply(
      openAiAnswer(
        answer({
          reply: "Done.",
          device: [
            {
              led: { mode: "pulse", r: 0, g: 0, b: 255, brightness: null },
              lights: null,
              config: null,
              orch_model: null,
              reboot: null,
              tts: null,
            },
            { led: null, lights: null, config: [{ key: "ledBrightness", value: 40 }], orch_model: null, reboot: null, tts: null },
            { led: null, lights: null, config: null, orch_model: null, reboot: true, tts: null },
            { led: null, lights: { value: "off" }, config: null, orch_model: null, reboot: null, tts: null },
          ],
        }),
      ),
    );
    const reboots: number[] = [];
    const system = rig.core.ports.system!;
    const original = system.reboot.bind(system);
    system.reboot = () => {
      reboots.push(rig.core.ports.led!.current().brightness);
      original();
    };
    const r = await rig.core.turn.runTurn(person(), { text: "Make the ring blue, dim it, then restart." });
    assert.equal(r.ok, true);
    assert.deepEqual(
      r.device.map((d) => [d.index, d.ok]),
      [
        [0, true],
        [1, true],
        [2, true],
        [3, true],
      ],
    );
    assert.match(r.device[2].text, /^reboot: runs at the end of the turn/);
    assert.equal(rig.core.config.number("ledBrightness"), 40);
    // The reboot ran after the lights-off action that came after it in the array.
    assert.deepEqual(reboots, [0]);
  });

  it("refuses admin-only device actions and the scratchpad for a guest; dispatches session ops to session.*", async () => {
    rig.servers.openai.reply(
      openAiAnswer(
        answer({
          reply: "I tried.",
          device: [{ led: null, lights: null, config: [{ key: "theme", value: "ocean" }], orch_model: null, reboot: null, tts: null }],
          scratchpad: { active: "take over", short: null, mid: null, long: null },
          session_ops: [
            {
              op: "terminate",
              task: null,
              provider: null,
              model: null,
              skill: null,
              name: null,
              project: null,
              attach: null,
              id: "s-missing",
            },
          ],
        }),
      ),
    );
    const r = await rig.core.turn.runTurn(person("guest", "visitor"), { text: "hi" });
    assert.equal(r.ok, true);
    assert.match(r.device[0].text, /^admin-only: a config action needs an admin conversation/);
    assert.match(r.scratchpad!.text, /^admin-only:/);
    assert.equal(rig.core.config.string("theme"), "aurora");
    assert.equal(r.sessionOps.length, 1);
    assert.equal(r.sessionOps[0].op, "terminate");
    assert.equal(r.sessionOps[0].ok, false);
    assert.match(r.sessionOps[0].text, /^(not-found|invalid arguments)/);
    const prompt = openAiPrompt(rig.servers.openai.seen[0]).instructions;
    assert.doesNotMatch(prompt, /## SCRATCHPAD/);
    assert.doesNotMatch(prompt, /tenant\.set_role/);
  });

  it("spawns a sub-agent through session_ops[] and it goes to work", async () => {
    const openai = rig.servers.openai;
    openai.reply(
      openAiAnswer(
        answer({
          reply: "I asked a helper.",
          session_ops: [
            {
              op: "spawn",
              task: "List three green teas.",
              provider: null,
              model: null,
              skill: null,
              name: "teas",
              project: "tea-run",
              attach: null,
              id: null,
            },
          ],
        }),
      ),
      openAiAnswer("Sencha, gyokuro, longjing."),
    );
    const r = await rig.core.turn.runTurn(person(), { text: "Research green teas in the background." });
    assert.equal(r.sessionOps[0].op, "spawn");
    assert.equal(r.sessionOps[0].ok, true, r.sessionOps[0].text);
    assert.match(r.sessionOps[0].text, /^(Started|Queued) sub-agent \S+ "teas"/);
    for (let i = 0; i < 100 && openai.seen.length < 2; i++) await new Promise((ok) => setTimeout(ok, 10));
    assert.ok(openai.seen[1].text.includes("List three green teas."), "the sub-agent's request carries its task");
  });

  it("writes the scratchpad for an admin and shows it in the next turn", async () => {
    rig.servers.openai.reply(
      openAiAnswer(answer({ reply: "Planned.", scratchpad: { active: "plan the garden", short: ["buy seeds"], mid: null, long: null } })),
      openAiAnswer(answer({ reply: "next" })),
    );
    const r = await rig.core.turn.runTurn(person(), { text: "Help me plan the garden." });
    assert.equal(r.scratchpad?.ok, true, r.scratchpad?.text);
    await rig.core.turn.runTurn(person(), { text: "What now?" });
    assert.match(
      openAiPrompt(rig.servers.openai.seen[1]).instructions,
      /## SCRATCHPAD\nActive task: plan the garden\nshort-term goals:\n {2}1\. buy seeds/,
    );
  });

  it("keeps each person's conversation apart", async () => {
    rig.servers.openai.reply(
      openAiAnswer(answer({ reply: "for owner", memory: "owner secret plan" })),
      openAiAnswer(answer({ reply: "for guest" })),
    );
    await rig.core.turn.runTurn(person(), { text: "owner text" });
    await rig.core.turn.runTurn(person("guest", "visitor"), { text: "guest text" });
    const p = openAiPrompt(rig.servers.openai.seen[1]);
    assert.deepEqual(p.input, [{ role: "user", content: "guest text" }]);
    assert.doesNotMatch(p.instructions, /owner secret plan/);
  });
});
