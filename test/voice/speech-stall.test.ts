// The speech stream's stall watch: on a streaming host a stream that sends
// no audio for SPEECH_STALL_MS is abandoned (the end-to-end loop test shows
// it); on a host whose HTTP hands bodies over whole (the device's buffered
// AudioHttp) nothing arrives until the end, so no watch runs there and a slow
// but complete answer still plays. Against the speech stand-in on loopback.
import assert from "node:assert/strict";
import { nodeAudioHttp } from "../../hosts/sim/ports/audio-http.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { systemClock } from "../../hosts/sim/ports/node-basics.ts";
import { nodeTimers } from "../../hosts/sim/ports/timers.ts";
import type { Timers } from "../../lib/ports.ts";
import { bufferedAudioHttp } from "../../lib/voice/audio-http.ts";
import { recordingSpeaker } from "../../lib/voice/memory-audio.ts";
import { SpeechPlayer } from "../../lib/voice/speech.ts";
import { replyPcm } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";

describe("the speech stream's stall watch", () => {
  let stand: VoiceServer;
  before(async () => {
    stand = await VoiceServer.start();
  });
  after(async () => stand.close());

  /** nodeTimers, counting the repeating timers asked for. */
  const counted = (): Timers & { started: number } => {
    const t = { started: 0, every: (ms: number, fn: () => void) => (t.started++, nodeTimers.every(ms, fn)), sleep: nodeTimers.sleep };
    return t;
  };
  const config = { provider: () => "openai", apiKey: () => "sk-stall", baseUrl: () => stand.url };

  it("watches a streamed answer, and plays it whole", async () => {
    const timers = counted();
    const speaker = recordingSpeaker();
    stand.speech.push({ pcm: replyPcm(500), pauseMs: 5 });
    const done = await new SpeechPlayer(nodeAudioHttp, systemClock, speaker, config, timers).play("hello", "alloy").done;
    assert.equal(done, "played");
    assert.equal(timers.started, 1);
    assert.deepEqual(Array.from(speaker.take()), Array.from(replyPcm(500)));
  });

  it("runs no watch where bodies come whole, and plays a complete answer", async () => {
    const timers = counted();
    const speaker = recordingSpeaker();
    stand.speech.push({ pcm: replyPcm(500), pauseMs: 5 });
    const done = await new SpeechPlayer(bufferedAudioHttp(nodeHttpClient), systemClock, speaker, config, timers).play("hello", "alloy")
      .done;
    assert.equal(done, "played");
    assert.equal(timers.started, 0);
    assert.deepEqual(Array.from(speaker.take()), Array.from(replyPcm(500)));
  });
});
