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

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
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

/** `s.replace(/\s+/g, " ").trim()`, by slices between the runs of whitespace. */
export function collapseSpaces(s: string): string {
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
