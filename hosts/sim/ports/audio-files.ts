// WAV files and the simulated audio: what the speaker played, written under
// <data>/speaker/ (0001-speech.wav, 0002-tone.wav...; the oldest go past
// SPEAKER_FILES_KEPT), and a WAV file loaded into the microphone.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIC_SAMPLE_RATE, resample } from "../../../lib/voice/pcm.ts";
import { decodeWav, encodeWav, type Pcm } from "../../../lib/voice/wav.ts";
import type { SimAudioIn, SimUtterance } from "./audio.ts";

export const SPEAKER_FILES_KEPT = 32;
/** The largest WAV the microphone takes: ten minutes at 48 kHz stereo, far past the 60 s capture cap. */
export const MIC_WAV_MAX_BYTES = 128 * 1024 * 1024;

export function speakerFileSink(dir: string): (u: SimUtterance) => void {
  let seq = 0;
  return (u) => {
    mkdirSync(dir, { recursive: true });
    const names = readdirSync(dir)
      .filter((n) => /^\d{4,}-(speech|tone)\.wav$/.test(n))
      .sort();
    if (seq === 0 && names.length) seq = parseInt(names[names.length - 1], 10);
    seq++;
    const name = `${String(seq).padStart(4, "0")}-${u.kind}.wav`;
    const temp = join(dir, `.${name}.tmp`);
    writeFileSync(temp, encodeWav({ sampleRate: u.sampleRate, samples: u.samples }));
    renameSync(temp, join(dir, name));
    for (const old of names.slice(0, Math.max(0, names.length + 1 - SPEAKER_FILES_KEPT))) rmSync(join(dir, old), { force: true });
  };
}

/**
 * Loads a WAV file (16-bit PCM, any rate 8-48 kHz, mono or stereo) into the
 * simulated microphone at 16 kHz; with `once`, only the next capture hears it
 * (HALO_MIC_WAV). Returns its length in ms; throws a sentence naming the file
 * when it cannot be read or is not such a WAV.
 */
export function loadMicWav(mic: SimAudioIn, path: string, options?: { once?: boolean }): number {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new Error(`The microphone's WAV file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  if (bytes.length > MIC_WAV_MAX_BYTES)
    throw new Error(`The microphone's WAV file ${path} is over ${MIC_WAV_MAX_BYTES / (1024 * 1024)} MB.`);
  let pcm: Pcm;
  try {
    pcm = decodeWav(bytes);
  } catch (e) {
    throw new Error(`The microphone's WAV file ${path} is not usable: ${e instanceof Error ? e.message : "unreadable"}`);
  }
  const samples = resample(pcm.samples, pcm.sampleRate, MIC_SAMPLE_RATE);
  mic.load(samples, options);
  return (samples.length * 1000) / MIC_SAMPLE_RATE;
}
