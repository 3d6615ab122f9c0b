// The files.search inverted index on Node: the contract (search-contract.ts),
// which files it writes, that it reads only the buckets a query needs, and the
// postings it holds between searches.
import assert from "node:assert/strict";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { queryTerms } from "../../lib/store/docs-pack.ts";
import { POSTINGS_CACHE_TERMS, PostingsCache } from "../../lib/store/postings-cache.ts";
import { bucketOf, indexable, SEARCH_INDEX_DIR } from "../../lib/store/search-index.ts";
import { owner, runSearchContract, seededStore } from "./search-contract.ts";

describe("files.search index", () => {
  for (const { name, failures } of runSearchContract()) {
    it(name, () => assert.deepEqual(failures, []));
  }

  it("buckets words by their first two characters; terms with a hyphen go to the scan", () => {
    assert.equal(bucketOf("garden"), "ga");
    assert.equal(bucketOf("k"), "k");
    assert.equal(bucketOf("zoë"), "zo");
    assert.equal(bucketOf("über"), "~b");
    assert.equal(bucketOf("日本語"), "~~");
    assert.equal(indexable("garden"), true);
    assert.equal(indexable("co-op"), false);
    assert.equal(indexable(""), false);
  });

  it("a query reads only its terms' buckets, none whose postings it holds, and never a file but the hits'", () => {
    const card = memoryStorage();
    const store = seededStore(card);
    store.search(owner, queryTerms("garden")); // indexes, loads, holds garden's postings
    const reads: string[] = [];
    const read = card.read.bind(card);
    card.read = (path: string): Uint8Array | undefined => {
      reads.push(path);
      return read(path);
    };
    const indexReads = (): string[] => reads.filter((p) => p.startsWith(SEARCH_INDEX_DIR)).sort();
    const hits = store.search(owner, queryTerms("garden boiler"));
    assert.deepEqual(indexReads(), [`${SEARCH_INDEX_DIR}/bo`]);
    // Files are read only for the hits' snippets.
    assert.ok(reads.length - indexReads().length <= hits.length, reads.join(" "));
    reads.length = 0;
    store.search(owner, queryTerms("garden boiler"));
    assert.deepEqual(indexReads(), []);
    // A save changes the documents: the postings held are stale and both buckets are read again.
    store.saveText(owner, "p1", "new.md", "garden boiler");
    reads.length = 0;
    assert.equal(store.search(owner, queryTerms("garden boiler"))[0].record.name, "new.md");
    assert.deepEqual(indexReads(), [`${SEARCH_INDEX_DIR}/bo`, `${SEARCH_INDEX_DIR}/ga`]);
  });

  it("holds the postings of at most 8 terms, the most recently used", () => {
    const cache = new PostingsCache();
    const postings = (n: number) => ({ ids: Int32Array.of(n), counts: Uint16Array.of(1), size: 1 });
    for (let n = 0; n < 10; n++) cache.set(`t${n}`, postings(n), 100, 1);
    assert.equal(cache.get("t0", 100, 1), undefined);
    assert.equal(cache.get("t1", 100, 1), undefined);
    assert.equal(cache.get("t2", 100, 1)?.ids[0], 2);
    cache.set("t10", postings(10), 100, 1); // evicts t3, the least recently used (t2 was just used)
    assert.equal(cache.get("t3", 100, 1), undefined);
    assert.equal(cache.get("t2", 100, 1)?.ids[0], 2);
    // A bucket of another size or another generation of documents: stale, and dropped.
    assert.equal(cache.get("t4", 101, 1), undefined);
    assert.equal(cache.get("t4", 100, 1), undefined);
    assert.equal(cache.get("t5", 100, 2), undefined);
    assert.equal(POSTINGS_CACHE_TERMS, 8);
  });
});
