// Deterministic speech-like sound for the wake engine's contract: a pulse train through two resonators
// (formants) per "syllable", a noise burst between them, at 16 kHz. Only integer operations, + - * / on
// doubles and literal coefficients (no Math.sin or Math.exp), so Node and XS make the same samples.
import { mulberry32 } from "../support/prng.ts";

/** 2 r cos(2 pi f / 16000) and r^2 for a formant at f Hz with bandwidth b, r = exp(-pi b / 16000). */
const FORMANTS: Record<number, [number, number]> = {
  300: [1.962875579253264, 0.9767134703747673],
  400: [1.9484119125755446, 0.9728854467719555],
  700: [1.8911932903586917, 0.965274350171689],
  900: [1.8398993307168143, 0.9614911598014075],
  1200: [1.7439370015149327, 0.957722796852341],
  2000: [1.3731689338314779, 0.9427964604199386],
  2600: [1.004755501966617, 0.9244652503762558],
};

/** A syllable: formants, duration, and the pitch period (samples) at its start and end. */
export interface Syllable {
  formants: [number, number];
  ms: number;
  periodFrom: number;
  periodTo: number;
}

/** Two syllables of different colour: the phrase the contract teaches. */
export const PHRASE_A: Syllable[] = [
  { formants: [700, 1200], ms: 260, periodFrom: 100, periodTo: 96 },
  { formants: [400, 2000], ms: 320, periodFrom: 96, periodTo: 120 },
];
/** Another phrase, for "unlike" examples and a negative. */
export const PHRASE_B: Syllable[] = [
  { formants: [300, 2600], ms: 200, periodFrom: 80, periodTo: 84 },
  { formants: [900, 1200], ms: 380, periodFrom: 84, periodTo: 70 },
];

function resonate(input: Float64Array, formant: number): Float64Array {
  const [a1, a2] = FORMANTS[formant];
  const out = new Float64Array(input.length);
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < input.length; i++) {
    const y = input[i] + a1 * y1 - a2 * y2;
    out[i] = y;
    y2 = y1;
    y1 = y;
  }
  return out;
}

/**
 * The syllables at `percent` of their length, with `quietMs` of quiet room (noise at `noise` peak) either
 * side, a 60 ms noise burst between syllables, and a peak near `level`.
 */
export function synthPhrase(syllables: Syllable[], percent: number, seed: number, level = 12000, quietMs = 300, noise = 40): Int16Array {
  const rng = mulberry32(seed);
  const parts: Float64Array[] = [];
  for (const [index, s] of syllables.entries()) {
    const length = Math.floor((s.ms * percent) / 100) * 16;
    const pulses = new Float64Array(length);
    let next = 0;
    for (let i = 0; i < length; i++) {
      if (i === next) {
        pulses[i] = 1000;
        next += Math.round(s.periodFrom + ((s.periodTo - s.periodFrom) * i) / length);
      }
    }
    const voiced = resonate(resonate(pulses, s.formants[0]), s.formants[1]);
    const ramp = 320; // 20 ms in and out
    for (let i = 0; i < length; i++) voiced[i] *= Math.min(1, i / ramp, (length - 1 - i) / ramp);
    parts.push(voiced);
    if (index < syllables.length - 1) {
      const burst = new Float64Array(960);
      for (let i = 0; i < burst.length; i++) burst[i] = ((rng.nextUint32() % 2001) - 1000) * 3;
      parts.push(resonate(burst, 2600));
    }
  }
  const body = parts.reduce((n, p) => n + p.length, 0);
  let peak = 1;
  for (const p of parts) for (let i = 0; i < p.length; i++) peak = Math.max(peak, Math.abs(p[i]));
  const quiet = quietMs * 16;
  const out = new Int16Array(quiet + body + quiet);
  let at = quiet;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) out[at + i] = Math.round((p[i] * level) / peak);
    at += p.length;
  }
  for (let i = 0; i < out.length; i++) {
    const v = out[i] + ((rng.nextUint32() % (2 * noise + 1)) - noise);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** Noise of uniform samples in [-level, level]. */
export function uniformNoise(samples: number, level: number, seed: number): Int16Array {
  const rng = mulberry32(seed);
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) out[i] = (rng.nextUint32() % (2 * level + 1)) - level;
  return out;
}

/** The pieces end to end. */
export function join(...pieces: Int16Array[]): Int16Array {
  const out = new Int16Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** FNV-1a (32 bits) of the bytes of a typed array, as 8 hex digits: the same on Node and XS. */
export function hashBytes(view: ArrayBufferView): string {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}
