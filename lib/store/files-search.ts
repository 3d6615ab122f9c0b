// files.search over the card: the inverted index (search-index.ts) kept in step
// with the artifact store, and the scan it replaced (the reference, and the
// way for query terms the index cannot count). Both rank with rankArtifacts,
// so they give the same hits, scores and snippets.
import { FILES_SEARCH_DOC_BYTES } from "../limits";
import type { Storage } from "../ports";
import { decodeUtf8 } from "../util/utf8";
import { artifactKey, artifactPath, type ArtifactRecord } from "./artifact-index";
import { rankArtifacts, searchArtifacts, type SearchHit, type SearchText, type TermTable } from "./artifact-search";
import { indexable, SearchIndex, SearchIndexDamaged } from "./search-index";
import { pickRecords, type SortedRecords } from "./sorted-records";

/** What files.search reads of a record: its name, and its text (the first FILES_SEARCH_DOC_BYTES) or its note. */
export function searchText(record: ArtifactRecord, bytes: Uint8Array | undefined): SearchText {
  if (!bytes) return { name: record.name, body: record.note || "" };
  return { name: record.name, body: decodeUtf8(bytes.length > FILES_SEARCH_DOC_BYTES ? bytes.subarray(0, FILES_SEARCH_DOC_BYTES) : bytes) };
}

/**
 * Per record of the store's sorted list (ArtifactIndex.sorted), its index document: its id, length, and
 * whether it could be read. Kept while that list and the index's documents are unchanged, so a repeated
 * search looks up no record (13 bytes a record: 52 KB at the device store's 4,000 files).
 */
interface RecordDocs {
  records: readonly ArtifactRecord[];
  generation: number;
  ids: Int32Array;
  lengths: Float64Array;
  present: Uint8Array;
}

export class FilesSearch {
  private readonly index = new SearchIndex();
  private recordDocs: RecordDocs | undefined;

  /**
   * BM25 through the index over the records of `sorted` at the positions `chosen` (ascending); a damaged
   * index is dropped and rebuilt from the files first.
   */
  search(card: Storage, sorted: SortedRecords, chosen: Int32Array, terms: string[]): SearchHit[] {
    if (terms.length === 0 || chosen.length === 0) return [];
    const read = reader(card);
    const records = pickRecords(sorted, chosen);
    if (!terms.every(indexable)) return searchArtifacts(records, terms, read);
    let table: TermTable;
    try {
      table = this.termTable(card, sorted, chosen, terms, read);
    } catch (e) {
      if (!(e instanceof SearchIndexDamaged)) throw e;
      this.index.reset(card);
      table = this.termTable(card, sorted, chosen, terms, read);
    }
    return rankArtifacts(records, terms, table, read);
  }

  /** The same search by reading every record (no index). */
  scan(card: Storage | undefined, records: readonly ArtifactRecord[], terms: string[]): SearchHit[] {
    if (terms.length === 0 || records.length === 0) return [];
    return searchArtifacts(records, terms, card ? reader(card) : (r) => searchText(r, undefined));
  }

  /** Indexes a saved file now; a failure leaves the file saved and the index to catch up at the next search. */
  saved(card: Storage, record: ArtifactRecord, bytes: Uint8Array): void {
    try {
      const text = searchText(record, record.kind === "text" ? bytes : undefined);
      this.index.put(card, { key: artifactKey(record.project, record.name), updated: record.updated, size: record.size, ...text });
    } catch {
      this.index.forget();
    }
  }

  /** Drops a deleted file's document; on failure its record is gone anyway, so the index never counts it. */
  dropped(card: Storage, record: ArtifactRecord): void {
    try {
      this.index.remove(card, artifactKey(record.project, record.name));
    } catch {
      this.index.forget();
    }
  }

  /** Forgets what is in memory (card pulled or swapped). */
  forget(): void {
    this.index.forget();
    this.recordDocs = undefined;
  }

  /** The term table of the chosen records, from the index. */
  private termTable(
    card: Storage,
    sorted: SortedRecords,
    chosen: Int32Array,
    terms: string[],
    read: (r: ArtifactRecord) => SearchText | undefined,
  ): TermTable {
    const docs = this.docsOf(card, sorted, read);
    const n = chosen.length;
    const t = terms.length;
    const table: TermTable = { counts: new Uint16Array(n * t), lengths: new Float64Array(n), present: new Uint8Array(n) };
    // Chosen position + 1 by document id (0: not chosen).
    const positions = new Int32Array(this.index.idLimit);
    for (let c = 0; c < n; c++) {
      const s = chosen[c];
      if (docs.present[s] === 0) continue;
      table.lengths[c] = docs.lengths[s];
      table.present[c] = 1;
      positions[docs.ids[s]] = c + 1;
    }
    const postings = this.index.postings(card, terms);
    for (let j = 0; j < t; j++) {
      const { ids, counts, size } = postings[j];
      for (let k = 0; k < size; k++) {
        const at = positions[ids[k]];
        if (at > 0) table.counts[(at - 1) * t + j] = counts[k];
      }
    }
    return table;
  }

  /**
   * The documents of every record of `sorted`, indexing first the records the index lacks or holds an older
   * version of: all the store's files, not only those this search may read (a save indexes every file too, and
   * the term table takes only the chosen ones).
   */
  private docsOf(card: Storage, sorted: SortedRecords, read: (r: ArtifactRecord) => SearchText | undefined): RecordDocs {
    const index = this.index;
    index.open(card);
    const last = this.recordDocs;
    if (last !== undefined && last.records === sorted.records && last.generation === index.generation) return last;
    const n = sorted.records.length;
    const docs: RecordDocs = {
      records: sorted.records,
      generation: 0,
      ids: new Int32Array(n),
      lengths: new Float64Array(n),
      present: new Uint8Array(n),
    };
    for (let s = 0; s < n; s++) {
      const r = sorted.records[s];
      const key = sorted.keys[s];
      let doc = index.find(key, r.updated, r.size);
      if (doc === undefined) {
        const text = read(r);
        if (text === undefined) continue;
        doc = index.put(card, { key, updated: r.updated, size: r.size, ...text });
      }
      docs.ids[s] = doc.id;
      docs.lengths[s] = doc.length;
      docs.present[s] = 1;
    }
    docs.generation = index.generation; // after the puts above
    this.recordDocs = docs;
    return docs;
  }
}

function reader(card: Storage): (r: ArtifactRecord) => SearchText | undefined {
  return (r) => {
    if (r.kind !== "text") return searchText(r, undefined);
    const bytes = card.read(artifactPath(r));
    return bytes ? searchText(r, bytes) : undefined;
  };
}
