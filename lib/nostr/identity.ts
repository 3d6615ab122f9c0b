// The device's Nostr key pair: made from the Random port on first boot and kept
// in Settings beside the other secrets. The secret key never leaves this class;
// the public key (hex or npub) is what anyone may read.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type { Curve, Log, Random, Settings } from "../ports";
import { nip04Decrypt, nip04Encrypt, nip44ConversationKey, nip44Decrypt, nip44Encrypt } from "./crypto";
import { type EventTemplate, type NostrEvent, publicKeyOf, type Sha256Port, signEvent } from "./event";
import { npubEncode } from "./nip19";
import { secp256k1 } from "./secp256k1";

/** The Settings key of the secret key: under `secret.`, which no tool or knob reads. */
export const NOSTR_KEY_SETTING = "secret.nostr-key";
/** Conversation keys kept (one ECDH each saved). */
const CONVERSATION_KEYS_MAX = 32;

export class NostrIdentity {
  private readonly secretKey: Uint8Array;
  readonly pubkey: string;
  private readonly conversationKeys = new Map<string, Uint8Array>();

  constructor(
    settings: Settings,
    private readonly random: Random,
    log: Log,
    /** The secp256k1 arithmetic every signature and ECDH of this key goes through. */
    readonly curve: Curve,
    /** The SHA-256 of its ids and signatures (the host's Digest port). */
    readonly digest: Sha256Port,
  ) {
    const stored = settings.get(NOSTR_KEY_SETTING);
    if (stored && /^[0-9a-f]{64}$/.test(stored) && secp256k1.isValidSecretKey(hexToBytes(stored))) {
      this.secretKey = hexToBytes(stored);
    } else {
      this.secretKey = this.freshSecretKey();
      settings.set(NOSTR_KEY_SETTING, bytesToHex(this.secretKey));
      log.info("nostr: created the device's key pair");
    }
    this.pubkey = publicKeyOf(curve, this.secretKey);
  }

  npub(): string {
    return npubEncode(this.pubkey);
  }

  randomBytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    this.random.fill(b);
    return b;
  }

  sign(template: EventTemplate): NostrEvent {
    return signEvent(this.curve, this.digest, template, this.secretKey, this.randomBytes(32), this.pubkey);
  }

  nip44Encrypt(pubkey: string, plaintext: string): string {
    return nip44Encrypt(plaintext, this.conversationKey(pubkey), (n) => this.randomBytes(n));
  }

  nip44Decrypt(pubkey: string, payload: string): string {
    return nip44Decrypt(payload, this.conversationKey(pubkey));
  }

  nip04Encrypt(pubkey: string, text: string): string {
    return nip04Encrypt(this.curve, this.secretKey, pubkey, text, (n) => this.randomBytes(n));
  }

  nip04Decrypt(pubkey: string, payload: string): string {
    return nip04Decrypt(this.curve, this.secretKey, pubkey, payload);
  }

  private conversationKey(pubkey: string): Uint8Array {
    let key = this.conversationKeys.get(pubkey);
    if (!key) {
      key = nip44ConversationKey(this.curve, this.secretKey, pubkey);
      if (this.conversationKeys.size >= CONVERSATION_KEYS_MAX) this.conversationKeys.clear();
      this.conversationKeys.set(pubkey, key);
    }
    return key;
  }

  private freshSecretKey(): Uint8Array {
    for (;;) {
      const candidate = this.randomBytes(32);
      if (secp256k1.isValidSecretKey(candidate)) return candidate;
    }
  }
}
