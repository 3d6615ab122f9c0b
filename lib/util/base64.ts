const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Decodes standard base64 (padding optional); undefined when malformed. For short header values. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const s = text.replace(/=+$/, "");
  if (s.length % 4 === 1 || !/^[A-Za-z0-9+/]*$/.test(s)) return undefined;
  const out = new Uint8Array((s.length * 3) >> 2);
  let bits = 0;
  let value = 0;
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    value = (value << 6) | ALPHABET.indexOf(s[i]);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 0xff;
    }
  }
  return out;
}
