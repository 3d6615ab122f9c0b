// The AudioOut port over the SDK's `embedded:io/audio/out` (I2S amplifier).
// The output runs at the rate of the stream being played (speech at 24 kHz):
// a block at another rate is resampled to it. Blocks wait in a queue the
// driver's onWritable drains; stop() drops the queue (barge-in).
import type AudioOutDriver from "embedded:io/audio/out";
import Modules from "modules";
import type { AudioOut, Log } from "../../../lib/ports";
import { resample, sineTone, SPEECH_PCM_RATE } from "../../../lib/voice/pcm";

type AudioOutClass = typeof AudioOutDriver;

/** Queued audio beyond this is refused (samples): a minute at 24 kHz. */
const QUEUE_MAX_SAMPLES = 24000 * 60;
const TONE_AMPLITUDE = 8000;

/** The speaker, or undefined when the build has no audio output module. */
export function i2sAudioOut(log: Log): AudioOut | undefined {
  if (!Modules.has("embedded:io/audio/out")) return undefined;
  const Driver = Modules.importNow("embedded:io/audio/out") as AudioOutClass;
  const queue: Uint8Array[] = [];
  let queued = 0;
  let volume = 60;
  let running = false;
  let drained: Array<() => void> = [];
  const finish = (): void => {
    const waiting = drained;
    drained = [];
    for (const w of waiting) w();
  };
  const output = new Driver({
    sampleRate: SPEECH_PCM_RATE,
    channels: 1,
    bitsPerSample: 16,
    onWritable(byteLength) {
      let room = byteLength;
      while (room > 0 && queue.length) {
        const head = queue[0];
        const take = Math.min(room, head.length);
        this.write(head.subarray(0, take));
        room -= take;
        queued -= take >> 1;
        if (take === head.length) queue.shift();
        else queue[0] = head.subarray(take);
      }
      if (!queue.length && running) {
        running = false;
        this.stop();
        finish();
      }
    },
  });
  output.volume = volume / 100;
  const port: AudioOut = {
    volume: () => volume,
    setVolume(percent) {
      volume = Math.max(0, Math.min(100, Math.round(percent)));
      output.volume = volume / 100;
    },
    write(samples, sampleRate) {
      const block = sampleRate === SPEECH_PCM_RATE ? samples : resample(samples, sampleRate, SPEECH_PCM_RATE);
      if (queued + block.length > QUEUE_MAX_SAMPLES) throw new Error("The speaker's queue is full.");
      queue.push(new Uint8Array(block.buffer, block.byteOffset, block.byteLength).slice());
      queued += block.length;
      if (!running) {
        running = true;
        output.start();
      }
    },
    drain() {
      if (!running) return Promise.resolve();
      return new Promise<void>((ok) => drained.push(ok));
    },
    stop() {
      queue.length = 0;
      queued = 0;
      if (running) {
        running = false;
        output.stop({ flush: true });
      }
      finish();
    },
    async tone(frequencyHz, durationMs, level = 100) {
      const amplitude = (TONE_AMPLITUDE * Math.max(0, Math.min(100, level))) / 100;
      port.write(sineTone(frequencyHz, durationMs, SPEECH_PCM_RATE, amplitude), SPEECH_PCM_RATE);
      await port.drain();
    },
  };
  log.info("speaker: I2S output ready");
  return port;
}
