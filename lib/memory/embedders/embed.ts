// Turning texts into what the store keeps and what a query scans with: the
// embedder's vectors, checked, L2-normalized and quantized (quantize.ts).
import { HaloError } from "../../errors";
import type { QueryVector } from "../recall/similarity";
import { normalizeL2, type QuantizedRow, quantizeRow } from "../store/quantize";
import type { Embedder } from "./embedder";

/** Rows to store, one per text (quantizeRow: each row its own scale, the whole int8 range, and its 4-bit residuals). */
export async function embedRows(embedder: Embedder, texts: string[]): Promise<QuantizedRow[]> {
  return (await embedUnit(embedder, texts)).map(quantizeRow);
}

/** One text as a query: its int8 row for the kernel scan and its unit vector for the re-rank (the row and its residuals are also what a write stores). */
export async function embedQuery(embedder: Embedder, text: string): Promise<QueryVector> {
  const unit = (await embedUnit(embedder, [text]))[0];
  return { ...quantizeRow(unit), unit };
}

/** The embedder's vectors for `texts`, checked and L2-normalized. */
async function embedUnit(embedder: Embedder, texts: string[]): Promise<Float32Array[]> {
  let vectors: Float32Array[];
  try {
    vectors = await embedder.embed(texts);
  } catch (e) {
    throw new HaloError("unavailable", `embedding failed: ${e instanceof Error ? e.message : "unknown error"}`);
  }
  return vectors.map((v) => {
    if (!v || v.length !== embedder.dims) throw new HaloError("unavailable", "the embedder returned a vector of the wrong size.");
    if (!normalizeL2(v)) throw new HaloError("invalid-arguments", "the text has nothing to embed (no words).");
    return v;
  });
}
