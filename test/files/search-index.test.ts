// The files.search inverted index on Node: the contract (search-contract.ts),
// which files it writes, and that it reads only the buckets a query needs.
import assert from "node:assert/strict";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { queryTerms } from "../../lib/store/docs-pack.ts";
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

  it("a query reads the docs log once and only its terms' buckets, never a file", () => {
    const card = memoryStorage();
    const store = seededStore(card);
    store.search(owner, queryTerms("garden")); // indexes, loads
    const reads: string[] = [];
    const read = card.read.bind(card);
    card.read = (path: string): Uint8Array | undefined => {
      reads.push(path);
      return read(path);
    };
    const hits = store.search(owner, queryTerms("garden boiler"));
    const indexReads = reads.filter((p) => p.startsWith(SEARCH_INDEX_DIR));
    assert.deepEqual(indexReads.sort(), [`${SEARCH_INDEX_DIR}/bo`, `${SEARCH_INDEX_DIR}/ga`]);
    // Files are read only for the hits' snippets.
    assert.ok(reads.length - indexReads.length <= hits.length, reads.join(" "));
  });
});
