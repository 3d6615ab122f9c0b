// The wake-word engine as lib/ sees it: a feature front end and a streaming detector, both in C
// (modules/wake/). The device and the XS host bind it in modules/wake/wake.ts, Node (the simulator and
// the tests) in hosts/sim/wake/kernel.ts; both run the same C sources. docs/wake-word.md explains it.

/** Why the engine refused an example or a set of examples (lib/wake/refusal.ts has the sentences). */
export type WakeRefusal = "empty" | "silent" | "clipped" | "too-short" | "too-long" | "unlike" | "bad-features" | "not-speech";

/** What the engine made of one recorded example. */
export interface WakeExample {
  /**
   * The example's features when it is usable: 16-bit values, WAKE_DIMS a frame, the first frame being the
   * cepstral mean taken from the others. Keep these (not the audio) to teach the detector again after a restart.
   */
  features?: Int16Array;
  refusal?: WakeRefusal;
  /** Voiced 10 ms frames kept (0 when refused early). */
  frames: number;
  /** The largest absolute sample, and how many samples were at full scale. */
  peak: number;
  clipped: number;
}

/** The outcome of teaching the examples' features. */
export interface WakeTeaching {
  refusal?: WakeRefusal;
  /** The normalised distances between the examples (pairs 0-1, 0-2, 1-2; 0 for an absent pair). */
  distances: number[];
  /** The detection threshold the examples and the sensitivity give (a normalised distance). */
  threshold: number;
}

/** A detection: which example matched, at which hop since the last reset, and how closely. */
export interface WakeHit {
  example: number;
  hop: number;
  distance: number;
  threshold: number;
}

/** One stream's detector. Its memory is fixed when it is made; nothing is allocated per frame. */
export interface WakeDetector {
  /** Bytes of fixed memory (the same figure for 1 to 3 examples). */
  readonly bytes: number;
  /** Teaches 1-3 examples' features (from exampleFeatures); on a refusal the detector has no examples. */
  teach(examples: readonly Int16Array[]): WakeTeaching;
  /** 0 (strict) to 1 (eager); 0.5 is the default. Returns the new threshold. */
  setSensitivity(sensitivity: number): number;
  /** Forgets the stream (partial matches, the noise floor, the running mean); keeps the examples. */
  reset(): void;
  /**
   * Feeds 16 kHz mono samples, any count. Returns the first detection among them, or null. `scores`, when
   * given, receives each completed 10 ms hop's best distance over the threshold (under 1 detects; 100 for a
   * hop the gate skipped), as many as fit.
   */
  push(samples: Int16Array, scores?: Float32Array): WakeHit | null;
  /** Frees the memory now; the detector must not be used afterwards. */
  close(): void;
}

export interface WakeKernel {
  /** Samples a second (16000), samples a hop (160), values a frame (13), the most examples (3). */
  readonly sampleRate: number;
  readonly hopSamples: number;
  readonly frameValues: number;
  readonly maxExamples: number;
  /** The longest recording exampleFeatures takes, in samples (4 s). */
  readonly maxExampleSamples: number;
  /** A detector's fixed memory in bytes. */
  readonly detectorBytes: number;
  /** The features of one recorded example (16 kHz mono), or the reason it cannot be used. */
  exampleFeatures(samples: Int16Array): WakeExample;
  createDetector(): WakeDetector;
}
