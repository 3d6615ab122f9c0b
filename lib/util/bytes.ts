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

/** `data` as the one piece of a Storage.writeAtomicFrom producer: writeAtomic over the streamed write. */
export function onePiece(data: Uint8Array): () => Uint8Array | undefined {
  let given = false;
  return () => {
    if (given) return undefined;
    given = true;
    return data;
  };
}
