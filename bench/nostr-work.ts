// The Nostr work both engines time for bench/nostr.mjs: signing kind-1 events
// (id hash + BIP-340 signature) and verifying them (id recomputed + signature
// check), with a fixed key and aux randomness so both engines do the same work.
import { schnorr as nobleSchnorr } from "@noble/curves/secp256k1.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { NostrIdentity } from "../lib/nostr/identity.ts";
import { schnorr } from "../lib/nostr/secp256k1.ts";
import { portableSha256, type Sha256Port, verifyEvent, type NostrEvent } from "../lib/nostr/event.ts";
import { nip44ConversationKey, nip44Decrypt, nip44Encrypt } from "../lib/nostr/crypto.ts";
import { portablePorts } from "../test/support/portable-ports.ts";
import type { Curve } from "../lib/ports.ts";

export interface NostrWorkTimes {
  /** The first signature (nothing is built for it: the base table is a constant). */
  firstSignMs: number;
  signMs: number;
  verifyMs: number;
  /** One NIP-44 conversation key (ECDH + HKDF). */
  conversationKeyMs: number;
  /** NIP-44 encrypt + decrypt of a 1 KB message with a known conversation key. */
  nip44RoundTripMs: number;
  /** One BIP-340 signature of a 32-byte id by lib/nostr/secp256k1.ts, and by @noble/curves (the baseline). */
  schnorrSignMs: number;
  nobleSignMs: number;
  /** One BIP-340 verification, the same two ways. */
  schnorrVerifyMs: number;
  nobleVerifyMs: number;
}

/** Mean ms of `samples` calls of `work(i)`. */
function timed(now: () => number, samples: number, work: (i: number) => unknown): number {
  const t = now();
  for (let i = 0; i < samples; i++) work(i);
  return (now() - t) / samples;
}

/**
 * Bytes the XS heap grows by over `count` verifications of fresh events: the heap is collected before each
 * one and read (without collecting) after it, so the sum is what the verifications allocated, garbage
 * included: what the collector has to sweep (PSRAM on the device).
 */
export function verifyHeapGrowth(
  curve: Curve,
  count: number,
  heap: (collect: boolean) => { heapBytes: number },
  digest: Sha256Port = portableSha256,
): { bytes: number; maxBytes: number } {
  const ports = portablePorts(curve);
  const me = new NostrIdentity(ports.settings, ports.random, ports.log, curve, digest);
  const at = 1_780_000_000;
  const texts: string[] = [];
  for (let i = 0; i < count; i++) texts.push(JSON.stringify(me.sign({ kind: 1, content: `heap ${i}`, tags: [], created_at: at })));
  let bytes = 0;
  let maxBytes = 0;
  for (const text of texts) {
    const raw: unknown = JSON.parse(text);
    const before = heap(true).heapBytes;
    if (!("event" in verifyEvent(curve, digest, raw, at))) throw new Error("a benched event did not verify");
    const grown = heap(false).heapBytes - before;
    bytes += grown;
    if (grown > maxBytes) maxBytes = grown;
  }
  return { bytes, maxBytes };
}

export function runNostrWork(now: () => number, samples: number, curve: Curve, digest: Sha256Port = portableSha256): NostrWorkTimes {
  const ports = portablePorts(curve);
  const me = new NostrIdentity(ports.settings, ports.random, ports.log, curve, digest);
  const at = 1_780_000_000;
  let t = now();
  const first = me.sign({ kind: 1, content: "warm up", tags: [], created_at: at });
  const firstSignMs = now() - t;
  const events: NostrEvent[] = [];
  t = now();
  for (let i = 0; i < samples; i++)
    events.push(me.sign({ kind: 1, content: `note ${i} from the bench`, tags: [["t", "bench"]], created_at: at + i }));
  const signMs = (now() - t) / samples;
  const fresh = events.map((e) => JSON.parse(JSON.stringify(e)) as unknown);
  t = now();
  for (const e of fresh) if (!("event" in verifyEvent(curve, digest, e, at + samples))) throw new Error("a benched event did not verify");
  const verifyMs = (now() - t) / samples;
  t = now();
  const ck = nip44ConversationKey(curve, new Uint8Array(32).fill(1), first.pubkey);
  const conversationKeyMs = now() - t;
  const text = "x".repeat(1024);
  t = now();
  for (let i = 0; i < samples; i++) {
    if (
      nip44Decrypt(
        nip44Encrypt(text, ck, (n) => new Uint8Array(n).fill(i)),
        ck,
      ) !== text
    )
      throw new Error("NIP-44 round trip failed");
  }
  const nip44RoundTripMs = (now() - t) / samples;
  // The curve alone against @noble/curves' secp256k1, interleaved so both see the same machine.
  const secret = new Uint8Array(32).fill(7);
  const ids = events.map((e) => hexToBytes(e.id));
  const signatures = events.map((e) => hexToBytes(e.sig));
  const schnorrSignMs = timed(now, samples, (i) => schnorr.sign(curve, digest, ids[i], secret, ids[0]));
  const nobleSignMs = timed(now, samples, (i) => nobleSchnorr.sign(ids[i], secret, ids[0]));
  const schnorrVerifyMs = timed(now, samples, (i) => schnorr.verify(curve, digest, signatures[i], ids[i], hexToBytes(first.pubkey)));
  const nobleVerifyMs = timed(now, samples, (i) => nobleSchnorr.verify(signatures[i], ids[i], hexToBytes(first.pubkey)));
  return {
    firstSignMs,
    signMs,
    verifyMs,
    conversationKeyMs,
    nip44RoundTripMs,
    schnorrSignMs,
    nobleSignMs,
    schnorrVerifyMs,
    nobleVerifyMs,
  };
}

/** Sign and verify times of two curves, sample by sample in turn, so both see the same machine. */
export interface CurveComparison {
  signMs: [number, number];
  verifyMs: [number, number];
  schnorrVerifyMs: [number, number];
}

export function compareCurves(
  now: () => number,
  samples: number,
  a: Curve,
  b: Curve,
  digest: Sha256Port = portableSha256,
): CurveComparison {
  const curves = [a, b];
  const ids = curves.map((c) => {
    const ports = portablePorts(c);
    return new NostrIdentity(ports.settings, ports.random, ports.log, c, digest);
  });
  const at = 1_780_000_000;
  const sign = [0, 0];
  const verify = [0, 0];
  const schnorrVerify = [0, 0];
  for (let i = 0; i < samples; i++) {
    for (let k = 0; k < 2; k++) {
      const c = curves[k];
      let t = now();
      const e = ids[k].sign({ kind: 1, content: `note ${i} from the bench`, tags: [["t", "bench"]], created_at: at + i });
      sign[k] += now() - t;
      const raw: unknown = JSON.parse(JSON.stringify(e));
      t = now();
      if (!("event" in verifyEvent(c, digest, raw, at + samples))) throw new Error("a benched event did not verify");
      verify[k] += now() - t;
      const sig = hexToBytes(e.sig);
      const id = hexToBytes(e.id);
      const pub = hexToBytes(e.pubkey);
      t = now();
      if (!schnorr.verify(c, digest, sig, id, pub)) throw new Error("a benched signature did not verify");
      schnorrVerify[k] += now() - t;
    }
  }
  const mean = (x: number[]): [number, number] => [x[0] / samples, x[1] / samples];
  return { signMs: mean(sign), verifyMs: mean(verify), schnorrVerifyMs: mean(schnorrVerify) };
}
