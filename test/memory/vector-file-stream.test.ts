// The engine reads and writes memory/vectors.bin in pieces: a boot and a
// compaction of a large store take no buffer near the file's size, a card that
// fails while the snapshot is read leaves memory unread (the file is not set
// aside), and a card pulled in the middle of a compaction keeps the old
// snapshot. test/scenarios/vector-file.ts (Node and XS) covers the codec.
import assert from "node:assert/strict";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { VECTOR_FILE_PIECE_BYTES } from "../../lib/memory/bounds.ts";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH } from "../../lib/memory/engine.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import type { VectorStore } from "../../lib/memory/store/vector-store.ts";
import { writeMemory } from "../../lib/memory/writes.ts";
import type { Storage } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { sampleStore } from "../scenarios/vector-file.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { entryBound, writeEntry } from "../../lib/memory/store/entry-codec.ts";
import { vectorFileWriter } from "../../lib/memory/store/vector-file-write.ts";
import { memoryRig, type MemoryRig } from "../support/memory.ts";
import { recordingStorage } from "../support/recording-storage.ts";

const owner = makePrincipal("owner", "admin", "turn");
const ENTRIES = 3000;

/** A rig whose card holds a snapshot of `ENTRIES` entries (written by a compaction), over `storage`. */
async function bigRig(storage: Storage): Promise<{ rig: MemoryRig; store: VectorStore }> {
  const rig = memoryRig({ storage });
  const store = sampleStore(256, ENTRIES, rig.deps.arena);
  await rig.engine.transact("exclusive", (tx) => tx.replaceStore(store, rig.engine.embedder.id), { embedder: false });
  return { rig, store };
}

/** The records of `store` as writeEntry writes them from its entries' strings: the layout the copied bytes must keep. */
function recordsFromStrings(store: VectorStore): Uint8Array {
  let bound = 0;
  for (let slot = 0; slot < store.count; slot++) {
    const m = store.metaAt(slot);
    bound += entryBound(m.ns, m.source, m.content, store.dims, true);
  }
  const bytes = new Uint8Array(bound);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (let slot = 0; slot < store.count; slot++)
    at = writeEntry(bytes, view, at, store.metaAt(slot), store.norms[slot], store.row(slot), store.residual(slot));
  return bytes.subarray(0, at);
}

describe("the vector file read and written in pieces", () => {
  it("the writer copies each record's texts as stored and gives the records writeEntry makes from the strings, at any piece size", () => {
    // Namespaces, sources and contents of 1-, 2- and 3-byte characters, the longest a record may hold among them.
    const store = sampleStore(16, 40, simVectorArena());
    const long = sampleStore(16, 3, simVectorArena(), true);
    store.resize(store.count + long.count);
    for (let slot = 0; slot < long.count; slot++) store.add(long.metaAt(slot), long.row(slot), long.residual(slot));
    const expected = recordsFromStrings(store);
    for (const pieceBytes of [7, 100, 4096, VECTOR_FILE_PIECE_BYTES]) {
      const writer = vectorFileWriter(
        store,
        "offline-hash-v1/16",
        0,
        { sha256: () => new Uint8Array(32), sha256Stream: () => ({ update: () => undefined, digest: () => new Uint8Array(32) }) },
        pieceBytes,
      );
      const parts: number[] = [];
      for (let piece = writer.next(); piece !== undefined; piece = writer.next()) parts.push(...piece);
      const file = Uint8Array.from(parts);
      assert.equal(file.length, writer.base.length);
      assert.deepEqual(file.subarray(file.length - expected.length), expected, `piece size ${pieceBytes}`);
    }
  });

  it(`a compaction and a boot of ${ENTRIES} entries take no buffer larger than a piece, never the whole file`, async () => {
    const card = memoryStorage();
    const recorded = recordingStorage(card, VECTOR_FILE_PATH);
    const { rig, store } = await bigRig(recorded);
    const fileBytes = card.files.get(VECTOR_FILE_PATH)!.length;
    assert.ok(fileBytes > 50 * VECTOR_FILE_PIECE_BYTES, `${fileBytes} bytes`);
    assert.equal(recorded.wholeWrites, 0);
    assert.equal(recorded.streamedBytes, fileBytes);
    assert.equal(recorded.largestPiece, VECTOR_FILE_PIECE_BYTES);
    const after = rig.reboot();
    assert.equal(after.store.count, ENTRIES);
    assert.equal(recorded.wholeReads, 0);
    assert.equal(recorded.largestRead, VECTOR_FILE_PIECE_BYTES);
    for (const slot of [0, 1, 1234, ENTRIES - 1]) {
      assert.deepEqual(after.store.metaAt(slot), store.metaAt(slot));
      assert.deepEqual(after.store.row(slot), store.row(slot));
      assert.deepEqual(after.store.residual(slot), store.residual(slot));
    }
  });

  it("a card that fails while the snapshot is read leaves memory unread and the file where it is; it loads when the card answers", async () => {
    const card = memoryStorage();
    const { rig } = await bigRig(card);
    const file = card.files.get(VECTOR_FILE_PATH)!;
    let reads = 0;
    let failing = true;
    const flaky: Storage = {
      ...card,
      readRange: (path, offset, into) => {
        if (path === VECTOR_FILE_PATH && failing && ++reads === 40) throw new Error("no SD card");
        return card.readRange(path, offset, into);
      },
    };
    const engine = rig.reboot({ storage: flaky });
    assert.equal(reads, 40, "the read stopped in the middle of the file");
    assert.equal(engine.store.count, 0);
    assert.equal(card.files.get(VECTOR_FILE_PATH), file, "the file is neither set aside nor rewritten");
    assert.deepEqual(
      [...card.files.keys()].filter((k) => k.includes(".bad-")),
      [],
    );
    assert.ok(!rig.log.lines.some((l) => l.includes("unreadable")), rig.log.lines.join("\n"));
    failing = false;
    await searchMemory(engine, owner, "spare key");
    assert.equal(engine.store.count, ENTRIES);
  });

  it("a card pulled in the middle of a compaction keeps the old snapshot; reinserted, the next save lands", async () => {
    const card = memoryStorage();
    const { rig } = await bigRig(card);
    await writeMemory(rig.engine, owner, { content: "The boiler code is 1234" });
    assert.ok(card.files.has(VECTOR_JOURNAL_PATH));
    const before = rig.reboot().store.count;
    let pieces = 0;
    const pulling: Storage = {
      ...card,
      writeAtomicFrom: (path, next) =>
        card.writeAtomicFrom(path, () => {
          if (path === VECTOR_FILE_PATH && ++pieces === 2) card.pull();
          return next();
        }),
    };
    const engine = rig.reboot({ storage: pulling });
    const replacement = sampleStore(256, 100, rig.deps.arena);
    await assert.rejects(
      engine.transact("exclusive", (tx) => tx.replaceStore(replacement, engine.embedder.id), { embedder: false }),
      /no-card/,
    );
    assert.equal(pieces, 2, "the card went in the middle of the file");
    card.insert();
    const reread = rig.reboot();
    assert.equal(reread.store.count, before, "the old snapshot and its journal");
    await writeMemory(reread, owner, { content: "The gate code is 4711" });
    assert.equal(rig.reboot().store.count, before + 1);
  });
});
