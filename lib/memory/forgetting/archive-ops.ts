// memory.archive: list, search and restore the caller's expired memories.
import { HaloError } from "../../errors";
import type { Principal } from "../../registry/principal";
import { cardError } from "../../store/card";
import { ARCHIVE_MAX_RESULTS, RECALL_CANDIDATES_MIN, RESTORE_IMPORTANCE_MIN } from "../bounds";
import type { ArchivedEntry } from "./archive";
import type { MemoryEngine, MemoryTx, TxNeeds } from "../engine";
import type { ArchiveHits, ArchiveListing, RestoreOutcome } from "../outcomes";
import { MAX_TOP_K } from "../store/kernel-ts";
import { residualBytes, rowScale } from "../store/quantize";
import { cosines } from "../recall/similarity";
import { clampTtl, TTL_PERMANENT, ttlIndex, type TtlClass } from "./ttl";
import { FLAG_PERMANENT } from "../store/vector-store";
import { findContent, parseId } from "../writes";

/** The caller's archived entries, newest first, at most `limit`. */
export function listArchive(engine: MemoryEngine, p: Principal, limit: number): ArchiveListing {
  return engine.transactNow(
    "read",
    (tx) => {
      const mine = ownEntries(tx, p);
      const shown = mine.sort((a, b) => b.archivedAt - a.archivedAt).slice(0, Math.min(limit, ARCHIVE_MAX_RESULTS));
      return { shown, more: mine.length - shown.length };
    },
    ARCHIVE_NEEDS,
  );
}

/**
 * The caller's archived entries most similar to `query` (those made by the
 * current embedder): like memory.search, the kernel fetches candidates by scaled
 * int8 dot product and they are ranked by cosine with the query's float vector
 * (each row refined by its residuals: Kernels.rerank).
 */
export async function searchArchive(engine: MemoryEngine, p: Principal, query: string, n: number): Promise<ArchiveHits> {
  const q = query.trim();
  if (q === "") throw new HaloError("invalid-arguments", "'query' is empty.");
  return engine.transact(
    "read",
    async (tx) => {
      const dims = tx.embedder.dims;
      const comparable = ownEntries(tx, p).filter((e) => e.embedderId === tx.embedder.id);
      if (comparable.length === 0) return { comparable: false, hits: [] };
      const vector = await tx.embedQuery(q);
      const half = residualBytes(dims);
      const rows = new Int8Array(comparable.length * dims);
      const residuals = new Uint8Array(comparable.length * half);
      const scales = new Float32Array(comparable.length);
      comparable.forEach((e, i) => {
        rows.set(e.row, i * dims);
        residuals.set(e.residual, i * half);
        scales[i] = rowScale(e.norm);
      });
      const k = Math.min(comparable.length, MAX_TOP_K, Math.max(RECALL_CANDIDATES_MIN, n));
      const { indices } = tx.kernels.topK(rows, dims, comparable.length, vector.row, k, undefined, scales);
      const similarities = cosines(tx.kernels, rows, dims, residuals, indices, vector);
      const hits: Array<{ entry: ArchivedEntry; similarity: number }> = [];
      for (let i = 0; i < indices.length; i++) {
        const entry = comparable[indices[i]];
        const similarity = similarities[i];
        if (similarity >= tx.config.relevance_threshold) hits.push({ entry, similarity });
      }
      hits.sort((a, b) => b.similarity - a.similarity);
      return { comparable: true, hits: hits.slice(0, n) };
    },
    ARCHIVE_NEEDS,
  );
}

/**
 * Brings an archived entry back into the live store with a fresh TTL. Refuses,
 * leaving the entry in the archive, when the live store or the caller's quota is full.
 */
export async function restoreArchived(engine: MemoryEngine, p: Principal, idText: string, ttlName?: TtlClass): Promise<RestoreOutcome> {
  return engine.transact("write", async (tx) => {
    const id = parseId(idText);
    const entry = id === undefined ? undefined : ownEntries(tx, p).find((e) => e.meta.id === id);
    if (!entry) throw new HaloError("not-found", "no archived memory with that id.");
    const archive = tx.archive();
    const stored =
      entry.embedderId === tx.embedder.id && entry.row.length === tx.embedder.dims ? entry : await tx.embedRow(entry.meta.content);
    const { store } = tx;
    const live = findContent(store, p.ns, entry.meta.content);
    if (live.slot >= 0) {
      archive.remove(p.ns, entry.meta.id);
      return { kind: "already-live", id: store.ids[live.slot] };
    }
    if (store.countIn(p.ns) >= p.quota.vectors) {
      throw new HaloError("quota", `you already hold ${p.quota.vectors} memories; delete some first. The entry stays in the archive.`);
    }
    if (store.count >= tx.config.max_vectors) {
      throw new HaloError("full", "the live memory store is full; nothing was restored and the entry stays in the archive.");
    }
    const ttl = clampTtl(ttlName !== undefined ? ttlIndex(ttlName) : entry.meta.ttlClass, p.quota.ttlHours);
    const now = tx.now();
    tx.ensureCapacity();
    store.add(
      {
        ...entry.meta,
        id: live.id,
        importance: Math.max(entry.meta.importance, RESTORE_IMPORTANCE_MIN),
        lastRecalled: now,
        ttlClass: ttl,
        flags: ttl === TTL_PERMANENT ? FLAG_PERMANENT : 0,
      },
      stored.row,
      stored.residual,
    );
    // Saved before the archive is marked: a failed save leaves the entry in the archive.
    tx.commit();
    try {
      archive.remove(p.ns, entry.meta.id);
    } catch {
      tx.log.warn("memory: a restored entry could not be marked in the archive; a later restore clears it");
    }
    return { kind: "restored", id: live.id, ttl };
  });
}

/** The archive's own checks (the card, in tx.archive()) replace the live store's. */
const ARCHIVE_NEEDS: TxNeeds = { loaded: false, embedder: false };

function ownEntries(tx: MemoryTx, p: Principal): ArchivedEntry[] {
  const archive = tx.archive();
  try {
    return archive.load().filter((e) => e.meta.ns === p.ns);
  } catch (e) {
    throw cardError(tx.storage!, e);
  }
}
