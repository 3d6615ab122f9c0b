// Audio ports over memory, for the owner API's /api/voice and the self-test:
// a microphone that plays back given samples, and a speaker that records.
import type { AudioIn, AudioOut } from "../ports";
import { MIC_SAMPLE_RATE } from "./pcm";

/** Block size a recorded source hands over: 20 ms at 16 kHz, like the device's I2S reads. */
export const SOURCE_BLOCK_SAMPLES = 320;
/** The recording speaker keeps at most this many samples (two minutes at 24 kHz). */
export const RECORDER_MAX_SAMPLES = 24000 * 120;

/**
 * A microphone that delivers `samples` (16 kHz) block by block, one block per
 * microtask, then stays silent; `onEnd` runs once after the last block unless
 * stopped before.
 */
export function samplesSource(samples: Int16Array, onEnd: () => void): AudioIn {
  let running = false;
  return {
    sampleRate: MIC_SAMPLE_RATE,
    start(onSamples) {
      running = true;
      void (async () => {
        for (let at = 0; at < samples.length && running; at += SOURCE_BLOCK_SAMPLES) {
          onSamples(samples.subarray(at, Math.min(samples.length, at + SOURCE_BLOCK_SAMPLES)));
          await null;
        }
        if (running) onEnd();
      })();
    },
    stop() {
      running = false;
    },
  };
}

export interface RecordingSpeaker extends AudioOut {
  /** The rate of the first block written (later blocks at another rate are refused). */
  rate(): number | undefined;
  /** Everything written since the last take, as one block. */
  take(): Int16Array;
}

/** A speaker that keeps what it is given instead of playing it. */
export function recordingSpeaker(): RecordingSpeaker {
  let blocks: Int16Array[] = [];
  let total = 0;
  let sampleRate: number | undefined;
  let volume = 100;
  return {
    volume: () => volume,
    setVolume(percent) {
      volume = percent;
    },
    async tone() {},
    write(samples, rate) {
      if (sampleRate === undefined) sampleRate = rate;
      if (rate !== sampleRate) throw new Error("The recording speaker takes one rate per recording.");
      if (total + samples.length > RECORDER_MAX_SAMPLES) throw new Error("The reply is longer than the recorder keeps.");
      blocks.push(samples.slice());
      total += samples.length;
    },
    async drain() {},
    stop() {},
    rate: () => sampleRate,
    take() {
      const out = new Int16Array(total);
      let at = 0;
      for (const b of blocks) {
        out.set(b, at);
        at += b.length;
      }
      blocks = [];
      total = 0;
      sampleRate = undefined;
      return out;
    },
  };
}
