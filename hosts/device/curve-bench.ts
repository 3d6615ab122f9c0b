// Issue 27's Linux-target curve figures: signs and verifies `events` kind-1 events with the native curve
// (modules/curve) and with the TypeScript curve (lib/nostr/curve/ts-curve.ts), the two in turn event by
// event so both see the same moment of the machine, and traces one `name: value` line a figure. Both
// paths hash through the same Digest port (the SDK's native crypt Digest): what differs is the curve. main.ts
// runs it at boot only when the build says `curveBench=<events>` (hosts/lin/check-curve.mjs); nothing here
// runs otherwise. The keys and aux bytes are fixed: these are timings, not secrets.
import { hexToBytes } from "@noble/hashes/utils.js";
import {
  type EventTemplate,
  type NostrEvent,
  publicKeyOf,
  schnorrVerify,
  type Sha256Port,
  signEvent,
  verifyEvent,
} from "../../lib/nostr/event";
import type { Curve } from "../../lib/ports";
import Time from "time";

const SECRET = new Uint8Array(32).fill(7);
const AUX = new Uint8Array(32).fill(9);
const CREATED_AT = 1_764_000_000;

// The SDK's instrumentation (modules/base/instrumentation, linked by hosts/device/manifest.json): numbers in a
// debug or instrumented build, undefined otherwise.
// biome-ignore lint/suspicious/noExplicitAny: the bound C functions' signatures are given where they are used
declare function native(name: string): (...args: any[]) => any;
const instrumentationGet: (index: number) => number | undefined = native("xs_instrumentation_get");
const instrumentationMap: (name: string) => number | undefined = native("xs_instrumentation_map");

/** Verifications whose heap growth the bench reads (issue 27: 100). */
const HEAP_VERIFICATIONS = 100;

interface HeapReading {
  bytes: number;
  collections: number;
}

/** Slot and chunk bytes in use (live plus garbage not yet collected) and the collections so far; undefined in a release build. */
function heapReading(): HeapReading | undefined {
  const read = (name: string): number | undefined => {
    const index = instrumentationMap(name);
    return index === undefined ? undefined : instrumentationGet(index);
  };
  const slots = read("XS Slot Heap Used");
  const chunks = read("XS Chunk Heap Used");
  const collections = read("XS Garbage Collection Count");
  if (typeof slots !== "number" || typeof chunks !== "number" || typeof collections !== "number") return undefined;
  return { bytes: slots + chunks, collections };
}

/** What `HEAP_VERIFICATIONS` verifications of `raws` add to the heap, and the collections they cause. */
function verifyHeapGrowth(curve: Curve, digest: Sha256Port, raws: unknown[]): HeapReading | undefined {
  const before = heapReading();
  for (const raw of raws) verifyEvent(curve, digest, raw, CREATED_AT + 3600);
  const after = heapReading();
  if (before === undefined || after === undefined) return undefined;
  return { bytes: after.bytes - before.bytes, collections: after.collections - before.collections };
}

/** Events a curve signs (then verifies) in one timed batch: Time.ticks counts whole milliseconds. */
const BATCH = 10;

interface Totals {
  signMs: number;
  verifyMs: number;
  /** BIP-340 verification alone (no shape checks, no event id): the curve's share of verifyMs. */
  schnorrMs: number;
}

function template(i: number): EventTemplate {
  return { kind: 1, content: `curve bench ${i}`, tags: [], created_at: CREATED_AT + i };
}

/** Signs then verifies events [first, first + count) with one curve, adding each batch's time to `total`. */
function batch(curve: Curve, digest: Sha256Port, pubkey: string, first: number, count: number, total: Totals): void {
  const signed: NostrEvent[] = [];
  let start = Time.ticks;
  for (let i = first; i < first + count; i++) signed.push(signEvent(curve, digest, template(i), SECRET, AUX, pubkey));
  total.signMs += Time.delta(start);
  // fresh parses, as events from a relay arrive (parsed before the clock starts)
  const raws: unknown[] = signed.map((event) => JSON.parse(JSON.stringify(event)));
  start = Time.ticks;
  const results = raws.map((raw) => verifyEvent(curve, digest, raw, CREATED_AT + 3600));
  total.verifyMs += Time.delta(start);
  for (const result of results) {
    if (!("event" in result)) throw new Error(`curve bench: ${curve.binding} refused its own event (${result.refused})`);
  }
  const inputs = signed.map((event) => ({ sig: hexToBytes(event.sig), id: hexToBytes(event.id), pubkey: hexToBytes(event.pubkey) }));
  start = Time.ticks;
  const valid = inputs.map((input) => schnorrVerify(curve, digest, input.sig, input.id, input.pubkey));
  total.schnorrMs += Time.delta(start);
  if (valid.includes(false)) throw new Error(`curve bench: ${curve.binding} refused its own signature`);
}

/** Runs the bench and traces its lines; throws if either curve refuses an event it signed. */
export function runCurveBench(events: number, native: Curve, ts: Curve, digest: Sha256Port): void {
  const pubkey = publicKeyOf(native, SECRET);
  if (publicKeyOf(ts, SECRET) !== pubkey) throw new Error("curve bench: the curves disagree on the public key");
  // heap first, before the timed work grows the heap: the same signed events, parsed afresh for each curve
  const signed: NostrEvent[] = [];
  for (let i = 0; i < HEAP_VERIFICATIONS; i++) signed.push(signEvent(native, digest, template(i), SECRET, AUX, pubkey));
  const growth = [native, ts].map((curve) =>
    verifyHeapGrowth(
      curve,
      digest,
      signed.map((event) => JSON.parse(JSON.stringify(event))),
    ),
  );
  const n: Totals = { signMs: 0, verifyMs: 0, schnorrMs: 0 };
  const t: Totals = { signMs: 0, verifyMs: 0, schnorrMs: 0 };
  // the two curves in turn, batch by batch: both see the same moments of the machine
  for (let first = 0; first < events; first += BATCH) {
    const count = Math.min(BATCH, events - first);
    batch(native, digest, pubkey, first, count, n);
    batch(ts, digest, pubkey, first, count, t);
  }
  const line = (name: string, value: number): void => trace(`${name}: ${value.toFixed(3)}\n`);
  trace(`lin-nostr-curve-bench-events: ${events}\n`);
  line("lin-nostr-sign-ms-native", n.signMs / events);
  line("lin-nostr-verify-ms-native", n.verifyMs / events);
  line("lin-nostr-sign-ms-ts", t.signMs / events);
  line("lin-nostr-verify-ms-ts", t.verifyMs / events);
  line("lin-nostr-sign-speedup-native-vs-ts", t.signMs / n.signMs);
  line("lin-nostr-verify-speedup-native-vs-ts", t.verifyMs / n.verifyMs);
  line("lin-nostr-schnorr-verify-ms-native", n.schnorrMs / events);
  line("lin-nostr-schnorr-verify-ms-ts", t.schnorrMs / events);
  line("lin-nostr-schnorr-verify-speedup-native-vs-ts", t.schnorrMs / n.schnorrMs);
  const [gn, gt] = growth;
  if (gn === undefined || gt === undefined) {
    trace("lin-nostr-verify-100-heap: this build reads no heap (build with -i)\n");
    return;
  }
  // the heap in use counts garbage until a collection, so its growth means something only when none ran
  const heap = (name: string, growth: HeapReading): void =>
    growth.collections === 0 ? line(name, growth.bytes / 1024) : trace(`${name}: collected during the run\n`);
  heap("lin-nostr-verify-100-heap-kb-native", gn);
  heap("lin-nostr-verify-100-heap-kb-ts", gt);
  trace(`lin-nostr-verify-100-collections-native: ${gn.collections}\n`);
  trace(`lin-nostr-verify-100-collections-ts: ${gt.collections}\n`);
}
