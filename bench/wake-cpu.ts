// Runs on the XS host (bench/wake.mjs writes the entry that calls it with the data): the detector's time over
// the audio's time for speech and for silence, each the least of `repeats` passes in 20 ms blocks, with a
// detector taught three examples' features. Prints one line: WAKE-XS {json}.
import type { WakeDetector } from "../lib/wake/kernel.ts";
import { xsWakeKernel } from "../modules/wake/wake.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare function native(name: string): (...args: any[]) => any;

// Moddable's C decoder, linked into the XS host: lib/util/base64.ts walks a string with charCodeAt, which is
// slow on XS for a string of a megabyte.
const decodeBase64 = native("xs_base64_decode") as (text: string) => ArrayBuffer;

export interface WakeCpuData {
  /** Base64 of each example's features (Int16Array bytes, little-endian). */
  features: string[];
  /** Base64 of 16 kHz speech and of silence (a quiet room). */
  speech: string;
  silence: string;
  repeats: number;
}

function samplesOf(base64: string): Int16Array {
  const bytes = decodeBase64(base64);
  return new Int16Array(bytes, 0, bytes.byteLength >> 1);
}

/** Detector time over audio time for `samples`: the least of `repeats` passes (the machine is shared). */
function fraction(detector: WakeDetector, samples: Int16Array, repeats: number): number {
  const runs: number[] = [];
  for (let r = 0; r < repeats; r++) {
    detector.reset();
    const start = hostNow();
    for (let at = 0; at < samples.length; at += 320) detector.push(samples.subarray(at, at + 320));
    runs.push((hostNow() - start) / 1000 / (samples.length / 16000));
  }
  return Math.min(...runs);
}

export function runWakeCpu(data: WakeCpuData): void {
  const detector = xsWakeKernel.createDetector();
  const taught = detector.teach(data.features.map(samplesOf));
  if (taught.refusal) throw new Error(`examples refused: ${taught.refusal}`);
  const speech = fraction(detector, samplesOf(data.speech), data.repeats);
  const silence = fraction(detector, samplesOf(data.silence), data.repeats);
  print(`WAKE-XS ${JSON.stringify({ speech, silence, bytes: detector.bytes })}`);
  detector.close();
}
