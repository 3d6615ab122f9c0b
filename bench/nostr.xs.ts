// XS entry of bench/nostr.mjs: times the Nostr work with hostNow() through one binding of the Curve port
// (scriptArgs[1]: "c", the C module, or "ts", the TypeScript curve) and prints NOSTR-XS {json}. The heap
// growth of 100 verifications is measured first, before the timed work grows the heap; the "c" run then
// times the two curves in turn for the speedups.
import { tsCurve } from "../lib/nostr/curve/ts-curve.ts";
import { nativeCurve } from "../modules/curve/curve.ts";
import { compareCurves, runNostrWork, verifyHeapGrowth } from "./nostr-work.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare function xsHeapInfo(collect?: boolean): { peakBytes: number; heapBytes: number; slotSize: number };
declare const scriptArgs: readonly string[];

const curve = scriptArgs[1] === "ts" ? tsCurve : nativeCurve;
const growth = verifyHeapGrowth(curve, 100, (collect) => xsHeapInfo(collect));
const before = xsHeapInfo().peakBytes;
const times = runNostrWork(hostNow, Number(scriptArgs[0] ?? "20"), curve);
const heap = xsHeapInfo();
// the C process also times both curves in turn, sample by sample: the speedup from one moment of the machine
const versus = curve === nativeCurve ? compareCurves(hostNow, Number(scriptArgs[0] ?? "20"), nativeCurve, tsCurve) : undefined;
print(
  `NOSTR-XS ${JSON.stringify({
    ...times,
    binding: curve.binding,
    heapPeakKb: (heap.peakBytes - before) / 1024,
    verify100HeapKb: growth.bytes / 1024,
    verifyHeapMaxKb: growth.maxBytes / 1024,
    slotSize: heap.slotSize,
    versus,
  })}`,
);
