// Speech and noise for the wake-word set (test/support/wake-set.ts): espeak-ng at a chosen voice, speed
// and pitch, resampled to 16 kHz by sox; white, pink and babble noise; mixing at a signal-to-noise ratio.
// Everything is seeded, and espeak-ng and sox are deterministic, so the same parameters give the same audio.
import { execFileSync } from "node:child_process";
import { ensureDebianPackage } from "./debian.ts";
import { mulberry32 } from "./prng.ts";
import { ensureEspeak } from "./speech.ts";

export interface Voice {
  /** An espeak-ng voice, with an optional variant: "en-us", "en-us+f3". */
  voice: string;
  wordsPerMinute: number;
  /** espeak-ng's pitch, 0-99 (50 is the voice's own). */
  pitch: number;
}

/** `text` spoken by espeak-ng, resampled to 16 kHz by sox (espeak-ng speaks at 22.05 kHz). */
export function speak(text: string, v: Voice): Int16Array {
  ensureEspeak();
  ensureDebianPackage("sox");
  const wav = execFileSync("espeak-ng", ["--stdout", "-v", v.voice, "-s", String(v.wordsPerMinute), "-p", String(v.pitch), text], {
    maxBuffer: 1 << 30,
  });
  const raw = execFileSync("sox", ["-V1", "-t", "wav", "-", "-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", "-"], {
    input: wav,
    maxBuffer: 1 << 30,
  });
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + (raw.byteLength & ~1)));
}

/** The clip without its leading and trailing near-silence (samples under `level`). */
export function trim(clip: Int16Array, level = 200): Int16Array {
  let first = 0;
  while (first < clip.length && Math.abs(clip[first]) < level) first++;
  let last = clip.length - 1;
  while (last > first && Math.abs(clip[last]) < level) last--;
  return clip.slice(first, last + 1);
}

/** RMS of the clip's active part: 10 ms hops within 30 dB of its loudest hop (so pauses do not count). */
export function activeRms(clip: Int16Array): number {
  const hops: number[] = [];
  for (let at = 0; at + 160 <= clip.length; at += 160) {
    let sum = 0;
    for (let i = at; i < at + 160; i++) sum += clip[i] * clip[i];
    hops.push(sum / 160);
  }
  const loudest = Math.max(0, ...hops);
  const active = hops.filter((e) => e >= loudest / 1000);
  return active.length ? Math.sqrt(active.reduce((a, b) => a + b, 0) / active.length) : 0;
}

function rmsOf(x: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i] * x[i];
  return x.length ? Math.sqrt(sum / x.length) : 0;
}

export type NoiseKind = "white" | "pink" | "babble";

/** Gaussian white noise at RMS 1. */
export function whiteNoise(length: number, seed: number): Float32Array {
  const rng = mulberry32(seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = rng.gaussian();
  return out;
}

/** Pink (1/f) noise at RMS 1: Paul Kellet's three-pole filter of white noise. */
export function pinkNoise(length: number, seed: number): Float32Array {
  const white = whiteNoise(length + 4000, seed);
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < white.length; i++) {
    const w = white[i];
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    if (i >= 4000) out[i - 4000] = b0 + b1 + b2 + w * 0.1848; // the first 4000 let the filter settle
  }
  const r = rmsOf(out);
  for (let i = 0; i < length; i++) out[i] /= r;
  return out;
}

/** Babble at RMS 1: `talkers` streams of other speech, each at the same level, summed. */
export function babbleNoise(length: number, talkers: Int16Array[], seed: number): Float32Array {
  const rng = mulberry32(seed);
  const out = new Float32Array(length);
  for (const talk of talkers) {
    const level = activeRms(talk) || 1;
    let at = rng.int(0, talk.length - 1);
    for (let i = 0; i < length; i++) {
      out[i] += talk[at] / level;
      at = at + 1 === talk.length ? 0 : at + 1;
    }
  }
  const r = rmsOf(out) || 1;
  for (let i = 0; i < length; i++) out[i] /= r;
  return out;
}

/**
 * Adds `noise` (RMS 1) so that `speech`'s active RMS is `snrDb` above it; clamps to int16. The speech sits at
 * `speechAt`, unless `track` (as long as the noise) gives everything to mix, the noise level still set by `speech`.
 */
export function mixAtSnr(speech: Int16Array, noise: Float32Array, snrDb: number, speechAt: number, track?: Int16Array): Int16Array {
  const level = activeRms(speech) / 10 ** (snrDb / 20);
  const out = new Int16Array(noise.length);
  for (let i = 0; i < noise.length; i++) {
    const s = track ? track[i] : i >= speechAt && i < speechAt + speech.length ? speech[i - speechAt] : 0;
    const v = Math.round(s + noise[i] * level);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}
