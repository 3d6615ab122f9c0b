import { toJson } from "../util/json";
// Nostr events (NIP-01): the canonical serialization, ids, BIP-340 signing and
// the one check every received event passes. Verification never trusts a flag
// on the object (nostr-tools caches one that survives a spread): it recomputes
// the id from the fields and checks the signature, on objects fresh from JSON.parse.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { NOSTR_CONTENT_MAX_BYTES, NOSTR_FUTURE_SKEW_S, NOSTR_TAG_ENTRIES_MAX, NOSTR_TAG_VALUE_MAX_CHARS, NOSTR_TAGS_MAX } from "./limits";
import { sha256 } from "../util/sha256";
import type { Curve } from "../ports";
import { schnorr } from "./secp256k1";

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

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;

export function isHex64(value: unknown): value is string {
  return typeof value === "string" && HEX64.test(value);
}

/** The NIP-01 serialization: [0, pubkey, created_at, kind, tags, content]. */
export function serializeEvent(e: UnsignedEvent): string {
  return toJson([0, e.pubkey, e.created_at, e.kind, e.tags, e.content]);
}

export function eventId(e: UnsignedEvent): string {
  return bytesToHex(sha256(new TextEncoder().encode(serializeEvent(e))));
}

/** BIP-340 signature of a 32-byte message. */
export function schnorrSign(curve: Curve, message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  return schnorr.sign(curve, message, secretKey, auxRand);
}

/** BIP-340 verification; false (never a throw) for any malformed input. */
export function schnorrVerify(curve: Curve, signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return schnorr.verify(curve, signature, message, publicKey);
  } catch {
    return false;
  }
}

/** Signs a template with `secretKey`; `auxRand` (32 bytes) comes from the Random port; a known `pubkey` saves a point multiplication. */
export function signEvent(
  curve: Curve,
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
  const id = eventId(unsigned);
  const sig = bytesToHex(schnorrSign(curve, hexToBytes(id), secretKey, auxRand));
  return { ...unsigned, id, sig };
}

/** The x-only public key of a secret key, as hex. */
export function publicKeyOf(curve: Curve, secretKey: Uint8Array): string {
  return bytesToHex(schnorr.getPublicKey(curve, secretKey));
}

/** Why an event was refused: a short reason naming no content. */
export type EventRefusal = "shape" | "too-large" | "future" | "bad-id" | "bad-signature";

/**
 * Checks a value fresh from JSON.parse: the shape of NIP-01, the bounds, that
 * the id is the hash of the fields and that the signature is the pubkey's.
 * Returns a new plain object (only the seven fields) or the refusal.
 */
export function verifyEvent(curve: Curve, raw: unknown, nowSeconds: number): { event: NostrEvent } | { refused: EventRefusal } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { refused: "shape" };
  const r = raw as { [k: string]: unknown };
  const { id, pubkey, sig, kind, content, created_at, tags } = r;
  if (!isHex64(id) || !isHex64(pubkey) || typeof sig !== "string" || !HEX128.test(sig)) return { refused: "shape" };
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
  const event: NostrEvent = { id, pubkey, created_at, kind, tags: cleanTags, content, sig };
  if (eventId(event) !== id) return { refused: "bad-id" };
  return schnorrVerify(curve, hexToBytes(sig), hexToBytes(id), hexToBytes(pubkey)) ? { event } : { refused: "bad-signature" };
}

/** The first value of the first tag named `name`. */
export function tagValue(e: { tags: string[][] }, name: string): string | undefined {
  for (const t of e.tags) if (t[0] === name && t.length > 1) return t[1];
  return undefined;
}
