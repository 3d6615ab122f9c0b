/**
 * True when the JSON nests arrays and objects deeper than `maxDepth`. Checked on the body's bytes before
 * JSON.parse, so a hostile body cannot exhaust the engine's native stack (XS recurses while parsing); on
 * bytes because indexing a string on XS walks it from the start, which made this quadratic in the body.
 */
export function jsonTooDeep(body: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
