// Migration from wave 1's files: a format-1 snapshot (rows round(v x 127)) and
// a journal extending it, made here with wave 1's writer, load without loss on
// boot; the store is rewritten as format 2 at once and keeps every row as it was.
import assert from "node:assert/strict";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { hashingEmbedder, hashText } from "../../lib/memory/embedders/hashing.ts";
import { normalizeL2 } from "../../lib/memory/store/quantize.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { OP_REMOVE, OP_UPSERT, type StoreOp } from "../../lib/memory/store/store-changes.ts";
import { CHECK_AT, CHECK_BYTES, encodeVectorFile } from "../../lib/memory/store/vector-file.ts";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH } from "../../lib/memory/store/vector-files.ts";
import { baseOf, encodeBase, encodeCommit } from "../../lib/memory/store/vector-journal.ts";
import { VectorStore, type EntryMeta } from "../../lib/memory/store/vector-store.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { memoryRig } from "../support/memory.ts";

const DIMS = 256;
const owner = makePrincipal("owner", "admin", "mcp");
const T0 = Date.UTC(2026, 10, 1);
const EMBEDDER_ID = hashingEmbedder(DIMS).id;

/** Wave 1's row: round(v x 127) of the unit embedding. */
function wave1Row(text: string): Int8Array {
  const v = hashText(text, DIMS);
  assert.ok(normalizeL2(v));
  return Int8Array.from(v, (x) => Math.max(-127, Math.min(127, Math.round(x * 127))));
}

function meta(ns: string, id: number, content: string): EntryMeta {
  return { id, ns, content, source: "self", importance: 0.5, created: T0, lastRecalled: T0, flags: 0, ttlClass: 3 };
}

/** Wave 1's snapshot writer: the same layout with version 1 in the header and the checksum over it. */
function wave1Snapshot(store: VectorStore): Uint8Array {
  const bytes = encodeVectorFile(store, EMBEDDER_ID, T0, nodeDigest).slice();
  new DataView(bytes.buffer).setUint16(8, 1, true);
  bytes.fill(0, CHECK_AT, CHECK_AT + CHECK_BYTES);
  bytes.set(nodeDigest.sha256(bytes).subarray(0, CHECK_BYTES), CHECK_AT);
  return bytes;
}

const SNAPSHOT_FACTS = ["My ficus needs water every Sunday", "The spare key is under the blue flowerpot", "Dentist on Tuesday at nine"];
const JOURNAL_FACTS = ["The boiler was serviced in March", "Carla lent me her blender"];

function wave1Files(): { snapshot: Uint8Array; journal: Uint8Array; rows: Map<string, Int8Array> } {
  const rows = new Map<string, Int8Array>();
  const store = new VectorStore(DIMS, 16, simVectorArena());
  SNAPSHOT_FACTS.forEach((fact, i) => {
    rows.set(fact, wave1Row(fact));
    store.add(meta("owner", 100 + i, fact), rows.get(fact)!);
  });
  const snapshot = wave1Snapshot(store);
  const ops: StoreOp[] = JOURNAL_FACTS.map((fact, i) => {
    rows.set(fact, wave1Row(fact));
    const row = rows.get(fact)!;
    let sum = 0;
    for (const x of row) sum += x * x;
    return { kind: OP_UPSERT, meta: meta("owner", 200 + i, fact), norm: Math.sqrt(sum), row };
  });
  ops.push({ kind: OP_REMOVE, ns: "owner", id: 102 });
  rows.delete(SNAPSHOT_FACTS[2]);
  const head = encodeBase(baseOf(snapshot), nodeDigest);
  const commit = encodeCommit(ops, nodeDigest);
  const journal = new Uint8Array(head.length + commit.length);
  journal.set(head);
  journal.set(commit, head.length);
  return { snapshot, journal, rows };
}

describe("memory migration from wave 1", () => {
  it("loads a format-1 snapshot and its journal, keeps every row, and rewrites the store as format 2", async () => {
    const { snapshot, journal, rows } = wave1Files();
    const rig = memoryRig();
    rig.storage.files.set(VECTOR_FILE_PATH, snapshot);
    rig.storage.files.set(VECTOR_JOURNAL_PATH, journal);
    const engine = rig.reboot();
    assert.equal(engine.store.count, rows.size);
    for (let slot = 0; slot < engine.store.count; slot++) {
      const content = engine.store.content[slot];
      assert.deepEqual(Array.from(engine.store.row(slot)), Array.from(rows.get(content)!), content);
    }
    const rewritten = rig.storage.files.get(VECTOR_FILE_PATH)!;
    assert.equal(new DataView(rewritten.buffer, rewritten.byteOffset).getUint16(8, true), 2);
    assert.equal(rig.storage.files.has(VECTOR_JOURNAL_PATH), false, "the journal was folded into the new snapshot");
    assert.ok(rig.log.lines.some((l) => /rewritten from format 1 to 2/.test(l)));
    // A wave-1 row is still a row: its own norm scales it, and search finds it.
    const { hits } = await searchMemory(engine, owner, "when does the ficus need water", 1);
    assert.equal(hits[0].content, SNAPSHOT_FACTS[0]);
    assert.ok(hits[0].similarity > 0.5);
    const again = rig.reboot();
    assert.deepEqual([...again.store.content].sort(), [...rows.keys()].sort());
    for (let slot = 0; slot < again.store.count; slot++)
      assert.deepEqual(Array.from(again.store.row(slot)), Array.from(rows.get(again.store.content[slot])!));
  });

  it("a card that refuses the rewrite keeps the format-1 files and retries on the next call", async () => {
    const { snapshot, journal } = wave1Files();
    const rig = memoryRig();
    rig.storage.files.set(VECTOR_FILE_PATH, snapshot);
    rig.storage.files.set(VECTOR_JOURNAL_PATH, journal);
    const writeAtomic = rig.storage.writeAtomic.bind(rig.storage);
    let refuse = true;
    rig.storage.writeAtomic = (path: string, data: Uint8Array): void => {
      if (refuse) throw new Error("card busy");
      writeAtomic(path, data);
    };
    const engine = rig.reboot();
    assert.equal(engine.store.count, 4);
    assert.deepEqual(rig.storage.files.get(VECTOR_FILE_PATH), snapshot, "the old snapshot is untouched");
    assert.deepEqual(rig.storage.files.get(VECTOR_JOURNAL_PATH), journal);
    refuse = false;
    await searchMemory(engine, owner, "ficus", 1);
    const rewritten = rig.storage.files.get(VECTOR_FILE_PATH)!;
    assert.equal(new DataView(rewritten.buffer, rewritten.byteOffset).getUint16(8, true), 2);
    assert.equal(rig.reboot().store.count, 4);
  });

  it("a snapshot of an unknown future format is moved aside, never wiped", () => {
    const store = new VectorStore(DIMS, 4, simVectorArena());
    store.add(meta("owner", 1, SNAPSHOT_FACTS[0]), wave1Row(SNAPSHOT_FACTS[0]));
    const bytes = encodeVectorFile(store, EMBEDDER_ID, T0, nodeDigest).slice();
    new DataView(bytes.buffer).setUint16(8, 3, true);
    const rig = memoryRig();
    rig.storage.files.set(VECTOR_FILE_PATH, bytes);
    const engine = rig.reboot();
    assert.equal(engine.store.count, 0);
    const aside = [...rig.storage.files.keys()].find((k) => k.startsWith(VECTOR_FILE_PATH + ".bad-"));
    assert.ok(aside, "kept aside");
    assert.deepEqual(rig.storage.files.get(aside!), bytes);
  });
});
