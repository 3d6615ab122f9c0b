// The artifact index's records in listing order (project, then name ignoring
// case), kept between calls so a search or a listing sorts nothing, and changed
// by one record at a time: a save, share or delete copies the arrays (a native
// copy) rather than sorting every record again. Every change makes new arrays,
// so a caller that kept data per position can tell by identity that they moved.
import type { ArtifactRecord } from "./artifact-index";

/** Records in order and their keys (artifactKey), index for index. Shared: callers must not change them. */
export interface SortedRecords {
  readonly records: readonly ArtifactRecord[];
  readonly keys: readonly string[];
}

/** The records of `sorted` at the positions `chosen` (ascending): the shared array itself when that is all of them. */
export function pickRecords(sorted: SortedRecords, chosen: Int32Array): readonly ArtifactRecord[] {
  if (chosen.length === sorted.records.length) return sorted.records;
  const out: ArtifactRecord[] = [];
  for (let c = 0; c < chosen.length; c++) out.push(sorted.records[chosen[c]]);
  return out;
}

/** Every record of `byKey` in order (each name lower-cased once, not per comparison). */
export function sortRecords(byKey: Map<string, ArtifactRecord>): SortedRecords {
  const out: Array<{ r: ArtifactRecord; key: string; name: string }> = [];
  for (const [key, r] of byKey) out.push({ r, key, name: r.name.toLowerCase() });
  out.sort((a, b) => (a.r.project < b.r.project ? -1 : a.r.project > b.r.project ? 1 : a.name < b.name ? -1 : 1));
  return { records: out.map((x) => x.r), keys: out.map((x) => x.key) };
}

/**
 * `sorted` with `record` stored under `key`: in the place of the record it replaces (same key, so the same
 * project and name and the same place), else inserted where it sorts. Undefined if `key` is not where
 * `replacing` says (the caller sorts again).
 */
export function withRecord(sorted: SortedRecords, key: string, record: ArtifactRecord, replacing: boolean): SortedRecords | undefined {
  if (replacing) {
    const at = sorted.keys.indexOf(key);
    if (at < 0) return undefined;
    const records = sorted.records.slice();
    records[at] = record;
    return { records, keys: sorted.keys };
  }
  // The first position whose record sorts after the new one.
  const name = record.name.toLowerCase();
  let lo = 0;
  let hi = sorted.records.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const r = sorted.records[mid];
    const after = r.project > record.project || (r.project === record.project && r.name.toLowerCase() > name);
    if (after) hi = mid;
    else lo = mid + 1;
  }
  const records = sorted.records.slice();
  records.splice(lo, 0, record);
  const keys = sorted.keys.slice();
  keys.splice(lo, 0, key);
  return { records, keys };
}

/** `sorted` without the record under `key`; undefined if it is not there (the caller sorts again). */
export function withoutRecord(sorted: SortedRecords, key: string): SortedRecords | undefined {
  const at = sorted.keys.indexOf(key);
  if (at < 0) return undefined;
  const records = sorted.records.slice();
  records.splice(at, 1);
  const keys = sorted.keys.slice();
  keys.splice(at, 1);
  return { records, keys };
}
