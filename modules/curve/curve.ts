// Binds the secp256k1 arithmetic in C (secp256k1.c, curve_xs.c) as the Curve port on the device and the
// XS host. On the device xsc turns each native("...") into a host function at build time; on the XS test
// host native() is a global that finds the function in the linked modules. Node runs the same C through
// hosts/sim/curve/curve.ts.
import { curveOverNative } from "../../lib/nostr/curve/native";
import type { Curve } from "../../lib/ports";

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

/** The C binding of the Curve port: same bytes and refusals as tsCurve (lib/nostr/curve/ts-curve.ts). */
export const nativeCurve: Curve = Object.freeze(
  curveOverNative({
    multiplyBase: native("xs_curve_multiply_base"),
    multiply: native("xs_curve_multiply"),
    multiplyAdd: native("xs_curve_multiply_add"),
  }),
);
