// audio.transcribe through the registry: the simulated microphone streamed to
// the transcription stand-in, and the rails (admins only, never unattended,
// not while a spoken request holds the microphone, bad arguments refused).
import { withoutError } from "../support/registry.ts";
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import type { SimAudioIn } from "../../hosts/sim/ports/audio.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { say, scene } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";

describe("audio.transcribe", function () {
  this.timeout(30000);
  let stand: VoiceServer;
  let core: Core;
  const admin = makePrincipal("owner", "admin", "turn");
  before(async () => {
    stand = await VoiceServer.start();
    core = buildCore(memoryPorts({ log: memoryLog() }), { ...TEST_HOST, baseUrls: { openai: stand.url } });
    core.secrets.set("openai", "sk-mic-KEY");
  });
  after(async () => stand.close());

  it("listens for the asked seconds and returns the transcript", async () => {
    (core.ports.audioIn as SimAudioIn).load(scene(say("remind me to water the plants"), 200, 500).samples);
    stand.transcripts.push("remind me to water the plants");
    const r = await core.registry.dispatch("audio.transcribe", { seconds: 3 }, admin);
    assert.deepEqual(r, { text: "Heard (3 s): remind me to water the plants" });
    const up = stand.uploads.at(-1)!;
    assert.equal(up.wav!.rate, 16000);
    assert.ok(Math.abs(up.wav!.durationMs - 3000) <= 150, `${up.wav!.durationMs} ms`);
    assert.equal((core.ports.audioIn as SimAudioIn).capturing, false, "the microphone is released");
  });

  it("transcribes a stored recording the caller can see, as it is stored", async () => {
    const sam = makePrincipal("sam", "user", "turn");
    const wav = encodeWav({ sampleRate: 16000, samples: say("the meeting moved to Thursday") });
    core.artifacts.save(sam, "voice", "memo.wav", wav);
    stand.transcripts.push("the meeting moved to Thursday");
    const r = await core.registry.dispatch("audio.transcribe", { project: "voice", name: "memo.wav" }, sam);
    assert.deepEqual(r, { text: "Transcript of voice/memo.wav: the meeting moved to Thursday" });
    const up = stand.uploads.at(-1)!;
    assert.deepEqual([up.file.filename, up.file.contentType], ["memo.wav", "audio/wav"]);
    assert.ok(Buffer.from(wav).equals(up.file.bytes), "the recording is sent byte for byte");
    // Another person's unshared recording reads like a missing one; a text file is not a recording.
    const other = await core.registry.dispatch(
      "audio.transcribe",
      { project: "voice", name: "memo.wav" },
      makePrincipal("kim", "user", "turn"),
    );
    assert.match(other.text, /^not-found: no file voice\/memo\.wav/);
    core.artifacts.saveText(sam, "voice", "notes.txt", "hello");
    assert.match(
      (await core.registry.dispatch("audio.transcribe", { project: "voice", name: "notes.txt" }, sam)).text,
      /^invalid: recordings end in/,
    );
    for (const args of [{ project: "voice" }, { project: "voice", name: "memo.wav", seconds: 2 }]) {
      assert.match((await core.registry.dispatch("audio.transcribe", args, sam)).text, /^invalid arguments/, JSON.stringify(args));
    }
  });

  it("keeps to its rails and refuses bad arguments", async () => {
    const user = makePrincipal("sam", "user", "turn");
    assert.match((await core.registry.dispatch("audio.transcribe", { seconds: 1 }, user)).text, /^admin-only: /);
    const unattended = makePrincipal("owner", "admin", "turn", true);
    assert.match((await core.registry.dispatch("audio.transcribe", { seconds: 1 }, unattended)).text, /^scheduled-refused/);
    for (const args of [{}, { seconds: 0 }, { seconds: 31 }, { seconds: "2" }, { seconds: 1.5 }, { seconds: 1, path: "x" }]) {
      const r = await core.registry.dispatch("audio.transcribe", args, admin);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.text, /^invalid arguments/);
    }
    const deaf = buildCore(memoryPorts({ log: memoryLog(), audioIn: undefined }), TEST_HOST);
    assert.deepEqual(withoutError(await deaf.registry.dispatch("audio.transcribe", { seconds: 1 }, admin)), {
      text: "not-present: this device has no microphone.",
      isError: true,
    });
    core.secrets.clear("openai");
    try {
      const r = await core.registry.dispatch("audio.transcribe", { seconds: 1 }, admin);
      assert.match(r.text, /^failed: the transcription did not complete \(No openai key is set/);
      assert.equal((core.ports.audioIn as SimAudioIn).capturing, false);
    } finally {
      core.secrets.set("openai", "sk-mic-KEY");
    }
    stand.transcripts.push({ status: 500, body: { error: { message: "down" } } });
    const down = await core.registry.dispatch("audio.transcribe", { seconds: 1 }, admin);
    assert.match(down.text, /^failed: the transcription did not complete/);
    assert.ok(!down.text.includes("sk-mic-KEY"));
  });
});
