// The vector journal: small changes are appended beside the snapshot instead of
// rewriting it, a reboot replays them slot for slot, a damaged frame and all
// after it are dropped, a journal naming another snapshot is ignored, and the
// journal is folded into a new snapshot at its bounds.
import { describePin } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import {
  JOURNAL_MAX_COMMIT_OPS,
  JOURNAL_MAX_COMMITS,
  JOURNAL_MAX_MAINTENANCE,
  JOURNAL_MAX_SHARE,
  JOURNAL_MIN_BYTES,
  MAINTAIN_INTERVAL_MS,
  RECALL_FLUSH_INTERVAL_MS,
} from "../../lib/memory/bounds.ts";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH, type MemoryEngine } from "../../lib/memory/engine.ts";
import { hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { VectorStore } from "../../lib/memory/store/vector-store.ts";
import { pinMemory, updateMemory, writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { HOUR, memoryRig, type MemoryRig, storedContents } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");
const zoe = makePrincipal("zoë", "user", "mcp");

/** Every entry in slot order with its row, residuals and norm, and when forgetting last ran. */
function stateOf(engine: MemoryEngine): unknown {
  const { store } = engine;
  const entries = [];
  for (let s = 0; s < store.count; s++)
    entries.push({ ...store.metaAt(s), norm: store.norms[s], row: Array.from(store.row(s)), residual: Array.from(store.residual(s)) });
  return { embedder: engine.storeEmbedderId, entries, maintained: (engine as unknown as { lastMaintain: number }).lastMaintain };
}

const journalLength = (rig: MemoryRig): number => rig.storage.files.get(VECTOR_JOURNAL_PATH)?.length ?? 0;

describe("memory vector journal", () => {
  it("every kind of change is appended, not rewritten, and a reboot restores it slot for slot", async () => {
    const rig = memoryRig();
    const { engine } = rig;
    await writeMemory(engine, owner, { content: "The boiler was serviced in March" });
    const snapshot = rig.storage.files.get(VECTOR_FILE_PATH);
    const steps: Array<[string, () => Promise<unknown>]> = [
      ["write", () => writeMemory(engine, owner, { content: "The parcel arrives with the evening courier", ttl: "session" })],
      ["write, another person", () => writeMemory(engine, zoe, { content: "Zoë prefers window seats", ttl: "days" })],
      ["write", () => writeMemory(engine, owner, { content: "Wifi password hint: the cat's name" })],
      [
        "same content: importance raised",
        () => writeMemory(engine, owner, { content: "Wifi password hint: the cat's name", importance: 0.9 }),
      ],
      ["pin", async () => pinMemory(engine, zoe, "pin", { content: "Zoë prefers window seats" })],
      [
        "update (remove + add)",
        () => updateMemory(engine, owner, { old: "The boiler was serviced in March", content: "The boiler was serviced in April" }),
      ],
      ["unpin", async () => pinMemory(engine, zoe, "unpin", { content: "Zoë prefers window seats" })],
      [
        "delete from the middle (the last slot moves)",
        async () => pinMemory(engine, owner, "delete", { content: "The boiler was serviced in April" }),
      ],
      [
        "recall boosts, flushed later",
        async () => {
          await searchMemory(engine, owner, "parcel courier");
          rig.clock.advance(RECALL_FLUSH_INTERVAL_MS);
          assert.match(describePin(pinMemory(engine, zoe, "unpin", { content: "Zoë prefers window seats" })), /was not pinned/);
        },
      ],
      [
        "maintenance: decay and a session entry expiring",
        async () => {
          rig.clock.advance(13 * HOUR + MAINTAIN_INTERVAL_MS);
          await writeMemory(engine, owner, { content: "Bins go out on Thursday" });
        },
      ],
    ];
    let before = journalLength(rig);
    for (const [name, step] of steps) {
      await step();
      assert.ok(journalLength(rig) > before, `${name}: appended`);
      before = journalLength(rig);
      assert.equal(rig.storage.files.get(VECTOR_FILE_PATH), snapshot, `${name}: the snapshot is not rewritten`);
      assert.deepEqual(stateOf(rig.reboot()), stateOf(engine), `${name}: read back`);
    }
    assert.deepEqual(
      storedContents(engine.store).sort(),
      ["Bins go out on Thursday", "Wifi password hint: the cat's name", "Zoë prefers window seats"],
      "the session entry expired and the deleted one is gone",
    );
  });

  it("after a reboot the next write appends one small commit, however large the store", async () => {
    const rig = memoryRig({ embedder: hashingEmbedder(16) });
    for (let i = 0; i < JOURNAL_MAX_COMMIT_OPS + 10; i++)
      await writeMemory(rig.engine, owner, { content: `Fact number ${i} about item${i}` });
    const { store } = rig.engine;
    const copy = new VectorStore(store.dims, store.capacity, rig.engine.arena);
    for (let s = 0; s < store.count; s++) copy.add(store.metaAt(s), store.row(s), store.residual(s), store.norms[s]);
    await rig.engine.transact("exclusive", (tx) => tx.replaceStore(copy, tx.storeEmbedderId), { embedder: false });
    assert.equal(rig.storage.files.has(VECTOR_JOURNAL_PATH), false, "all of it in the snapshot");
    for (const journal of [false, true]) {
      const snapshot = rig.storage.files.get(VECTOR_FILE_PATH)!;
      const after = rig.reboot();
      const before = journalLength(rig);
      await writeMemory(after, owner, { content: `One more fact, journal ${journal}` });
      assert.equal(rig.storage.files.get(VECTOR_FILE_PATH), snapshot, "the snapshot is not rewritten");
      assert.ok(journalLength(rig) - before < 150, `${journalLength(rig) - before} bytes appended`);
      assert.deepEqual(stateOf(rig.reboot()), stateOf(after));
    }
  });

  it("after JOURNAL_MAX_COMMITS commits the next save writes a snapshot and removes the journal", async () => {
    const rig = memoryRig({ embedder: hashingEmbedder(16) });
    await writeMemory(rig.engine, owner, { content: "A fact to pin and unpin" });
    const first = rig.storage.files.get(VECTOR_FILE_PATH);
    for (let i = 1; i <= JOURNAL_MAX_COMMITS + 1; i++) {
      pinMemory(rig.engine, owner, i % 2 ? "pin" : "unpin", { content: "A fact to pin and unpin" });
      const compacted = rig.storage.files.get(VECTOR_FILE_PATH) !== first;
      assert.equal(compacted, i === JOURNAL_MAX_COMMITS + 1, `commit ${i}`);
      assert.equal(rig.storage.files.has(VECTOR_JOURNAL_PATH), !compacted, `commit ${i}`);
    }
    assert.equal(rig.reboot().store.flags[0], rig.engine.store.flags[0]);
    pinMemory(rig.engine, owner, "unpin", { content: "A fact to pin and unpin" });
    assert.ok(journalLength(rig) > 0, "a new journal starts after the snapshot");
    assert.deepEqual(stateOf(rig.reboot()), stateOf(rig.engine));
  });

  it("past JOURNAL_MAX_MAINTENANCE maintenance passes (each replayed over the whole store at boot) a snapshot is written", async () => {
    const rig = memoryRig();
    await writeMemory(rig.engine, owner, { content: "A fact that slowly decays" });
    const first = rig.storage.files.get(VECTOR_FILE_PATH);
    let compactedAt = 0;
    for (let pass = 1; pass <= 2 * JOURNAL_MAX_MAINTENANCE + 2 && compactedAt === 0; pass++) {
      rig.clock.advance(MAINTAIN_INTERVAL_MS);
      pinMemory(rig.engine, owner, "unpin", { content: "A fact that slowly decays" });
      if (rig.storage.files.get(VECTOR_FILE_PATH) !== first) compactedAt = pass;
    }
    assert.ok(compactedAt > JOURNAL_MAX_MAINTENANCE && compactedAt <= 2 * JOURNAL_MAX_MAINTENANCE + 2, String(compactedAt));
    assert.equal(rig.storage.files.has(VECTOR_JOURNAL_PATH), false);
    await writeMemory(rig.engine, owner, { content: "A later fact" });
    assert.deepEqual(stateOf(rig.reboot()), stateOf(rig.engine));
    assert.ok(rig.engine.store.importance[0] < 0.5, "decay was applied");
  });

  it("the journal stays under its byte bound: a save past it writes a snapshot instead", async () => {
    const rig = memoryRig();
    let compactions = 0;
    let snapshot = rig.storage.files.get(VECTOR_FILE_PATH);
    for (let i = 0; i < 120; i++) {
      await writeMemory(rig.engine, owner, { content: `Fact ${i}: ${"a long note about the allotment and its sheds ".repeat(8)}item${i}` });
      const now = rig.storage.files.get(VECTOR_FILE_PATH)!;
      if (now !== snapshot) compactions++;
      snapshot = now;
      assert.ok(
        journalLength(rig) <= Math.max(JOURNAL_MIN_BYTES, now.length * JOURNAL_MAX_SHARE),
        `write ${i}: ${journalLength(rig)} bytes`,
      );
    }
    assert.ok(compactions >= 2, String(compactions));
    assert.deepEqual(stateOf(rig.reboot()), stateOf(rig.engine));
  });

  it("any flipped byte drops that commit and all after it, never reads garbage; the next write repairs it", async () => {
    const rig = memoryRig({ embedder: hashingEmbedder(32) });
    await writeMemory(rig.engine, owner, { content: "first fact about apples" });
    const states = [stateOf(rig.engine)];
    const ends: number[] = [];
    for (const content of ["second fact about pears", "third fact about plums", "fourth fact about figs"]) {
      await writeMemory(rig.engine, owner, { content });
      states.push(stateOf(rig.engine));
      ends.push(journalLength(rig));
    }
    const snapshot = rig.storage.files.get(VECTOR_FILE_PATH)!;
    const journal = rig.storage.files.get(VECTOR_JOURNAL_PATH)!;
    for (let i = 0; i < journal.length; i++) {
      const bad = journal.slice();
      bad[i] ^= 0x5a;
      rig.storage.files.set(VECTOR_FILE_PATH, snapshot);
      rig.storage.files.set(VECTOR_JOURNAL_PATH, bad);
      rig.log.lines.length = 0;
      const commit = ends.findIndex((end) => i < end); // the base frame went out with the first commit
      const after = rig.reboot();
      assert.deepEqual(stateOf(after), states[commit], `flip at ${i}`);
      assert.ok(
        rig.log.lines.some((l) => /vectors\.journal (ends in a torn or damaged record|belongs to an earlier snapshot)/.test(l)),
        `flip at ${i}: logged`,
      );
      await writeMemory(after, owner, { content: "a fact after the repair" });
      const repaired = rig.reboot();
      assert.deepEqual(stateOf(repaired), stateOf(after), `flip at ${i}: the next write lands`);
    }
  });

  it("a journal naming another snapshot is ignored with a log line and replaced by the next save", async () => {
    const other = memoryRig();
    await writeMemory(other.engine, owner, { content: "A fact from another card" });
    await writeMemory(other.engine, owner, { content: "Another fact from another card" });
    const rig = memoryRig();
    await writeMemory(rig.engine, owner, { content: "The only fact on this card" });
    rig.storage.files.set(VECTOR_JOURNAL_PATH, other.storage.files.get(VECTOR_JOURNAL_PATH)!);
    const after = rig.reboot();
    assert.deepEqual(storedContents(after.store), ["The only fact on this card"]);
    assert.ok(rig.log.lines.includes("memory: memory/vectors.journal belongs to an earlier snapshot; ignored"));
    await writeMemory(after, owner, { content: "A second fact on this card" });
    assert.deepEqual(stateOf(rig.reboot()), stateOf(after));
    assert.equal(rig.reboot().store.count, 2);
  });
});
