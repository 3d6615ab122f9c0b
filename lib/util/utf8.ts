// UTF-8 helpers for measuring and cutting strings. On XS a string is kept as UTF-8 and an index into it is
// found by walking from its start (each charCodeAt(i), and each .length, costs O(i)), so a loop over a
// string's indices is quadratic there: these go through the native encoder instead, which is linear.

/** Number of bytes `s` takes as UTF-8 (a lone surrogate counts as 3, as the encoder writes U+FFFD). */
export function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** The longest prefix of `s` whose UTF-8 form fits in `maxBytes`, never splitting a character. */
export function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length <= maxBytes / 3) return s;
  const bytes = encodeUtf8(s);
  if (bytes.length <= maxBytes) return s;
  let cut = Math.max(0, maxBytes);
  // Back off to the first byte of a character (continuation bytes are 10xxxxxx).
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return decodeUtf8(bytes.subarray(0, cut));
}

export function encodeUtf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** Decodes UTF-8; malformed sequences become U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
