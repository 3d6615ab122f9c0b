/** A short, single-line piece of caller-supplied text, safe to put in a message. */
export function clipForMessage(s: string, max = 60): string {
  const line = s.replace(/[\u0000-\u001f\u007f]/g, "?");
  return line.length > max ? line.slice(0, max) + "…" : line;
}
