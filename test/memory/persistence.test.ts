// The vector file: what a reboot reads back, and how a damaged file is refused and kept aside.
import assert from "node:assert/strict";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH } from "../../lib/memory/engine.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { bytesReader, decodeVectorFile, readVectorFile, VectorFileError } from "../../lib/memory/store/vector-file.ts";
import { encodeVectorFile } from "../../lib/memory/store/vector-file-write.ts";
import { pinMemory, writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryRig, type MemoryRig } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");
const zoe = makePrincipal("zoë", "user", "mcp");

async function filled(): Promise<MemoryRig> {
  const rig = memoryRig();
  await writeMemory(rig.engine, owner, { content: "Grandma's birthday is 12 May", permanent: true, source: "chat" });
  await writeMemory(rig.engine, owner, { content: "Der Schlüssel liegt unter der Matte 🔑", importance: 0.9, ttl: "weeks" });
  await writeMemory(rig.engine, zoe, { content: "Zoë prefers window seats", ttl: "days" });
  pinMemory(rig.engine, zoe, "pin", { content: "Zoë prefers window seats" });
  return rig;
}

function snapshot(rig: MemoryRig, engine = rig.engine): unknown[] {
  const out = [];
  for (let s = 0; s < engine.store.count; s++)
    out.push({
      ...engine.store.metaAt(s),
      row: Array.from(engine.store.row(s)),
      residual: Array.from(engine.store.residual(s)),
      norm: engine.store.norms[s],
    });
  return out.sort((a, b) => (a.content < b.content ? -1 : 1));
}

describe("memory persistence", () => {
  it("a reboot reads back every entry exactly: metadata, namespaces, rows", async () => {
    const rig = await filled();
    const after = rig.reboot();
    assert.deepEqual(snapshot(rig, after), snapshot(rig));
    assert.match((await searchMemory(after, zoe, "window seats")).text, /Zoë prefers window seats/);
    assert.ok(rig.log.lines.some((l) => l === "memory: loaded 3 memories (offline-hash-v1/256)"));
  });

  /** The whole store as a snapshot (the card holds a small one plus the journal). */
  const snapshotOf = (rig: MemoryRig): Uint8Array => encodeVectorFile(rig.engine.store, rig.engine.storeEmbedderId, 0, nodeDigest);

  /** The VectorFileError a read in pieces of `piece` bytes gives (asserts that it throws one). */
  const refusal = (bytes: Uint8Array, piece: number, what: string): string => {
    try {
      readVectorFile(bytesReader(bytes), nodeDigest, 100, simVectorArena(), piece);
    } catch (e) {
      assert.ok(e instanceof VectorFileError, `${what}, pieces of ${piece}: ${String(e)}`);
      return e.message;
    }
    assert.fail(`${what}, pieces of ${piece}: read as data`);
  };

  it("every truncation of a valid file is refused, never read as data, whatever the piece size", async () => {
    const rig = await filled();
    const bytes = snapshotOf(rig);
    for (let n = 0; n < bytes.length; n++) {
      assert.throws(() => decodeVectorFile(bytes.slice(0, n), nodeDigest, 100, simVectorArena()), VectorFileError, `cut at ${n}`);
      const message = refusal(bytes.slice(0, n), 16_384, `cut at ${n}`);
      for (const piece of [1, 5, 64])
        assert.equal(refusal(bytes.slice(0, n), piece, `cut at ${n}`), message, `cut at ${n}, pieces of ${piece}`);
    }
    assert.equal(decodeVectorFile(bytes.slice(), nodeDigest, 100, simVectorArena()).store.count, 3);
    for (const piece of [1, 5, 64])
      assert.equal(readVectorFile(bytesReader(bytes), nodeDigest, 100, simVectorArena(), piece).store.count, 3);
  });

  it("every single flipped byte is refused, with the same message whatever the piece size", async () => {
    const rig = await filled();
    const bytes = snapshotOf(rig);
    for (let i = 0; i < bytes.length; i++) {
      const bad = bytes.slice();
      bad[i] ^= 0x5a;
      assert.throws(() => decodeVectorFile(bad, nodeDigest, 100, simVectorArena()), VectorFileError, `flip at ${i}`);
      const message = refusal(bad, 16_384, `flip at ${i}`);
      for (const piece of [1, 5, 64]) assert.equal(refusal(bad, piece, `flip at ${i}`), message, `flip at ${i}, pieces of ${piece}`);
    }
  });

  for (const [name, damage] of [
    ["truncated", (b: Uint8Array) => b.slice(0, b.length - 7)],
    ["bad magic", (b: Uint8Array) => Uint8Array.from(b, (x, i) => (i === 0 ? 0x58 : x))],
    ["unknown version", (b: Uint8Array) => Uint8Array.from(b, (x, i) => (i === 8 ? 9 : x))],
    ["empty", () => new Uint8Array(0)],
  ] as const) {
    it(`a ${name} file is refused with a log line, kept aside, and never silently replaced`, async () => {
      const rig = await filled();
      const damaged = damage(rig.storage.files.get(VECTOR_FILE_PATH)!);
      const journal = rig.storage.files.get(VECTOR_JOURNAL_PATH)!;
      assert.ok(journal.length > 0);
      rig.storage.files.set(VECTOR_FILE_PATH, damaged);
      const after = rig.reboot();
      assert.equal(after.store.count, 0);
      const line = rig.log.lines.find((l) => l.includes("is unreadable"));
      assert.match(
        line ?? "",
        /^warning: memory: memory\/vectors\.bin is unreadable \(.+\); kept aside as memory\/vectors\.bin\.bad-\d+; starting with an empty store$/,
      );
      const aside = /kept aside as (\S+);/.exec(line!)![1];
      assert.deepEqual(rig.storage.files.get(aside), damaged);
      const journalAside = aside.replace("vectors.bin", "vectors.journal");
      assert.deepEqual(rig.storage.files.get(journalAside), journal, "the journal that extends it is kept aside with it");
      assert.equal(rig.storage.files.has(VECTOR_JOURNAL_PATH), false);
      await writeMemory(after, owner, { content: "A fresh start" });
      assert.deepEqual(rig.storage.files.get(aside), damaged, "the damaged copy stays untouched");
      assert.deepEqual(rig.storage.files.get(journalAside), journal, "the journal copy stays untouched");
      assert.equal(rig.reboot().store.count, 1);
    });
  }

  it("a damaged file that can't be moved aside makes memory read-only instead of overwriting it", async () => {
    const rig = await filled();
    const damaged = rig.storage.files.get(VECTOR_FILE_PATH)!.slice(0, 100);
    const journal = rig.storage.files.get(VECTOR_JOURNAL_PATH)!;
    rig.storage.files.set(VECTOR_FILE_PATH, damaged);
    const after = rig.reboot({
      storage: {
        ...rig.storage,
        rename: () => {
          throw new Error("rename failed");
        },
      },
    });
    await assert.rejects(
      writeMemory(after, owner, { content: "must not be saved" }),
      /^HaloError: unavailable: the memory file is damaged \(.+\) and could not be moved aside\.$/,
    );
    assert.deepEqual(rig.storage.files.get(VECTOR_FILE_PATH), damaged);
    assert.deepEqual(rig.storage.files.get(VECTOR_JOURNAL_PATH), journal);
  });

  it("a card absent at boot is read when it comes back, before anything is saved", async () => {
    const rig = await filled();
    rig.storage.pull();
    const after = rig.reboot();
    await assert.rejects(writeMemory(after, owner, { content: "while the card is out" }), /^HaloError: no-card:/);
    await assert.rejects(searchMemory(after, zoe, "window seats"), /^HaloError: no-card:/);
    rig.storage.insert();
    await writeMemory(after, owner, { content: "after the card came back" });
    assert.equal(after.store.count, 4);
    assert.equal(rig.reboot().store.count, 4);
  });
});
