// What changed in a VectorStore since it was last persisted, in the order it
// happened: the journal (vector-journal.ts) writes these as one commit, and a
// boot replays them in the same order, so the slots come out the same (a
// removal moves the last slot into the hole). An upsert holds the entry as it
// was at that moment; touching it again before any other kind of op just
// refreshes that copy.
import { JOURNAL_MAX_COMMIT_OPS } from "../bounds";
import type { EntryMeta } from "./vector-store";

export const OP_UPSERT = 1;
export const OP_REMOVE = 2;
export const OP_MAINTAIN = 3;

export type StoreOp =
  | { kind: typeof OP_UPSERT; meta: EntryMeta; norm: number; row: Int8Array; residual: Uint8Array }
  | { kind: typeof OP_REMOVE; ns: string; id: number }
  /** A forgetting pass (forgetting.ts): decay, expiry and pruning replay from these three numbers. */
  | { kind: typeof OP_MAINTAIN; now: number; lastPass: number; decayFactor: number };

export class StoreChanges {
  readonly ops: StoreOp[] = [];
  /** Too many changes for one commit: only a whole snapshot can persist them. */
  overflow = false;
  /** Per entry key, the index of its upsert when that is its latest op and no maintenance came after. */
  private readonly openUpserts = new Map<string, number>();

  upsert(meta: EntryMeta, norm: number, row: Int8Array, residual: Uint8Array): void {
    const key = keyOf(meta.ns, meta.id);
    const op: StoreOp = { kind: OP_UPSERT, meta, norm, row: row.slice(), residual: residual.slice() };
    const at = this.openUpserts.get(key);
    if (at !== undefined) this.ops[at] = op;
    else if (this.push(op)) this.openUpserts.set(key, this.ops.length - 1);
  }

  remove(ns: string, id: number): void {
    this.openUpserts.delete(keyOf(ns, id));
    this.push({ kind: OP_REMOVE, ns, id });
  }

  maintain(now: number, lastPass: number, decayFactor: number): void {
    this.openUpserts.clear();
    this.push({ kind: OP_MAINTAIN, now, lastPass, decayFactor });
  }

  /**
   * Records nothing until clear(): the store is being filled from what the card already holds (a boot's
   * snapshot and journal), so there is nothing to persist. Marked as overflow, so a save that came before
   * clear() would write a whole snapshot, never lose a change.
   */
  ignoreUntilCleared(): void {
    this.clear();
    this.overflow = true;
  }

  clear(): void {
    this.ops.length = 0;
    this.openUpserts.clear();
    this.overflow = false;
  }

  private push(op: StoreOp): boolean {
    if (this.overflow) return false;
    if (this.ops.length >= JOURNAL_MAX_COMMIT_OPS) {
      this.overflow = true;
      this.ops.length = 0;
      this.openUpserts.clear();
      return false;
    }
    this.ops.push(op);
    return true;
  }
}

function keyOf(ns: string, id: number): string {
  return `${ns}\u0000${id}`;
}
