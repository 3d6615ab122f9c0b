// The embedding port: text in, float vectors out. The store quantizes them.

/** Turns texts into embeddings of `dims` floats each. */
export interface Embedder {
  /** Model and dimensions, e.g. "offline-hash-v1/256": the vector file records it, a change needs a re-embed. */
  id: string;
  dims: number;
  /** One vector per text, in order. Rejects with a one-sentence Error on failure. */
  embed(texts: string[]): Promise<Float32Array[]>;
}
