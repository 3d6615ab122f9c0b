// The flat store: dense slots, per-namespace masks and id maps kept right through removals and growth.
import assert from "node:assert/strict";
import { quantizeInt8, normalizeL2 } from "../../lib/memory/store/quantize.ts";
import { VectorStore, type EntryMeta } from "../../lib/memory/store/vector-store.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { OP_REMOVE, OP_UPSERT } from "../../lib/memory/store/store-changes.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";

const DIMS = 8;
const meta = (id: number, ns: string): EntryMeta => ({
  id,
  ns,
  content: `c${id}`,
  source: "self",
  importance: 0.5,
  created: id,
  lastRecalled: id,
  flags: 0,
  ttlClass: 1,
});
const row = (seed: number): Int8Array => Int8Array.from({ length: DIMS }, (_, i) => ((seed * 7 + i * 13) % 50) - 25);
const residual = (seed: number): Uint8Array => Uint8Array.from({ length: DIMS / 2 }, (_, i) => (seed * 29 + i * 71) & 0xff);

function check(store: VectorStore): void {
  for (let s = 0; s < store.count; s++) {
    const ns = store.nsOf(s);
    assert.equal(store.slotOf(ns, store.ids[s]), s);
    assert.equal(store.maskOf(ns)![s], 1);
    assert.equal(store.contentOf(s), `c${store.ids[s]}`);
    assert.deepEqual(Array.from(store.row(s)), Array.from(row(store.ids[s])));
    assert.deepEqual(Array.from(store.residual(s)), Array.from(residual(store.ids[s])), "the residuals move with their row");
  }
}

describe("VectorStore", () => {
  it("keeps slots dense, masks and id maps exact through removals", () => {
    const store = new VectorStore(DIMS, 10, simVectorArena());
    for (let i = 1; i <= 6; i++) store.add(meta(i, i % 2 ? "odd" : "even"), row(i), residual(i));
    check(store);
    store.remove(0); // the last entry (6) moves into slot 0
    check(store);
    assert.equal(store.ids[0], 6);
    store.remove(store.count - 1);
    store.remove(2);
    check(store);
    assert.equal(store.countIn("odd") + store.countIn("even"), store.count);
    assert.equal(store.slotOf("odd", 1), -1);
    const mask = store.maskOf("even")!;
    for (let s = store.count; s < 10; s++) assert.equal(mask[s], 0, "no stale mask bytes past count");
    while (store.count > 0) store.remove(0);
    assert.equal(store.maskOf("odd"), undefined);
  });

  it("a masked topK sees only one namespace", () => {
    const store = new VectorStore(DIMS, 10, simVectorArena());
    for (let i = 1; i <= 6; i++) store.add(meta(i, i % 2 ? "odd" : "even"), row(i), residual(i));
    const { indices } = tsKernels.topK(store.vectors, DIMS, store.count, row(2), 6, store.maskOf("even"));
    assert.deepEqual(
      Array.from(indices)
        .map((s) => store.ids[s])
        .sort(),
      [2, 4, 6],
    );
    assert.equal(store.ids[indices[0]], 2);
  });

  it("grows and shrinks without losing entries; refuses to shrink under the count or add past capacity", () => {
    const store = new VectorStore(DIMS, 3, simVectorArena());
    for (let i = 1; i <= 3; i++) store.add(meta(i, "a"), row(i), residual(i));
    assert.throws(() => store.add(meta(4, "a"), row(4), residual(4)), /full/);
    store.resize(6);
    store.add(meta(4, "a"), row(4), residual(4));
    check(store);
    assert.throws(() => store.resize(3), /capacity under the entry count/);
    store.resize(4);
    check(store);
    assert.equal(store.vectors.length, 4 * DIMS);
  });

  it("refuses a row or residual plane of the wrong length and stays as it was", () => {
    const store = new VectorStore(DIMS, 4, simVectorArena());
    store.add(meta(1, "a"), row(1), residual(1));
    assert.throws(() => store.add(meta(2, "a"), row(2), new Uint8Array(DIMS / 2 + 1)), /bad residual length/);
    assert.throws(() => store.add(meta(2, "a"), row(2), new Uint8Array(DIMS)), /bad residual length/);
    assert.throws(() => store.replace(0, meta(1, "a"), row(1), new Uint8Array(1), store.norms[0]), /bad residual length/);
    assert.throws(() => store.replace(0, meta(1, "a"), new Int8Array(DIMS - 1), residual(1), store.norms[0]), /bad row length/);
    assert.equal(store.count, 1);
    assert.equal(store.slotOf("a", 2), -1);
    check(store);
    store.replace(0, meta(1, "a"), row(1), residual(9), store.norms[0]);
    assert.deepEqual(Array.from(store.residual(0)), Array.from(residual(9)), "replace writes the new plane");
  });

  it("records the residuals with every change it journals", () => {
    const store = new VectorStore(DIMS, 4, simVectorArena());
    store.add(meta(1, "a"), row(1), residual(1));
    store.add(meta(2, "a"), row(2), residual(2));
    store.changes.clear();
    store.remove(0); // entry 2 moves into slot 0, its residuals with it
    store.touch(0);
    assert.deepEqual(
      store.changes.ops.map((o) => o.kind),
      [OP_REMOVE, OP_UPSERT],
    );
    const op = store.changes.ops[1];
    assert.ok(op.kind === OP_UPSERT && op.meta.id === 2);
    assert.deepEqual(Array.from(op.residual), Array.from(residual(2)));
    store.residuals.fill(0);
    assert.deepEqual(Array.from(op.residual), Array.from(residual(2)), "a copy, not a view");
  });

  it("quantizes a normalized vector with its own scale: the largest component to 127", () => {
    const v = Float32Array.from([3, 4, 0, 0]);
    assert.ok(normalizeL2(v));
    const out = new Int8Array(4);
    quantizeInt8(v, out);
    assert.deepEqual(Array.from(out), [95, 127, 0, 0]); // round(0.6 x 127 / 0.8) = 95
    const over = new Int8Array(2);
    quantizeInt8(Float32Array.from([1.5, -1.5]), over);
    assert.deepEqual(Array.from(over), [127, -127]);
    assert.equal(normalizeL2(new Float32Array(3)), false);
  });
});
