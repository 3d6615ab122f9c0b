// Power cuts at every byte offset of one vector-file save, one episodic append
// and one archive append: after the reboot the card holds the old or the new
// state, never garbage, and the next write works.
import assert from "node:assert/strict";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { fakeClock, memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import type { MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { ARCHIVE_PATH, MemoryArchive } from "../../lib/memory/archive.ts";
import { MemoryEngine, VECTOR_FILE_PATH, type MemoryDeps } from "../../lib/memory/engine.ts";
import { EpisodicStore } from "../../lib/memory/episodic.ts";
import { hashingEmbedder } from "../../lib/memory/hashing-embedder.ts";
import { tsKernels } from "../../lib/memory/kernel-ts.ts";
import type { EntryMeta } from "../../lib/memory/vector-store.ts";
import { writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import type { Storage } from "../../lib/ports.ts";
import { cloneCard, tornStorage } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");
const clock = fakeClock();

function engineOn(storage: Storage): MemoryEngine {
  const settings = memorySettings();
  settings.set("memory.config", JSON.stringify({ max_vectors: 100 }));
  const deps: MemoryDeps = {
    clock,
    log: memoryLog(),
    settings,
    digest: nodeDigest,
    kernels: tsKernels,
    embedder: hashingEmbedder(64),
    storage,
  };
  return new MemoryEngine(deps);
}

const contents = (engine: MemoryEngine): string[] => engine.store.content.slice(0, engine.store.count).sort();

describe("memory crash safety", () => {
  it("a vector-file save cut at any byte leaves the old or the new store", async () => {
    const card0 = memoryStorage();
    const base = engineOn(card0);
    await writeMemory(base, owner, { content: "first fact about apples" });
    await writeMemory(base, owner, { content: "second fact about pears" });
    const oldState = contents(base);
    const probe = cloneCard(card0);
    await writeMemory(engineOn(probe), owner, { content: "third fact about plums" });
    const newState = contents(engineOn(probe));
    const size = probe.files.get(VECTOR_FILE_PATH)!.length;
    assert.ok(size > 300, String(size));
    for (let cut = 0; cut <= size; cut++) {
      const card = cloneCard(card0);
      const torn = tornStorage(card, cut);
      const engine = engineOn(torn);
      const attempt = writeMemory(engine, owner, { content: "third fact about plums" });
      if (cut < size) await assert.rejects(attempt, /^ToolError: no-card:/, `cut at ${cut}`);
      else await attempt;
      const rebooted = engineOn(card);
      assert.deepEqual(contents(rebooted), cut < size ? oldState : newState, `cut at ${cut}`);
      await writeMemory(rebooted, owner, { content: "fourth fact about figs" });
      assert.equal(engineOn(card).store.count, (cut < size ? oldState : newState).length + 1, `write after a cut at ${cut}`);
    }
  });

  it("an episodic append cut at any byte leaves the old or the new rows, and the next row is readable", () => {
    const card0 = memoryStorage();
    const log = memoryLog();
    const store = new EpisodicStore(card0, clock, log);
    store.append({ ns: "owner", session: "s1", role: "user", kind: "message", text: "hello there" });
    store.append({ ns: "owner", session: "s1", role: "assistant", kind: "llm_response", text: "hi! ünïcödé ✓" });
    const before = card0.files.get(card0.list("memory/episodic").map((n) => `memory/episodic/${n}`)[0])!.length;
    const probe = cloneCard(card0);
    new EpisodicStore(probe, clock, log).append({
      ns: "owner",
      session: "s1",
      role: "tool",
      kind: "tool_output",
      text: "the tool said 42 — done",
    });
    const path = `memory/episodic/${probe.list("memory/episodic")[0]}`;
    const size = probe.files.get(path)!.length - before;
    const texts = (s: Storage): string[] =>
      new EpisodicStore(s, clock, log)
        .query({ namespaces: ["owner"] }, 100)
        .rows.map((r) => r.text)
        .reverse();
    for (let cut = 0; cut <= size; cut++) {
      const card = cloneCard(card0);
      const torn = tornStorage(card, cut);
      const writer = new EpisodicStore(torn, clock, log);
      if (cut < size)
        assert.throws(
          () => writer.append({ ns: "owner", session: "s1", role: "tool", kind: "tool_output", text: "the tool said 42 — done" }),
          /no-card/,
        );
      else writer.append({ ns: "owner", session: "s1", role: "tool", kind: "tool_output", text: "the tool said 42 — done" });
      const expected = ["hello there", "hi! ünïcödé ✓", ...(cut < size ? [] : ["the tool said 42 — done"])];
      assert.deepEqual(texts(card), expected, `cut at ${cut}`);
      new EpisodicStore(card, clock, log).append({
        ns: "owner",
        session: "s2",
        role: "user",
        kind: "message",
        text: "after the power came back",
      });
      assert.deepEqual(texts(card), [...expected, "after the power came back"], `append after a cut at ${cut}`);
    }
  });

  it("an archive append cut at any byte leaves the old or the new entries; the next append repairs the file", () => {
    const meta = (content: string): EntryMeta => ({
      id: content.length,
      ns: "owner",
      content,
      source: "self",
      importance: 0.5,
      created: 1,
      lastRecalled: 2,
      flags: 0,
      ttlClass: 0,
    });
    const row = Int8Array.from({ length: 16 }, (_, i) => i - 8);
    const card0 = memoryStorage();
    new MemoryArchive(card0, memoryLog()).add([{ meta: meta("old expired fact"), row }], "e/16", 1000);
    const before = card0.files.get(ARCHIVE_PATH)!.length;
    const probe = cloneCard(card0);
    new MemoryArchive(probe, memoryLog()).add([{ meta: meta("newly expired fact!"), row }], "e/16", 2000);
    const size = probe.files.get(ARCHIVE_PATH)!.length - before;
    const names = (s: MemoryStorage): string[] => new MemoryArchive(s, memoryLog()).load().map((e) => e.meta.content);
    for (let cut = 0; cut <= size; cut++) {
      const card = cloneCard(card0);
      const writer = new MemoryArchive(tornStorage(card, cut), memoryLog());
      const add = (): void => writer.add([{ meta: meta("newly expired fact!"), row }], "e/16", 2000);
      if (cut < size) assert.throws(add, /power cut/);
      else add();
      const expected = ["old expired fact", ...(cut < size ? [] : ["newly expired fact!"])];
      assert.deepEqual(names(card), expected, `cut at ${cut}`);
      new MemoryArchive(card, memoryLog()).add([{ meta: meta("a later expiry, same session"), row }], "e/16", 3000);
      assert.deepEqual(names(card), [...expected, "a later expiry, same session"], `append after a cut at ${cut}`);
      assert.deepEqual(Array.from(new MemoryArchive(card, memoryLog()).load()[0].row), Array.from(row));
    }
  });
});
