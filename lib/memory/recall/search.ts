// memory.search: hybrid recall. One masked kernel scan over the caller's
// entries and the lexical index (lexical.ts) give the candidates; each gets a
// relevance that fuses its cosine with its word-match score, then is re-scored
// by recency and importance, de-duplicated, diversified, and cut to the
// recall context's byte budget (max_context_bytes) in the form formatHits writes.
import { HaloError } from "../../errors";
import type { Principal } from "../../registry/principal";
import { LEXICAL_CANDIDATES, MEMORY_QUERY_MAX_CHARS, RECALL_CANDIDATES_MIN, RECALL_IMPORTANCE_BOOST, RECALL_POOL_MAX } from "../bounds";
import type { MemoryEngine, MemoryTx } from "../engine";
import { MAX_TOP_K } from "../store/kernel-ts";
import { diversify, formatHits, pairwiseSimilarity, recallScore, recency, type Hit } from "./recall";
import { cosines, type QueryVector } from "./similarity";
import { FLAG_PINNED, FLAG_REEMBEDDED } from "../store/vector-store";

/**
 * How many candidates the kernel returns for `n` results (at least
 * RECALL_CANDIDATES_MIN). Ranking them by the cosine of the query's float
 * vector with each row refined by its residuals (similarity.ts,
 * Kernels.rerank) is the re-rank that lifts int8 recall@10 against exact float
 * search (docs/memory-kernel.md).
 */
const CANDIDATES_PER_RESULT = 4;

export interface SearchAnswer {
  /** False when the caller has no memories at all (then nothing was searched). */
  stored: boolean;
  /** The hits as the recall context (formatHits: one "- [NN%] content" line each, within max_context_bytes); "" when none. */
  text: string;
  /** similarity: the cosine; relevance: the cosine fused with the word match (what the text shows and the threshold tests). */
  hits: Array<{ id: number; similarity: number; relevance: number; content: string }>;
}

/**
 * Lifts a cosine toward 1 by a lexical score in [0, 1]: relevance =
 * similarity + (1 - similarity) x weight x lexical. With no word in common it
 * is the cosine; an exact match of every query word with weight 0.6 gives at
 * least 0.6 whatever the embedder says.
 */
export function fuseRelevance(similarity: number, lexical: number, weight: number): number {
  const s = similarity > 0 ? similarity : 0;
  return s + (1 - s) * weight * lexical;
}

export async function searchMemory(engine: MemoryEngine, p: Principal, query: string, n?: number): Promise<SearchAnswer> {
  const q = typeof query === "string" ? query.trim() : "";
  if (q === "") throw new HaloError("invalid-arguments", "'query' is empty.");
  if (q.length > MEMORY_QUERY_MAX_CHARS)
    throw new HaloError("invalid-arguments", `'query' is longer than ${MEMORY_QUERY_MAX_CHARS} characters.`);
  return engine.transact("read", async (tx) => {
    if (!tx.store.maskOf(p.ns)) return { stored: false, text: "", hits: [] };
    const vector = await tx.embedQuery(q);
    return rankAndBoost(tx, p, q, vector, n ?? tx.config.retrieval_count);
  });
}

/** The search proper, on the store as it is after the query's embedding (no await from here on). */
function rankAndBoost(tx: MemoryTx, p: Principal, q: string, vector: QueryVector, count: number): SearchAnswer {
  const { store, config, kernels } = tx;
  const mask = store.maskOf(p.ns);
  if (!mask) return { stored: false, text: "", hits: [] };
  const now = tx.now();
  const k = Math.min(store.countIn(p.ns), MAX_TOP_K, Math.max(RECALL_CANDIDATES_MIN, count * CANDIDATES_PER_RESULT));
  const { indices } = kernels.topK(store.vectors, store.dims, store.count, vector.row, k, mask, store.scales);
  const lexical = new Map<number, number>();
  const extra: number[] = [];
  // A re-embed in place cut part way (config-ops.ts): rows not yet re-made hold the old embedder's vector,
  // which says nothing about this query; those memories are found by their words alone until it resumes.
  const halfway = tx.storeEmbedderId !== tx.embedder.id;
  if (config.lexical_weight > 0 || halfway) {
    for (const hit of store.lexicalSearch(p.ns, q, LEXICAL_CANDIDATES)) {
      const slot = store.slotOf(p.ns, hit.id);
      lexical.set(slot, hit.score);
      if (indices.indexOf(slot) < 0) extra.push(slot);
    }
  }
  const slots = Int32Array.from([...indices, ...extra]);
  const similarities = new Float64Array(slots.length);
  similarities.set(cosines(kernels, store.vectors, store.dims, store.residuals, indices, vector));
  if (extra.length > 0)
    similarities.set(cosines(kernels, store.vectors, store.dims, store.residuals, slots.subarray(indices.length), vector), indices.length);
  // Those rows' word scores are scaled so the best word match counts as a full match: an exact match among
  // them is not outranked by re-made rows that only resemble the query.
  let bestLexical = 0;
  if (halfway) for (const score of lexical.values()) bestLexical = Math.max(bestLexical, score);
  const hits: Hit[] = [];
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i];
    const stale = halfway && (store.flags[slot] & FLAG_REEMBEDDED) === 0;
    if (stale) similarities[i] = 0;
    const lexicalScore = lexical.get(slot) ?? 0;
    const similarity = stale
      ? bestLexical > 0
        ? lexicalScore / bestLexical
        : 0
      : fuseRelevance(similarities[i], lexicalScore, config.lexical_weight);
    if (similarity < config.relevance_threshold) continue;
    const pinned = (store.flags[slot] & FLAG_PINNED) !== 0;
    const r = recency(now - store.created[slot], config.recency_half_life_hours, pinned);
    hits.push({ slot, similarity, cosine: similarities[i], score: recallScore(similarity, r, store.importance[slot]) });
  }
  if (hits.length === 0) return { stored: true, text: "", hits: [] };
  hits.sort((a, b) => b.score - a.score);
  const pool = hits.slice(0, Math.max(count, Math.min(RECALL_POOL_MAX, count * 2)));
  const pairs = pairwiseSimilarity(store, kernels, pool);
  // Halfway, a row not yet re-made is compared with no other: the two embedders' cosines mean nothing.
  if (halfway)
    for (let i = 0; i < pool.length; i++)
      if ((store.flags[pool[i].slot] & FLAG_REEMBEDDED) === 0)
        for (let j = 0; j < pool.length; j++) if (j !== i) pairs[i * pool.length + j] = pairs[j * pool.length + i] = 0;
  const chosen = diversify(pool, pairs, config.mmr_lambda, count);
  const lines = chosen.map((h) => ({ similarity: h.similarity, content: store.contentOf(h.slot) }));
  const { text, shown } = formatHits(lines, config.max_context_bytes);
  const shownHits = chosen.slice(0, shown);
  for (const h of shownHits) {
    store.importance[h.slot] = Math.min(1, store.importance[h.slot] + RECALL_IMPORTANCE_BOOST);
    store.lastRecalled[h.slot] = now;
    store.touch(h.slot);
  }
  if (shownHits.length > 0) tx.markSoftDirty();
  return {
    stored: true,
    text,
    hits: shownHits.map((h) => ({
      id: store.ids[h.slot],
      similarity: h.cosine ?? h.similarity,
      relevance: h.similarity,
      content: store.contentOf(h.slot),
    })),
  };
}
