// The microphone's health from the microphone itself: one second captured
// (at most MIC_CHECK_DEADLINE_MS of waiting), its level, and the two faults a
// broken microphone shows: every sample zero (no clock, no data line, a
// driver reading the wrong slot) or a signal pinned at full scale (a wrong
// format or bit depth read as 16 bits). Waits for samples, with a deadline.
import type { AudioIn, Clock, Timers } from "../ports";

/** How much is captured: one second. */
export const MIC_CHECK_MS = 1000;
/** How long the capture may take before the microphone counts as not delivering. */
export const MIC_CHECK_DEADLINE_MS = 2500;
/** A share of the samples this large at full scale is a clipped signal. */
export const MIC_CLIPPED_SHARE = 0.01;
/** Fewer samples than this share of a second by the deadline is a microphone that does not deliver. */
export const MIC_MIN_DELIVERED_SHARE = 0.9;
/** |sample| at or above this counts as full scale. */
const FULL_SCALE = 32767;

export interface MicLevel {
  sampleRate: number;
  /** Samples captured (at most one second's). */
  samples: number;
  /** How long the capture took (ms). */
  elapsedMs: number;
  rms: number;
  peak: number;
  /** Samples that were 0, and at full scale. */
  zeros: number;
  clipped: number;
}

export type MicVerdict = { ok: true; detail: string } | { ok: false; detail: string };

/** Captures up to a second from `mic`; throws when the microphone will not start (busy, failed). */
export async function measureMic(mic: AudioIn, timers: Pick<Timers, "sleep">, clock: Clock): Promise<MicLevel> {
  const want = Math.round((MIC_CHECK_MS * mic.sampleRate) / 1000);
  let count = 0;
  let sum = 0;
  let peak = 0;
  let zeros = 0;
  let clipped = 0;
  let filled: () => void = () => {};
  const full = new Promise<void>((ok) => (filled = ok));
  const began = clock.now();
  mic.start((block) => {
    const take = Math.min(block.length, want - count);
    for (let i = 0; i < take; i++) {
      const s = block[i];
      const a = s < 0 ? -s : s;
      sum += s * s;
      if (a > peak) peak = a;
      if (s === 0) zeros++;
      if (a >= FULL_SCALE) clipped++;
    }
    count += take;
    if (count >= want) filled();
  });
  try {
    await Promise.race([full, timers.sleep(MIC_CHECK_DEADLINE_MS)]);
  } finally {
    mic.stop();
  }
  return {
    sampleRate: mic.sampleRate,
    samples: count,
    elapsedMs: clock.now() - began,
    rms: count ? Math.sqrt(sum / count) : 0,
    peak,
    zeros,
    clipped,
  };
}

/** What system.health says of a measured second. */
export function judgeMic(level: MicLevel): MicVerdict {
  const want = Math.round((MIC_CHECK_MS * level.sampleRate) / 1000);
  if (level.samples < want * MIC_MIN_DELIVERED_SHARE)
    return {
      ok: false,
      detail: `delivered ${level.samples} of ${want} samples in ${Math.round(level.elapsedMs)} ms at ${level.sampleRate} Hz`,
    };
  if (level.zeros === level.samples)
    return { ok: false, detail: `stuck at zero: every sample of the last second is 0 (${level.sampleRate} Hz)` };
  const share = level.clipped / level.samples;
  if (share >= MIC_CLIPPED_SHARE)
    return { ok: false, detail: `clipped: ${Math.round(share * 1000) / 10}% of the last second at full scale (${level.sampleRate} Hz)` };
  return { ok: true, detail: `${level.sampleRate} Hz; the last second: RMS ${Math.round(level.rms)}, peak ${level.peak}` };
}
