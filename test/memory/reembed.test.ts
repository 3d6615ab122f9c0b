// Changing the embedding model or dimensions: the stored memories stay, calls that
// need vectors refuse until an admin re-embeds, and re-embedding is all or nothing.
import { describeConfig, describeReembed } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import { reembed, viewConfig } from "../../lib/memory/config-ops.ts";
import type { Embedder } from "../../lib/memory/embedders/embedder.ts";
import { VECTOR_FILE_PATH } from "../../lib/memory/engine.ts";
import { hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { FLAG_PINNED } from "../../lib/memory/store/vector-store.ts";
import { pinMemory, writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryRig, type MemoryRig } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");
const ivy = makePrincipal("ivy", "user", "turn");

async function filled(): Promise<MemoryRig> {
  const rig = memoryRig();
  await writeMemory(rig.engine, owner, { content: "The boat is moored at pier seven", importance: 0.8 });
  await writeMemory(rig.engine, owner, { content: "Sailing lessons start in June" });
  await writeMemory(rig.engine, ivy, { content: "Ivy is allergic to peanuts" });
  pinMemory(rig.engine, ivy, "pin", { content: "Ivy is allergic to peanuts" });
  return rig;
}

const metas = (rig: MemoryRig, engine = rig.engine) =>
  Array.from({ length: engine.store.count }, (_, s) => engine.store.metaAt(s)).sort((a, b) => (a.content < b.content ? -1 : 1));

describe("re-embedding", () => {
  it("a changed model keeps every memory, refuses vector work until an admin re-embeds, then works", async () => {
    const rig = await filled();
    const before = metas(rig);
    const fileBefore = rig.storage.files.get(VECTOR_FILE_PATH)!.slice();
    const changed = rig.reboot({ embedder: hashingEmbedder(128) });
    assert.equal(changed.store.count, 3, "nothing wiped");
    const refusal =
      /^HaloError: unavailable: the embedding model changed \(stored offline-hash-v1\/256, now offline-hash-v1\/128\); an admin re-embeds with memory\.config action reembed\.$/;
    await assert.rejects(writeMemory(changed, owner, { content: "new fact" }), refusal);
    await assert.rejects(searchMemory(changed, owner, "boat"), refusal);
    assert.match(
      describeConfig(viewConfig(changed)),
      /Embedder: offline-hash-v1\/128 \(stored vectors are from offline-hash-v1\/256: re-embed needed\)/,
    );
    assert.deepEqual(rig.storage.files.get(VECTOR_FILE_PATH), fileBefore, "the file is untouched until the re-embed");
    assert.equal(describeReembed(await reembed(changed)), "Re-embedded 3 memories with offline-hash-v1/128.");
    assert.deepEqual(metas(rig, changed), before, "ids, namespaces, importance, flags and times survive");
    assert.equal(changed.store.dims, 128);
    assert.match((await searchMemory(changed, owner, "where is the boat moored")).text, /pier seven/);
    assert.match((await searchMemory(changed, ivy, "peanuts")).text, /allergic/);
    const again = rig.reboot({ embedder: hashingEmbedder(128) });
    assert.equal(again.storeEmbedderId, "offline-hash-v1/128");
    assert.equal(metas(rig, again).filter((m) => m.flags & FLAG_PINNED).length, 1);
    assert.equal(describeReembed(await reembed(again)), "Nothing to re-embed: every memory already uses offline-hash-v1/128.");
  });

  it("a failing re-embed changes nothing; other calls wait while one runs", async () => {
    const rig = await filled();
    const fileBefore = rig.storage.files.get(VECTOR_FILE_PATH)!.slice();
    let calls = 0;
    const flaky: Embedder = {
      id: "flaky/64",
      dims: 64,
      embed: async (texts) => {
        calls++;
        throw new Error(`the embeddings service answered HTTP 500 (after ${texts.length} texts).`);
      },
    };
    const changed = rig.reboot({ embedder: flaky });
    await assert.rejects(reembed(changed), /^HaloError: unavailable: embedding failed: the embeddings service answered HTTP 500/);
    assert.equal(calls, 1);
    assert.equal(changed.storeEmbedderId, "offline-hash-v1/256");
    assert.equal(changed.store.count, 3);
    assert.deepEqual(rig.storage.files.get(VECTOR_FILE_PATH), fileBefore);

    let release!: () => void;
    const gate = new Promise<void>((ok) => (release = ok));
    const slow: Embedder = { id: "slow/64", dims: 64, embed: async (texts) => (await gate, hashingEmbedder(64).embed(texts)) };
    const busy = rig.reboot({ embedder: slow });
    const running = reembed(busy);
    await assert.rejects(searchMemory(busy, owner, "boat"), /^HaloError: busy: memory is being re-embedded/);
    await assert.rejects(writeMemory(busy, owner, { content: "during" }), /^HaloError: busy:/);
    release();
    assert.equal(describeReembed(await running), "Re-embedded 3 memories with slow/64.");
    assert.match((await searchMemory(busy, owner, "boat moored")).text, /pier seven/);
  });

  it("an empty store simply takes the new model", async () => {
    const rig = memoryRig();
    const other = rig.reboot({ embedder: hashingEmbedder(64) });
    await writeMemory(other, owner, { content: "first fact under the new model" });
    assert.equal(other.storeEmbedderId, "offline-hash-v1/64");
  });
});
