// Recall scoring: score = similarity x recency x (0.5 + 0.5 x importance),
// then near-duplicate collapse, MMR among near-tied hits, and the formatted,
// byte-capped answer.
import type { Kernels } from "../../ports";
import { truncateUtf8, utf8Length } from "../../util/utf8";
import { MMR_TIE_BAND, NEAR_DUPLICATE_DISTANCE, PINNED_RECENCY_MIN, RECENCY_FLOOR } from "../bounds";
import { cosineFromDot } from "../store/quantize";
import type { VectorStore } from "../store/vector-store";

const HOUR_MS = 3600 * 1000;

/** 0.35 + 0.65 x 0.5^(age / half-life); a pinned entry never under 0.75. */
export function recency(ageMs: number, halfLifeHours: number, pinned: boolean): number {
  const age = ageMs > 0 ? ageMs / HOUR_MS : 0;
  const r = RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 0.5 ** (age / halfLifeHours);
  return pinned && r < PINNED_RECENCY_MIN ? PINNED_RECENCY_MIN : r;
}

export function recallScore(similarity: number, recencyValue: number, importance: number): number {
  return similarity * recencyValue * (0.5 + 0.5 * importance);
}

export interface Hit {
  slot: number;
  /** What the threshold tests and the answer shows (memory.search: the cosine fused with the word match). */
  similarity: number;
  /** The cosine alone, when `similarity` is fused. */
  cosine?: number;
  score: number;
}

/**
 * Cosine similarity between every pair of `hits` (by slot), through the
 * kernel: one masked topK per hit over the hits' rows.
 */
export function pairwiseSimilarity(store: VectorStore, kernels: Kernels, hits: Hit[]): Float32Array {
  const n = hits.length;
  const sims = new Float32Array(n * n);
  if (n < 2) return sims;
  const mask = new Uint8Array(store.count);
  const position = new Map<number, number>();
  hits.forEach((h, i) => {
    mask[h.slot] = 1;
    position.set(h.slot, i);
  });
  for (let i = 0; i < n; i++) {
    const slot = hits[i].slot;
    const { indices, scores } = kernels.topK(store.vectors, store.dims, store.count, store.row(slot), n, mask);
    for (let r = 0; r < indices.length; r++) {
      const j = position.get(indices[r]);
      if (j !== undefined) sims[i * n + j] = cosineFromDot(scores[r], store.norms[slot], store.norms[indices[r]]);
    }
  }
  return sims;
}

/**
 * From hits sorted best first: drops near-duplicates of a better hit, orders
 * the near-tied head by MMR (lambda x score - (1 - lambda) x max similarity to
 * those already chosen), and returns at most `n`.
 */
export function diversify(hits: Hit[], sims: Float32Array, lambda: number, n: number): Hit[] {
  const size = hits.length;
  const kept: number[] = [];
  for (let i = 0; i < size; i++) {
    let duplicate = false;
    for (const k of kept) if (1 - sims[i * size + k] < NEAR_DUPLICATE_DISTANCE) duplicate = true;
    if (!duplicate) kept.push(i);
  }
  if (kept.length === 0) return [];
  const best = hits[kept[0]].score;
  const tied = kept.filter((i) => hits[i].score >= best - MMR_TIE_BAND);
  const rest = kept.filter((i) => hits[i].score < best - MMR_TIE_BAND);
  const chosen: number[] = [tied.shift()!];
  while (tied.length > 0 && chosen.length < n) {
    let pick = 0;
    let pickValue = -Infinity;
    tied.forEach((i, t) => {
      let maxSim = 0;
      for (const c of chosen) maxSim = Math.max(maxSim, sims[i * size + c]);
      const value = lambda * hits[i].score - (1 - lambda) * maxSim;
      if (value > pickValue) {
        pickValue = value;
        pick = t;
      }
    });
    chosen.push(tied.splice(pick, 1)[0]);
  }
  return chosen
    .concat(rest)
    .slice(0, n)
    .map((i) => hits[i]);
}

/** `- [NN%] content` lines, cut to `maxBytes` (a first line that alone is too long is shortened). */
export function formatHits(lines: Array<{ similarity: number; content: string }>, maxBytes: number): { text: string; shown: number } {
  let text = "";
  let shown = 0;
  for (const { similarity, content } of lines) {
    const line = `- [${Math.round(similarity * 100)}%] ${content.replace(/\s*\n\s*/g, " ")}`;
    const next = text === "" ? line : text + "\n" + line;
    if (utf8Length(next) > maxBytes) {
      if (text === "") {
        text = truncateUtf8(line, maxBytes - 3) + "...";
        shown = 1;
      }
      break;
    }
    text = next;
    shown++;
  }
  return { text, shown };
}
