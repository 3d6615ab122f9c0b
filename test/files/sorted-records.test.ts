// The artifact index's listing order kept record by record (lib/store/sorted-records.ts): after any run of
// saves, overwrites and deletes it is the order a full sort gives, and every change makes new arrays.
import assert from "node:assert/strict";
import { artifactKey, type ArtifactRecord } from "../../lib/store/artifact-index.ts";
import { sortRecords, withoutRecord, withRecord, type SortedRecords } from "../../lib/store/sorted-records.ts";
import { mulberry32 } from "../support/prng.ts";

function record(project: string, name: string, updated: number): ArtifactRecord {
  return { project, name, owner: "o", kind: "text", size: 1, created: 0, updated, shared: false };
}

describe("sorted records", () => {
  it("kept record by record, they stay in the order a full sort gives", () => {
    const prng = mulberry32(5);
    const projects = ["a", "a-b", "ab", "b", "p1", "p10", "p2"];
    const names = ["x.md", "X.md", "y.md", "Zed.md", "a.txt", "B.txt", "a-b.md", "ä.md", "a_b.md"];
    const byKey = new Map<string, ArtifactRecord>();
    let sorted: SortedRecords = sortRecords(byKey);
    for (let step = 0; step < 3000; step++) {
      const r = record(projects[prng.int(0, projects.length - 1)], names[prng.int(0, names.length - 1)], step);
      const key = artifactKey(r.project, r.name);
      const before = sorted;
      if (prng.int(0, 3) === 0) {
        if (!byKey.has(key)) continue;
        byKey.delete(key);
        sorted = withoutRecord(sorted, key)!;
      } else {
        const replacing = byKey.has(key);
        byKey.delete(key);
        byKey.set(key, r);
        sorted = withRecord(sorted, key, r, replacing)!;
      }
      assert.notEqual(sorted.records, before.records, "a change makes a new array");
      const want = sortRecords(byKey);
      assert.deepEqual(sorted.keys, want.keys, `step ${step}`);
      assert.deepEqual(sorted.records, want.records, `step ${step}`);
    }
  });

  it("a key that is not where the caller says gives undefined (the index sorts again)", () => {
    const sorted = sortRecords(new Map([["a/x.md", record("a", "x.md", 1)]]));
    assert.equal(withRecord(sorted, "a/y.md", record("a", "y.md", 2), true), undefined);
    assert.equal(withoutRecord(sorted, "a/y.md"), undefined);
  });
});
