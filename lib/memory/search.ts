// memory.search: one masked kernel scan over the caller's entries, re-scored
// by recency and importance, de-duplicated, diversified, formatted.
import type { Principal } from "../registry/principal";
import { ToolError } from "../registry/errors";
import { utf8Length } from "../util/utf8";
import { MEMORY_QUERY_MAX_CHARS, RECALL_CANDIDATES_MIN, RECALL_IMPORTANCE_BOOST, RECALL_POOL_MAX } from "./bounds";
import type { MemoryEngine } from "./engine";
import { MAX_TOP_K } from "./kernel-ts";
import { diversify, formatHits, pairwiseSimilarity, recallScore, recency, type Hit } from "./recall";
import { cosines } from "./similarity";
import { FLAG_PINNED } from "./vector-store";

/**
 * How many candidates the kernel returns for `n` results (at least
 * RECALL_CANDIDATES_MIN). Ranking them by the cosine with the query's float
 * vector (similarity.ts) is the re-rank that lifts int8 recall@10 against
 * exact float search (docs/memory-kernel.md).
 */
const CANDIDATES_PER_RESULT = 4;

export interface SearchAnswer {
  text: string;
  hits: Array<{ id: number; similarity: number; content: string }>;
}

export async function searchMemory(engine: MemoryEngine, p: Principal, query: string, n?: number): Promise<SearchAnswer> {
  engine.prepare();
  const q = typeof query === "string" ? query.trim() : "";
  if (q === "") throw new ToolError("invalid arguments: 'query' is empty.");
  if (q.length > MEMORY_QUERY_MAX_CHARS)
    throw new ToolError(`invalid arguments: 'query' is longer than ${MEMORY_QUERY_MAX_CHARS} characters.`);
  const count = n ?? engine.config.retrieval_count;
  engine.requireLoaded();
  engine.requireCurrentEmbedder();
  if (!engine.store.maskOf(p.ns)) return { text: "No memories stored yet.", hits: [] };
  const vector = await engine.embedQuery(q);
  engine.requireCurrentEmbedder();
  const { store, config } = engine;
  const mask = store.maskOf(p.ns);
  if (!mask) return { text: "No memories stored yet.", hits: [] };
  const now = engine.now();
  const k = Math.min(store.countIn(p.ns), MAX_TOP_K, Math.max(RECALL_CANDIDATES_MIN, count * CANDIDATES_PER_RESULT));
  const { kernels } = engine.deps;
  const { indices } = kernels.topK(store.vectors, store.dims, store.count, vector.row, k, mask, store.scales);
  const similarities = cosines(kernels, store.vectors, store.dims, store.scales, indices, vector);
  const hits: Hit[] = [];
  for (let i = 0; i < indices.length; i++) {
    const slot = indices[i];
    const similarity = similarities[i];
    if (similarity < config.relevance_threshold) continue;
    const pinned = (store.flags[slot] & FLAG_PINNED) !== 0;
    const r = recency(now - store.created[slot], config.recency_half_life_hours, pinned);
    hits.push({ slot, similarity, score: recallScore(similarity, r, store.importance[slot]) });
  }
  if (hits.length === 0) return { text: "No memories match.", hits: [] };
  hits.sort((a, b) => b.score - a.score);
  const pool = hits.slice(0, Math.max(count, Math.min(RECALL_POOL_MAX, count * 2)));
  const chosen = diversify(pool, pairwiseSimilarity(store, engine.deps.kernels, pool), config.mmr_lambda, count);
  const lines = chosen.map((h) => ({ similarity: h.similarity, content: store.content[h.slot] }));
  const { text, shown } = formatHits(lines, config.max_context_bytes);
  const shownHits = chosen.slice(0, shown);
  for (const h of shownHits) {
    store.importance[h.slot] = Math.min(1, store.importance[h.slot] + RECALL_IMPORTANCE_BOOST);
    store.lastRecalled[h.slot] = now;
    store.touch(h.slot);
  }
  if (shownHits.length > 0) engine.markSoftDirty();
  return {
    text: utf8Length(text) > 0 ? text : "No memories match.",
    hits: shownHits.map((h) => ({ id: store.ids[h.slot], similarity: h.similarity, content: store.content[h.slot] })),
  };
}
