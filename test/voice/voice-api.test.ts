// POST /api/voice on the simulator over a real socket: WAV uploads through the
// pipeline to the transcription, LLM and speech stand-ins; GET of the reply's
// WAV; malformed, oversized and hostile requests refused while the server keeps serving.
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { VOICE_UPLOAD_MAX_BYTES } from "../../lib/http/voice-api";
import { decodeWav, encodeWav, wavHeader } from "../../lib/voice/wav.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { replyPcm, say, scene } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { answer, openAiAnswer } from "../turn/support.ts";

async function post(sim: TestSim, body: Uint8Array | string, headers: Record<string, string | undefined> = {}, path = "/api/voice") {
  const merged: Record<string, string | undefined> = { authorization: `Bearer ${sim.token}`, "content-type": "audio/wav", ...headers };
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) clean[k] = v;
  const res = await fetch(`${sim.url}${path}`, { method: "POST", headers: clean, body });
  return { status: res.status, json: (await res.json()) as any, headers: res.headers };
}

async function get(sim: TestSim, path: string, token = sim.token, method = "GET") {
  const res = await fetch(`${sim.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("POST /api/voice on the simulator", function () {
  this.timeout(60000);
  let stand: VoiceServer;
  let sim: TestSim;
  let clip: Int16Array;

  before(async () => {
    clip = say("what is on my calendar");
    stand = await VoiceServer.start();
    sim = await startTestSim({
      baseUrls: { openai: stand.url },
      initialSecrets: { openai: "sk-api-KEY" },
      portOverrides: { log: memoryLog() },
    });
  });
  after(async () => {
    await sim.stop();
    await stand.close();
  });

  it("transcribes the upload, runs the turn and returns the spoken reply as WAV", async () => {
    const s = scene(clip, 500, 1200, 150);
    stand.transcripts.push("what is on my calendar");
    stand.llm.reply(openAiAnswer(answer({ reply: "Nothing today." })));
    stand.speech.push({ pcm: replyPcm(700) });
    const r = await post(sim, encodeWav({ sampleRate: 16000, samples: s.samples }));
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(r.json.transcript, "what is on my calendar");
    assert.equal(r.json.reply, "Nothing today.");
    assert.equal(r.json.ended, "speech-ended");
    assert.match(r.json.audio, /^\/api\/voice\/[0-9a-f]{16}\.wav$/);
    const up = stand.uploads.at(-1)!;
    assert.equal(up.wav!.rate, 16000);
    assert.ok(Math.abs(up.wav!.durationMs - r.json.capturedMs) <= r.json.capturedMs * 0.05);
    assert.ok(r.json.capturedMs - s.speechEndMs > 0 && r.json.capturedMs - s.speechEndMs <= 400);
    assert.match(JSON.stringify(stand.llm.seen.at(-1)!.json), /what is on my calendar/);

    const wav = await get(sim, r.json.audio);
    assert.equal(wav.status, 200);
    assert.equal(wav.type, "audio/wav");
    const back = decodeWav(wav.bytes);
    assert.equal(back.sampleRate, 24000);
    assert.deepEqual(Array.from(back.samples), Array.from(replyPcm(700)));
  });

  it("takes other rates and stereo (resampled to 16 kHz), and any client's token, keeping each reply to its client", async () => {
    const s = scene(clip, 300, 150);
    const rate = 22050;
    const mono = new Int16Array(Math.floor((s.samples.length * rate) / 16000));
    for (let i = 0; i < mono.length; i++) mono[i] = s.samples[Math.floor((i * 16000) / rate)];
    const stereo = encodeWav({ sampleRate: rate, samples: mono });
    const v = new DataView(stereo.buffer);
    // Rewrite as two channels holding the same samples.
    const two = new Uint8Array(44 + mono.length * 4);
    two.set(stereo.subarray(0, 44));
    const tv = new DataView(two.buffer);
    tv.setUint16(22, 2, true);
    tv.setUint32(28, rate * 4, true);
    tv.setUint16(32, 4, true);
    tv.setUint32(40, mono.length * 4, true);
    tv.setUint32(4, 36 + mono.length * 4, true);
    for (let i = 0; i < mono.length; i++) {
      const sample = v.getInt16(44 + 2 * i, true);
      tv.setInt16(44 + 4 * i, sample, true);
      tv.setInt16(46 + 4 * i, sample, true);
    }
    const phone = sim.halo.core.clients.create("phone", "user", "sam");
    stand.transcripts.push("what is on my calendar");
    stand.llm.reply(openAiAnswer(answer({ reply: "Your calendar is empty." })));
    stand.speech.push({ pcm: replyPcm(200) });
    const r = await post(sim, two, { authorization: `Bearer ${phone}`, "content-type": "audio/x-wav" });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const up = stand.uploads.at(-1)!;
    assert.equal(up.wav!.rate, 16000);
    // All of the speech went up at 16 kHz: from the start to at most 400 ms past its end, or the whole upload.
    const sentMs = (mono.length / rate) * 1000;
    const expected = Math.min(sentMs, s.speechEndMs + 400);
    assert.ok(up.wav!.durationMs >= s.speechEndMs, `${up.wav!.durationMs} ms covers the speech`);
    assert.ok(Math.abs(up.wav!.durationMs - expected) <= expected * 0.05, `${up.wav!.durationMs} vs ${expected}`);
    assert.equal((await get(sim, r.json.audio, phone)).status, 200);
    assert.equal((await get(sim, r.json.audio)).status, 404, "another client's reply is not found");
  });

  it("refuses malformed, oversized and unauthorised requests, and keeps serving", async () => {
    const good = encodeWav({ sampleRate: 16000, samples: scene(clip, 200, 100).samples });
    const eightBit = good.slice();
    new DataView(eightBit.buffer).setUint16(34, 8, true);
    const noData = wavHeader(16000, 0).subarray(0, 36);
    const cases: Array<[string, Uint8Array | string, Record<string, string | undefined>, number, RegExp]> = [
      ["text body", "hello there", {}, 400, /not a usable WAV file: no RIFF\/WAVE header/],
      ["8-bit", eightBit, {}, 400, /only 16-bit samples/],
      ["no data chunk", noData, {}, 400, /no data chunk/],
      ["empty", new Uint8Array(0), {}, 400, /no RIFF/],
      ["json type", good, { "content-type": "application/json" }, 415, /send audio\/wav/],
      ["no token", good, { authorization: undefined }, 401, /Unauthorized/],
      ["bad token", good, { authorization: "Bearer nope" }, 401, /Unauthorized/],
      ["oversized", new Uint8Array(VOICE_UPLOAD_MAX_BYTES + 1024), {}, 413, /Payload too large/],
      ["token in URL", good, {}, 400, /Tokens are not accepted in a URL/],
    ];
    for (const [label, body, headers, status, message] of cases) {
      const r = await post(sim, body, headers, label === "token in URL" ? "/api/voice?token=abc" : "/api/voice");
      assert.equal(r.status, status, label);
      assert.match(r.json.error, message, label);
    }
    const huge = wavHeader(16000, 0xfffffff0);
    const r = await post(sim, huge);
    assert.equal(r.status, 400, "a header that promises more than it holds and holds nothing");
    assert.equal((await get(sim, "/api/voice/0123456789abcdef.wav")).status, 404);
    assert.equal((await get(sim, "/api/voice/../../flash.wav")).status, 404);
    assert.equal((await get(sim, "/api/voice", sim.token)).status, 405);
    assert.equal((await get(sim, "/api/voice/0123456789abcdef.wav", "nope")).status, 401);
    assert.equal(stand.uploads.length, 2, "nothing refused reached the transcription service");

    stand.transcripts.push("still there");
    stand.llm.reply(openAiAnswer(answer({ reply: "Yes." })));
    stand.speech.push({ pcm: replyPcm(100) });
    const after = await post(sim, good);
    assert.equal(after.status, 200);
    assert.equal(after.json.reply, "Yes.");
  });

  it("answers 502 with the reason when the transcription service fails", async () => {
    stand.transcripts.push({ status: 401, body: { error: { message: "bad key sk-api-KEY" } } });
    const r = await post(sim, encodeWav({ sampleRate: 16000, samples: scene(clip, 200, 100).samples }));
    assert.equal(r.status, 502);
    assert.match(r.json.error, /OpenAI/);
    assert.ok(!JSON.stringify(r.json).includes("sk-api-KEY"));
    assert.equal(r.json.audio, null);
  });
});
