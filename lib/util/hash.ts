/**
 * djb2 over UTF-16 code units, as an unsigned 32-bit number. Stable across engines. It walks the string's
 * characters (linear on XS, where indexing a string walks it from the start each time).
 */
export function djb2(s: string): number {
  let h = 5381;
  for (const ch of s) {
    h = (Math.imul(h, 33) + ch.charCodeAt(0)) | 0;
    if (ch.length === 2) h = (Math.imul(h, 33) + ch.charCodeAt(1)) | 0;
  }
  return h >>> 0;
}

/** djb2 over bytes[start, end), unsigned 32-bit: a cheap check for short records, not a digest. */
export function djb2Bytes(bytes: Uint8Array, start = 0, end: number = bytes.length): number {
  let h = 5381;
  for (let i = start; i < end; i++) h = (Math.imul(h, 33) + bytes[i]) | 0;
  return h >>> 0;
}

/** djb2 as 8 lowercase hex digits. */
export function djb2Hex(s: string): string {
  return djb2(s).toString(16).padStart(8, "0");
}

const HEX = "0123456789abcdef";

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return out;
}

/** Bytes of an even-length hex string (no validation: callers check the form). */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

/** Compares two equal-purpose byte strings without an early exit on the first difference. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
