// Migration from the formats before the rows' residual plane: a format-1
// snapshot (wave 1: rows round(v x 127)) or a format-2 one (rows scaled per
// row, no residuals), and a journal extending it, made here with the frozen
// old writers of test/support/old-memory-files.ts, load without loss on boot;
// every old row gets a zero residual (the row as it was), the store is
// rewritten as format 3 at once, and a file that cannot be read is moved
// aside, never wiped. The archive's old entry frames read the same way.
import { describeArchiveList } from "../../lib/tools/memory-text.ts";
import type { RestoreOutcome } from "../../lib/memory/outcomes.ts";
import assert from "node:assert/strict";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { hashingEmbedder, hashText } from "../../lib/memory/embedders/hashing.ts";
import { ARCHIVE_PATH, MemoryArchive } from "../../lib/memory/forgetting/archive.ts";
import { listArchive, restoreArchived } from "../../lib/memory/forgetting/archive-ops.ts";
import { int8Norm, normalizeL2, quantizeInt8, quantizeRow } from "../../lib/memory/store/quantize.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { VECTOR_FILE_VERSION } from "../../lib/memory/store/vector-file.ts";
import { encodeVectorFile } from "../../lib/memory/store/vector-file-write.ts";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH } from "../../lib/memory/store/vector-files.ts";
import { VectorStore, type EntryMeta } from "../../lib/memory/store/vector-store.ts";
import { writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { memoryRig, type MemoryRig, storedContents } from "../support/memory.ts";
import { oldArchiveFrame, oldJournal, oldSnapshot, type OldEntry } from "../support/old-memory-files.ts";

const DIMS = 256;
const owner = makePrincipal("owner", "admin", "mcp");
const T0 = Date.UTC(2026, 10, 1);
const EMBEDDER_ID = hashingEmbedder(DIMS).id;

function unit(text: string): Float32Array {
  const v = hashText(text, DIMS);
  assert.ok(normalizeL2(v));
  return v;
}

/** A row as format `version` stored it: wave 1's round(v x 127), or format 2's per-row scaled row. */
function oldRow(version: 1 | 2, text: string): Int8Array {
  const v = unit(text);
  if (version === 1) return Int8Array.from(v, (x) => Math.max(-127, Math.min(127, Math.round(x * 127))));
  const row = new Int8Array(DIMS);
  quantizeInt8(v, row);
  return row;
}

function meta(ns: string, id: number, content: string): EntryMeta {
  return { id, ns, content, source: "self", importance: 0.5, created: T0, lastRecalled: T0, flags: 0, ttlClass: 3 };
}

function oldEntry(version: 1 | 2, id: number, content: string): OldEntry {
  const row = oldRow(version, content);
  return { meta: meta("owner", id, content), row, norm: int8Norm(row, 0, DIMS) };
}

const SNAPSHOT_FACTS = ["My ficus needs water every Sunday", "The spare key is under the blue flowerpot", "Dentist on Tuesday at nine"];
const JOURNAL_FACTS = ["The boiler was serviced in March", "Carla lent me her blender"];

/** A format-`version` snapshot of three facts and a journal adding two and removing one (old writers only). */
function oldFiles(version: 1 | 2): { snapshot: Uint8Array; journal: Uint8Array; rows: Map<string, Int8Array> } {
  const rows = new Map<string, Int8Array>();
  const snapshotEntries = SNAPSHOT_FACTS.map((fact, i) => oldEntry(version, 100 + i, fact));
  const journalEntries = JOURNAL_FACTS.map((fact, i) => oldEntry(version, 200 + i, fact));
  for (const e of [...snapshotEntries, ...journalEntries]) rows.set(e.meta.content, e.row);
  rows.delete(SNAPSHOT_FACTS[2]);
  const snapshot = oldSnapshot(version, DIMS, EMBEDDER_ID, snapshotEntries, nodeDigest, T0 / 1000);
  const journal = oldJournal(
    snapshot,
    [[{ upsert: journalEntries[0] }], [{ upsert: journalEntries[1] }, { remove: { ns: "owner", id: 102 } }]],
    nodeDigest,
  );
  return { snapshot, journal, rows };
}

const versionOf = (bytes: Uint8Array): number => new DataView(bytes.buffer, bytes.byteOffset).getUint16(8, true);

/** Every entry holds its old row exactly and a zero residual. */
function assertOldRows(rig: MemoryRig, store: Readonly<VectorStore>, rows: Map<string, Int8Array>): void {
  assert.deepEqual(storedContents(store).sort(), [...rows.keys()].sort());
  for (let slot = 0; slot < store.count; slot++) {
    const content = store.contentOf(slot);
    assert.deepEqual(Array.from(store.row(slot)), Array.from(rows.get(content)!), content);
    assert.ok(
      store.residual(slot).every((b) => b === 0),
      `${content}: an old row is refined by nothing`,
    );
  }
  assert.ok(rig.storage.files.has(VECTOR_FILE_PATH));
}

describe("memory migration from the formats before residuals", () => {
  for (const version of [1, 2] as const) {
    it(`loads a format-${version} snapshot and its journal, keeps every row with a zero residual, and rewrites the store as format ${VECTOR_FILE_VERSION}`, async () => {
      const { snapshot, journal, rows } = oldFiles(version);
      const rig = memoryRig();
      rig.storage.files.set(VECTOR_FILE_PATH, snapshot);
      rig.storage.files.set(VECTOR_JOURNAL_PATH, journal);
      const engine = rig.reboot();
      assert.equal(engine.store.count, rows.size);
      assertOldRows(rig, engine.store, rows);
      const rewritten = rig.storage.files.get(VECTOR_FILE_PATH)!;
      assert.equal(versionOf(rewritten), 3);
      assert.equal(rig.storage.files.has(VECTOR_JOURNAL_PATH), false, "the journal was folded into the new snapshot");
      assert.ok(rig.log.lines.some((l) => new RegExp(`rewritten from format ${version} to 3`).test(l)));
      // An old row is still a row: its own norm scales it, and search finds it.
      const { hits } = await searchMemory(engine, owner, "when does the ficus need water", 1);
      assert.equal(hits[0].content, SNAPSHOT_FACTS[0]);
      assert.ok(hits[0].similarity > 0.5);
      assertOldRows(rig, rig.reboot().store, rows);
    });

    it(`a card that refuses the rewrite keeps the format-${version} files and retries on the next call`, async () => {
      const { snapshot, journal, rows } = oldFiles(version);
      const rig = memoryRig();
      rig.storage.files.set(VECTOR_FILE_PATH, snapshot);
      rig.storage.files.set(VECTOR_JOURNAL_PATH, journal);
      const writeAtomicFrom = rig.storage.writeAtomicFrom.bind(rig.storage);
      let refuse = true;
      rig.storage.writeAtomicFrom = (path: string, next: () => Uint8Array | undefined): void => {
        if (refuse) throw new Error("card busy");
        writeAtomicFrom(path, next);
      };
      const engine = rig.reboot();
      assert.equal(engine.store.count, 4);
      assert.ok(rig.log.lines.some((l) => new RegExp(`is in format ${version}; rewriting it failed`).test(l)));
      assert.deepEqual(rig.storage.files.get(VECTOR_FILE_PATH), snapshot, "the old snapshot is untouched");
      assert.deepEqual(rig.storage.files.get(VECTOR_JOURNAL_PATH), journal);
      // Nothing is appended to an old format's journal meanwhile: a write waits for the rewrite.
      await assert.rejects(writeMemory(engine, owner, { content: "The gate code is 4711" }), /card busy/);
      assert.deepEqual(rig.storage.files.get(VECTOR_JOURNAL_PATH), journal);
      refuse = false;
      await searchMemory(engine, owner, "ficus", 1);
      assert.equal(versionOf(rig.storage.files.get(VECTOR_FILE_PATH)!), 3);
      const again = rig.reboot();
      assert.equal(again.store.count, 5);
      const gate = storedContents(again.store).indexOf("The gate code is 4711");
      assert.ok(gate >= 0 && again.store.residual(gate).some((b) => b !== 0), "the new entry has its residuals");
      rows.set("The gate code is 4711", again.store.row(gate).slice());
      for (let slot = 0; slot < again.store.count; slot++)
        assert.deepEqual(Array.from(again.store.row(slot)), Array.from(rows.get(again.store.contentOf(slot))!));
    });
  }

  it("after the rewrite, new entries keep their residuals through the journal and reboots; old ones keep zeros", async () => {
    const { snapshot, journal, rows } = oldFiles(2);
    const rig = memoryRig();
    rig.storage.files.set(VECTOR_FILE_PATH, snapshot);
    rig.storage.files.set(VECTOR_JOURNAL_PATH, journal);
    const engine = rig.reboot();
    const fact = "The recycling goes out every other Wednesday";
    await writeMemory(engine, owner, { content: fact });
    assert.ok(rig.storage.files.has(VECTOR_JOURNAL_PATH), "appended to the format-3 journal");
    const after = rig.reboot();
    const slot = storedContents(after.store).indexOf(fact);
    const expected = quantizeRow(unit(fact));
    assert.deepEqual(Array.from(after.store.row(slot)), Array.from(expected.row));
    assert.deepEqual(Array.from(after.store.residual(slot)), Array.from(expected.residual));
    assert.ok(expected.residual.some((b) => b !== 0));
    for (let s = 0; s < after.store.count; s++) if (s !== slot) assert.ok(after.store.residual(s).every((b) => b === 0));
    assert.equal(after.store.count, rows.size + 1);
  });

  for (const [name, damage] of [
    ["truncated", (b: Uint8Array): Uint8Array => b.slice(0, b.length - 40)],
    ["with a flipped byte", (b: Uint8Array): Uint8Array => b.map((x, i) => (i === b.length - 3 ? x ^ 0x10 : x))],
  ] as const) {
    it(`a format-2 snapshot ${name} is moved aside with its journal, never wiped`, () => {
      const { snapshot, journal } = oldFiles(2);
      const bad = damage(snapshot);
      const rig = memoryRig();
      rig.storage.files.set(VECTOR_FILE_PATH, bad);
      rig.storage.files.set(VECTOR_JOURNAL_PATH, journal);
      const engine = rig.reboot();
      assert.equal(engine.store.count, 0);
      const names = [...rig.storage.files.keys()];
      const aside = names.find((k) => k.startsWith(VECTOR_FILE_PATH + ".bad-"));
      const journalAside = names.find((k) => k.startsWith(VECTOR_JOURNAL_PATH + ".bad-"));
      assert.ok(aside && journalAside, `kept aside: ${names.join(", ")}`);
      assert.deepEqual(rig.storage.files.get(aside), bad);
      assert.deepEqual(rig.storage.files.get(journalAside), journal);
      assert.ok(rig.log.lines.some((l) => /is unreadable .*kept aside/.test(l)));
    });
  }

  it("a snapshot of an unknown future format is moved aside, never wiped", () => {
    const store = new VectorStore(DIMS, 4, simVectorArena());
    const { row, residual } = quantizeRow(unit(SNAPSHOT_FACTS[0]));
    store.add(meta("owner", 1, SNAPSHOT_FACTS[0]), row, residual);
    const bytes = encodeVectorFile(store, EMBEDDER_ID, T0, nodeDigest).slice();
    new DataView(bytes.buffer).setUint16(8, VECTOR_FILE_VERSION + 1, true);
    const rig = memoryRig();
    rig.storage.files.set(VECTOR_FILE_PATH, bytes);
    const engine = rig.reboot();
    assert.equal(engine.store.count, 0);
    const aside = [...rig.storage.files.keys()].find((k) => k.startsWith(VECTOR_FILE_PATH + ".bad-"));
    assert.ok(aside, "kept aside");
    assert.deepEqual(rig.storage.files.get(aside!), bytes);
  });
});

describe("the archive from before residuals", () => {
  const archived = oldEntry(2, 0x1234abcd, "The old bike lock code was 2580");

  it("an old entry frame loads with a zero residual and is restored with it; a new one carries its residuals", async () => {
    const rig = memoryRig();
    rig.storage.files.set(ARCHIVE_PATH, oldArchiveFrame(archived, EMBEDDER_ID, T0));
    const [entry] = new MemoryArchive(rig.storage, memoryLog()).load();
    assert.deepEqual(Array.from(entry.row), Array.from(archived.row));
    assert.ok(entry.residual.length === DIMS / 2 && entry.residual.every((b) => b === 0));
    assert.match(describeArchiveList(listArchive(rig.engine, owner, 5)), /^- 1234abcd /);
    const restoredAs = (answer: RestoreOutcome): number => (assert.equal(answer.kind, "restored"), answer.id);
    const slot = rig.engine.store.slotOf("owner", restoredAs(await restoreArchived(rig.engine, owner, "1234abcd")));
    assert.deepEqual(Array.from(rig.engine.store.row(slot)), Array.from(archived.row));
    assert.ok(rig.engine.store.residual(slot).every((b) => b === 0));

    const fresh = quantizeRow(unit("The new bike lock code is 1397"));
    const newer = { meta: meta("owner", 7, "The new bike lock code is 1397"), ...fresh };
    new MemoryArchive(rig.storage, memoryLog()).add([newer], EMBEDDER_ID, T0 + 1000);
    const file = rig.storage.files.get(ARCHIVE_PATH)!;
    // Its entry frame is the old layout byte for byte, so firmware without residuals still reads the entry.
    const oldFrame = oldArchiveFrame({ meta: newer.meta, row: fresh.row, norm: int8Norm(fresh.row, 0, DIMS) }, EMBEDDER_ID, T0 + 1000);
    assert.deepEqual(Array.from(file.subarray(file.length - oldFrame.length)), Array.from(oldFrame));
    const loaded = new MemoryArchive(rig.storage, memoryLog()).load().find((e) => e.meta.id === 7)!;
    assert.deepEqual(Array.from(loaded.residual), Array.from(fresh.residual));
    const restored = rig.engine.store.slotOf("owner", restoredAs(await restoreArchived(rig.engine, owner, "00000007")));
    assert.deepEqual(Array.from(rig.engine.store.row(restored)), Array.from(fresh.row));
    assert.deepEqual(Array.from(rig.engine.store.residual(restored)), Array.from(fresh.residual));
  });

  it("a residual frame whose entry frame never landed is dropped, and the archive is rewritten clean", () => {
    const rig = memoryRig();
    const log = memoryLog();
    const fresh = quantizeRow(unit("A fact cut short"));
    new MemoryArchive(rig.storage, log).add([{ meta: meta("owner", 9, "A fact cut short"), ...fresh }], EMBEDDER_ID, T0);
    const whole = rig.storage.files.get(ARCHIVE_PATH)!;
    const entryFrame = oldArchiveFrame({ meta: meta("owner", 9, "A fact cut short"), row: fresh.row, norm: 0 }, EMBEDDER_ID, T0);
    // The residual frame alone: the append was cut before its entry frame.
    rig.storage.files.set(ARCHIVE_PATH, whole.slice(0, whole.length - entryFrame.length));
    const archive = new MemoryArchive(rig.storage, log);
    assert.deepEqual(archive.load(), []);
    assert.ok(log.lines.some((l) => /skipped a torn or damaged record/.test(l)));
    archive.add([{ meta: meta("owner", 10, "A later fact"), ...quantizeRow(unit("A later fact")) }], EMBEDDER_ID, T0);
    assert.ok(log.lines.some((l) => /had a torn or damaged record; rewriting it with 0 entries/.test(l)));
    assert.deepEqual(
      new MemoryArchive(rig.storage, log).load().map((e) => e.meta.id),
      [10],
    );
  });
});
