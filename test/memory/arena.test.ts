// The vector store over arena memory (ports.ts VectorArena): the layout, resize
// copying into new memory and giving the old back, what max_vectors may reach on
// a host's budget, and every refusal (store and tools) leaving memory serving.
import assert from "node:assert/strict";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { HaloError } from "../../lib/errors.ts";
import { MAX_VECTORS_LIMIT, VECTOR_ARENA_DEVICE_BYTES } from "../../lib/memory/bounds.ts";
import { docsBytes, DOCS_MIN, HEAP_MIN_WORDS, TABLE_HEADER_WORDS, TABLE_MIN_CELLS } from "../../lib/memory/recall/lexicon-layout.ts";
import {
  bytesPerEntry,
  LEXICON_BYTES_PER_ENTRY,
  maxVectorsFitting,
  ROW_FIELD_BYTES,
  TEXT_BYTES_PER_ENTRY,
} from "../../lib/memory/store/store-arrays.ts";
import { TEXT_PAGE_MIN_BYTES } from "../../lib/memory/store/text-pages.ts";
import { VectorStore, type EntryMeta } from "../../lib/memory/store/vector-store.ts";
import { VECTOR_FILE_PATH } from "../../lib/memory/engine.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import type { VectorArena } from "../../lib/ports.ts";
import { memoryCore, memoryRig, type CoreRig } from "../support/memory.ts";

const DIMS = 8;
const meta = (id: number, ns: string): EntryMeta => ({
  id,
  ns,
  content: `c${id}`,
  source: "self",
  importance: id / 100,
  created: 1000 + id,
  lastRecalled: 2000 + id,
  flags: id % 3,
  ttlClass: id % 4,
});
const row = (seed: number): Int8Array => Int8Array.from({ length: DIMS }, (_, i) => ((seed * 7 + i * 13) % 50) - 25);
const residual = (seed: number): Uint8Array => Uint8Array.from({ length: DIMS / 2 }, (_, i) => (seed * 29 + i * 71) & 0xff);
/** The main allocation's bytes per entry: the row, its residual plane (DIMS / 2) and the fields. */
const ROW = DIMS + DIMS / 2 + ROW_FIELD_BYTES;
/** A namespace's lexical index at its smallest: heap, term table and docs (lexicon-layout.ts). */
const LEXICON = 4 * HEAP_MIN_WORDS + 4 * (TABLE_HEADER_WORDS + TABLE_MIN_CELLS) + docsBytes(DOCS_MIN);
const admin = makePrincipal("owner", "admin", "turn");

/** Every entry as it was written: row, fields, mask, id map. */
function assertEntries(store: VectorStore, ids: number[]): void {
  assert.equal(store.count, ids.length);
  for (let s = 0; s < store.count; s++) {
    const id = store.ids[s];
    assert.ok(ids.includes(id), `unexpected id ${id}`);
    const ns = store.nsOf(s);
    assert.equal(store.slotOf(ns, id), s);
    assert.equal(store.maskOf(ns)![s], 1);
    assert.deepEqual(Array.from(store.row(s)), Array.from(row(id)));
    assert.deepEqual(Array.from(store.residual(s)), Array.from(residual(id)));
    const m = store.metaAt(s);
    assert.equal(m.created, 1000 + id);
    assert.equal(m.lastRecalled, 2000 + id);
    assert.equal(m.flags, id % 3);
    assert.equal(m.ttlClass, id % 4);
    assert.equal(Math.fround(m.importance), Math.fround(id / 100));
    assert.ok(store.norms[s] > 0 && store.scales[s] > 0);
  }
}

/** An arena that counts exactly, as the native one does (the stores here release what they drop), and refuses past its budget (`raise` adds to it). */
function countingArena(budget: number): VectorArena & { raise(bytes: number): void } {
  const inner = simVectorArena(64 * 1024 * 1024);
  return {
    budgetBytes: () => budget,
    usedBytes: () => inner.usedBytes(),
    allocate(bytes: number): ArrayBuffer {
      if (inner.usedBytes() + bytes > budget) throw new HaloError("full", `no room for ${bytes} bytes`);
      return inner.allocate(bytes);
    },
    release: (memory) => inner.release(memory),
    raise(bytes: number): void {
      budget += bytes;
    },
  };
}

async function call(rig: CoreRig, tool: string, args: object, who: Principal = admin): Promise<{ text: string; isError: boolean }> {
  const r = await rig.core.registry.dispatch(tool, args, who);
  return { text: r.text, isError: r.isError === true };
}

describe("the vector arena", () => {
  it("an empty store takes no memory; the first add lays every array over one allocation, aligned", () => {
    const arena = simVectorArena();
    const store = new VectorStore(DIMS, 10, arena);
    assert.equal(arena.allocations(), 0);
    assert.equal(store.arenaBytes, 0);
    store.add(meta(1, "a"), row(1), residual(1));
    assert.equal(arena.allocations(), 6, "the rows and fields, a text page, namespace a's mask and its lexical index's three regions");
    assert.equal(arena.usedBytes(), 10 * ROW + TEXT_PAGE_MIN_BYTES + 10 + LEXICON);
    assert.equal(store.arenaBytes, arena.usedBytes());
    const arrays = [
      store.vectors,
      store.residuals,
      store.norms,
      store.scales,
      store.importance,
      store.created,
      store.lastRecalled,
      store.flags,
    ];
    const more = [
      store.ttlClass,
      store.ids,
      store.nsIndex,
      store.slotTable,
      store.textPage,
      store.textOffset,
      store.contentBytes,
      store.sourceBytes,
    ];
    const buffer = store.vectors.buffer;
    for (const a of [...arrays, ...more]) {
      assert.equal(a.buffer, buffer, "one allocation");
      assert.equal(a.byteOffset % a.BYTES_PER_ELEMENT, 0, "aligned");
      assert.equal(a.length * a.BYTES_PER_ELEMENT === a.byteLength, true);
    }
    assert.equal(store.vectors.length, 10 * DIMS);
    assert.equal(store.residuals.length, 10 * (DIMS / 2));
    assertEntries(store, [1]);
  });

  it("resize copies every entry into new memory and gives the old back (views over it read empty)", () => {
    const arena = simVectorArena();
    const store = new VectorStore(DIMS, 4, arena);
    for (let i = 1; i <= 4; i++) store.add(meta(i, i % 2 ? "a" : "b"), row(i), residual(i));
    const oldVectors = store.vectors;
    const oldResiduals = store.residuals;
    store.resize(9);
    assert.equal(oldVectors.length, 0, "the old memory was released");
    assert.equal(oldResiduals.length, 0, "the residuals were in it");
    assert.equal(arena.usedBytes(), 9 * ROW + 2 * 9 + TEXT_PAGE_MIN_BYTES + 2 * LEXICON);
    for (let i = 5; i <= 9; i++) store.add(meta(i, "c"), row(i), residual(i));
    assertEntries(store, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    store.remove(store.slotOf("a", 1));
    store.resize(8);
    assertEntries(store, [2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(arena.usedBytes(), 8 * ROW + 3 * 8 + TEXT_PAGE_MIN_BYTES + 3 * LEXICON);
  });

  it("when the arena refuses, resize and add throw 'full' and leave the store as it was", () => {
    const arena = simVectorArena();
    const store = new VectorStore(DIMS, 3, arena);
    store.add(meta(1, "a"), row(1), residual(1));
    store.add(meta(2, "a"), row(2), residual(2));
    const version = store.version;
    const used = arena.usedBytes();
    arena.refuseAll(true);
    assert.throws(
      () => store.resize(50),
      (e: unknown) => e instanceof HaloError && e.tag === "full",
    );
    assert.equal(store.capacity, 3);
    assert.throws(
      () => store.add(meta(3, "new-namespace"), row(3), residual(3)),
      (e: unknown) => e instanceof HaloError && e.tag === "full",
    );
    assert.equal(store.version, version);
    assert.equal(store.slotOf("new-namespace", 3), -1);
    assert.equal(arena.usedBytes(), used);
    assertEntries(store, [1, 2]);
    // The memory it holds still serves: an entry in a known namespace fits.
    store.add(meta(3, "a"), row(3), residual(3));
    assertEntries(store, [1, 2, 3]);
    arena.refuseAll(false);
    store.resize(6);
    assertEntries(store, [1, 2, 3]);
  });

  it("a growth with no room for old and new at once parks the entries first; refused even then, every entry stays", () => {
    const perRow = ROW + 1; // one namespace's mask
    const arena = countingArena(100 * perRow + TEXT_PAGE_MIN_BYTES + 64 + LEXICON);
    const store = new VectorStore(DIMS, 60, arena);
    for (let i = 1; i <= 5; i++) store.add(meta(i, "a"), row(i), residual(i));
    store.resize(95);
    assert.equal(store.capacity, 95);
    assert.equal(
      arena.usedBytes(),
      95 * perRow + TEXT_PAGE_MIN_BYTES + LEXICON,
      "only the new memory (and the text page and index) is held",
    );
    assertEntries(store, [1, 2, 3, 4, 5]);
    assert.throws(
      () => store.resize(101),
      (e: unknown) => e instanceof HaloError && e.tag === "full",
    );
    assert.equal(store.capacity, 95, "back at its old capacity");
    assert.equal(arena.usedBytes(), 95 * perRow + TEXT_PAGE_MIN_BYTES + LEXICON);
    assertEntries(store, [1, 2, 3, 4, 5]);
    arena.raise(16 * 1024); // room for the lexical index of 95 entries to grow into
    for (let i = 6; i <= 95; i++) store.add(meta(i, "a"), row(i), residual(i));
    assert.equal(store.count, 95);
  });

  it("a first add the arena can't give refuses and the empty store stays usable", () => {
    const arena = simVectorArena(TEXT_PAGE_MIN_BYTES);
    const store = new VectorStore(DIMS, 100, arena);
    assert.throws(
      () => store.add(meta(1, "a"), row(1), residual(1)),
      (e: unknown) => e instanceof HaloError && e.tag === "full" && /has 2048 of 2048 free/.test(e.message),
    );
    assert.equal(store.count, 0);
    assert.equal(store.maskOf("a"), undefined);
    assert.equal(arena.usedBytes(), 0, "the refused add gave back the rows it took");
    // On an arena with room the same store shape takes the entry.
    const roomy = new VectorStore(DIMS, 1, simVectorArena(TEXT_PAGE_MIN_BYTES * 4));
    roomy.add(meta(1, "a"), row(1), residual(1));
    assertEntries(roomy, [1]);
  });

  it("max_vectors fits the budget with a margin, counting each row's residual plane, and never goes past MAX_VECTORS_LIMIT", () => {
    // 256 + 128 residual bytes + 51 of fields and id table + 8 mask bytes + 128 of text + 160 of lexical index
    // = 731 bytes per entry (571 while the index was in the XS heap: 6,610 entries; 428 while the texts and the
    // id maps were too: 8,819; 300 before the residuals: 12,582).
    assert.equal(bytesPerEntry(256), 731);
    assert.equal(
      bytesPerEntry(255),
      255 + 128 + ROW_FIELD_BYTES + 8 + TEXT_BYTES_PER_ENTRY + LEXICON_BYTES_PER_ENTRY,
      "an odd row's last residual byte is half used",
    );
    assert.equal(maxVectorsFitting(VECTOR_ARENA_DEVICE_BYTES, 256), 5163);
    assert.equal(maxVectorsFitting(VECTOR_ARENA_DEVICE_BYTES, 4096), 581);
    assert.equal(maxVectorsFitting(64 * 1024 * 1024, 256), MAX_VECTORS_LIMIT);
    assert.equal(maxVectorsFitting(0, 256), 0);
    const fit = maxVectorsFitting(1024 * 1024, 256);
    // A store of that many entries and its reserved masks takes at most 90% of the budget.
    assert.ok(fit * bytesPerEntry(256) <= 0.9 * 1024 * 1024);
    assert.ok((fit + 1) * bytesPerEntry(256) > 0.9 * 1024 * 1024);
  });
});

describe("the vector arena: memory.config and device.status", () => {
  const oneMb = 1024 * 1024;
  const limit = maxVectorsFitting(oneMb, 256);

  it("memory.config and device.status report the limit; asking for more is a 'limit' refusal that changes nothing", async () => {
    const rig = memoryCore({ arena: simVectorArena(oneMb) });
    await call(rig, "memory.config", { action: "update", max_vectors: 1000 });
    const view = await call(rig, "memory.config", { action: "view" });
    assert.match(
      view.text,
      new RegExp(`Vector arena: 0 B of 1\\.0 MB in use; this device fits at most ${limit} memories \\(max_vectors\\)`),
    );
    const over = await call(rig, "memory.config", { action: "update", max_vectors: limit + 1 });
    assert.equal(over.isError, true);
    assert.match(over.text, new RegExp(`^limit: max_vectors can be at most ${limit} on this device, not ${limit + 1}`));
    assert.equal(rig.core.memory.config.max_vectors, 1000);
    const stored = JSON.parse(rig.core.ports.settings.get("memory.config")!);
    assert.equal(stored.max_vectors, 1000, "the refused value was not saved");
    assert.equal((await call(rig, "memory.config", { action: "update", max_vectors: limit })).isError, false);
    await call(rig, "memory.write", { content: "The boiler was serviced in March" });
    const status = await call(rig, "device.status", {});
    assert.match(
      status.text,
      new RegExp(
        `live memories \\(all people\\) 1 of ${limit}; vector arena \\d+\\.\\d KB of 1\\.0 MB; max_vectors this device fits ${limit}$`,
        "m",
      ),
    );
  });

  it("a boot config over the limit is clamped and logged, never an abort", async () => {
    const settings = memorySettings();
    settings.set("memory.config", JSON.stringify({ max_vectors: MAX_VECTORS_LIMIT }));
    const rig = memoryCore({ arena: simVectorArena(oneMb), settings });
    assert.equal(rig.core.memory.config.max_vectors, limit);
    assert.ok(
      rig.log.lines.some((l) =>
        l.includes(`max_vectors ${MAX_VECTORS_LIMIT} is more than this device's vector arena fits; using ${limit}`),
      ),
    );
    const write = await call(rig, "memory.write", { content: "Dentist on Tuesday at nine" });
    assert.equal(write.isError, false, write.text);
    assert.match((await call(rig, "memory.search", { query: "dentist" })).text, /Dentist on Tuesday/);
  });

  it("a growth the arena can't give refuses with 'full': config, store and settings stay, memory keeps serving", async () => {
    const arena = simVectorArena();
    const rig = memoryCore({ arena });
    await call(rig, "memory.write", { content: "The spare key is under the blue flowerpot" });
    const before = rig.core.ports.settings.get("memory.config");
    arena.refuseAll(true);
    const grow = await call(rig, "memory.config", { action: "update", max_vectors: 5100 });
    assert.equal(grow.isError, true);
    assert.match(grow.text, /^full: /);
    assert.equal(rig.core.memory.config.max_vectors, 5000);
    assert.equal(rig.core.memory.store.capacity, 5000);
    assert.equal(rig.core.ports.settings.get("memory.config"), before);
    assert.match((await call(rig, "memory.search", { query: "spare key" })).text, /blue flowerpot/);
    assert.equal((await call(rig, "memory.write", { content: "Carla lent me her blender" })).isError, false);
    arena.refuseAll(false);
    assert.equal((await call(rig, "memory.config", { action: "update", max_vectors: 5100 })).isError, false);
    assert.equal(rig.core.memory.store.capacity, 5100);
    assert.equal(rig.core.memory.store.count, 2);
  });

  it("a vector file larger than the arena fits is kept as it is and memory turns read-only", async () => {
    const rig = memoryRig();
    const { writeMemory } = await import("../../lib/memory/writes.ts");
    for (let i = 0; i < 150; i++) await writeMemory(rig.engine, admin, { content: `Fact number ${i} about item${i}` });
    const file = rig.storage.read(VECTOR_FILE_PATH)!.slice();
    // 150 entries of 256 dims need ~63 KB (rows, residuals, fields); this host gives 16 KB.
    const small = rig.reboot({ arena: simVectorArena(16 * 1024) });
    assert.equal(small.store.count, 0);
    assert.ok(rig.log.lines.some((l) => /holds more memories than this device's vector arena fits .*read-only/.test(l)));
    await assert.rejects(writeMemory(small, admin, { content: "A new fact" }), /unavailable: the memory file holds more memories/);
    assert.deepEqual(rig.storage.read(VECTOR_FILE_PATH), file, "the file was not touched");
    assert.equal(rig.reboot().store.count, 150, "a host with room reads it all");
  });
});
