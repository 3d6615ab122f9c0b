// The wake phrase starts a turn with no press, on the simulator, with its microphone fed from a WAV
// (HALO_MIC_WAV): a quiet room, the taught phrase, then a question. Checked: the transcription stand-in
// receives the question and none of the audio before the detection, the turn runs, the reply is played and
// the ring goes through listening, thinking and speaking; a room without the phrase sends nothing anywhere;
// a muted microphone or a phrase turned off is not listened to.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { EARCON_HZ } from "../../lib/voice/press-to-talk.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import type { SimAudioOut } from "../../hosts/sim/ports/audio.ts";
import { ownerApi } from "../support/owner-api.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { replyPcm, say, scene } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { speak, trim } from "../support/wake-speech.ts";
import { wakeExamples } from "../support/wake-set.ts";
import { answer, openAiAnswer } from "../turn/support.ts";
import { join as joinSamples } from "./synthetic.ts";

const KEY = "sk-wake-loop-KEY";
const RATE = 16000;

async function until(what: string, check: () => boolean, ms = 20000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

describe("the wake phrase starts a turn on the simulator", function () {
  this.timeout(120000);
  let dir: string;
  let stand: VoiceServer;
  let takes: Int16Array[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "halo-wake-loop-"));
    takes = wakeExamples("hey halo");
    stand = await VoiceServer.start();
  });
  after(async () => {
    await stand.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function simWith(room: Int16Array, name: string): Promise<TestSim> {
    const wav = join(dir, `${name}.wav`);
    writeFileSync(wav, encodeWav({ sampleRate: RATE, samples: room }));
    const sim = await startTestSim({
      baseUrls: { openai: stand.url },
      initialSecrets: { openai: KEY },
      portOverrides: { log: memoryLog() },
      micWav: wav,
      dataDir: join(dir, name),
    });
    for (const take of takes) {
      const r = await ownerApi(sim, "POST", "/api/wake/examples", encodeWav({ sampleRate: RATE, samples: take }), {
        "content-type": "audio/wav",
      });
      assert.equal(r.status, 201, r.text);
    }
    return sim;
  }

  it("hears the phrase, then sends only the question after it and speaks the reply", async () => {
    const phrase = trim(speak("hey halo", { voice: "en-us", wordsPerMinute: 170, pitch: 50 }));
    const before = scene(new Int16Array(0), 1500, 0, 60).samples;
    const question = scene(say("what time is it"), 500, 2500, 60);
    const room = joinSamples(before, phrase, question.samples);
    const uploads = stand.uploads.length;
    stand.transcripts.push("what time is it");
    stand.llm.reply(openAiAnswer(answer({ reply: "It is noon." })));
    stand.speech.push({ pcm: replyPcm(800), pauseMs: 5 });
    const sim = await simWith(room, "phrase");
    try {
      const ring: string[] = [];
      sim.halo.core.voice.subscribe(() => void ring.push(sim.halo.lights!.phase() ?? "none"));
      await until("the detection", () => (sim.halo.wakeListener?.state().detections ?? 0) > 0);
      const r = await sim.halo.button.exchange();
      assert.ok(r, "the detection started an exchange");
      assert.equal(r.transcript, "what time is it");
      assert.equal(r.reply, "It is noon.");
      assert.equal(r.spoken, "played");
      const speaker = sim.halo.core.ports.audioOut as SimAudioOut;
      assert.ok(
        speaker.calls.some((c) => c.kind === "tone" && c.hz === EARCON_HZ),
        "the earcon played",
      );
      assert.deepEqual(ring.slice(0, 3), ["listening", "thinking", "replying"]);

      // One upload, holding the question and none of the room or the phrase before the detection.
      assert.equal(stand.uploads.length, uploads + 1);
      const sentMs = stand.uploads[stand.uploads.length - 1].wav!.durationMs;
      const afterPhraseMs = ((question.samples.length + phrase.length * 0.5) * 1000) / RATE;
      assert.ok(sentMs < afterPhraseMs, `${sentMs} ms sent; the question and its tail are ${afterPhraseMs} ms`);
      assert.ok(sentMs > question.speechEndMs - 500, `${sentMs} ms sent holds the question`);
      // Back to idle, the listener hears the room again.
      await until("listening again", () => sim.halo.wakeListener!.state().listening);
    } finally {
      await sim.stop();
    }
  });

  it("sends nothing anywhere for a room without the phrase, and does not listen while muted or turned off", async () => {
    const other = trim(speak("okay nova what is the weather", { voice: "en-us", wordsPerMinute: 165, pitch: 50 }));
    const room = joinSamples(scene(new Int16Array(0), 1000, 0, 60).samples, other, scene(new Int16Array(0), 2000, 0, 60).samples);
    const uploads = stand.uploads.length;
    const calls = stand.llm.seen.length;
    const sim = await simWith(room, "no-phrase");
    try {
      await until("the listener", () => sim.halo.wakeListener!.state().listening);
      await new Promise((ok) => setTimeout(ok, 1500));
      assert.equal(sim.halo.wakeListener!.state().detections, 0);
      assert.equal(stand.uploads.length, uploads, "no audio left the device");
      assert.equal(stand.llm.seen.length, calls, "no turn ran");

      sim.halo.button.gesture("double-press");
      await until("the mute", () => !sim.halo.wakeListener!.state().listening);
      sim.halo.button.gesture("double-press");
      await until("the unmute", () => sim.halo.wakeListener!.state().listening);
      assert.equal((await ownerApi(sim, "PUT", "/api/wake", { enabled: false })).status, 200);
      await until("the phrase off", () => !sim.halo.wakeListener!.state().listening);
    } finally {
      await sim.stop();
    }
  });
});
