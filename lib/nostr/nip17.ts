import { toJson } from "../util/json";
// NIP-17 private DMs: a kind-14 rumor (unsigned), sealed (kind 13, NIP-44 by
// the sender's key) and gift-wrapped (kind 1059, NIP-44 by a one-time key).
// Timestamps of seal and wrap are back-dated at random within two days (NIP-59).
import { nip44ConversationKey, nip44Encrypt } from "./crypto";
import { eventId, type NostrEvent, signEvent, tagValue, type UnsignedEvent, verifyEvent } from "./event";
import type { NostrIdentity } from "./identity";
import { NOSTR_GIFT_WRAP_LOOKBACK_S } from "./limits";
import { secp256k1 } from "./secp256k1";

export const KIND_SEAL = 13;
export const KIND_PRIVATE_DM = 14;
export const KIND_GIFT_WRAP = 1059;

export interface PrivateMessage {
  sender: string;
  content: string;
  /** The rumor's own time (seconds). */
  createdAt: number;
  subject?: string;
}

function backdated(identity: NostrIdentity, nowS: number): number {
  const b = identity.randomBytes(4);
  const r = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  return nowS - (r % NOSTR_GIFT_WRAP_LOOKBACK_S);
}

/** Builds the gift wrap that carries `content` to `recipient`. */
export function wrapPrivateMessage(
  identity: NostrIdentity,
  recipient: string,
  content: string,
  nowS: number,
  subject?: string,
): NostrEvent {
  const tags = [["p", recipient]];
  if (subject) tags.push(["subject", subject]);
  const rumorBody: UnsignedEvent = { kind: KIND_PRIVATE_DM, pubkey: identity.pubkey, created_at: nowS, tags, content };
  const rumor = { ...rumorBody, id: eventId(identity.digest, rumorBody) };
  const seal = identity.sign({
    kind: KIND_SEAL,
    tags: [],
    created_at: backdated(identity, nowS),
    content: identity.nip44Encrypt(recipient, toJson(rumor)),
  });
  let ephemeral = identity.randomBytes(32);
  while (!secp256k1.isValidSecretKey(ephemeral)) ephemeral = identity.randomBytes(32);
  const wrapped = nip44Encrypt(toJson(seal), nip44ConversationKey(identity.curve, ephemeral, recipient), (n) => identity.randomBytes(n));
  return signEvent(
    identity.curve,
    identity.digest,
    { kind: KIND_GIFT_WRAP, tags: [["p", recipient]], created_at: backdated(identity, nowS), content: wrapped },
    ephemeral,
    identity.randomBytes(32),
  );
}

/**
 * Opens a gift wrap addressed to `identity` (the wrap itself already verified):
 * the seal must be a valid signed kind 13 and the rumor a kind 14 by the seal's
 * author. Throws a short Error otherwise.
 */
export function unwrapPrivateMessage(identity: NostrIdentity, wrap: NostrEvent, nowS: number): PrivateMessage {
  if (wrap.kind !== KIND_GIFT_WRAP) throw new Error("not a gift wrap");
  const sealRaw: unknown = JSON.parse(identity.nip44Decrypt(wrap.pubkey, wrap.content));
  const checked = verifyEvent(identity.curve, identity.digest, sealRaw, nowS);
  if (!("event" in checked)) throw new Error(`the seal was refused (${checked.refused})`);
  const seal = checked.event;
  if (seal.kind !== KIND_SEAL) throw new Error("not a seal");
  const rumor: unknown = JSON.parse(identity.nip44Decrypt(seal.pubkey, seal.content));
  if (!rumor || typeof rumor !== "object") throw new Error("not a rumor");
  const r = rumor as { [k: string]: unknown };
  if (r.kind !== KIND_PRIVATE_DM || r.pubkey !== seal.pubkey) throw new Error("the rumor's author is not the seal's");
  if (typeof r.content !== "string" || typeof r.created_at !== "number" || !Array.isArray(r.tags)) throw new Error("not a rumor");
  const tags = r.tags.filter((t): t is string[] => Array.isArray(t) && t.every((v) => typeof v === "string"));
  return { sender: seal.pubkey, content: r.content, createdAt: r.created_at, subject: tagValue({ tags }, "subject") };
}
