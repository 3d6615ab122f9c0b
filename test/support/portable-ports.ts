// Ports with no Node imports, for scenarios that run both on Node and on the XS test host.
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import type { Curve, HttpClient, Ports, Timers } from "../../lib/ports.ts";
import { bufferedAudioHttp } from "../../lib/voice/audio-http.ts";

/** The board ports of a host that has none of them (scenarios on a bare engine). */
export const NO_BOARD: Pick<
  Ports,
  "messenger" | "system" | "led" | "button" | "audioOut" | "audioIn" | "ota" | "otaSlots" | "webSocket" | "wifi" | "wake"
> = {
  // A scenario that needs the wake engine passes the host's own (Node's addon or the XS binding).
  wake: undefined,
  messenger: undefined,
  webSocket: undefined,
  system: undefined,
  led: undefined,
  button: undefined,
  audioOut: undefined,
  audioIn: undefined,
  ota: undefined,
  otaSlots: undefined,
  wifi: undefined,
};

/** Timers for scenarios, which move no time: nothing waits, and nothing repeats on its own. */
export const STILL_TIMERS: Timers = { every: () => () => undefined, sleep: () => Promise.resolve() };

const NO_NETWORK: HttpClient = { request: () => Promise.reject(new Error("no network in portable scenarios")) };

/**
 * A fixed clock and a counter "random": scenarios must print the same transcript on every engine. The
 * curve is the TypeScript one unless a scenario hands the engine's C binding (it cannot be imported
 * here: modules/curve/curve.ts binds XS natives, hosts/sim/curve/curve.ts a Node addon).
 */
export function portablePorts(curve: Curve = tsCurve): Ports {
  let seed = 1;
  const lines: string[] = [];
  return {
    clock: { now: () => Date.UTC(2026, 10, 1) },
    random: {
      fill: (bytes) => {
        for (let i = 0; i < bytes.length; i++) {
          seed = (seed * 1103515245 + 12345) & 0x7fffffff;
          bytes[i] = seed & 0xff;
        }
      },
    },
    digest: {
      sha256: () => {
        throw new Error("no digest in portable scenarios");
      },
      sha256Stream: () => {
        throw new Error("no digest in portable scenarios");
      },
    },
    log: { info: (m) => void lines.push(m), warn: (m) => void lines.push(m) },
    settings: memorySettings(),
    http: NO_NETWORK,
    audioHttp: bufferedAudioHttp(NO_NETWORK),
    timers: STILL_TIMERS,
    resolver: undefined,
    storage: memoryStorage(),
    kernels: tsKernels,
    curve,
    vectorArena: simVectorArena(),
    ...NO_BOARD,
  };
}
