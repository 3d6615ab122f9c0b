// The whole voice loop on the simulator, driven from outside as an owner would:
// HALO_MIC_WAV names a WAV of espeak-ng speech with silence around it, the
// button is pressed through POST /api/sim/button, and stand-ins on loopback
// speak the transcription, chat and speech wire formats. Checked: what the
// transcription stand-in received, the turn, the PCM the speaker got, the
// ring's phases, barge-in, and bad input (silence, clipping, a capture under
// 300 ms, one past the 60 s cap, a stalled and a malformed speech stream, a
// storm of presses) with a clear outcome, the ring never stuck and /mcp
// answering throughout.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { optionsFromEnv } from "../../hosts/sim/start.ts";
import type { SimAudioIn, SimAudioOut } from "../../hosts/sim/ports/audio.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { EARCON_HZ, EARCON_MS } from "../../lib/voice/press-to-talk.ts";
import { HANGOVER_MS } from "../../lib/voice/endpoint.ts";
import { MAX_CAPTURE_MS, type VoiceExchange } from "../../lib/voice/pipeline.ts";
import { SPEECH_STALL_MS } from "../../lib/voice/speech.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { testHalo } from "../support/halo.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";
import { babble, replyPcm, say, scene, type Scene } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { answer, openAiAnswer } from "../turn/support.ts";

const KEY = "sk-voice-loop-KEY";
const HOLD_MS = 300;

describe("the voice loop on the simulator, pressed through /api/sim/button", function () {
  this.timeout(120000);
  let stand: VoiceServer;
  let sim: TestSim;
  let dir: string;
  let spoken: Scene;
  let mic: SimAudioIn;
  let speaker: SimAudioOut;
  const ring: string[] = [];

  const press = async (body: unknown, token: string | undefined = sim.token): Promise<{ status: number; json: any }> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${sim.url}/api/sim/button`, {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const exchange = async (): Promise<VoiceExchange> => {
    const r = await sim.halo.button.exchange();
    assert.ok(r, "an exchange ran");
    return r;
  };
  const stillServing = async (): Promise<void> => {
    const r = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { jsonrpc: "2.0", id: 1, result: {} });
  };
  /** The ring is back to idle once an error's hold has passed. */
  const ringSettles = async (): Promise<void> => {
    await new Promise((ok) => setTimeout(ok, HOLD_MS + 200));
    assert.equal(sim.halo.lights!.phase(), "idle", `ring ${ring.join(",")}`);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "halo-mic-"));
    spoken = scene(say("what is on my calendar today"), 800, 2500, 150);
    const wav = join(dir, "room.wav");
    writeFileSync(wav, encodeWav({ sampleRate: 16000, samples: spoken.samples }));
    stand = await VoiceServer.start();
    sim = await startTestSim({
      baseUrls: { openai: stand.url },
      initialSecrets: { openai: KEY },
      portOverrides: { log: memoryLog() },
      micWav: wav,
    });
    sim.halo.core.config.apply([["attnHoldMs", HOLD_MS]], "owner");
    mic = sim.halo.core.ports.audioIn as SimAudioIn;
    speaker = sim.halo.core.ports.audioOut as SimAudioOut;
    // Subscribed after the ring, so the ring has taken each phase when this runs.
    sim.halo.core.voice.subscribe(() => void ring.push(sim.halo.lights!.phase() ?? "none"));
  });
  after(async () => {
    await sim.stop();
    await stand.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    ring.length = 0;
  });

  it("a press hears the WAV, sends the speech, runs the turn, plays the reply and the ring follows", async () => {
    stand.transcripts.push("what is on my calendar today");
    stand.llm.reply(openAiAnswer(answer({ reply: "Nothing today." })));
    stand.speech.push({ pcm: replyPcm(1200), pauseMs: 5 });
    const pressed = await press({ gesture: "press" });
    assert.equal(pressed.status, 200);
    assert.deepEqual(pressed.json, { gesture: "press", outcome: "listening", phase: pressed.json.phase });
    const r = await exchange();
    assert.equal(r.error, undefined);
    assert.equal(r.ended, "speech-ended");
    assert.equal(r.transcript, "what is on my calendar today");
    assert.equal(r.reply, "Nothing today.");
    assert.equal(r.spoken, "played");
    assert.deepEqual(speaker.calls[speaker.calls.length - 1], { kind: "tone", hz: EARCON_HZ, ms: EARCON_MS, level: 100 }, "the earcon");

    // The transcription stand-in received the WAV's speech, at 16 kHz, from the start of the file.
    const up = stand.uploads[stand.uploads.length - 1];
    assert.equal(up.authorization, `Bearer ${KEY}`);
    assert.deepEqual({ rate: up.wav!.rate, channels: up.wav!.channels, bits: up.wav!.bits }, { rate: 16000, channels: 1, bits: 16 });
    const expected = spoken.speechEndMs + HANGOVER_MS;
    assert.ok(Math.abs(up.wav!.durationMs - expected) <= expected * 0.05, `${up.wav!.durationMs} ms sent, about ${expected} expected`);
    const body = up.file.bytes;
    const sent = new Int16Array(body.buffer.slice(body.byteOffset + 44, body.byteOffset + body.length));
    const speechEnd = Math.floor((spoken.speechEndMs * 16000) / 1000);
    assert.deepEqual(
      Array.from(sent.subarray(0, speechEnd)),
      Array.from(spoken.samples.subarray(0, speechEnd)),
      "the speech, sample for sample",
    );

    // The turn ran on the transcript, and the speaker got the speech stand-in's PCM.
    assert.match(JSON.stringify(stand.llm.seen[stand.llm.seen.length - 1].json), /what is on my calendar today/);
    const played = speaker.played[speaker.played.length - 1];
    assert.equal(played.sampleRate, 24000);
    assert.deepEqual(Array.from(played.samples), Array.from(replyPcm(1200)));
    assert.deepEqual(ring, ["listening", "thinking", "replying", "idle"]);
    await stillServing();
  });

  it("plays the WAV once: the next capture hears a silent room, sends nothing and goes back to idle", async () => {
    const uploads = stand.uploads.length;
    assert.equal((await press({ gesture: "press" })).json.outcome, "listening");
    const r = await exchange();
    assert.equal(r.ended, "no-speech");
    assert.equal(r.transcript, "");
    assert.equal(stand.uploads.length, uploads, "nothing sent");
    assert.deepEqual(ring, ["listening", "idle"]);
  });

  it("a press while the reply plays stops it and listens again (barge-in)", async () => {
    mic.load(scene(say("tell me a story"), 300, 1200).samples);
    stand.transcripts.push("tell me a story", "stop");
    stand.llm.reply(openAiAnswer(answer({ reply: "Once upon a time..." })));
    stand.llm.reply(openAiAnswer(answer({ reply: "Stopped." })));
    stand.speech.push({ pcm: replyPcm(20000), pieceBytes: 4800, pauseMs: 20 }, { pcm: replyPcm(200) });
    assert.equal((await press({ gesture: "press" })).json.outcome, "listening");
    const first = sim.halo.button.exchange()!;
    while (sim.halo.core.voice.phase() !== "replying" || speaker.pending() === 0) await new Promise((ok) => setTimeout(ok, 5));
    const barge = await press({ gesture: "press" });
    assert.equal(barge.json.outcome, "barge-in");
    assert.equal((await first)!.spoken, "stopped");
    const cut = speaker.played.find((u) => u.stopped);
    assert.ok(cut && cut.samples.length < replyPcm(20000).length / 4, "playback stopped early");
    const second = await exchange();
    assert.equal(second.transcript, "stop");
    assert.equal(second.spoken, "played");
    assert.deepEqual(ring, ["listening", "thinking", "replying", "listening", "thinking", "replying", "idle"]);
  });

  it("a double press mutes through the route; a muted press captures nothing; the ring shows muted", async () => {
    const uploads = stand.uploads.length;
    assert.equal((await press({ gesture: "double-press" })).json.outcome, "muted");
    assert.equal(sim.halo.lights!.phase(), "muted");
    mic.load(scene(say("are you there"), 300, 800).samples);
    const muted = await press({ gesture: "press" });
    assert.deepEqual(muted.json, { gesture: "press", outcome: "muted-press", phase: "idle" });
    assert.equal(mic.capturing, false);
    await new Promise((ok) => setTimeout(ok, 50));
    assert.equal(stand.uploads.length, uploads);
    assert.equal((await press({ gesture: "double-press" })).json.outcome, "unmuted");
    assert.equal(sim.halo.lights!.phase(), "idle");
    assert.equal((await press({ gesture: "long-press" })).json.outcome, "long-press");
  });

  it("refuses any other body with 400, and callers without the owner's token", async () => {
    for (const body of [{ gesture: "very-long-press" }, { gesture: 5 }, {}, { gesture: "press", extra: 1 }, "not json", "[]"]) {
      const r = await press(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.json.error, /^(Bad request|Parse error)/);
      assert.ok(!r.json.error.includes("very-long"), "the refusal names the field, not the value");
    }
    assert.equal((await press({ gesture: "press" }, "")).status, 401);
    assert.equal((await press({ gesture: "press" }, "not-a-token")).status, 401);
    assert.equal(sim.halo.core.voice.phase(), "idle", "nothing was pressed");
    await stillServing();
  });

  it("is absent on the device: a core built without the simulator's routes answers 404", async () => {
    const halo = testHalo(memoryPorts());
    const token = halo.ensureOwnerToken()!;
    const r = await halo.handleHttp({
      method: "POST",
      path: "/api/sim/button",
      headers: { host: "127.0.0.1", authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: new TextEncoder().encode('{"gesture":"press"}'),
    });
    assert.equal(r.status, 404);
  });

  it("clipped speech still runs to a clear end, and a capture under 300 ms is not sent", async () => {
    const clipped = new Int16Array(16000 * 2);
    for (let i = 8000; i < 24000; i++) clipped[i] = (i >> 4) % 2 ? 32767 : -32768;
    mic.load(clipped);
    stand.transcripts.push("");
    const uploads = stand.uploads.length;
    await press({ gesture: "press" });
    const r = await exchange();
    assert.equal(r.ended, "speech-ended");
    assert.equal(r.transcript, "", "the service heard no words");
    assert.equal(stand.uploads.length, uploads + 1);
    assert.deepEqual(ring, ["listening", "thinking", "idle"]);

    ring.length = 0;
    mic.load(scene(say("hello"), 300, 800).samples);
    assert.equal(sim.halo.button.gesture("press"), "listening");
    while (sim.halo.core.voice.phase() !== "listening") await null;
    assert.equal(sim.halo.button.gesture("press"), "capture-ended", "the second press before any audio arrived");
    const short = await exchange();
    assert.equal(short.ended, "too-short");
    assert.equal(stand.uploads.length, uploads + 1, "nothing sent");
    assert.deepEqual(ring, ["listening", "idle"]);
  });

  it("a talker past the 60 s cap is cut at 60 s and answered", async () => {
    mic.load(babble(MAX_CAPTURE_MS + 5000));
    stand.transcripts.push("a very long ramble");
    stand.llm.reply(openAiAnswer(answer({ reply: "OK." })));
    stand.speech.push({ pcm: replyPcm(100) });
    await press({ gesture: "press" });
    const r = await exchange();
    assert.equal(r.ended, "cap");
    assert.equal(r.capturedMs, MAX_CAPTURE_MS);
    assert.equal(stand.uploads[stand.uploads.length - 1].file.bytes.length, 44 + MAX_CAPTURE_MS * 32);
    assert.equal(r.spoken, "played");
    assert.deepEqual(ring, ["listening", "thinking", "replying", "idle"]);
  });

  it("a speech stream that stalls is abandoned with a clear error, /mcp answering meanwhile", async function () {
    this.timeout(SPEECH_STALL_MS + 30000);
    mic.load(scene(say("what is new"), 300, 800).samples);
    stand.transcripts.push("what is new");
    stand.llm.reply(openAiAnswer(answer({ reply: "Plenty." })));
    stand.speech.push({ pcm: replyPcm(5000), stallAfterBytes: 9600 });
    await press({ gesture: "press" });
    while (sim.halo.core.voice.phase() !== "replying") await new Promise((ok) => setTimeout(ok, 20));
    await stillServing();
    assert.equal(sim.halo.lights!.phase(), "replying");
    const r = await exchange();
    assert.equal(r.error, `OpenAI's speech stream stalled: no audio for ${SPEECH_STALL_MS / 1000} s.`);
    assert.deepEqual(ring, ["listening", "thinking", "replying", "error"]);
    await stillServing();
    await ringSettles();
  });

  it("a malformed speech stream ends in a clear error, and the next press works", async () => {
    mic.load(scene(say("what is new"), 300, 800).samples);
    stand.transcripts.push("what is new");
    stand.llm.reply(openAiAnswer(answer({ reply: "Plenty." })));
    stand.speech.push({ pcm: replyPcm(2000), malformed: true });
    await press({ gesture: "press" });
    const r = await exchange();
    assert.match(r.error ?? "", /^The connection to OpenAI failed: /);
    assert.ok(!r.error!.includes(KEY));
    assert.equal(ring[ring.length - 1], "error");
    await stillServing();
    await ringSettles();

    ring.length = 0;
    mic.load(scene(say("again"), 300, 800).samples);
    stand.transcripts.push("again");
    stand.llm.reply(openAiAnswer(answer({ reply: "Fine." })));
    stand.speech.push({ pcm: replyPcm(300) });
    await press({ gesture: "press" });
    assert.equal((await exchange()).spoken, "played");
    assert.deepEqual(ring, ["listening", "thinking", "replying", "idle"]);
  });

  it("a storm of 20 presses in 2 s leaves the loop idle and the ring not stuck, serving /mcp throughout", async () => {
    mic.load(scene(say("one two three"), 200, 600).samples);
    for (let k = 0; k < 20; k++) {
      stand.transcripts.push(`storm ${k}`);
      stand.llm.reply(openAiAnswer(answer({ reply: `Storm ${k}.` })));
      stand.speech.push({ pcm: replyPcm(400), pieceBytes: 4800, pauseMs: 10 });
    }
    const outcomes: string[] = [];
    for (let k = 0; k < 20; k++) {
      const r = await press({ gesture: "press" });
      assert.equal(r.status, 200);
      outcomes.push(r.json.outcome);
      if (k % 5 === 0) await stillServing();
      await new Promise((ok) => setTimeout(ok, 100));
    }
    for (let i = 0; i < 400 && sim.halo.core.voice.phase() !== "idle" && sim.halo.core.voice.phase() !== "error"; i++)
      await new Promise((ok) => setTimeout(ok, 25));
    await sim.halo.button.exchange();
    assert.ok(
      outcomes.every((o) => ["listening", "capture-ended", "barge-in", "busy"].includes(o)),
      outcomes.join(","),
    );
    assert.ok(["idle", "error"].includes(sim.halo.core.voice.phase()));
    assert.equal(mic.capturing, false);
    await stillServing();
    await ringSettles();
    stand.transcripts.length = 0;
    stand.speech.length = 0;
  });
});

describe("HALO_MIC_WAV at start", () => {
  it("is read from the environment, and a file that is not a usable WAV stops the start with a sentence naming it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-mic-bad-"));
    try {
      assert.equal(optionsFromEnv({ HALO_MIC_WAV: "room.wav" }).micWav, resolve("room.wav"));
      assert.equal(optionsFromEnv({}).micWav, undefined);
      const bad = join(dir, "not.wav");
      writeFileSync(bad, "RIFF....WAVEjunk");
      await assert.rejects(
        startTestSim({ micWav: bad, dataDir: join(dir, "data") }),
        /The microphone's WAV file .*not\.wav is not usable: .*not a usable WAV file: no data chunk/,
      );
      await assert.rejects(
        startTestSim({ micWav: join(dir, "missing.wav"), dataDir: join(dir, "data") }),
        /missing\.wav cannot be read \(ENOENT\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
