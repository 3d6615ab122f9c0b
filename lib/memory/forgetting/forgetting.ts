// Forgetting: TTL expiry, importance decay, pruning of faded entries, and the
// choice of what to evict when the store (or a person's quota) is full.
import { PRUNE_IMPORTANCE_FLOOR } from "../bounds";
import { expiresAt, ttlFractionLeft } from "./ttl";
import { FLAG_PERMANENT, FLAG_PINNED, type EntryMeta, type VectorStore } from "../store/vector-store";

const DAY_MS = 24 * 3600 * 1000;

export interface Removed {
  meta: EntryMeta;
  row: Int8Array;
  residual: Uint8Array;
}

export interface ForgetReport {
  /** Entries past their TTL, with their rows and residuals (the caller archives them). */
  expired: Removed[];
  pruned: number;
}

/**
 * One maintenance pass at `now`: decays importance by decay_factor per day
 * since `lastPass`, then removes expired entries and faded ones. Pinned and
 * permanent entries neither decay nor expire.
 */
export function forget(store: VectorStore, now: number, lastPass: number, decayFactor: number): ForgetReport {
  const days = now > lastPass ? (now - lastPass) / DAY_MS : 0;
  const decay = decayFactor < 1 && days > 0 ? decayFactor ** days : 1;
  const report: ForgetReport = { expired: [], pruned: 0 };
  for (let slot = store.count - 1; slot >= 0; slot--) {
    if (store.flags[slot] & (FLAG_PINNED | FLAG_PERMANENT)) continue;
    if (decay !== 1) store.importance[slot] *= decay;
    if (now >= expiresAt(store.ttlClass[slot], store.lastRecalled[slot])) {
      report.expired.push({ meta: store.metaAt(slot), row: store.row(slot).slice(), residual: store.residual(slot).slice() });
      store.remove(slot);
    } else if (store.importance[slot] < PRUNE_IMPORTANCE_FLOOR) {
      store.remove(slot);
      report.pruned++;
    }
  }
  return report;
}

/** Pinned entries and permanent ones count against a person's pin budget. */
export function protectedCount(store: VectorStore, ns: string): number {
  const mask = store.maskOf(ns);
  if (!mask) return 0;
  let n = 0;
  for (let slot = 0; slot < store.count; slot++) if (mask[slot] && store.flags[slot] & (FLAG_PINNED | FLAG_PERMANENT)) n++;
  return n;
}

/**
 * The entry to evict: lowest importance x fraction of TTL left, among `ns`'s
 * entries (or everyone's when ns is undefined). Pinned entries are never
 * chosen; permanent ones only inside `ns` when it holds more protected entries
 * than `pinBudget`. -1 when nothing may go.
 */
export function evictionCandidate(store: VectorStore, now: number, ns?: string, pinBudget = Infinity): number {
  const mask = ns === undefined ? undefined : store.maskOf(ns);
  if (ns !== undefined && !mask) return -1;
  const permanentMayGo = ns !== undefined && protectedCount(store, ns) > pinBudget;
  let victim = -1;
  let lowest = Infinity;
  for (let slot = 0; slot < store.count; slot++) {
    if (mask && !mask[slot]) continue;
    const flags = store.flags[slot];
    if (flags & FLAG_PINNED || (flags & FLAG_PERMANENT && !permanentMayGo)) continue;
    const value = store.importance[slot] * ttlFractionLeft(store.ttlClass[slot], store.lastRecalled[slot], now);
    if (value < lowest) {
      lowest = value;
      victim = slot;
    }
  }
  return victim;
}
