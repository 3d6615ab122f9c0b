// Encryption between two keys: NIP-44 v2 (./nip44) and the older NIP-04
// (AES-256-CBC over the ECDH x coordinate). Every nonce and IV comes from the
// caller's random source, never from an ambient one.
import { cbc } from "@noble/ciphers/aes.js";
import { base64 } from "@scure/base";
import { nip44Decrypt as decryptV2, nip44Encrypt as encryptV2 } from "./nip44";
import type { Curve } from "../ports";
import { secp256k1 } from "./secp256k1";

export { NIP44_PAYLOAD_MAX_CHARS, NIP44_PAYLOAD_MIN_CHARS, NIP44_PLAINTEXT_MAX_BYTES, nip44ConversationKey } from "./nip44";

export type RandomBytes = (n: number) => Uint8Array;

/** NIP-44 v2 with a fresh 32-byte nonce from `random`; throws when the plaintext is empty or over 65,535 bytes. */
export function nip44Encrypt(plaintext: string, conversationKey: Uint8Array, random: RandomBytes): string {
  return encryptV2(plaintext, conversationKey, random(32));
}

/** Throws on a bad version, MAC, padding or length. */
export function nip44Decrypt(payload: string, conversationKey: Uint8Array): string {
  return decryptV2(payload, conversationKey);
}

function nip04Key(curve: Curve, secretKey: Uint8Array, pubkeyHex: string): Uint8Array {
  return secp256k1.getSharedSecret(curve, secretKey, hexToCompressed(pubkeyHex)).subarray(1, 33);
}

function hexToCompressed(pubkeyHex: string): Uint8Array {
  const out = new Uint8Array(33);
  out[0] = 2;
  for (let i = 0; i < 32; i++) out[i + 1] = parseInt(pubkeyHex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** NIP-04: `base64(ciphertext)?iv=base64(iv)`. */
export function nip04Encrypt(curve: Curve, secretKey: Uint8Array, pubkeyHex: string, text: string, random: RandomBytes): string {
  const iv = random(16);
  const ct = cbc(nip04Key(curve, secretKey, pubkeyHex), iv).encrypt(new TextEncoder().encode(text));
  return `${base64.encode(ct)}?iv=${base64.encode(iv)}`;
}

/** Throws when the payload is not NIP-04 or does not decrypt. */
export function nip04Decrypt(curve: Curve, secretKey: Uint8Array, pubkeyHex: string, payload: string): string {
  const parts = payload.split("?iv=");
  if (parts.length !== 2) throw new Error("not a NIP-04 payload");
  const iv = base64.decode(parts[1]);
  if (iv.length !== 16) throw new Error("not a NIP-04 payload");
  const plain = cbc(nip04Key(curve, secretKey, pubkeyHex), iv).decrypt(base64.decode(parts[0]));
  return new TextDecoder("utf-8", { fatal: true }).decode(plain);
}
