// The wake-word engine on Node: the C of modules/wake/ as an N-API addon (built on first use by
// hosts/sim/wake/build.mjs), behind lib/wake/kernel.ts's WakeKernel. The XS and device binding,
// modules/wake/wake.ts, has the same shape over native("xs_wake_...").
import { createRequire } from "node:module";
import { HaloError } from "../../../lib/errors.ts";
import type { WakeDetector, WakeExample, WakeHit, WakeKernel, WakeTeaching } from "../../../lib/wake/kernel.ts";
import { wakeRefusalOf } from "../../../lib/wake/refusal.ts";
import { buildWakeAddon } from "./build.mjs";

type Handle = object;

/** The addon's functions (hosts/sim/wake/wake_napi.c). */
export interface WakeAddon {
  create(): Handle;
  close(detector: Handle): void;
  bytes(): number;
  features(samples: Int16Array): { reason: number; frames: number; clipped: number; peak: number; features?: Int16Array };
  teach(detector: Handle, ...examples: Int16Array[]): { reason: number; threshold: number; d01: number; d02: number; d12: number };
  sensitivity(detector: Handle, value: number): number;
  reset(detector: Handle): void;
  push(detector: Handle, samples: Int16Array, scores?: Float32Array): number;
  info(detector: Handle): { examples: number; threshold: number; mutual: number; hop: number; score: number; hit: WakeHit };
}

let addon: WakeAddon | undefined;

/** The loaded addon, built first if its sources changed. */
export function wakeAddon(): WakeAddon {
  if (!addon) addon = createRequire(import.meta.url)(buildWakeAddon()) as WakeAddon;
  return addon;
}

function detectorOf(a: WakeAddon): WakeDetector {
  let handle: Handle | undefined = a.create();
  const live = (): Handle => {
    if (!handle) throw new HaloError("invalid", "the wake-word detector is closed.");
    return handle;
  };
  return {
    bytes: a.bytes(),
    teach(examples: readonly Int16Array[]): WakeTeaching {
      const r = a.teach(live(), ...examples);
      return { refusal: wakeRefusalOf(r.reason), distances: [r.d01, r.d02, r.d12], threshold: r.threshold };
    },
    setSensitivity: (sensitivity: number): number => a.sensitivity(live(), sensitivity),
    reset: (): void => a.reset(live()),
    push(samples: Int16Array, scores?: Float32Array): WakeHit | null {
      return a.push(live(), samples, scores) > 0 ? a.info(live()).hit : null;
    },
    close(): void {
      if (handle) a.close(handle);
      handle = undefined;
    },
  };
}

/** The engine on Node. */
export function nodeWakeKernel(): WakeKernel {
  const a = wakeAddon();
  return {
    sampleRate: 16000,
    hopSamples: 160,
    frameValues: 13,
    maxExamples: 3,
    maxExampleSamples: 4 * 16000,
    detectorBytes: a.bytes(),
    exampleFeatures(samples: Int16Array): WakeExample {
      const r = a.features(samples);
      return { features: r.features, refusal: wakeRefusalOf(r.reason), frames: r.frames, peak: r.peak, clipped: r.clipped };
    },
    createDetector: (): WakeDetector => detectorOf(a),
  };
}
