// Real speech for the voice tests: espeak-ng says a sentence (installed from
// Debian when missing), and a scene puts silence and background noise around
// it at the microphone's 16 kHz. The speech's own start and end are measured
// on the clean clip, so tests know when the talker stopped.
import { execFileSync } from "node:child_process";
import { decodeWav } from "../../lib/voice/wav.ts";
import { MIC_SAMPLE_RATE, resample } from "../../lib/voice/pcm.ts";
import { ensureDebianPackage } from "./debian.ts";
import { mulberry32 } from "./prng.ts";

/** A sample louder than this counts as speech when measuring the clean clip. */
const CLIP_EDGE_LEVEL = 500;

/** Makes sure espeak-ng is on PATH: installs the Debian package when it can, else stops with the command to run. */
export function ensureEspeak(): void {
  ensureDebianPackage("espeak-ng");
}

/** `text` spoken by espeak-ng, at 16 kHz. */
export function say(text: string, wordsPerMinute = 165): Int16Array {
  ensureEspeak();
  const wav = execFileSync("espeak-ng", ["--stdout", "-v", "en-us", "-s", String(wordsPerMinute), text]);
  const pcm = decodeWav(new Uint8Array(wav));
  return resample(pcm.samples, pcm.sampleRate, MIC_SAMPLE_RATE);
}

export interface Scene {
  samples: Int16Array;
  /** Where the speech starts and ends in the scene (ms). */
  speechStartMs: number;
  speechEndMs: number;
}

/** Silence (with noise at `noiseRms`), the clip, silence again. */
export function scene(clip: Int16Array, leadMs: number, tailMs: number, noiseRms = 0, seed = 7): Scene {
  let first = 0;
  while (first < clip.length && Math.abs(clip[first]) < CLIP_EDGE_LEVEL) first++;
  let last = clip.length - 1;
  while (last > first && Math.abs(clip[last]) < CLIP_EDGE_LEVEL) last--;
  const lead = (leadMs * MIC_SAMPLE_RATE) / 1000;
  const total = lead + clip.length + (tailMs * MIC_SAMPLE_RATE) / 1000;
  const out = new Int16Array(total);
  const rng = mulberry32(seed);
  for (let i = 0; i < total; i++) {
    const noise = noiseRms ? rng.gaussian() * noiseRms : 0;
    const voice = i >= lead && i < lead + clip.length ? clip[i - lead] : 0;
    out[i] = Math.max(-32768, Math.min(32767, Math.round(voice + noise)));
  }
  return {
    samples: out,
    speechStartMs: ((lead + first) * 1000) / MIC_SAMPLE_RATE,
    speechEndMs: ((lead + last + 1) * 1000) / MIC_SAMPLE_RATE,
  };
}

/** Loud broadband noise: a talker who never stops (the 60 s cap). */
export function babble(ms: number, rmsLevel = 4000, seed = 11): Int16Array {
  const rng = mulberry32(seed);
  const out = new Int16Array((ms * MIC_SAMPLE_RATE) / 1000);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(rng.gaussian() * rmsLevel)));
  return out;
}

/** A 24 kHz test signal for the speech stand-in to stream (a 440 Hz tone). */
export function replyPcm(ms: number): Int16Array {
  const out = new Int16Array((ms * 24000) / 1000);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(6000 * Math.sin((2 * Math.PI * 440 * i) / 24000));
  return out;
}
