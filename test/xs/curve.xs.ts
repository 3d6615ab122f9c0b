// XS entry: the Curve port's contract (test/nostr/curve-contract.ts) on the XS host, through the C module
// (modules/curve, with the C SHA-256 as on the device) for 1,000 keys and through the TypeScript curve
// (and TypeScript SHA-256) for the first 100: `C <line>` and `TS <line>`, then END.
// test/nostr/curve-contract.test.ts compares them with Node and @noble/curves.
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { nativeCurve } from "../../modules/curve/curve.ts";
import { nativeDigest } from "../../modules/sha256/sha256.ts";
import { runCurveContract } from "../nostr/curve-contract.ts";

declare function print(...args: unknown[]): void;

for (const line of runCurveContract(nativeCurve, 1000, nativeDigest)) print(`C ${line}`);
for (const line of runCurveContract(tsCurve, 100)) print(`TS ${line}`);
print("END");
