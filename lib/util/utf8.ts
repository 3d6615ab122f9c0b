// UTF-8 helpers that need no TextEncoder, for measuring and cutting strings.

/** Number of bytes `s` takes as UTF-8 (lone surrogates count as 3, like TextEncoder's U+FFFD). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `s` whose UTF-8 form fits in `maxBytes`, never splitting a character. */
export function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length <= maxBytes / 3 || utf8Length(s) <= maxBytes) return s;
  let n = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    let size = 3;
    let units = 1;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        size = 4;
        units = 2;
      }
    }
    if (n + size > maxBytes) break;
    n += size;
    i += units;
  }
  return s.slice(0, i);
}

export function encodeUtf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** Decodes UTF-8; malformed sequences become U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
