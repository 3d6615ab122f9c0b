// The self-test's microphone loopback: capture while the speaker plays a
// tone, then look for that tone in what the microphone heard (Goertzel
// against the capture's overall level). Waits for samples, not for time: the
// AudioIn contract is that blocks keep coming until stop().
import type { AudioIn, AudioOut } from "../ports";
import { rms, toneLevel } from "./pcm";

/** The tone's level must be at least this fraction of the capture's RMS (a pure tone scores about 1.41). */
export const LOOPBACK_MIN_PURITY = 0.5;
/** And at least this loud (samples), so a silent room with a hum does not pass. */
export const LOOPBACK_MIN_LEVEL = 200;
/** Capture this long past the tone, for the speaker's and the microphone's latency. */
export const LOOPBACK_TAIL_MS = 200;

export interface LoopbackResult {
  heard: boolean;
  /** One sentence for the self-test line. */
  detail: string;
}

export async function micLoopback(mic: AudioIn, speaker: AudioOut, frequencyHz: number, toneMs: number): Promise<LoopbackResult> {
  const want = Math.round(((toneMs + LOOPBACK_TAIL_MS) * mic.sampleRate) / 1000);
  const heard = new Int16Array(want);
  let count = 0;
  let filled: () => void = () => {};
  const full = new Promise<void>((ok) => (filled = ok));
  mic.start((block) => {
    const take = Math.min(block.length, want - count);
    heard.set(block.subarray(0, take), count);
    count += take;
    if (count >= want) filled();
  });
  try {
    await speaker.tone(frequencyHz, toneMs);
    await full;
  } finally {
    mic.stop();
  }
  const level = toneLevel(heard, frequencyHz, mic.sampleRate);
  const overall = rms(heard);
  const ok = level >= LOOPBACK_MIN_LEVEL && overall > 0 && level / overall >= LOOPBACK_MIN_PURITY;
  const detail = `${frequencyHz} Hz at level ${Math.round(level)} of ${Math.round(overall)} RMS`;
  return { heard: ok, detail: ok ? `heard the tone (${detail})` : `did not hear the tone (${detail})` };
}
