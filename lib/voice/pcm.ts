// Sample-level helpers: rate conversion, loudness, and the INMP441's 32-bit
// I2S slots down to 16-bit samples. Loops are over one block at a time.

/** The microphone's format everywhere in lib/: 16 kHz, 16-bit, mono. */
export const MIC_SAMPLE_RATE = 16000;
/** What OpenAI's speech endpoint streams with response_format "pcm". */
export const SPEECH_PCM_RATE = 24000;

/** Linear-interpolation resampling; returns `samples` itself when the rates match. */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to || samples.length === 0) return samples;
  const count = Math.max(1, Math.floor((samples.length * to) / from));
  const out = new Int16Array(count);
  const step = from / to;
  const last = samples.length - 1;
  for (let i = 0; i < count; i++) {
    const pos = i * step;
    const j = Math.floor(pos);
    const frac = pos - j;
    const a = samples[j > last ? last : j];
    const b = samples[j + 1 > last ? last : j + 1];
    out[i] = Math.round(a + (b - a) * frac);
  }
  return out;
}

/** Root mean square of a block (0-32768). */
export function rms(samples: Int16Array, start = 0, end: number = samples.length): number {
  if (end <= start) return 0;
  let sum = 0;
  for (let i = start; i < end; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / (end - start));
}

/**
 * An INMP441 sends 24 significant bits left-aligned in 32-bit slots; the top
 * 16 bits are the sample. `words` is what the I2S driver read.
 */
export function slots32ToSamples(words: Int32Array): Int16Array {
  const out = new Int16Array(words.length);
  for (let i = 0; i < words.length; i++) out[i] = words[i] >> 16;
  return out;
}

/** A sine tone at `amplitude` (0-32767). */
export function sineTone(frequencyHz: number, durationMs: number, sampleRate: number, amplitude: number): Int16Array {
  const out = new Int16Array(Math.round((durationMs * sampleRate) / 1000));
  const w = (2 * Math.PI * frequencyHz) / sampleRate;
  for (let i = 0; i < out.length; i++) out[i] = Math.round(amplitude * Math.sin(w * i));
  return out;
}

/** Energy of one frequency in a block (Goertzel), normalised to the block's RMS scale. */
export function toneLevel(samples: Int16Array, frequencyHz: number, sampleRate: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * frequencyHz) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s0 = samples[i] + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return samples.length ? (2 * Math.sqrt(Math.max(0, power))) / samples.length : 0;
}
