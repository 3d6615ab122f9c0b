/** A short, single-line piece of caller-supplied text, safe to put in a message. */
export function clipForMessage(s: string, max = 60): string {
  const line = s.replace(/[\u0000-\u001f\u007f]/g, "?");
  return line.length > max ? line.slice(0, max) + "…" : line;
}

/**
 * About `chars` characters of `body` around the first occurrence of `term`
 * (lower case), on one line, with an ellipsis where it was cut.
 */
export function snippetAround(body: string, term: string, chars: number): string {
  const at = Math.max(0, body.toLowerCase().indexOf(term));
  const start = Math.max(0, at - (chars >> 2));
  const text = body
    .slice(start, start + chars)
    .replace(/\s+/g, " ")
    .trim();
  return (start > 0 ? "…" : "") + text + (start + chars < body.length ? "…" : "");
}
