// XS entry of bench/nostr.mjs: times the Nostr work with hostNow() and prints NOSTR-XS {json}.
import { runNostrWork } from "./nostr-work.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare function xsHeapInfo(collect?: boolean): { peakBytes: number; slotSize: number };
declare const scriptArgs: readonly string[];

const before = xsHeapInfo().peakBytes;
const times = runNostrWork(hostNow, Number(scriptArgs[0] ?? "20"));
const heap = xsHeapInfo();
print(`NOSTR-XS ${JSON.stringify({ ...times, heapPeakKb: (heap.peakBytes - before) / 1024, slotSize: heap.slotSize })}`);
