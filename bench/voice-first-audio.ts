// voice-first-audio-ms: from the reply text being ready to the first samples
// handed to the speaker, over a real socket to a local speech stand-in that
// streams PCM as OpenAI's /v1/audio/speech does.
import { nodeAudioHttp } from "../hosts/sim/ports/audio-http.ts";
import { systemClock } from "../hosts/sim/ports/node-basics.ts";
import { recordingSpeaker } from "../lib/voice/memory-audio.ts";
import { SpeechPlayer } from "../lib/voice/speech.ts";
import { replyPcm } from "../test/support/speech.ts";
import { VoiceServer } from "../test/support/voice-server.ts";

export async function timeFirstAudio(replies: number): Promise<number[]> {
  const stand = await VoiceServer.start();
  try {
    const recorder = recordingSpeaker();
    let firstAt = 0;
    const speaker = {
      ...recorder,
      write(samples: Int16Array, rate: number) {
        if (!firstAt) firstAt = performance.now();
        recorder.write(samples, rate);
      },
    };
    const player = new SpeechPlayer(nodeAudioHttp, systemClock, speaker, {
      provider: () => "openai",
      apiKey: () => "sk-bench",
      baseUrl: () => stand.url,
    });
    const out: number[] = [];
    for (let i = 0; i < replies; i++) {
      stand.speech.push({ pcm: replyPcm(1500), pauseMs: 10 });
      firstAt = 0;
      const readyAt = performance.now();
      const outcome = await player.play("The reply is ready.", "alloy").done;
      if (outcome !== "played") throw new Error("the bench reply did not play");
      out.push(firstAt - readyAt);
      recorder.take();
    }
    return out;
  } finally {
    await stand.close();
  }
}
