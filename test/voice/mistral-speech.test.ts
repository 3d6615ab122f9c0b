// Speech through Mistral (ttsProv mistral): spoken replies from a loopback stand-in of Mistral's speech
// endpoint, on the simulator's speaker and over the device's buffered HTTP path; its failures, barge-in,
// and the rails (the Mistral key and provider routing are never a device action's).
import assert from "node:assert/strict";
import { nodeAudioHttp } from "../../hosts/sim/ports/audio-http.ts";
import type { SimAudioOut } from "../../hosts/sim/ports/audio.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { validateDeviceAction } from "../../lib/device/actions.ts";
import { ProviderError } from "../../lib/providers/errors.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { bufferedAudioHttp } from "../../lib/voice/audio-http.ts";
import { recordingSpeaker } from "../../lib/voice/memory-audio.ts";
import { MISTRAL_DEFAULT_VOICE, MISTRAL_SPEECH_MODEL } from "../../lib/voice/mistral-speech.ts";
import { SpeechPlayer } from "../../lib/voice/speech.ts";
import { encodeWav, wavHeader } from "../../lib/voice/wav.ts";
import { MistralSpeechServer, STAND_IN_RATE } from "../support/mistral-speech-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";

const KEY = "mk-speech-test-KEY";

describe("speech through Mistral", function () {
  this.timeout(60000);
  let stand: MistralSpeechServer;
  before(async () => {
    stand = await MistralSpeechServer.start(KEY);
  });
  after(async () => stand.close());
  beforeEach(() => {
    stand.seen.length = 0;
    stand.script.length = 0;
    stand.spoken.length = 0;
  });

  const player = (options: { key?: string; buffered?: boolean } = {}) => {
    const out = recordingSpeaker();
    const p = new SpeechPlayer(options.buffered ? bufferedAudioHttp(nodeHttpClient) : nodeAudioHttp, fakeClock(), out, {
      provider: () => "mistral",
      apiKey: () => "sk-openai-never-used",
      baseUrl: () => "http://127.0.0.1:1/v1",
      mistral: { apiKey: () => options.key ?? KEY, baseUrl: () => stand.url },
    });
    return { p, out };
  };

  describe("on the simulator", () => {
    let sim: TestSim;
    before(async () => {
      sim = await startTestSim({ baseUrls: { mistral: stand.url }, initialSecrets: { mistral: KEY }, portOverrides: { log: memoryLog() } });
    });
    after(async () => sim.stop());

    it("a tts device action with ttsProv mistral speaks Mistral's WAV on the speaker", async () => {
      const core = sim.halo.core;
      const set = validateDeviceAction(
        { config: { ttsProv: "mistral" } },
        { principal: makePrincipal("owner", "admin", "turn"), config: core.config, midTurn: true },
      );
      assert.ok(set.ok);
      assert.equal((await core.actuator.apply(set.action)).ok, true);
      const outcome = await core.actuator.apply({ kind: "tts", text: "the lamp is on" });
      assert.equal(outcome.ok, true, outcome.text);
      assert.equal(stand.seen.length, 1);
      const req = stand.seen[0];
      assert.equal(req.path, "/v1/audio/speech");
      assert.equal(req.authorization, `Bearer ${KEY}`);
      assert.deepEqual(req.json, {
        model: MISTRAL_SPEECH_MODEL,
        input: "the lamp is on",
        voice_id: MISTRAL_DEFAULT_VOICE,
        response_format: "wav",
      });
      const speaker = core.ports.audioOut as SimAudioOut;
      const played = speaker.played[speaker.played.length - 1];
      assert.equal(played.kind, "speech");
      assert.equal(played.sampleRate, STAND_IN_RATE);
      assert.deepEqual(played.samples, stand.spoken[0], "the very samples the stand-in spoke");
      assert.ok(played.samples.length > STAND_IN_RATE / 2, "more than half a second of speech");
    });

    it("a Mistral voice id in ttsVoice is sent as it is", async () => {
      const core = sim.halo.core;
      assert.equal(core.config.apply([["ttsVoice", "gb_jane_neutral"]], "device"), undefined);
      assert.equal((await core.actuator.apply({ kind: "tts", text: "hello" })).ok, true);
      assert.equal(stand.seen[0].json.voice_id, "gb_jane_neutral");
      core.config.apply([["ttsVoice", "alloy"]], "device");
    });
  });

  it("plays over the device's buffered HTTP path the same way", async () => {
    const { p, out } = player({ buffered: true });
    assert.equal(await p.play("good morning", "alloy").done, "played");
    assert.equal(out.rate(), STAND_IN_RATE);
    assert.deepEqual(out.take(), stand.spoken[0]);
  });

  it("turns every failure into one sentence that never holds the key, and plays nothing", async () => {
    const float = encodeWav({ sampleRate: 24000, samples: new Int16Array(100) });
    float[34] = 32; // bits per sample 32
    const cases: Array<[MistralSpeechServer["script"][number] | "wrong key", RegExp]> = [
      ["wrong key", /^The Mistral key was refused \(HTTP 401\)/],
      [
        { kind: "status", status: 429, body: { object: "error", message: "Rate limit exceeded", type: "rate_limited" } },
        /Rate limit exceeded/,
      ],
      [{ kind: "status", status: 500, body: "<html>oops</html>" }, /500/],
      [{ kind: "body", body: "not json" }, /^Mistral's speech answer held no audio\.$/],
      [{ kind: "body", body: JSON.stringify({ audio_data: "" }) }, /^Mistral's speech answer held no audio\.$/],
      [{ kind: "body", body: JSON.stringify({ audio_data: "***" }) }, /^Mistral's speech answer held no audio\.$/],
      [
        { kind: "wav", wav: new TextEncoder().encode("ID3 an mp3, not a wav") },
        /^Mistral's speech answer is not a usable WAV file: no RIFF\/WAVE header\.$/,
      ],
      [{ kind: "wav", wav: float }, /not a usable WAV file: only 16-bit samples are accepted\.$/],
      [{ kind: "wav", wav: wavHeader(24000, 0) }, /not a usable WAV file: it holds no samples\.$/],
    ];
    for (const [step, expected] of cases) {
      const { p, out } = player({ key: step === "wrong key" ? "mk-wrong-KEY" : KEY });
      if (step !== "wrong key") stand.script.push(step);
      const error = await p.play("hello", "alloy").done.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof ProviderError, String(error));
      assert.match(error.message, expected);
      assert.equal(error.provider, "mistral");
      assert.ok(!error.message.includes("KEY"), error.message);
      assert.equal(out.take().length, 0, "nothing played");
    }
  });

  it("refuses before sending without a key, or with text over the limit", async () => {
    const noKey = player({ key: "" });
    await assert.rejects(noKey.p.play("hi", "alloy").done, /^ProviderError: No Mistral key is set for speech/);
    const long = player();
    await assert.rejects(long.p.play("x".repeat(4097), "alloy").done, /limited to 4096 characters/);
    assert.equal(stand.seen.length, 0);
  });

  it("stop() while the answer is awaited abandons it: stopped, nothing played", async () => {
    stand.script.push({ kind: "hang" });
    const { p, out } = player();
    const playback = p.play("a long story", "alloy");
    while (stand.seen.length === 0) await new Promise((ok) => setTimeout(ok, 5));
    playback.stop();
    assert.equal(await playback.done, "stopped");
    assert.equal(out.take().length, 0);
  });

  it("the Mistral key and provider routing are never a device action's: refused whole as protected-BLOCKED", () => {
    const ctx = { principal: makePrincipal("owner", "admin", "turn"), config: undefined as never, midTurn: true };
    for (const config of [{ mistralKey: "x" }, { ttsProv: "mistral", mistral: "http://evil" }, { providerPriority: ["mistral"] }]) {
      const check = validateDeviceAction({ config }, ctx);
      assert.ok(!check.ok && check.reason.startsWith("protected-BLOCKED"), JSON.stringify(check));
      assert.ok(!check.ok && !check.reason.includes("evil"));
    }
  });
});
