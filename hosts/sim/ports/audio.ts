// The simulator's microphone and speaker. The microphone plays back a loaded
// recording (a WAV file or an upload) and then a quiet room (a few LSB of noise), in 20 ms blocks like
// the device's I2S reads; the speaker keeps what it was given and hands each
// finished utterance (drained or stopped) to a sink, which the simulator
// writes as a WAV file in its data folder. No Node imports: XS scenarios use them.
import type { AudioIn, AudioOut, Log } from "../../../lib/ports.ts";
import { MIC_SAMPLE_RATE, resample } from "../../../lib/voice/pcm.ts";

/** 20 ms at 16 kHz. */
export const SIM_MIC_BLOCK = 320;
/** The quiet room's noise after a clip: samples within ±this (far below speech's RMS 600). */
export const SIM_ROOM_NOISE = 4;
/** A speaker that is never drained still keeps no more than this (samples). */
const SIM_SPEAKER_MAX_SAMPLES = 24000 * 180;

export interface SimAudioIn extends AudioIn {
  /**
   * What each capture hears from its start; silence follows it. With `once`,
   * it plays once from the next capture on, each capture going on where the last stopped, and then only
   * the room is heard (HALO_MIC_WAV).
   */
  load(samples: Int16Array, options?: { once?: boolean }): void;
  /** Sound in the room (the speaker's tone): mixed into the blocks being captured now; ignored when not capturing. */
  hear(samples: Int16Array, sampleRate: number): void;
  readonly capturing: boolean;
}

/** `schedule` runs the next block: the simulator's event loop turn, so sockets flush between blocks. */
export function simAudioIn(schedule: (next: () => void) => void = nextTurn): SimAudioIn {
  let clip: Int16Array = new Int16Array(0);
  let once = false;
  /** How far captures have played a clip loaded with `once`. */
  let onceAt = 0;
  let session = 0;
  let capturing = false;
  let room: Int16Array = new Int16Array(0);
  let roomAt = 0;
  // A real microphone never reads exact zeros: the quiet room is a few LSB of noise (a fixed sequence).
  let seed = 12345;
  const roomNoise = (): Int16Array => {
    const block = new Int16Array(SIM_MIC_BLOCK);
    for (let i = 0; i < block.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      block[i] = ((seed >> 16) % (2 * SIM_ROOM_NOISE + 1)) - SIM_ROOM_NOISE;
    }
    return block;
  };
  const mix = (block: Int16Array): Int16Array => {
    for (let i = 0; i < block.length && roomAt < room.length; i++, roomAt++)
      block[i] = Math.max(-32768, Math.min(32767, block[i] + room[roomAt]));
    return block;
  };
  return {
    sampleRate: MIC_SAMPLE_RATE,
    get capturing() {
      return capturing;
    },
    load(samples, options) {
      clip = samples;
      once = options?.once === true;
      onceAt = 0;
    },
    start(onSamples) {
      if (capturing) throw new Error("The microphone is already capturing.");
      capturing = true;
      const mine = ++session;
      const heard = clip;
      // A clip played once is the room's sound: a capture that stops early leaves the rest for the next one
      // (the wake listener hears the phrase, the request after it goes to the capture a detection starts).
      let at = once ? onceAt : 0;
      const step = (): void => {
        if (!capturing || session !== mine) return;
        if (at < heard.length) {
          const end = Math.min(heard.length, at + SIM_MIC_BLOCK);
          onSamples(mix(heard.slice(at, end)));
          at = end;
          if (once) onceAt = at;
        } else {
          if (once && heard === clip) {
            clip = new Int16Array(0);
            once = false;
          }
          onSamples(mix(roomNoise()));
        }
        schedule(step);
      };
      schedule(step);
    },
    stop() {
      capturing = false;
    },
    hear(samples, sampleRate) {
      if (!capturing) return;
      room = sampleRate === MIC_SAMPLE_RATE ? samples : resample(samples, sampleRate, MIC_SAMPLE_RATE);
      roomAt = 0;
    },
  };
}

/** Node's setImmediate where there is one (no 1 ms timer floor), else a timer. */
function nextTurn(next: () => void): void {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown };
  if (g.setImmediate) g.setImmediate(next);
  else setTimeout(next, 0);
}

export interface SimUtterance {
  kind: "speech" | "tone";
  sampleRate: number;
  samples: Int16Array;
  /** True when stop() cut it short (barge-in). */
  stopped: boolean;
}

export interface SimAudioOut extends AudioOut {
  /** Tones asked for, for tests. */
  calls: Array<{ kind: "tone"; hz: number; ms: number; level: number }>;
  /** Finished utterances, oldest first (the last few). */
  played: SimUtterance[];
  /** Samples written since the last drain or stop. */
  pending(): number;
}

const PLAYED_KEPT = 8;

/** `sink` gets each finished utterance (the simulator writes it as a WAV file). */
export function simAudioOut(log: Log, sink?: (u: SimUtterance) => void): SimAudioOut {
  let volume = 60;
  let blocks: Int16Array[] = [];
  let count = 0;
  let rate = 0;
  const calls: SimAudioOut["calls"] = [];
  const played: SimUtterance[] = [];
  const finish = (kind: SimUtterance["kind"], stopped: boolean): void => {
    if (count === 0) return;
    const samples = new Int16Array(count);
    let at = 0;
    for (const b of blocks) {
      samples.set(b, at);
      at += b.length;
    }
    const u: SimUtterance = { kind, sampleRate: rate, samples, stopped };
    blocks = [];
    count = 0;
    played.push(u);
    if (played.length > PLAYED_KEPT) played.shift();
    log.info(`simulated speaker: ${kind} of ${Math.round((samples.length * 1000) / u.sampleRate)} ms${stopped ? " (stopped)" : ""}`);
    sink?.(u);
  };
  const out: SimAudioOut = {
    calls,
    played,
    pending: () => count,
    volume: () => volume,
    setVolume(percent) {
      volume = Math.max(0, Math.min(100, Math.round(percent)));
    },
    async tone(hz, ms, level = 100) {
      calls.push({ kind: "tone", hz, ms, level });
      finish("speech", false);
      const samples = new Int16Array(Math.round((ms * 16000) / 1000));
      const w = (2 * Math.PI * hz) / 16000;
      const amplitude = (8000 * Math.max(0, Math.min(100, level))) / 100;
      for (let i = 0; i < samples.length; i++) samples[i] = Math.round(amplitude * Math.sin(w * i));
      blocks = [samples];
      count = samples.length;
      rate = 16000;
      finish("tone", false);
    },
    write(samples, sampleRate) {
      if (count > 0 && sampleRate !== rate) finish("speech", false);
      if (count + samples.length > SIM_SPEAKER_MAX_SAMPLES) finish("speech", false);
      rate = sampleRate;
      blocks.push(samples.slice());
      count += samples.length;
    },
    async drain() {
      finish("speech", false);
    },
    stop() {
      finish("speech", true);
    },
  };
  return out;
}
