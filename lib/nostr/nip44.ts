// NIP-44 version 2, written from the NIP: the conversation key (HKDF-extract of
// the ECDH x coordinate), per-message keys (HKDF-expand over the nonce),
// ChaCha20 over the padded plaintext and an HMAC-SHA256 over nonce and
// ciphertext. Nothing here calls a native function as the module loads.
import { chacha20 } from "@noble/ciphers/chacha.js";
import { equalBytes } from "@noble/ciphers/utils.js";
import { concatBytes, hexToBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import { hkdfExpand, hkdfExtract, hmacSha256 } from "../util/sha256";
import type { Curve } from "../ports";
import { secp256k1 } from "./secp256k1";

const VERSION = 2;
/** "nip44-v2" in ASCII: the HKDF salt. */
const SALT = Uint8Array.from([0x6e, 0x69, 0x70, 0x34, 0x34, 0x2d, 0x76, 0x32]);
/** Plaintexts are 1 to 65,535 bytes of UTF-8. */
export const NIP44_PLAINTEXT_MAX_BYTES = 65535;
/** Payloads are 132 to 87,472 base64 characters; anything else is refused before decoding. */
export const NIP44_PAYLOAD_MIN_CHARS = 132;
export const NIP44_PAYLOAD_MAX_CHARS = 87472;

/** The key two parties share: HKDF-extract(salt "nip44-v2", the x coordinate of their ECDH point). */
export function nip44ConversationKey(curve: Curve, secretKey: Uint8Array, pubkeyHex: string): Uint8Array {
  const shared = secp256k1.getSharedSecret(curve, secretKey, hexToBytes(`02${pubkeyHex}`));
  return hkdfExtract(shared.subarray(1, 33), SALT);
}

function messageKeys(conversationKey: Uint8Array, nonce: Uint8Array): { key: Uint8Array; iv: Uint8Array; macKey: Uint8Array } {
  if (conversationKey.length !== 32) throw new Error("invalid conversation key length");
  if (nonce.length !== 32) throw new Error("invalid nonce length");
  const keys = hkdfExpand(conversationKey, nonce, 76);
  return { key: keys.subarray(0, 32), iv: keys.subarray(32, 44), macKey: keys.subarray(44, 76) };
}

/** The NIP's padded length: 32 bytes at least, then chunks that grow with the size. */
export function paddedLength(unpadded: number): number {
  if (unpadded <= 32) return 32;
  const nextPower = 1 << (Math.floor(Math.log2(unpadded - 1)) + 1);
  const chunk = nextPower <= 256 ? 32 : nextPower / 8;
  return chunk * (Math.floor((unpadded - 1) / chunk) + 1);
}

function pad(plaintext: Uint8Array): Uint8Array {
  const length = plaintext.length;
  if (length < 1 || length > NIP44_PLAINTEXT_MAX_BYTES) throw new Error("invalid plaintext length");
  const out = new Uint8Array(2 + paddedLength(length));
  out[0] = length >> 8;
  out[1] = length & 0xff;
  out.set(plaintext, 2);
  return out;
}

function unpad(padded: Uint8Array): Uint8Array {
  const length = (padded[0] << 8) | padded[1];
  if (length < 1 || 2 + length > padded.length || padded.length !== 2 + paddedLength(length)) throw new Error("invalid padding");
  return padded.subarray(2, 2 + length);
}

function mac(macKey: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return hmacSha256(macKey, concatBytes(nonce, ciphertext));
}

/** Encrypts UTF-8 `plaintext` (1 to 65,535 bytes) with a 32-byte `nonce` the caller drew from its random source. */
export function nip44Encrypt(plaintext: string, conversationKey: Uint8Array, nonce: Uint8Array): string {
  const { key, iv, macKey } = messageKeys(conversationKey, nonce);
  const ciphertext = chacha20(key, iv, pad(new TextEncoder().encode(plaintext)));
  return base64.encode(concatBytes(Uint8Array.of(VERSION), nonce, ciphertext, mac(macKey, nonce, ciphertext)));
}

/** Throws on a bad version, length, MAC, padding or UTF-8. */
export function nip44Decrypt(payload: string, conversationKey: Uint8Array): string {
  if (payload.length < NIP44_PAYLOAD_MIN_CHARS || payload.length > NIP44_PAYLOAD_MAX_CHARS) throw new Error("invalid payload length");
  if (payload[0] === "#") throw new Error("unknown encryption version");
  const data = base64.decode(payload);
  if (data.length < 99 || data.length > 65603) throw new Error("invalid data length");
  if (data[0] !== VERSION) throw new Error(`unknown encryption version ${data[0]}`);
  const nonce = data.subarray(1, 33);
  const ciphertext = data.subarray(33, data.length - 32);
  const { key, iv, macKey } = messageKeys(conversationKey, nonce);
  if (!equalBytes(mac(macKey, nonce, ciphertext), data.subarray(data.length - 32))) throw new Error("invalid MAC");
  return new TextDecoder("utf-8", { fatal: true }).decode(unpad(chacha20(key, iv, ciphertext)));
}
