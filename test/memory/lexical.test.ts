// The compact lexical index gives the reference index's hits and scores exactly (test/scenarios/lexical.ts),
// and VectorStore builds a namespace's index on its first search, then keeps it in step.
import assert from "node:assert/strict";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { LexicalIndex } from "../../lib/memory/recall/lexical.ts";
import { VectorStore } from "../../lib/memory/store/vector-store.ts";
import { runLexicalScenario } from "../scenarios/lexical.ts";
import { ReferenceLexicalIndex } from "../support/lexical-reference.ts";

const meta = (id: number, ns: string, content: string) => ({
  id,
  ns,
  content,
  source: "self",
  importance: 0.5,
  created: 0,
  lastRecalled: 0,
  flags: 0,
  ttlClass: 3,
});

describe("compact lexical index", () => {
  it("agrees with the reference on seeded adds, removes and searches, dense postings included", async () => {
    const transcript = await runLexicalScenario();
    assert.ok(transcript.length > 150, `${transcript.length} searches`);
    assert.ok(transcript.filter((l) => / => \d/.test(l)).length > 100, "most searches find something");
  });

  it("turns a posting dense and back as entries come and go, same scores as the reference", () => {
    const index = new LexicalIndex();
    const reference = new ReferenceLexicalIndex();
    for (let id = 1; id <= 200; id++) {
      const text = `note ${id % 3 === 0 ? "garden" : "car"} item${id}`;
      index.add("o", id, text);
      reference.add("o", id, text);
    }
    for (const q of ["note", "garden note", "item7 note", "car"])
      assert.deepEqual(index.search("o", q, 16), reference.search("o", q, 16), q);
    for (let id = 1; id <= 190; id++) {
      const text = `note ${id % 3 === 0 ? "garden" : "car"} item${id}`;
      index.remove("o", id, text);
      reference.remove("o", id, text);
      if (id % 37 === 0)
        for (const q of ["note", "garden note", "item195 note"])
          assert.deepEqual(index.search("o", q, 5), reference.search("o", q, 5), `${q} at ${id}`);
    }
    assert.deepEqual(index.search("o", "note", 16), reference.search("o", "note", 16));
    assert.equal(index.search("o", "note", 16).length, 10);
  });

  it("is built on a namespace's first search and follows adds, replaces and removes after it", () => {
    const store = new VectorStore(4, 16, simVectorArena());
    const row = Int8Array.from([10, 0, 0, 0]);
    const residual = new Uint8Array(2);
    store.add(meta(1, "a", "the ficus needs water"), row, residual);
    store.add(meta(2, "a", "water the garden on Sunday"), row, residual);
    store.add(meta(3, "b", "ficus in zoë's room"), row, residual);
    assert.deepEqual(store.lexicalSearch("c", "ficus", 5), []);
    assert.deepEqual(
      store.lexicalSearch("a", "ficus", 5).map((h) => h.id),
      [1],
    );
    store.add(meta(4, "a", "another ficus"), row, residual);
    store.replace(store.slotOf("a", 2), meta(2, "a", "ficus and water"), row, residual, store.norms[store.slotOf("a", 2)]);
    const fresh = new LexicalIndex();
    fresh.add("a", 1, "the ficus needs water");
    fresh.add("a", 2, "ficus and water");
    fresh.add("a", 4, "another ficus");
    assert.deepEqual(store.lexicalSearch("a", "ficus water", 5), fresh.search("a", "ficus water", 5));
    store.remove(store.slotOf("a", 1));
    fresh.remove("a", 1, "the ficus needs water");
    assert.deepEqual(store.lexicalSearch("a", "ficus water", 5), fresh.search("a", "ficus water", 5));
    assert.deepEqual(
      store.lexicalSearch("b", "ficus", 5).map((h) => h.id),
      [3],
    );
  });
});
