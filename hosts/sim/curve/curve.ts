// The secp256k1 arithmetic on Node: the C of modules/curve as an N-API addon (built on first use by
// hosts/sim/curve/build.mjs), as the Curve port. The XS and device binding, modules/curve/curve.ts, has
// the same shape over native("xs_curve_..."); both go through lib/nostr/curve/native.ts.
import { createRequire } from "node:module";
import { curveOverNative, type RawCurve } from "../../../lib/nostr/curve/native.ts";
import { tsCurve } from "../../../lib/nostr/curve/ts-curve.ts";
import type { Curve, Log } from "../../../lib/ports.ts";
import { buildCurveAddon } from "./build.mjs";

let curve: Curve | undefined;

/** The C binding of the Curve port on Node (the addon is loaded, and built if stale, on the first call). */
export function nodeCurve(): Curve {
  if (!curve) curve = Object.freeze(curveOverNative(createRequire(import.meta.url)(buildCurveAddon()) as RawCurve));
  return curve;
}

/**
 * The simulator's Curve: the addon, or the TypeScript curve when HALO_CURVE=ts (to compare, or on a
 * machine without a C compiler, where the addon cannot build; that is logged, not silent).
 */
export function simCurve(log?: Log): Curve {
  if (process.env.HALO_CURVE === "ts") return tsCurve;
  try {
    return nodeCurve();
  } catch (e) {
    log?.warn(`curve: the C addon did not build (${e instanceof Error ? e.message.split("\n")[0] : "error"}); using the TypeScript curve`);
    return tsCurve;
  }
}
