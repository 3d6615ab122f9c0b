import { toJson } from "../util/json";
// Nostr events (NIP-01): the canonical serialization, ids, BIP-340 signing and
// the one check every received event passes. Verification never trusts a flag
// on the object (nostr-tools caches one that survives a spread): it recomputes
// the id from the fields and checks the signature, on objects fresh from JSON.parse.
import { NOSTR_CONTENT_MAX_BYTES, NOSTR_FUTURE_SKEW_S, NOSTR_TAG_ENTRIES_MAX, NOSTR_TAG_VALUE_MAX_CHARS, NOSTR_TAGS_MAX } from "./limits";
import type { Curve, Digest } from "../ports";
import { hexOf, isLowerHex, lowerHexBytes } from "./hex";
import { schnorr } from "./secp256k1";
import { sha256 } from "../util/sha256";

/**
 * The SHA-256 that ids and BIP-340's hashes go through: the host's Digest port (native on the device and
 * lin), or `portableSha256` where a caller has no port.
 */
export type Sha256Port = Pick<Digest, "sha256">;

/** SHA-256 in TypeScript (lib/util/sha256.ts): the same bytes as every Digest port, slower on XS. */
export const portableSha256: Sha256Port = Object.freeze({ sha256 });

export interface EventTemplate {
  kind: number;
  content: string;
  tags: string[][];
  created_at: number;
}

export interface UnsignedEvent extends EventTemplate {
  pubkey: string;
}

export interface NostrEvent extends UnsignedEvent {
  id: string;
  sig: string;
}

export function isHex64(value: unknown): value is string {
  return isLowerHex(value, 64);
}

/** The NIP-01 serialization: [0, pubkey, created_at, kind, tags, content]. */
export function serializeEvent(e: UnsignedEvent): string {
  return toJson([0, e.pubkey, e.created_at, e.kind, e.tags, e.content]);
}

/** The 32 bytes of an event's id: the SHA-256 of its serialization. */
function idBytes(digest: Sha256Port, e: UnsignedEvent): Uint8Array {
  return digest.sha256(new TextEncoder().encode(serializeEvent(e)));
}

/**
 * idBytes for an event whose every object verifyEvent has just built from a JSON.parse result: nothing in
 * it can be in flash, so the plain JSON.stringify gives serializeEvent's text without toJson's replacer,
 * which on the device and lin calls back into JavaScript for every value.
 */
function freshIdBytes(digest: Sha256Port, e: UnsignedEvent): Uint8Array {
  return digest.sha256(new TextEncoder().encode(JSON.stringify([0, e.pubkey, e.created_at, e.kind, e.tags, e.content])));
}

export function eventId(digest: Sha256Port, e: UnsignedEvent): string {
  return hexOf(idBytes(digest, e));
}

/** BIP-340 signature of a 32-byte message. */
export function schnorrSign(curve: Curve, digest: Sha256Port, message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  return schnorr.sign(curve, digest, message, secretKey, auxRand);
}

/** BIP-340 verification; false (never a throw) for any malformed input. */
export function schnorrVerify(
  curve: Curve,
  digest: Sha256Port,
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
): boolean {
  try {
    return schnorr.verify(curve, digest, signature, message, publicKey);
  } catch {
    return false;
  }
}

/** Signs a template with `secretKey`; `auxRand` (32 bytes) comes from the Random port; a known `pubkey` saves a point multiplication. */
export function signEvent(
  curve: Curve,
  digest: Sha256Port,
  template: EventTemplate,
  secretKey: Uint8Array,
  auxRand: Uint8Array,
  pubkey: string = publicKeyOf(curve, secretKey),
): NostrEvent {
  const unsigned: UnsignedEvent = {
    kind: template.kind,
    content: template.content,
    tags: template.tags,
    created_at: template.created_at,
    pubkey,
  };
  const id = idBytes(digest, unsigned);
  const sig = hexOf(schnorrSign(curve, digest, id, secretKey, auxRand));
  return { ...unsigned, id: hexOf(id), sig };
}

/** The x-only public key of a secret key, as hex. */
export function publicKeyOf(curve: Curve, secretKey: Uint8Array): string {
  return hexOf(schnorr.getPublicKey(curve, secretKey));
}

/** Why an event was refused: a short reason naming no content. */
export type EventRefusal = "shape" | "too-large" | "future" | "bad-id" | "bad-signature";

/**
 * Checks a value fresh from JSON.parse: the shape of NIP-01, the bounds, that
 * the id is the hash of the fields and that the signature is the pubkey's.
 * Returns a new plain object (only the seven fields) or the refusal.
 */
export function verifyEvent(
  curve: Curve,
  digest: Sha256Port,
  raw: unknown,
  nowSeconds: number,
): { event: NostrEvent } | { refused: EventRefusal } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { refused: "shape" };
  const r = raw as { [k: string]: unknown };
  const { id, pubkey, sig, kind, content, created_at, tags } = r;
  // checked and decoded at once: the bytes are what the hash and the signature check compare
  const idRaw = lowerHexBytes(id, 32);
  const pubkeyRaw = lowerHexBytes(pubkey, 32);
  const sigRaw = lowerHexBytes(sig, 64);
  if (idRaw === undefined || pubkeyRaw === undefined || sigRaw === undefined) return { refused: "shape" };
  if (typeof kind !== "number" || !Number.isInteger(kind) || kind < 0 || kind > 65535) return { refused: "shape" };
  if (typeof created_at !== "number" || !Number.isInteger(created_at) || created_at < 0) return { refused: "shape" };
  if (typeof content !== "string") return { refused: "shape" };
  if (!Array.isArray(tags)) return { refused: "shape" };
  if (tags.length > NOSTR_TAGS_MAX) return { refused: "too-large" };
  const cleanTags: string[][] = [];
  for (const tag of tags) {
    if (!Array.isArray(tag)) return { refused: "shape" };
    if (tag.length > NOSTR_TAG_ENTRIES_MAX) return { refused: "too-large" };
    for (const v of tag) {
      if (typeof v !== "string") return { refused: "shape" };
      if (v.length > NOSTR_TAG_VALUE_MAX_CHARS) return { refused: "too-large" };
    }
    cleanTags.push((tag as string[]).slice());
  }
  if (content.length > NOSTR_CONTENT_MAX_BYTES || new TextEncoder().encode(content).length > NOSTR_CONTENT_MAX_BYTES) {
    return { refused: "too-large" };
  }
  if (created_at > nowSeconds + NOSTR_FUTURE_SKEW_S) return { refused: "future" };
  const event: NostrEvent = { id: id as string, pubkey: pubkey as string, created_at, kind, tags: cleanTags, content, sig: sig as string };
  if (!sameBytes(freshIdBytes(digest, event), idRaw)) return { refused: "bad-id" };
  return schnorrVerify(curve, digest, sigRaw, idRaw, pubkeyRaw) ? { event } : { refused: "bad-signature" };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The first value of the first tag named `name`. */
export function tagValue(e: { tags: string[][] }, name: string): string | undefined {
  for (const t of e.tags) if (t[0] === name && t.length > 1) return t[1];
  return undefined;
}
