// The wake-word figures on a split of test/support/wake-set.ts with any WakeKernel (the bench uses the Node
// addon; the XS host runs the same C): detection rates of positives and false accepts over the negatives.
// Every stream goes through in 20 ms blocks, as the microphone delivers it.
import type { WakeDetector, WakeKernel, WakeTeaching } from "../lib/wake/kernel.ts";
import {
  type Positive,
  type PositiveCondition,
  type Split,
  type WakePhrase,
  wakeExamples,
  wakeNegatives,
  wakePositives,
} from "../test/support/wake-set.ts";

const BLOCK = 320;
/** A detection counts for a positive from the phrase's start to half a second after its end. */
const LATE_SAMPLES = 8000;

export interface Taught {
  detector: WakeDetector;
  teaching: WakeTeaching;
  /** The examples' features, as lib/ would keep them. */
  features: Int16Array[];
}

/** A detector taught the phrase's three examples (throws if the engine refuses one). */
export function teachPhrase(kernel: WakeKernel, phrase: WakePhrase): Taught {
  const features = wakeExamples(phrase).map((samples, i) => {
    const f = kernel.exampleFeatures(samples);
    if (!f.features) throw new Error(`example ${i} of "${phrase}" refused: ${f.refusal}`);
    return f.features;
  });
  const detector = kernel.createDetector();
  const teaching = detector.teach(features);
  if (teaching.refusal) throw new Error(`"${phrase}" examples refused: ${teaching.refusal}`);
  return { detector, teaching, features };
}

/** The hops (since reset) of every detection in `samples`. */
export function detectionsIn(detector: WakeDetector, samples: Int16Array): number[] {
  const hops: number[] = [];
  detector.reset();
  for (let at = 0; at < samples.length; at += BLOCK) {
    const hit = detector.push(samples.subarray(at, at + BLOCK));
    if (hit) hops.push(hit.hop);
  }
  return hops;
}

/** Whether a detection falls on the positive's phrase. */
export function detects(detector: WakeDetector, p: Positive): boolean {
  return detectionsIn(detector, p.samples).some((hop) => hop * 160 >= p.phraseStart && hop * 160 <= p.phraseEnd + LATE_SAMPLES);
}

export function detectRate(detector: WakeDetector, positives: Positive[]): number {
  return positives.filter((p) => detects(detector, p)).length / positives.length;
}

export interface PhraseFigures {
  phrase: WakePhrase;
  teaching: WakeTeaching;
  rates: Array<[condition: string, rate: number, count: number]>;
  falseAccepts: number;
  negativeHours: number;
}

export const CONDITIONS: Array<[string, PositiveCondition]> = [
  ["clean", { snr: "clean" }],
  ["20db", { snr: 20 }],
  ["10db", { snr: 10 }],
  ["5db", { snr: 5 }],
  ["other-voice", { snr: 20, voice: "other" }],
];

/** Detection rates for every condition and false accepts over the split's negatives. */
export function phraseFigures(kernel: WakeKernel, phrase: WakePhrase, split: Split): PhraseFigures {
  const { detector, teaching } = teachPhrase(kernel, phrase);
  const rates: PhraseFigures["rates"] = CONDITIONS.map(([name, condition]) => {
    const positives = wakePositives(phrase, split, condition);
    return [name, detectRate(detector, positives), positives.length];
  });
  const negatives = wakeNegatives(split);
  const falseAccepts = detectionsIn(detector, negatives.samples).length;
  detector.close();
  return { phrase, teaching, rates, falseAccepts, negativeHours: negatives.seconds / 3600 };
}
