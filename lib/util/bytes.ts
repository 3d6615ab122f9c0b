/** The pieces one after the other in one new array. */
export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of pieces) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
