// The voice pipeline's own latency, without a network (bench/voice.mjs runs it
// on Node and on the XS host): for each exchange, the time from the mic block
// on which end of speech is decided to the transcription request's end, plus
// the time from the first speech piece received to the first speaker write.
// In-process stand-ins (test/scenarios/voice-rig.ts) answer at once.
import type { AudioIn, AudioOut } from "../lib/ports.ts";
import { recordingSpeaker } from "../lib/voice/memory-audio.ts";
import { VoicePipeline } from "../lib/voice/pipeline.ts";
import { SpeechPlayer } from "../lib/voice/speech.ts";
import { Transcriber } from "../lib/voice/transcribe.ts";
import { sineTone } from "../lib/voice/pcm.ts";
import { portablePorts } from "../test/support/portable-ports.ts";
import { scriptedAudioHttp, syntheticSpeech, type WireLog, type WireScript } from "../test/scenarios/voice-rig.ts";

export async function timeVoiceOverhead(runs: number, now: () => number): Promise<number[]> {
  const ports = portablePorts();
  const log: WireLog = { requests: [], speechPieceAt: [] };
  const script: WireScript = { transcripts: [], speech: [] };
  const http = scriptedAudioHttp(script, log, now);
  const config = { provider: () => "openai" as const, apiKey: () => "sk-bench", baseUrl: () => "http://stand-in/v1" };
  const transcriber = new Transcriber(http, ports.random, ports.clock, config);
  const recorder = recordingSpeaker();
  let firstWriteAt = 0;
  const speaker: AudioOut = {
    ...recorder,
    write(samples, rate) {
      if (!firstWriteAt) firstWriteAt = now();
      recorder.write(samples, rate);
    },
  };
  const speech = new SpeechPlayer(http, ports.clock, speaker, config);
  const clip = syntheticSpeech(10, 500, 1000, 200).samples;
  let lastBlockAt = 0;
  // A microphone that hands over 20 ms blocks one event-loop turn apart, as the I2S driver would.
  const mic: AudioIn = {
    sampleRate: 16000,
    start(cb) {
      let at = 0;
      running = true;
      const step = (): void => {
        if (!running || at >= clip.length) return;
        lastBlockAt = now();
        cb(clip.subarray(at, at + 320));
        at += 320;
        setTimeout(step, 0);
      };
      setTimeout(step, 0);
    },
    stop() {
      running = false;
    },
  };
  let running = false;
  const pipeline = new VoicePipeline({ mic, transcriber, speech, runTurn: async () => "Done.", speakWith: () => ({ voice: "alloy" }) });
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    script.transcripts.push("bench");
    script.speech.push({ pcm: sineTone(300, 300, 24000, 4000) });
    firstWriteAt = 0;
    const pieces = log.speechPieceAt.length;
    const r = await pipeline.press()!;
    if (r.error || r.ended !== "speech-ended") throw new Error(`the bench exchange failed: ${r.error ?? r.ended}`);
    const upload = log.requests.filter((q) => q.url.endsWith("/transcriptions")).pop()!;
    out.push(upload.endedAt - lastBlockAt + (firstWriteAt - log.speechPieceAt[pieces]));
    recorder.take();
  }
  return out;
}

export function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
