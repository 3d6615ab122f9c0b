// The files.search benchmark's corpus: 1,000 seeded documents of 4 KB in an
// artifact store over the memory card, and the query the bench times. No
// Node imports: bench/files.xs.ts runs the same code on the XS host.
import { memoryStorage } from "../hosts/sim/ports/memory-storage.ts";
import { makePrincipal } from "../lib/registry/principal.ts";
import { ARTIFACTS_MAX_COUNT } from "../lib/limits.ts";
import { ArtifactStore } from "../lib/store/artifact-store.ts";
import { queryTerms } from "../lib/store/docs-pack.ts";
import { mulberry32 } from "../test/support/prng.ts";

export const DOCS = 1000;
export const DOC_BYTES = 4096;
const VOCABULARY = 3000;
const SEED = 4242;
/** One word every document shares and one a few hold: ranking work for both. */
export const QUERY = "common rare";

export interface FilesCorpus {
  /** files.search through the inverted index (what the store does). */
  search(): number;
  /** The same ranking by scanning every document (the store before the index). */
  scan(): number;
  /** Saves one document again, unchanged but as a new version: what the index holds in memory goes stale. */
  resave(): void;
}

export function buildFilesCorpus(docs = DOCS): FilesCorpus {
  const prng = mulberry32(SEED);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const words: string[] = [];
  for (let i = 0; i < VOCABULARY; i++) {
    let w = "";
    for (let n = prng.int(3, 9); n > 0; n--) w += letters[prng.int(0, 25)];
    words.push(w);
  }
  const owner = makePrincipal("owner", "admin", "mcp");
  // The device's store holds at most ARTIFACTS_MAX_COUNT (4,000) files; the 10,000-document line opens a
  // store with room for the corpus to show how the index scales past it.
  const store = new ArtifactStore(
    memoryStorage(1024 * 1024 * 1024),
    { now: () => Date.UTC(2026, 0, 1) },
    Math.max(docs, ARTIFACTS_MAX_COUNT),
  );
  let first = "";
  for (let d = 0; d < docs; d++) {
    // Pieces joined once, not +=: on XS each += copies the text so far, garbage that 10,000 documents multiply.
    const pieces: string[] = d % 50 === 0 ? ["rare "] : [];
    let length = pieces.length === 0 ? 0 : pieces[0].length;
    while (length < DOC_BYTES - 16) {
      const piece = (prng.int(0, 40) === 0 ? "common" : words[prng.int(0, VOCABULARY - 1)]) + (prng.int(0, 12) === 0 ? ".\n" : " ");
      pieces.push(piece);
      length += piece.length;
    }
    const text = pieces.join("").slice(0, DOC_BYTES);
    if (d === 1) first = text;
    store.saveText(owner, `p${d % 20}`, `doc-${d}.md`, text);
  }
  const terms = queryTerms(QUERY);
  return {
    search: () => store.search(owner, terms).length,
    scan: () => store.scan(owner, terms).length,
    resave: () => void store.saveText(owner, "p1", "doc-1.md", first),
  };
}
