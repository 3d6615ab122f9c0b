// The lexical index the vector store keeps, against a from-scratch build and the reference, with refused
// allocations (test/scenarios/lexicon-model.ts), on Node with the TypeScript kernels.
import assert from "node:assert/strict";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { errorTag, HaloError } from "../../lib/errors.ts";
import { tsLexiconKernels } from "../../lib/memory/recall/lexicon-ts.ts";
import { VectorStore } from "../../lib/memory/store/vector-store.ts";
import type { VectorArena } from "../../lib/ports.ts";
import { runLexiconModelScenario } from "../scenarios/lexicon-model.ts";

describe("the lexical index against its model", () => {
  it("matches a fresh build after every checked step, refusals included, and gives its memory back", async () => {
    const lines = await runLexiconModelScenario(simVectorArena(), tsLexiconKernels);
    const failures = lines.filter((l) => l.startsWith("step ") && !/^step \d+: \d+ entries/.test(l));
    assert.deepEqual(failures, []);
    assert.match(lines[lines.length - 2], /^step 1500: \d+ entries, index \d+ bytes, [1-9]\d* refused$/);
    const end = /^emptied: index (\d+) bytes, peak (\d+), (\d+) searches$/.exec(lines[lines.length - 1]);
    assert.ok(end, lines[lines.length - 1]);
    assert.equal(Number(end[1]), 0, "an empty store keeps no index");
    assert.ok(Number(end[3]) > 50, `${end[3]} searches`);
  });

  it("a region the arena refuses fails the add or replace with full: the store and its index as they were", () => {
    const inner = simVectorArena();
    let refusing = false;
    const arena: VectorArena = {
      budgetBytes: () => inner.budgetBytes(),
      usedBytes: () => inner.usedBytes(),
      allocate(bytes: number): ArrayBuffer {
        if (refusing) throw new HaloError("full", "refused by the test");
        return inner.allocate(bytes);
      },
      release: (memory) => inner.release(memory),
    };
    const store = new VectorStore(4, 1000, arena, tsLexiconKernels);
    const row = Int8Array.from([9, 1, 2, 3]);
    const residual = new Uint8Array(2);
    const meta = (id: number, content: string) => ({
      id,
      ns: "o",
      content,
      source: "self",
      importance: 0.5,
      created: 0,
      lastRecalled: 0,
      flags: 0,
      ttlClass: 3,
    });
    const state = () => ({
      count: store.count,
      version: store.version,
      hits: JSON.stringify(store.lexicalSearch("o", "note item7 word3 fresh", 16)),
      texts: store.textBytes,
      index: store.lexiconBytes,
    });
    let byIndex = 0;
    let replaces = 0;
    for (let id = 1; id <= 800; id++) {
      const before = state();
      refusing = true;
      try {
        store.add(meta(id, `note ${id} about item${id} and word${id % 50}`), row, residual);
        refusing = false;
      } catch (e) {
        refusing = false;
        assert.equal(errorTag(e), "full");
        assert.deepEqual(state(), before, `add ${id}`);
        store.add(meta(id, `note ${id} about item${id} and word${id % 50}`), row, residual);
        if (store.textBytes === before.texts && store.lexiconBytes !== before.index) byIndex++;
      }
      if (id % 7 !== 0) continue;
      const slot = store.slotOf("o", id - 3);
      const old = store.contentOf(slot);
      const text = `${old} fresh${id} words${id} more${id} terms${id}`;
      const ahead = state();
      refusing = true;
      try {
        store.replace(slot, meta(id - 3, text), row, residual, 1);
      } catch (e) {
        assert.equal(errorTag(e), "full");
        assert.deepEqual(state(), ahead, `replace ${id - 3}`);
        assert.equal(store.contentOf(slot), old);
        replaces++;
      }
      refusing = false;
    }
    assert.ok(byIndex >= 3, `${byIndex} adds refused by the index alone`);
    assert.ok(replaces >= 3, `${replaces} replaces refused`);
  });
});
