import { encodeUtf8 } from "./utf8";

/** A short, single-line piece of caller-supplied text, safe to put in a message. */
export function clipForMessage(s: string, max = 60): string {
  const line = s.length <= SHORT_CHARS && !hasControl(s) ? s : s.replace(/[\u0000-\u001f\u007f]/g, "?");
  return line.length > max ? line.slice(0, max) + "…" : line;
}

/**
 * About `chars` characters of `body` around the first occurrence of `term`
 * (lower case), on one line, with an ellipsis where it was cut.
 */
export function snippetAround(body: string, term: string, chars: number): string {
  const at = Math.max(0, body.toLowerCase().indexOf(term));
  const start = Math.max(0, at - (chars >> 2));
  const piece = body.slice(start, start + chars);
  const text = piece.length <= SHORT_CHARS ? collapseSpaces(piece) : piece.replace(/\s+/g, " ").trim();
  return (start > 0 ? "…" : "") + text + (start + chars < body.length ? "…" : "");
}

/** Strings up to this long are walked by the loops below rather than a regex (XS runs regexes slowly; a long string's positions are slow to index). */
const SHORT_CHARS = 512;

/** Whether `s` holds a C0 control character or DEL. Over its UTF-8 bytes: every other character's bytes are 0x80 and up, and a byte is read in O(1) where XS walks a string to each charCodeAt. */
function hasControl(s: string): boolean {
  const bytes = encodeUtf8(s);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] < 0x20 || bytes[i] === 0x7f) return true;
  return false;
}

/** What /\s/ matches. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The ASCII characters /\s/ matches besides the space. */
const ASCII_BREAKS = "\t\n\v\f\r";

/** `s.replace(/\s+/g, " ").trim()`, by slices between the runs of whitespace. */
export function collapseSpaces(s: string): string {
  // ASCII text (as many bytes as units): native passes over the whole string instead of a call per character.
  if (encodeUtf8(s).length === s.length) {
    let out = s;
    for (let i = 0; i < ASCII_BREAKS.length; i++) if (out.indexOf(ASCII_BREAKS[i]) >= 0) out = out.replaceAll(ASCII_BREAKS[i], " ");
    while (out.indexOf("  ") >= 0) out = out.replaceAll("  ", " ");
    return out.trim();
  }
  let out = "";
  let from = -1;
  for (let i = 0; i <= s.length; i++) {
    const space = i === s.length || isSpace(s.charCodeAt(i));
    if (!space) {
      if (from < 0) from = i;
      continue;
    }
    if (from < 0) continue;
    out += (out === "" ? "" : " ") + s.slice(from, i);
    from = -1;
  }
  return out;
}
