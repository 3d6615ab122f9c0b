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

/** What files.search reads of a record: its name, and its text (the first FILES_SEARCH_DOC_BYTES) or its note. */
export function searchText(record: ArtifactRecord, bytes: Uint8Array | undefined): SearchText {
  if (!bytes) return { name: record.name, body: record.note || "" };
  return { name: record.name, body: decodeUtf8(bytes.length > FILES_SEARCH_DOC_BYTES ? bytes.subarray(0, FILES_SEARCH_DOC_BYTES) : bytes) };
}

export class FilesSearch {
  private readonly index = new SearchIndex();

  /** BM25 over `records` through the index; a damaged index is dropped and rebuilt from the files first. */
  search(card: Storage, records: ArtifactRecord[], terms: string[]): SearchHit[] {
    if (terms.length === 0 || records.length === 0) return [];
    const read = reader(card);
    if (!terms.every(indexable)) return searchArtifacts(records, terms, read);
    let table: TermTable;
    try {
      table = this.termTable(card, records, terms, read);
    } catch (e) {
      if (!(e instanceof SearchIndexDamaged)) throw e;
      this.index.reset(card);
      table = this.termTable(card, records, terms, read);
    }
    return rankArtifacts(records, terms, table, read);
  }

  /** The same search by reading every record (no index). */
  scan(card: Storage | undefined, records: ArtifactRecord[], terms: string[]): SearchHit[] {
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
  }

  /** The term table from the index, indexing first the records it lacks or holds an older version of. */
  private termTable(
    card: Storage,
    records: ArtifactRecord[],
    terms: string[],
    read: (r: ArtifactRecord) => SearchText | undefined,
  ): TermTable {
    const t = terms.length;
    const table: TermTable = {
      counts: new Uint16Array(records.length * t),
      lengths: new Float64Array(records.length),
      present: new Uint8Array(records.length),
    };
    const position = new Map<string, number>();
    this.index.open(card);
    records.forEach((r, i) => {
      const key = artifactKey(r.project, r.name);
      let length = this.index.lengthOf(key, r.updated, r.size);
      if (length === undefined) {
        const text = read(r);
        if (text === undefined) return;
        length = this.index.put(card, { key, updated: r.updated, size: r.size, ...text });
      }
      table.lengths[i] = length;
      table.present[i] = 1;
      position.set(key, i);
    });
    this.index.counts(card, terms).forEach((byKey, j) => {
      for (const [key, count] of byKey) {
        const i = position.get(key);
        if (i !== undefined) table.counts[i * t + j] = count;
      }
    });
    return table;
  }
}

function reader(card: Storage): (r: ArtifactRecord) => SearchText | undefined {
  return (r) => {
    if (r.kind !== "text") return searchText(r, undefined);
    const bytes = card.read(artifactPath(r));
    return bytes ? searchText(r, bytes) : undefined;
  };
}
