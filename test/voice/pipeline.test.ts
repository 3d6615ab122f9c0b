// The press-to-talk pipeline on the simulator: espeak-ng speech with silence
// and noise around it in the simulated microphone, the capture streamed to a
// local transcription stand-in, the turn answered by a local LLM stand-in,
// the reply streamed back as PCM and written by the simulated speaker.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SimAudioIn, SimAudioOut } from "../../hosts/sim/ports/audio.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { HANGOVER_MS } from "../../lib/voice/endpoint.ts";
import { MAX_CAPTURE_MS, type PhaseEvent } from "../../lib/voice/pipeline.ts";
import { decodeWav } from "../../lib/voice/wav.ts";
import { execFileSync } from "node:child_process";
import { loadMicWav } from "../../hosts/sim/ports/audio-files.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { babble, replyPcm, say, scene } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { answer, openAiAnswer } from "../turn/support.ts";

const KEY = "sk-voice-test-KEY";

describe("voice pipeline on the simulator", function () {
  this.timeout(60000);
  let stand: VoiceServer;
  let sim: TestSim;
  let mic: SimAudioIn;
  let speaker: SimAudioOut;
  const phases: PhaseEvent[] = [];
  let sentence: Int16Array;

  before(async () => {
    sentence = say("turn on the desk lamp please");
    stand = await VoiceServer.start();
    sim = await startTestSim({
      baseUrls: { openai: stand.url, mistral: stand.url },
      initialSecrets: { openai: KEY, mistral: "mk-voice" },
      portOverrides: { log: memoryLog() },
    });
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
  });

  it("hears the end of speech, streams the capture up, runs the turn and plays the streamed reply", async () => {
    for (const [label, noise] of [
      ["quiet room", 0],
      ["noisy room", 250],
    ] as const) {
      const s = scene(sentence, 700, 3000, noise);
      mic.load(s.samples);
      stand.transcripts.push("turn on the desk lamp please");
      stand.llm.reply(openAiAnswer(answer({ reply: "The lamp is on." })));
      stand.speech.push({ pcm: replyPcm(900), pauseMs: 5 });
      const uploadsBefore = stand.uploads.length;
      const result = await sim.halo.core.voice.press()!;
      assert.equal(result.error, undefined, label);
      assert.equal(result.ended, "speech-ended", label);
      assert.equal(result.transcript, "turn on the desk lamp please");
      assert.equal(result.reply, "The lamp is on.");
      assert.equal(result.spoken, "played");
      const late = result.decidedMs! - s.speechEndMs;
      assert.ok(late > 0 && late <= 400, `${label}: end of speech decided ${late} ms after the speech ended`);
      if (!noise) assert.ok(late >= HANGOVER_MS - 40, `${label}: the hangover is kept (${late} ms)`);

      const up = stand.uploads[uploadsBefore];
      assert.equal(up.path, "/v1/audio/transcriptions");
      assert.equal(up.authorization, `Bearer ${KEY}`);
      assert.equal(up.fields.model, "gpt-4o-mini-transcribe");
      assert.equal(up.fields.response_format, "json");
      assert.match(up.contentType, /^multipart\/form-data; boundary=halo-[0-9a-f]{32}$/);
      assert.ok(up.chunked, "the capture is streamed (chunked), not buffered");
      assert.ok(up.pieces > 3, `the body arrived in ${up.pieces} pieces`);
      assert.equal(up.file.contentType, "audio/wav");
      assert.deepEqual({ ...up.wav!, durationMs: 0 }, { rate: 16000, channels: 1, bits: 16, declaredData: 0xffffffff, durationMs: 0 });
      // The capture runs from the press to the decision: the lead-in, the speech and at most 400 ms.
      const expectedMs = s.speechEndMs + late;
      assert.ok(
        Math.abs(up.wav!.durationMs - expectedMs) <= expectedMs * 0.05,
        `${label}: ${up.wav!.durationMs} ms sent, about ${expectedMs} expected`,
      );
      assert.ok(Math.abs(up.wav!.durationMs - result.capturedMs) < 1);

      const prompt = JSON.stringify(stand.llm.seen[stand.llm.seen.length - 1].json);
      assert.match(prompt, /turn on the desk lamp please/);
      assert.match(prompt, /voice/);
      const speech = stand.speechRequests[stand.speechRequests.length - 1];
      assert.deepEqual(speech, { model: "gpt-4o-mini-tts", input: "The lamp is on.", voice: "alloy", response_format: "pcm" });
      const played = speaker.played[speaker.played.length - 1];
      assert.equal(played.sampleRate, 24000);
      assert.deepEqual(Array.from(played.samples), Array.from(replyPcm(900)), "the speaker got the stream, byte for byte");
      assert.deepEqual(
        phases.map((p) => p.phase),
        ["listening", "thinking", "replying", "idle"],
      );
      phases.length = 0;
    }
    const files = readdirSync(join(sim.dataDir, "speaker")).filter((n) => n.endsWith("-speech.wav"));
    assert.equal(files.length, 2);
    const file = decodeWav(new Uint8Array(readFileSync(join(sim.dataDir, "speaker", files[1]))));
    assert.equal(file.sampleRate, 24000);
    assert.equal(file.samples.length, replyPcm(900).length);
  });

  it("transcribes with Mistral's voxtral when sttProv is mistral, from a WAV file espeak-ng wrote", async () => {
    sim.halo.core.config.apply([["sttProv", "mistral"]], "owner");
    try {
      const file = join(sim.dataDir, "said.wav");
      execFileSync("espeak-ng", ["-w", file, "hello there"]);
      const loadedMs = loadMicWav(mic, file);
      stand.transcripts.push("hello");
      stand.llm.reply(openAiAnswer(answer({ reply: "Hi." })));
      stand.speech.push({ pcm: replyPcm(100) });
      const result = await sim.halo.core.voice.press()!;
      assert.equal(result.transcript, "hello");
      const up = stand.uploads[stand.uploads.length - 1];
      assert.equal(up.fields.model, "voxtral-mini-latest");
      assert.equal(up.wav!.rate, 16000, "espeak's 22 kHz file reached the service at the microphone's rate");
      assert.ok(up.wav!.durationMs <= loadedMs + 400, `${up.wav!.durationMs} ms sent of a ${loadedMs} ms file`);
      assert.equal(up.authorization, "Bearer mk-voice");
    } finally {
      sim.halo.core.config.apply([["sttProv", "openai"]], "owner");
    }
  });

  it("ends the capture on release (press to talk) and stops at the 60 s cap", async () => {
    mic.load(babble(30000));
    stand.transcripts.push("");
    const pending = sim.halo.core.voice.press()!;
    for (let i = 0; i < 20; i++) await new Promise((ok) => setImmediate(ok));
    sim.halo.core.voice.release();
    const released = await pending;
    assert.equal(released.ended, "released");
    assert.ok(released.capturedMs > 0 && released.capturedMs < 30000);
    assert.ok(Math.abs(stand.uploads[stand.uploads.length - 1].wav!.durationMs - released.capturedMs) < 1);
    assert.equal(released.transcript, "");
    assert.deepEqual(
      phases.map((p) => p.phase),
      ["listening", "thinking", "idle"],
    );

    mic.load(babble(MAX_CAPTURE_MS + 5000));
    stand.transcripts.push("a very long ramble");
    stand.llm.reply(openAiAnswer(answer({ reply: "OK." })));
    stand.speech.push({ pcm: replyPcm(100) });
    const capped = await sim.halo.core.voice.press()!;
    assert.equal(capped.ended, "cap");
    assert.equal(capped.capturedMs, MAX_CAPTURE_MS);
    const up = stand.uploads[stand.uploads.length - 1];
    assert.ok(Math.abs(up.wav!.durationMs - MAX_CAPTURE_MS) <= MAX_CAPTURE_MS * 0.05, `${up.wav!.durationMs} ms`);
    assert.equal(up.file.bytes.length, 44 + MAX_CAPTURE_MS * 32);
  });

  it("stops the reply when the button is pressed while it plays (barge-in) and listens again", async () => {
    mic.load(scene(sentence, 300, 1000).samples);
    stand.transcripts.push("tell me a long story");
    stand.llm.reply(openAiAnswer(answer({ reply: "Once upon a time..." })));
    stand.speech.push({ pcm: replyPcm(20000), pieceBytes: 4800, pauseMs: 20 });
    const first = sim.halo.core.voice.press()!;
    while (sim.halo.core.voice.pipeline!.phase !== "replying" || speaker.pending() === 0) await new Promise((ok) => setTimeout(ok, 5));
    mic.load(scene(sentence, 300, 1000).samples);
    stand.transcripts.push("stop");
    stand.llm.reply(openAiAnswer(answer({ reply: "Stopped." })));
    stand.speech.push({ pcm: replyPcm(200) });
    const second = sim.halo.core.voice.press()!;
    assert.ok(second, "a press while replying starts listening");
    assert.equal((await first).spoken, "stopped");
    const cut = speaker.played.find((u) => u.stopped);
    assert.ok(cut && cut.samples.length < replyPcm(20000).length / 4, "playback stopped early");
    assert.equal((await second).transcript, "stop");
    assert.deepEqual(
      phases.map((p) => p.phase),
      ["listening", "thinking", "replying", "listening", "thinking", "replying", "idle"],
    );
  });

  it("reports a provider failing mid-stream, and the next exchange works", async () => {
    mic.load(scene(sentence, 300, 1000).samples);
    stand.transcripts.push("what is new");
    stand.llm.reply(openAiAnswer(answer({ reply: "Plenty." })));
    stand.speech.push({ pcm: replyPcm(3000), breakAfterBytes: 24000, pieceBytes: 8000, pauseMs: 5 });
    const broken = await sim.halo.core.voice.press()!;
    assert.match(broken.error ?? "", /^The connection to OpenAI failed: .*closed mid-answer/);
    assert.equal(phases[phases.length - 1].phase, "error");
    assert.ok(!broken.error!.includes(KEY));

    mic.load(scene(sentence, 300, 1000).samples);
    stand.transcripts.push({ status: 500, body: { error: { message: "transcriber down" } } });
    const failedStt = await sim.halo.core.voice.press()!;
    assert.match(failedStt.error ?? "", /transcriber down/);

    mic.load(scene(sentence, 300, 1000).samples);
    stand.transcripts.push("again");
    stand.llm.reply(openAiAnswer(answer({ reply: "Fine." })));
    stand.speech.push({ pcm: replyPcm(300) });
    const ok = await sim.halo.core.voice.press()!;
    assert.equal(ok.spoken, "played");
  });
});
