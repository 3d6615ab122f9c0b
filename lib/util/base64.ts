const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The alphabet's character codes. */
const ALPHABET_CODES: Uint8Array = (() => {
  const codes = new Uint8Array(64);
  for (let i = 0; i < 64; i++) codes[i] = ALPHABET.charCodeAt(i);
  return codes;
})();

/** Value of each character code (0-63), 255 for characters outside the alphabet. */
const VALUES: Uint8Array = (() => {
  const table = new Uint8Array(128).fill(255);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Decodes standard base64 (padding optional); undefined when malformed.
 * Works four characters at a time through a table over the text's UTF-8
 * bytes (indexing a string on XS walks it from the start, so a provider's
 * base64 image of a few MB would take quadratic time), in one pass.
 */
export function decodeBase64(base64: string): Uint8Array | undefined {
  const text = new TextEncoder().encode(base64);
  let end = text.length;
  while (end > 0 && text[end - 1] === 61) end--; // '='
  if (text.length - end > 2 || end % 4 === 1) return undefined;
  const out = new Uint8Array((end * 3) >> 2);
  let o = 0;
  let i = 0;
  const whole = end - (end % 4);
  for (; i < whole; i += 4) {
    const a = lookup(text, i);
    const b = lookup(text, i + 1);
    const c = lookup(text, i + 2);
    const d = lookup(text, i + 3);
    if ((a | b | c | d) > 63) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  if (i < end) {
    const a = lookup(text, i);
    const b = lookup(text, i + 1);
    const c = i + 2 < end ? lookup(text, i + 2) : 0;
    if ((a | b | c) > 63) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >> 16;
    if (i + 2 < end) out[o++] = (n >> 8) & 0xff;
  }
  return out;
}

/** Standard base64 with padding. The characters are made as bytes and decoded once (linear on XS). */
export function encodeBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out[o++] = ALPHABET_CODES[n >> 18];
    out[o++] = ALPHABET_CODES[(n >> 12) & 63];
    out[o++] = i + 1 < bytes.length ? ALPHABET_CODES[(n >> 6) & 63] : 61;
    out[o++] = i + 2 < bytes.length ? ALPHABET_CODES[n & 63] : 61;
  }
  return new TextDecoder().decode(out);
}

function lookup(text: Uint8Array, i: number): number {
  const code = text[i];
  return code < 128 ? VALUES[code] : 255;
}
