// Node implementations of the small ports: clock, randomness, digest, log.
import { createHash, randomFillSync } from "node:crypto";
import type { Clock, Digest, Log, Random, Sha256Stream } from "../../../lib/ports.ts";

export const systemClock: Clock = { now: () => Date.now() };

export const cryptoRandom: Random = { fill: (bytes) => void randomFillSync(bytes) };

/** Node's SHA-256 as a Sha256Stream. */
export function nodeSha256(): Sha256Stream {
  const h = createHash("sha256");
  let done = false;
  return {
    update(bytes: Uint8Array): void {
      if (done) throw new Error("sha256 finished");
      h.update(bytes);
    },
    digest(): Uint8Array {
      if (done) throw new Error("sha256 finished");
      done = true;
      return new Uint8Array(h.digest());
    },
  };
}

export const nodeDigest: Digest = {
  sha256: (data) => new Uint8Array(createHash("sha256").update(data).digest()),
  sha256Stream: nodeSha256,
};

export function consoleLog(prefix = "halo"): Log {
  return {
    info: (m) => console.log(`[${prefix}] ${m}`),
    warn: (m) => console.warn(`[${prefix}] warning: ${m}`),
  };
}

/** A log that keeps its lines, for tests that assert on what was (not) logged. */
export function memoryLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => void lines.push(m), warn: (m) => void lines.push("warning: " + m) };
}

/** A clock that moves only when told to. */
export function fakeClock(start = Date.UTC(2026, 0, 1)): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}
