// Binds the wake-word engine (modules/wake/*.c) as lib/wake/kernel.ts's WakeKernel on the device and the
// XS host. On the device xsc turns each native("...") into a host function at build time; on the XS test
// host native() is a global that finds the function in the linked modules. Node runs the same C through
// hosts/sim/wake/kernel.ts. A detector's memory is allocated by the C side (wake_xs.c), outside the XS heap.
import { HaloError } from "../../lib/errors";
import type { WakeDetector, WakeExample, WakeHit, WakeKernel, WakeTeaching } from "../../lib/wake/kernel";
import { wakeRefusalOf } from "../../lib/wake/refusal";

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

type Handle = object;
interface Features {
  reason: number;
  frames: number;
  clipped: number;
  peak: number;
  features?: ArrayBuffer;
}
interface Teaching {
  reason: number;
  threshold: number;
  d01: number;
  d02: number;
  d12: number;
}

const create = native("xs_wake_create") as () => Handle | undefined;
const close = native("xs_wake_close") as (detector: Handle) => void;
const bytes = native("xs_wake_bytes") as () => number;
const features = native("xs_wake_features") as (samples: Int16Array) => Features;
const teach = native("xs_wake_teach") as (detector: Handle, ...examples: Int16Array[]) => Teaching;
const sensitivity = native("xs_wake_sensitivity") as (detector: Handle, value: number) => number;
const reset = native("xs_wake_reset") as (detector: Handle) => void;
const push = native("xs_wake_push") as (detector: Handle, samples: Int16Array, scores?: Float32Array) => number;
const hit = native("xs_wake_hit") as (detector: Handle) => WakeHit;

function detector(): WakeDetector {
  let handle: Handle | undefined = create();
  if (!handle) throw new HaloError("full", `the wake-word detector needs ${bytes()} bytes and this device cannot give them.`);
  const live = (): Handle => {
    if (!handle) throw new HaloError("invalid", "the wake-word detector is closed.");
    return handle;
  };
  return {
    bytes: bytes(),
    teach(examples: readonly Int16Array[]): WakeTeaching {
      const r = teach(live(), ...examples);
      return { refusal: wakeRefusalOf(r.reason), distances: [r.d01, r.d02, r.d12], threshold: r.threshold };
    },
    setSensitivity: (value: number): number => sensitivity(live(), value),
    reset: (): void => reset(live()),
    push(samples: Int16Array, scores?: Float32Array): WakeHit | null {
      if (push(live(), samples, scores) === 0) return null;
      // named one by one so each name is in the compiled module (xsl defines the xsID_ that wake_xs.c sets)
      const h = hit(live());
      return { example: h.example, hop: h.hop, distance: h.distance, threshold: h.threshold };
    },
    close(): void {
      if (handle) close(handle);
      handle = undefined;
    },
  };
}

/** The C engine on XS: the same contract and results as on Node (hosts/sim/wake/kernel.ts). */
export const xsWakeKernel: WakeKernel = {
  sampleRate: 16000,
  hopSamples: 160,
  frameValues: 13,
  maxExamples: 3,
  maxExampleSamples: 4 * 16000,
  get detectorBytes(): number {
    return bytes();
  },
  exampleFeatures(samples: Int16Array): WakeExample {
    const r = features(samples);
    return {
      features: r.features ? new Int16Array(r.features) : undefined,
      refusal: wakeRefusalOf(r.reason),
      frames: r.frames,
      peak: r.peak,
      clipped: r.clipped,
    };
  },
  createDetector: detector,
};
