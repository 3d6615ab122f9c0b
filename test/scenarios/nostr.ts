// Nostr crypto on any engine: the BIP-340 and NIP-44 vectors, event signing and
// the refusals of forged events, NIP-04 and NIP-17 round trips, NIP-19. Every
// line is checked against the vector here (a mismatch throws), and the whole
// transcript is compared between Node and the XS host.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { decode, npubEncode } from "nostr-tools/nip19";
import { v2 } from "nostr-tools/nip44";
import { nip44ConversationKey, nip44Decrypt, nip44Encrypt } from "../../lib/nostr/crypto.ts";
import { publicKeyOf, schnorrSign, schnorrVerify, verifyEvent } from "../../lib/nostr/event.ts";
import { NostrIdentity } from "../../lib/nostr/identity.ts";
import { parsePubkey } from "../../lib/nostr/keys.ts";
import { unwrapPrivateMessage, wrapPrivateMessage } from "../../lib/nostr/nip17.ts";
import { BIP340_VECTORS } from "../nostr/fixtures/bip340-vectors.ts";
import { NIP44_VECTORS } from "../nostr/fixtures/nip44-vectors.ts";
import { portablePorts } from "../support/portable-ports.ts";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`mismatch: ${what}`);
}

function throws(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch {
    return true;
  }
}

function bip340(out: string[]): void {
  for (const v of BIP340_VECTORS) {
    const expected = v["verification result"] === "TRUE";
    const msg = hexToBytes(v.message);
    if (v["secret key"]) {
      const sk = hexToBytes(v["secret key"]);
      check(publicKeyOf(sk) === v["public key"].toLowerCase(), `bip340 ${v.index} pubkey`);
      const sig = bytesToHex(schnorrSign(msg, sk, hexToBytes(v.aux_rand)));
      check(sig === v.signature.toLowerCase(), `bip340 ${v.index} signature`);
      out.push(`bip340 ${v.index} sig ${sig}`);
    }
    const got = schnorrVerify(hexToBytes(v.signature), msg, hexToBytes(v["public key"]));
    check(got === expected, `bip340 ${v.index} verify`);
    out.push(`bip340 ${v.index} verify ${got}`);
  }
}

function nip44(out: string[]): void {
  const { valid, invalid } = NIP44_VECTORS.v2;
  for (const v of valid.get_conversation_key) {
    const key = bytesToHex(nip44ConversationKey(hexToBytes(v.sec1), v.pub2));
    check(key === v.conversation_key, `nip44 conversation key ${v.sec1}`);
    out.push(`nip44 ck ${key}`);
  }
  for (const [len, padded] of valid.calc_padded_len) check(v2.utils.calcPaddedLen(len) === padded, `nip44 padded ${len}`);
  out.push(`nip44 padded lengths ${valid.calc_padded_len.length}`);
  for (const v of valid.encrypt_decrypt) {
    const key = nip44ConversationKey(hexToBytes(v.sec1), publicKeyOf(hexToBytes(v.sec2)));
    check(bytesToHex(key) === v.conversation_key, "nip44 encrypt_decrypt key");
    const payload = nip44Encrypt(v.plaintext, key, () => hexToBytes(v.nonce));
    check(payload === v.payload, `nip44 payload for ${v.nonce}`);
    check(nip44Decrypt(payload, key) === v.plaintext, "nip44 decrypt");
    out.push(`nip44 payload ${payload}`);
  }
  for (const v of invalid.decrypt) {
    check(
      throws(() => nip44Decrypt(v.payload, hexToBytes(v.conversation_key))),
      `nip44 invalid decrypt ${v.note}`,
    );
    out.push(`nip44 refused: ${v.note}`);
  }
  for (const v of invalid.get_conversation_key) {
    check(
      throws(() => nip44ConversationKey(hexToBytes(v.sec1), v.pub2)),
      `nip44 invalid key ${v.note}`,
    );
    out.push(`nip44 refused key: ${v.note}`);
  }
  // The NIP-44 v2 limit (1-65,535 bytes) is enforced by Halo's wrapper: nostr-tools also pads larger messages.
  for (const len of invalid.encrypt_msg_lengths)
    check(
      throws(() => nip44Encrypt("a".repeat(len), new Uint8Array(32), () => new Uint8Array(32))),
      `encrypt length ${len}`,
    );
  out.push(`nip44 refused lengths ${invalid.encrypt_msg_lengths.join(",")}`);
}

function events(out: string[]): void {
  const ports = portablePorts();
  const me = new NostrIdentity(ports.settings, ports.random, ports.log);
  const owner = new NostrIdentity(portablePorts().settings, { fill: (b) => b.fill(7) }, ports.log);
  const now = 1_780_000_000;
  const ev = me.sign({ kind: 1, content: "hello from halo", tags: [["t", "halo"]], created_at: now });
  out.push(`event ${ev.id} ${ev.sig}`);
  const fresh = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
  const verdict = (x: unknown): string => {
    const r = verifyEvent(fresh(x), now);
    return "event" in r ? "accepted" : r.refused;
  };
  check(verdict(ev) === "accepted", "a good event");
  const forged: Array<[string, unknown, string]> = [
    ["content changed", { ...ev, content: "changed" }, "bad-id"],
    ["id recomputed, old sig", { ...ev, id: "0".repeat(64) }, "bad-id"],
    ["another key's sig", { ...ev, sig: owner.sign({ ...ev }).sig }, "bad-signature"],
    ["sig not hex", { ...ev, sig: "zz" }, "shape"],
    ["kind a string", { ...ev, kind: "1" }, "shape"],
    ["tags of numbers", { ...ev, tags: [[1]] }, "shape"],
    ["content too large", { ...ev, content: "x".repeat(70_000) }, "too-large"],
    ["201 tags", { ...ev, tags: Array.from({ length: 201 }, () => ["t", "x"]) }, "too-large"],
    ["dated next week", { ...ev, created_at: now + 7 * 86400 }, "future"],
    ["not an object", [ev], "shape"],
  ];
  for (const [what, x, want] of forged) {
    const got = verdict(x);
    check(got === want, `${what}: ${got}`);
    out.push(`forged (${what}): ${got}`);
  }
  const c04 = me.nip04Encrypt(owner.pubkey, "nip-04 ✓");
  check(owner.nip04Decrypt(me.pubkey, c04) === "nip-04 ✓", "nip04 round trip");
  out.push(`nip04 ${c04}`);
  const wrap = wrapPrivateMessage(me, owner.pubkey, "nip-17 ✓", now, "subj");
  check(verdict(wrap) === "accepted", "the wrap verifies");
  const opened = unwrapPrivateMessage(owner, wrap, now);
  check(opened.sender === me.pubkey && opened.content === "nip-17 ✓" && opened.subject === "subj", "nip17 round trip");
  check(
    throws(() => unwrapPrivateMessage(me, wrap, now)),
    "nip17 for someone else",
  );
  out.push(`nip17 wrap ${wrap.id} by one-time key ${wrap.pubkey !== me.pubkey}`);
  const npub = npubEncode(me.pubkey);
  check(parsePubkey(npub) === me.pubkey && parsePubkey(`nostr:${npub}`) === me.pubkey, "npub parse");
  const d = decode(npub);
  check(d.type === "npub" && d.data === me.pubkey, "nip19 decode");
  out.push(`nip19 ${npub}`);
}

export async function runNostrScenario(): Promise<string[]> {
  const out: string[] = [];
  bip340(out);
  nip44(out);
  events(out);
  return out;
}
