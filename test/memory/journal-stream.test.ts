// The engine replays memory/vectors.journal a frame at a time: a boot after many
// commits asks for no buffer larger than the journal's longest frame, a header
// announcing more than the longest legal frame is a torn frame (never a buffer
// of that size), the last frame cut at any byte drops just those bytes, and a
// card pulled while the journal is read leaves memory unread until it is back.
// test/scenarios/vector-journal.ts (Node and XS) covers the same through boot-read.ts.
import { describePin } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH, type MemoryEngine } from "../../lib/memory/engine.ts";
import { hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { journalFrameBound } from "../../lib/memory/store/vector-journal.ts";
import { pinMemory, writeMemory } from "../../lib/memory/writes.ts";
import type { Storage } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { concatBytes } from "../../lib/util/bytes.ts";
import { memoryRig, type MemoryRig } from "../support/memory.ts";
import { recordingStorage } from "../support/recording-storage.ts";

const owner = makePrincipal("owner", "admin", "turn");
const DIMS = 32;
const COMMITS = 120;

/** Every entry in slot order with its row, residuals and norm. */
function stateOf(engine: MemoryEngine): unknown {
  const { store } = engine;
  const entries = [];
  for (let s = 0; s < store.count; s++)
    entries.push({ ...store.metaAt(s), norm: store.norms[s], row: Array.from(store.row(s)), residual: Array.from(store.residual(s)) });
  return entries;
}

/** Where each frame of `journal` starts and ends. */
function framesOf(journal: Uint8Array): Array<{ start: number; end: number }> {
  const view = new DataView(journal.buffer, journal.byteOffset, journal.byteLength);
  const frames = [];
  for (let at = 0; at + 12 <= journal.length; at = frames[frames.length - 1].end)
    frames.push({ start: at, end: at + 12 + view.getUint32(at, true) });
  return frames;
}

/** A card with a snapshot and a journal of COMMITS commits (single writes, and a pin/delete pair now and then) of varied length. */
async function journaled(): Promise<{ rig: MemoryRig; card: ReturnType<typeof memoryStorage> }> {
  const card = memoryStorage();
  const rig = memoryRig({ storage: card, embedder: hashingEmbedder(DIMS) });
  for (let i = 0; i < COMMITS; i++) {
    const { store } = rig.engine;
    const content = i % 10 === 9 ? store.contentOf((i * 7) % store.count) : "";
    if (i % 10 === 9)
      assert.match(describePin(pinMemory(rig.engine, owner, i % 20 === 9 ? "pin" : "delete", { content })), /^(Pinned|Deleted)/);
    else await writeMemory(rig.engine, owner, { content: `Fact ${i}: ${"about the allotment and its sheds ".repeat(i % 7)}item${i}` });
  }
  return { rig, card };
}

const droppedLine = (n: number): string =>
  `warning: memory: ${VECTOR_JOURNAL_PATH} ends in a torn or damaged record; dropped its last ${n} bytes`;

describe("the vector journal replayed a frame at a time", () => {
  it(`a boot after ${COMMITS} commits reads each frame's header, then its payload, in a buffer no larger than the longest frame`, async () => {
    const { rig, card } = await journaled();
    const journal = card.files.get(VECTOR_JOURNAL_PATH)!;
    const frames = framesOf(journal);
    assert.equal(frames.length, COMMITS, "the base frame and every commit but the first (which wrote the snapshot)");
    assert.equal(frames[frames.length - 1].end, journal.length);
    let longest = 0;
    for (const f of frames) longest = Math.max(longest, f.end - f.start - 12);
    assert.ok(journal.length > 50 * longest, `${journal.length} bytes, the longest frame ${longest}`);
    const recorded = recordingStorage(card, VECTOR_JOURNAL_PATH);
    const after = rig.reboot({ storage: recorded });
    assert.deepEqual(stateOf(after), stateOf(rig.engine));
    assert.equal(recorded.wholeReads, 0);
    assert.equal(recorded.ranges, 2 * frames.length);
    assert.equal(recorded.largestRead, longest);
    assert.equal(recorded.largestBuffer, longest);
  });

  it("a header announcing more than the longest legal frame is a torn frame: nothing that size is allocated, the next save compacts", async () => {
    const { rig, card } = await journaled();
    const journal = card.files.get(VECTOR_JOURNAL_PATH)!;
    const snapshot = card.files.get(VECTOR_FILE_PATH)!;
    const expected = stateOf(rig.engine);
    const bound = journalFrameBound(DIMS, true);
    const header = (length: number): Uint8Array => {
      const bytes = new Uint8Array(12);
      new DataView(bytes.buffer).setUint32(0, length, true);
      return bytes;
    };
    for (const [label, tail] of [
      ["4 GB", header(0xffffffff)],
      ["one byte past the bound, with that many bytes after it", concatBytes([header(bound + 1), new Uint8Array(bound + 1).fill(2)])],
    ] as const) {
      card.files.set(VECTOR_FILE_PATH, snapshot);
      card.files.set(VECTOR_JOURNAL_PATH, concatBytes([journal, tail]));
      rig.log.lines.length = 0;
      const recorded = recordingStorage(card, VECTOR_JOURNAL_PATH);
      const after = rig.reboot({ storage: recorded });
      assert.deepEqual(stateOf(after), expected, label);
      assert.ok(rig.log.lines.includes(droppedLine(tail.length)), `${label}: ${rig.log.lines.join("\n")}`);
      assert.ok(recorded.largestBuffer < 4096, `${label}: ${recorded.largestBuffer}`);
      await writeMemory(after, owner, { content: `A fact after ${label}` });
      assert.notEqual(card.files.get(VECTOR_FILE_PATH), snapshot, `${label}: a new snapshot`);
      assert.deepEqual(stateOf(rig.reboot()), stateOf(after), `${label}: the next write lands`);
    }
  });

  it("the last frame cut after any of its bytes: the commits before it, and the log names the bytes dropped", async () => {
    const { rig, card } = await journaled();
    const journal = card.files.get(VECTOR_JOURNAL_PATH)!;
    const last = framesOf(journal).at(-1)!;
    card.files.set(VECTOR_JOURNAL_PATH, journal.slice(0, last.start));
    const before = stateOf(rig.reboot());
    assert.notDeepEqual(before, stateOf(rig.engine));
    for (let cut = last.start + 1; cut < last.end; cut++) {
      card.files.set(VECTOR_JOURNAL_PATH, journal.slice(0, cut));
      rig.log.lines.length = 0;
      assert.deepEqual(stateOf(rig.reboot()), before, `cut at ${cut}`);
      assert.ok(rig.log.lines.includes(droppedLine(cut - last.start)), `cut at ${cut}: ${rig.log.lines.join("\n")}`);
    }
  });

  for (const [what, fail] of [
    ["a pulled card", (card: ReturnType<typeof memoryStorage>) => card.pull()],
    ["a read error", () => undefined],
  ] as const)
    it(`${what} in the middle of the journal's read leaves memory unread and both files where they are; it loads on the next call`, async () => {
      const { rig, card } = await journaled();
      const expected = stateOf(rig.engine);
      const journal = card.files.get(VECTOR_JOURNAL_PATH)!;
      const snapshot = card.files.get(VECTOR_FILE_PATH)!;
      const frames = framesOf(journal).length;
      let reads = 0;
      let failing = true;
      const flaky: Storage = {
        ...card,
        readRange: (path, offset, into) => {
          if (path === VECTOR_JOURNAL_PATH && failing && ++reads === frames) {
            fail(card);
            throw new Error("no SD card");
          }
          return card.readRange(path, offset, into);
        },
      };
      rig.log.lines.length = 0;
      const engine = rig.reboot({ storage: flaky });
      assert.equal(reads, frames, "the read stopped in the middle of the journal");
      assert.equal(engine.store.count, 0);
      assert.equal(card.files.get(VECTOR_JOURNAL_PATH), journal);
      assert.equal(card.files.get(VECTOR_FILE_PATH), snapshot);
      assert.deepEqual(
        [...card.files.keys()].filter((k) => k.includes(".bad-")),
        [],
      );
      assert.deepEqual(rig.log.lines, [], "nothing is said about files the card did not give");
      failing = false;
      card.insert();
      engine.transactNow("read", () => undefined);
      assert.deepEqual(stateOf(engine), expected);
    });
});
