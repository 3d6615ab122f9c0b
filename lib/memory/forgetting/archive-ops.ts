import { HaloError } from "../../errors";
// memory.archive: list, search and restore the caller's expired memories.
import type { Principal } from "../../registry/principal";
import { CARD_ABSENT_SENTENCE, cardError } from "../../store/card";
import { ARCHIVE_MAX_RESULTS, RECALL_CANDIDATES_MIN, RESTORE_IMPORTANCE_MIN } from "../bounds";
import type { ArchivedEntry, MemoryArchive } from "./archive";
import type { MemoryEngine } from "../engine";
import { MAX_TOP_K } from "../store/kernel-ts";
import { rowScale } from "../store/quantize";
import { cosines } from "../recall/similarity";
import { clampTtl, TTL_CLASSES, TTL_PERMANENT, ttlIndex, type TtlClass } from "./ttl";
import { FLAG_PERMANENT } from "../store/vector-store";
import { findContent, formatId, parseId } from "../writes";

const SNIPPET_CHARS = 160;

/** The caller's archived entries, newest first, at most `limit`. */
export function listArchive(engine: MemoryEngine, p: Principal, limit: number): string {
  engine.prepare();
  const mine = ownEntries(engine, p);
  if (mine.length === 0) return "The archive holds none of your memories.";
  const shown = mine.sort((a, b) => b.archivedAt - a.archivedAt).slice(0, Math.min(limit, ARCHIVE_MAX_RESULTS));
  const lines = shown.map(
    (e) => `- ${formatId(e.meta.id)} (archived ${day(e.archivedAt)}, was ${TTL_CLASSES[e.meta.ttlClass]}): ${snippet(e.meta.content)}`,
  );
  const more = mine.length > shown.length ? `\n[${mine.length - shown.length} more not shown]` : "";
  return lines.join("\n") + more;
}

/**
 * The caller's archived entries most similar to `query` (those made by the
 * current embedder): like memory.search, the kernel fetches candidates by scaled
 * int8 dot product and they are ranked by cosine with the query's float vector.
 */
export async function searchArchive(engine: MemoryEngine, p: Principal, query: string, n: number): Promise<string> {
  engine.prepare();
  const q = query.trim();
  if (q === "") throw new HaloError("invalid-arguments", "'query' is empty.");
  const dims = engine.deps.embedder.dims;
  const comparable = ownEntries(engine, p).filter((e) => e.embedderId === engine.deps.embedder.id);
  if (comparable.length === 0) return "The archive holds none of your memories to search.";
  const vector = await engine.embedQuery(q);
  const rows = new Int8Array(comparable.length * dims);
  const scales = new Float32Array(comparable.length);
  comparable.forEach((e, i) => {
    rows.set(e.row, i * dims);
    scales[i] = rowScale(e.norm);
  });
  const k = Math.min(comparable.length, MAX_TOP_K, Math.max(RECALL_CANDIDATES_MIN, n));
  const { kernels } = engine.deps;
  const { indices } = kernels.topK(rows, dims, comparable.length, vector.row, k, undefined, scales);
  const similarities = cosines(kernels, rows, dims, scales, indices, vector);
  const hits: Array<{ entry: ArchivedEntry; similarity: number }> = [];
  for (let i = 0; i < indices.length; i++) {
    const entry = comparable[indices[i]];
    const similarity = similarities[i];
    if (similarity >= engine.config.relevance_threshold) hits.push({ entry, similarity });
  }
  if (hits.length === 0) return "No archived memories match.";
  hits.sort((a, b) => b.similarity - a.similarity);
  return hits
    .slice(0, n)
    .map((h) => `- [${Math.round(h.similarity * 100)}%] ${snippet(h.entry.meta.content)} (id ${formatId(h.entry.meta.id)})`)
    .join("\n");
}

/**
 * Brings an archived entry back into the live store with a fresh TTL. Refuses,
 * leaving the entry in the archive, when the live store or the caller's quota is full.
 */
export async function restoreArchived(engine: MemoryEngine, p: Principal, idText: string, ttlName?: TtlClass): Promise<string> {
  engine.prepare();
  engine.requireWritable();
  engine.requireCurrentEmbedder();
  const id = parseId(idText);
  const entry = id === undefined ? undefined : ownEntries(engine, p).find((e) => e.meta.id === id);
  if (!entry) throw new HaloError("not-found", "no archived memory with that id.");
  const archive = requireArchive(engine);
  const row =
    entry.embedderId === engine.deps.embedder.id && entry.row.length === engine.deps.embedder.dims
      ? entry.row
      : await engine.embedRow(entry.meta.content);
  engine.requireWritable();
  engine.requireCurrentEmbedder();
  const { store } = engine;
  const live = findContent(engine, p.ns, entry.meta.content);
  if (live.slot >= 0) {
    archive.remove(p.ns, entry.meta.id);
    return `id ${formatId(store.ids[live.slot])} is already in live memory; removed it from the archive.`;
  }
  if (store.countIn(p.ns) >= p.quota.vectors) {
    throw new HaloError("quota", `you already hold ${p.quota.vectors} memories; delete some first. The entry stays in the archive.`);
  }
  if (store.count >= engine.config.max_vectors) {
    throw new HaloError("full", "the live memory store is full; nothing was restored and the entry stays in the archive.");
  }
  const ttl = clampTtl(ttlName !== undefined ? ttlIndex(ttlName) : entry.meta.ttlClass, p.quota.ttlHours);
  const now = engine.now();
  engine.ensureCapacity();
  store.add(
    {
      ...entry.meta,
      id: live.id,
      importance: Math.max(entry.meta.importance, RESTORE_IMPORTANCE_MIN),
      lastRecalled: now,
      ttlClass: ttl,
      flags: ttl === TTL_PERMANENT ? FLAG_PERMANENT : 0,
    },
    row,
  );
  engine.save();
  try {
    archive.remove(p.ns, entry.meta.id);
  } catch {
    engine.deps.log.warn("memory: a restored entry could not be marked in the archive; a later restore clears it");
  }
  return `Restored id ${formatId(live.id)} (ttl ${TTL_CLASSES[ttl]}).`;
}

function requireArchive(engine: MemoryEngine): MemoryArchive {
  const storage = engine.deps.storage;
  if (!engine.archive || !storage?.present()) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
  return engine.archive;
}

function ownEntries(engine: MemoryEngine, p: Principal): ArchivedEntry[] {
  const archive = requireArchive(engine);
  try {
    return archive.load().filter((e) => e.meta.ns === p.ns);
  } catch (e) {
    throw cardError(engine.deps.storage!, e);
  }
}

function day(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}

function snippet(text: string): string {
  return text.length > SNIPPET_CHARS ? text.slice(0, SNIPPET_CHARS) + "…" : text;
}
