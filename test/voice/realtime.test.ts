// Realtime speech on the simulator (voiceMode realtime) against a local
// Realtime stand-in over a real WebSocket: the capture streamed up as 24 kHz
// appends, the caller's registry tools offered as functions and called through
// the registry with the caller's rails, the model's audio played as it arrives.
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import type { SimAudioIn, SimAudioOut } from "../../hosts/sim/ports/audio.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { PhaseEvent } from "../../lib/voice/pipeline.ts";
import { REALTIME_MAX_TOOL_ROUNDS } from "../../lib/voice/realtime.ts";
import { audioDeltas, RealtimeServer } from "../support/realtime-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { replyPcm, say, scene } from "../support/speech.ts";

const KEY = "sk-realtime-KEY";

describe("realtime speech on the simulator", function () {
  this.timeout(30000);
  let stand: RealtimeServer;
  let sim: TestSim;
  let mic: SimAudioIn;
  let speaker: SimAudioOut;
  const phases: PhaseEvent[] = [];
  let clip: Int16Array;

  before(async () => {
    clip = say("what is the device status");
    stand = await RealtimeServer.start(KEY);
    sim = await startTestSim({ baseUrls: { openai: stand.url }, initialSecrets: { openai: KEY }, portOverrides: { log: memoryLog() } });
    sim.halo.core.config.apply([["voiceMode", "realtime"]], "owner");
    mic = sim.halo.core.ports.audioIn as SimAudioIn;
    speaker = sim.halo.core.ports.audioOut as SimAudioOut;
    sim.halo.core.voice.subscribe((e) => phases.push(e));
  });
  after(async () => {
    await sim.stop();
    await stand.close();
  });
  beforeEach(() => {
    phases.length = 0;
    stand.responses = [];
  });

  it("streams the capture, offers the caller's tools, runs a function call through the registry and plays the answer", async () => {
    const s = scene(clip, 400, 1500, 150);
    mic.load(s.samples);
    stand.responses.push(
      [
        { type: "response.created" },
        { type: "response.function_call_arguments.done", call_id: "call_1", name: "device_status", arguments: "{}" },
        { type: "response.done", response: { status: "completed" } },
      ],
      [
        ...audioDeltas(replyPcm(800)),
        { type: "response.output_audio_transcript.done", transcript: "All is well." },
        { type: "response.done" },
      ],
    );
    const result = await sim.halo.core.voice.press()!;
    assert.equal(result.error, undefined);
    assert.equal(result.ended, "speech-ended");
    assert.equal(result.reply, "All is well.");
    assert.deepEqual(result.toolCalls, ["device.status"]);
    assert.equal(result.spoken, "played");
    assert.equal(stand.connections.at(-1)!.path, "/v1/realtime?model=gpt-realtime");

    const session = stand.events.find((e) => e.type === "session.update").session;
    assert.deepEqual(session.audio.input.format, { type: "audio/pcm", rate: 24000 });
    assert.equal(session.audio.input.turn_detection, null, "half duplex: the device decides when the turn ends");
    const owner = {
      ns: "owner",
      role: "admin" as const,
      via: "turn" as const,
      scheduled: false,
      quota: sim.halo.core.people.get("owner")!.quota,
    };
    const offered = session.tools.map((t: any) => t.name).sort();
    const expected = sim.halo.core.registry
      .toolSpecsFor(owner)
      .map((t) => t.name.replace(/[^A-Za-z0-9_-]/g, "_"))
      .sort();
    assert.deepEqual(offered, expected, "the functions are the caller's registry tools");
    assert.ok(offered.includes("audio_transcribe") && offered.includes("reply_speak"));

    const sentMs = (stand.appended.at(-1)! / 24000) * 1000;
    assert.ok(Math.abs(sentMs - result.capturedMs) <= result.capturedMs * 0.05, `${sentMs} ms at 24 kHz vs ${result.capturedMs} captured`);
    assert.ok(result.capturedMs - s.speechEndMs > 0 && result.capturedMs - s.speechEndMs <= 400);
    const types = stand.events.map((e) => e.type);
    assert.deepEqual(types.slice(-5), [
      "session.update",
      "input_audio_buffer.commit",
      "response.create",
      "conversation.item.create",
      "response.create",
    ]);
    const output = stand.events.at(-2).item;
    assert.equal(output.type, "function_call_output");
    assert.equal(output.call_id, "call_1");
    assert.match(output.output, /^Firmware: /m, "device.status ran through the registry");
    const played = speaker.played.at(-1)!;
    assert.equal(played.sampleRate, 24000);
    assert.deepEqual(Array.from(played.samples), Array.from(replyPcm(800)));
    assert.deepEqual(
      phases.map((p) => p.phase),
      ["listening", "thinking", "replying", "idle"],
    );
  });

  it("keeps the caller's rails: a tool the voice person may not call is refused, not run", async () => {
    sim.halo.core.people.setRole("sam", "user");
    sim.halo.core.config.apply([["voicePerson", "sam"]], "owner");
    try {
      mic.load(scene(clip, 300, 1000).samples);
      stand.responses.push(
        [{ type: "response.function_call_arguments.done", call_id: "c9", name: "tenant_list", arguments: "{}" }, { type: "response.done" }],
        [{ type: "response.output_audio_transcript.done", transcript: "I cannot." }, { type: "response.done" }],
      );
      const result = await sim.halo.core.voice.press()!;
      assert.equal(result.error, undefined);
      const session = stand.events.filter((e) => e.type === "session.update").at(-1).session;
      assert.ok(!session.tools.some((t: any) => t.name === "tenant_list"), "not offered to a user");
      assert.match(stand.events.at(-2).item.output, /^admin-only: /);
      assert.equal(result.spoken, "not-spoken");
    } finally {
      sim.halo.core.config.apply([["voicePerson", ""]], "owner");
    }
  });

  it("reports the service breaking mid-stream and a refused connection, and stops on barge-in", async () => {
    mic.load(scene(clip, 300, 1000).samples);
    stand.responses.push([...audioDeltas(replyPcm(400)), "break"]);
    const broken = await sim.halo.core.voice.press()!;
    assert.match(broken.error ?? "", /^The realtime connection closed/);
    assert.equal(phases.at(-1)!.phase, "error");

    sim.halo.core.secrets.set("openai", "sk-wrong-key-0000");
    mic.load(scene(clip, 300, 1000).samples);
    const refused = await sim.halo.core.voice.press()!;
    assert.equal(refused.error, "The realtime connection failed: the server refused the connection (HTTP 401).");
    assert.ok(!JSON.stringify(refused).includes("sk-wrong"));
    sim.halo.core.secrets.set("openai", KEY);

    phases.length = 0;
    mic.load(scene(clip, 300, 1000).samples);
    stand.pauseMs = 15;
    stand.responses.push([...audioDeltas(replyPcm(5000), 1200), { type: "response.done" }]);
    const first = sim.halo.core.voice.press()!;
    while (sim.halo.core.voice.realtime!.phase !== "replying") await new Promise((ok) => setTimeout(ok, 5));
    mic.load(scene(clip, 300, 1000).samples);
    stand.pauseMs = 2;
    stand.responses.push([{ type: "response.output_audio_transcript.done", transcript: "Yes?" }, { type: "response.done" }]);
    const second = sim.halo.core.voice.press()!;
    assert.equal((await first).spoken, "stopped");
    assert.equal((await second).reply, "Yes?");
    assert.ok(speaker.played.some((u) => u.stopped && u.samples.length < replyPcm(5000).length));
  });

  it("ends with a clear error on hostile server events, and the next exchange works", async () => {
    const cases: Array<[object[], RegExp]> = [
      [[{ type: "response.output_audio.delta", delta: "!!!not base64" }], /^The realtime audio delta is not 16-bit PCM in base64\.$/],
      [[{ type: "response.output_audio.delta", delta: "AA==" }, { type: "response.done" }], /^The realtime audio delta is not 16-bit PCM/],
      [[{ type: "error", error: { message: `bad request with ${KEY}` } }], /^OpenAI Realtime refused: bad request/],
      [
        Array.from({ length: REALTIME_MAX_TOOL_ROUNDS + 1 }, () => [
          { type: "response.function_call_arguments.done", call_id: "x", name: "docs_list", arguments: "not json" },
          { type: "response.done" },
        ]).flat(),
        /more than 4 rounds of function calls/,
      ],
    ];
    for (const [script, message] of cases) {
      mic.load(scene(clip, 300, 1000).samples);
      stand.responses = [];
      // Each response.create gets the next pair of events (the rounds case) or the whole script.
      if (script.length > 3) for (let i = 0; i < script.length; i += 2) stand.responses.push([script[i], script[i + 1]]);
      else stand.responses.push([...script, "break"]);
      const r = await sim.halo.core.voice.press()!;
      assert.match(r.error ?? "", message);
      assert.ok(!r.error!.includes(KEY), "the key is never quoted back");
    }
    mic.load(scene(clip, 300, 1000).samples);
    stand.responses = [
      [
        { type: "garbage" },
        { no: "type" },
        { type: "response.output_audio_transcript.done", transcript: "Fine." },
        { type: "response.done" },
      ],
    ];
    const ok = await sim.halo.core.voice.press()!;
    assert.equal(ok.error, undefined);
    assert.equal(ok.reply, "Fine.");
  });

  it("refuses realtime mode clearly on a host without a WebSocket client", async () => {
    const { buildCore } = await import("../../lib/app/core.ts");
    const { memoryPorts } = await import("../../hosts/sim/ports/index.ts");
    const core = buildCore({ ...memoryPorts({ log: memoryLog() }), webSocket: undefined }, TEST_HOST);
    core.config.apply([["voiceMode", "realtime"]], "owner");
    const r = await core.voice.press()!;
    assert.equal(r.error, "Realtime speech is not available on this host (it has no WebSocket client); set voiceMode to pipeline.");
    assert.match(core.config.apply([["voiceMode", "pipeline"]], "device") ?? "", /owner/);
  });
});
