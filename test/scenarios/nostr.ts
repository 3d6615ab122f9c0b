// Nostr crypto on any engine: the BIP-340 and NIP-44 vectors, event signing and
// the refusals of forged events, NIP-04 and NIP-17 round trips, NIP-19. Every
// line is checked against the vector here (a mismatch throws), and the whole
// transcript is compared between Node and the XS host.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import * as theirs from "nostr-tools/nip19";
import { v2 } from "nostr-tools/nip44";
import { N } from "../../lib/nostr/curve/field.ts";
import { G, isInfinity, toAffine } from "../../lib/nostr/curve/jacobian.ts";
import { multiply, multiplyBase } from "../../lib/nostr/curve/multiply.ts";
import { nip44ConversationKey, nip44Decrypt, nip44Encrypt } from "../../lib/nostr/crypto.ts";
import { portableSha256, publicKeyOf, schnorrSign, schnorrVerify, type Sha256Port, verifyEvent } from "../../lib/nostr/event.ts";
import { NostrIdentity } from "../../lib/nostr/identity.ts";
import { parsePubkey } from "../../lib/nostr/keys.ts";
import * as nip19 from "../../lib/nostr/nip19.ts";
import { paddedLength } from "../../lib/nostr/nip44.ts";
import { unwrapPrivateMessage, wrapPrivateMessage } from "../../lib/nostr/nip17.ts";
import { BIP340_VECTORS } from "../nostr/fixtures/bip340-vectors.ts";
import { NIP44_VECTORS } from "../nostr/fixtures/nip44-vectors.ts";
import { portablePorts } from "../support/portable-ports.ts";
import type { Curve } from "../../lib/ports.ts";
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";

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

function bip340(c: Curve, digest: Sha256Port, out: string[]): void {
  for (const v of BIP340_VECTORS) {
    const expected = v["verification result"] === "TRUE";
    const msg = hexToBytes(v.message);
    if (v["secret key"]) {
      const sk = hexToBytes(v["secret key"]);
      check(publicKeyOf(c, sk) === v["public key"].toLowerCase(), `bip340 ${v.index} pubkey`);
      const sig = bytesToHex(schnorrSign(c, digest, msg, sk, hexToBytes(v.aux_rand)));
      check(sig === v.signature.toLowerCase(), `bip340 ${v.index} signature`);
      out.push(`bip340 ${v.index} sig ${sig}`);
    }
    const got = schnorrVerify(c, digest, hexToBytes(v.signature), msg, hexToBytes(v["public key"]));
    check(got === expected, `bip340 ${v.index} verify`);
    out.push(`bip340 ${v.index} verify ${got}`);
  }
}

/** Scalars whose signed digits carry at every position, sit at the ends of the range, or are small. */
const EDGE_SCALARS = [
  "1",
  "2",
  "8",
  "9",
  "f",
  "10",
  "11",
  "8888888888888888888888888888888888888888888888888888888888888888",
  "9999999999999999999999999999999999999999999999999999999999999999",
  "8000000000000000000000000000000000000000000000000000000000000000",
];

/** The base table (k x G) against the variable-point path (k x P with P = G) on edge scalars, n - 1 and n - 2. */
function tsCurveEdges(out: string[]): void {
  const scalars = EDGE_SCALARS.map((h) => BigInt(`0x${h}`)).concat([N - BigInt(1), N - BigInt(2)]);
  for (const k of scalars) {
    const a = toAffine(multiplyBase(k));
    const b = toAffine(multiply(G, k));
    check(a.x === b.x && a.y === b.y, `curve k=${k.toString(16)}`);
    out.push(`curve ${k.toString(16)} x ${a.x.toString(16)}`);
  }
  const negG = toAffine(multiplyBase(N - BigInt(1)));
  check(negG.x === G.x && negG.y !== G.y, "curve (n - 1) x G is -G");
  check(isInfinity(multiplyBase(BigInt(0))) && isInfinity(multiply(G, BigInt(0))), "curve 0 x G is infinity");
}

/** The same edge scalars through the Curve port: k·G by the base path, by the point path and as k·G + 0·P. */
function portEdges(c: Curve, out: string[]): void {
  const g = hexToBytes(`02${G.x.toString(16).padStart(64, "0")}`);
  const zero = new Uint8Array(32);
  const hexes = EDGE_SCALARS.map((h) => h.padStart(64, "0")).concat([(N - BigInt(1)).toString(16), (N - BigInt(2)).toString(16)]);
  for (const h of hexes) {
    const k = hexToBytes(h);
    const a = bytesToHex(c.multiplyBase(k));
    check(a === bytesToHex(c.multiply(g, k)), `port k=${h} base and point paths`);
    check(a === bytesToHex(c.multiplyAdd(k, g, zero) ?? new Uint8Array(0)), `port k=${h} as a sum`);
    out.push(`port ${h} ${a}`);
  }
  // n - 1 plus 1 is infinity; refusals name what is wrong
  check(c.multiplyAdd(hexToBytes((N - BigInt(1)).toString(16)), g, hexToBytes("01".padStart(64, "0"))) === undefined, "port -G + G");
  const refusal = (f: () => unknown): string => {
    try {
      f();
      return "none";
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  out.push(`port refuses zero: ${refusal(() => c.multiplyBase(zero))}`);
  out.push(`port refuses n: ${refusal(() => c.multiplyBase(hexToBytes(N.toString(16))))}`);
  out.push(
    `port refuses x = 0: ${refusal(() => c.multiply(new Uint8Array(33).fill(0, 1).fill(2, 0, 1), hexToBytes("01".padStart(64, "0"))))}`,
  );
  out.push(`port refuses 31 bytes: ${refusal(() => c.multiplyBase(new Uint8Array(31).fill(1)))}`);
}

function nip44(c: Curve, out: string[]): void {
  const { valid, invalid } = NIP44_VECTORS.v2;
  for (const v of valid.get_conversation_key) {
    const key = bytesToHex(nip44ConversationKey(c, hexToBytes(v.sec1), v.pub2));
    check(key === v.conversation_key, `nip44 conversation key ${v.sec1}`);
    out.push(`nip44 ck ${key}`);
  }
  for (const [len, padded] of valid.calc_padded_len)
    check(paddedLength(len) === padded && v2.utils.calcPaddedLen(len) === padded, `nip44 padded ${len}`);
  out.push(`nip44 padded lengths ${valid.calc_padded_len.length}`);
  for (const v of valid.encrypt_decrypt) {
    const key = nip44ConversationKey(c, hexToBytes(v.sec1), publicKeyOf(c, hexToBytes(v.sec2)));
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
      throws(() => nip44ConversationKey(c, hexToBytes(v.sec1), v.pub2)),
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

function events(c: Curve, digest: Sha256Port, out: string[]): void {
  const ports = portablePorts(c);
  const me = new NostrIdentity(ports.settings, ports.random, ports.log, ports.curve, digest);
  const owner = new NostrIdentity(portablePorts().settings, { fill: (b) => b.fill(7) }, ports.log, c, digest);
  const now = 1_780_000_000;
  const ev = me.sign({ kind: 1, content: "hello from halo", tags: [["t", "halo"]], created_at: now });
  out.push(`event ${ev.id} ${ev.sig}`);
  const fresh = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
  const verdict = (x: unknown): string => {
    const r = verifyEvent(c, digest, fresh(x), now);
    return "event" in r ? "accepted" : r.refused;
  };
  check(verdict(ev) === "accepted", "a good event");
  const forged: Array<[string, unknown, string]> = [
    ["content changed", { ...ev, content: "changed" }, "bad-id"],
    ["id recomputed, old sig", { ...ev, id: "0".repeat(64) }, "bad-id"],
    ["another key's sig", { ...ev, sig: owner.sign({ ...ev }).sig }, "bad-signature"],
    ["sig not hex", { ...ev, sig: "zz" }, "shape"],
    ["sig one digit short", { ...ev, sig: ev.sig.slice(1) }, "shape"],
    ["id in upper case", { ...ev, id: ev.id.toUpperCase() }, "shape"],
    ["pubkey ending in g", { ...ev, pubkey: `${ev.pubkey.slice(0, 63)}g` }, "shape"],
    ["pubkey ending in é", { ...ev, pubkey: `${ev.pubkey.slice(0, 63)}é` }, "shape"],
    ["sig with a space", { ...ev, sig: `${ev.sig.slice(0, 127)} ` }, "shape"],
    ["id a number", { ...ev, id: 7 }, "shape"],
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
  const npub = theirs.npubEncode(me.pubkey);
  check(parsePubkey(npub) === me.pubkey && parsePubkey(`nostr:${npub}`) === me.pubkey, "npub parse");
}

// Halo's NIP-19 against nostr-tools' (an independent implementation), both ways, and hostile codes.
function entities(out: string[]): void {
  const pubkey = "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e";
  const id = "d78ba0d5dce22bfff9db0a9e996c9ef27e2c91051de0c4e1da340e0326b4941e";
  const relays = ["wss://relay.example.com", "wss://ünïcode.example/ø"];
  const encoded: Array<[string, string, string]> = [
    ["npub", nip19.npubEncode(pubkey), theirs.npubEncode(pubkey)],
    ["note", nip19.noteEncode(id), theirs.noteEncode(id)],
    ["nprofile", nip19.nprofileEncode({ pubkey, relays }), theirs.nprofileEncode({ pubkey, relays })],
    [
      "nevent",
      nip19.neventEncode({ id, relays, author: pubkey, kind: 30023 }),
      theirs.neventEncode({ id, relays, author: pubkey, kind: 30023 }),
    ],
    ["nevent bare", nip19.neventEncode({ id }), theirs.neventEncode({ id })],
    [
      "naddr",
      nip19.naddrEncode({ pubkey, kind: 31123, identifier: "my-skill ✓", relays }),
      theirs.naddrEncode({ pubkey, kind: 31123, identifier: "my-skill ✓", relays }),
    ],
  ];
  // TLV order is free (nostr-tools writes the highest type first), so each side decodes the other's code.
  for (const [what, mine, other] of encoded) {
    const decoded = toJsonText(nip19.decode(mine));
    check(decoded === toJsonText(theirs.decode(mine)), `nip19 ${what}: nostr-tools reads Halo's code`);
    check(decoded === toJsonText(nip19.decode(other)), `nip19 ${what}: Halo reads nostr-tools' code`);
    if (what === "npub" || what === "note") check(mine === other, `nip19 encode ${what}`);
    out.push(`nip19 ${what} ${mine} ${decoded}`);
  }
  const nsec = nip19.decode(theirs.nsecEncode(hexToBytes(id)));
  check(nsec.type === "nsec" && bytesToHex(nsec.data) === id, "nip19 nsec");
  const hostile: Array<[string, string]> = [
    ["bad checksum", `${encoded[0][1].slice(0, -1)}${encoded[0][1].endsWith("q") ? "p" : "q"}`],
    ["unknown prefix", theirs.encodeBytes("nfoo" as "npub", hexToBytes(pubkey))],
    ["npub of 31 bytes", theirs.encodeBytes("npub", hexToBytes(pubkey).subarray(1))],
    ["nprofile without a pubkey", theirs.encodeBytes("nprofile" as "npub", Uint8Array.of(1, 3, 97, 98, 99))],
    ["truncated TLV", theirs.encodeBytes("nprofile" as "npub", Uint8Array.of(0, 32, 1, 2, 3))],
    ["nevent kind of 3 bytes", theirs.encodeBytes("nevent" as "npub", Uint8Array.of(0, 32, ...hexToBytes(id), 3, 3, 0, 0, 1))],
    ["naddr without a kind", theirs.encodeBytes("naddr" as "npub", Uint8Array.of(0, 1, 97, 2, 32, ...hexToBytes(pubkey)))],
    ["relay not UTF-8", theirs.encodeBytes("nprofile" as "npub", Uint8Array.of(0, 32, ...hexToBytes(pubkey), 1, 2, 0xc3, 0x28))],
    ["5,001 characters", `npub1${"q".repeat(4996)}`],
    ["empty", ""],
  ];
  for (const [what, code] of hostile) {
    check(
      throws(() => nip19.decode(code)),
      `nip19 refuses ${what}`,
    );
    out.push(`nip19 refused: ${what}`);
  }
}

function toJsonText(x: unknown): string {
  return JSON.stringify(x, (_k, v) => (Array.isArray(v) && v.length === 0 ? undefined : v));
}

/**
 * The scenario over one binding of the Curve port (the TypeScript curve unless the engine's C one is given)
 * and one SHA-256 for ids and BIP-340 (the TypeScript one unless the engine's Digest port is given).
 */
export async function runNostrScenario(c: Curve = tsCurve, digest: Sha256Port = portableSha256): Promise<string[]> {
  const out: string[] = [];
  tsCurveEdges(out);
  portEdges(c, out);
  bip340(c, digest, out);
  nip44(c, out);
  events(c, digest, out);
  entities(out);
  return out;
}
