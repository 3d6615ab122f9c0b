// WAV files and the simulated audio: what the speaker played, written under
// <data>/speaker/ (0001-speech.wav, 0002-tone.wav...; the oldest go past
// SPEAKER_FILES_KEPT), and a WAV file loaded into the microphone.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIC_SAMPLE_RATE, resample } from "../../../lib/voice/pcm.ts";
import { decodeWav, encodeWav } from "../../../lib/voice/wav.ts";
import type { SimAudioIn, SimUtterance } from "./audio.ts";

export const SPEAKER_FILES_KEPT = 32;

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

/** Loads a WAV file (16-bit PCM, any rate 8-48 kHz, mono or stereo) into the simulated microphone at 16 kHz. */
export function loadMicWav(mic: SimAudioIn, path: string): number {
  const pcm = decodeWav(new Uint8Array(readFileSync(path)));
  const samples = resample(pcm.samples, pcm.sampleRate, MIC_SAMPLE_RATE);
  mic.load(samples);
  return (samples.length * 1000) / MIC_SAMPLE_RATE;
}
