// The Nostr work both engines time for bench/nostr.mjs: signing kind-1 events
// (id hash + BIP-340 signature) and verifying them (id recomputed + signature
// check), with a fixed key and aux randomness so both engines do the same work.
import { NostrIdentity } from "../lib/nostr/identity.ts";
import { verifyEvent, type NostrEvent } from "../lib/nostr/event.ts";
import { nip44ConversationKey, nip44Decrypt, nip44Encrypt } from "../lib/nostr/crypto.ts";
import { portablePorts } from "../test/support/portable-ports.ts";

export interface NostrWorkTimes {
  /** The first signature, which builds the library's precomputed tables. */
  firstSignMs: number;
  signMs: number;
  verifyMs: number;
  /** One NIP-44 conversation key (ECDH + HKDF). */
  conversationKeyMs: number;
  /** NIP-44 encrypt + decrypt of a 1 KB message with a known conversation key. */
  nip44RoundTripMs: number;
}

export function runNostrWork(now: () => number, samples: number): NostrWorkTimes {
  const ports = portablePorts();
  const me = new NostrIdentity(ports.settings, ports.random, ports.log);
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
  for (const e of fresh) if (!("event" in verifyEvent(e, at + samples))) throw new Error("a benched event did not verify");
  const verifyMs = (now() - t) / samples;
  t = now();
  const ck = nip44ConversationKey(new Uint8Array(32).fill(1), first.pubkey);
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
  return { firstSignMs, signMs, verifyMs, conversationKeyMs, nip44RoundTripMs };
}
