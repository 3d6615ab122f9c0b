// Power cuts at every byte offset of vector saves (first snapshot, journal
// appends, a compaction), between the steps of each, and at every byte of one
// episodic append and one archive append: after the reboot the card holds the
// old or the new state, never garbage, and the next write works.
import assert from "node:assert/strict";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { fakeClock, memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import type { MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { ARCHIVE_PATH, MemoryArchive } from "../../lib/memory/forgetting/archive.ts";
import { reembed } from "../../lib/memory/config-ops.ts";
import { MemoryEngine, VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH, type MemoryDeps } from "../../lib/memory/engine.ts";
import { EpisodicStore } from "../../lib/memory/episodic/episodic.ts";
import { hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import type { EntryMeta } from "../../lib/memory/store/vector-store.ts";
import { updateMemory, writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import type { Storage } from "../../lib/ports.ts";
import { cloneCard, cutAfterWrites, tornStorage, storedContents } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");
const clock = fakeClock();

function engineOn(storage: Storage, dims = 64): MemoryEngine {
  const settings = memorySettings();
  settings.set("memory.config", JSON.stringify({ max_vectors: 100 }));
  const deps: MemoryDeps = {
    clock,
    log: memoryLog(),
    settings,
    digest: nodeDigest,
    kernels: tsKernels,
    arena: simVectorArena(),
    embedder: hashingEmbedder(dims),
    storage,
  };
  return new MemoryEngine(deps);
}

const contents = (engine: MemoryEngine): string[] => storedContents(engine.store).sort();

/** Everything a reboot must restore: the embedder, and every entry in slot order with its row, residuals and norm. */
function stateOf(engine: MemoryEngine): unknown {
  const { store } = engine;
  const entries = [];
  for (let s = 0; s < store.count; s++)
    entries.push({ ...store.metaAt(s), norm: store.norms[s], row: Array.from(store.row(s)), residual: Array.from(store.residual(s)) });
  return { embedder: engine.storeEmbedderId, entries };
}

describe("memory crash safety", () => {
  /** Setup, a change whose save is cut, and what comes next on the rebooted engine. */
  interface CrashCase {
    name: string;
    embedder?: number;
    setup(engine: MemoryEngine): Promise<unknown>;
    change(engine: MemoryEngine): Promise<unknown>;
    /** The file the change's save writes: appended to, or written anew (temp + rename, or removed and appended to). */
    path: string;
    kind: "append" | "new";
    next?(engine: MemoryEngine): Promise<unknown>;
  }

  const write = (content: string) => (engine: MemoryEngine) => writeMemory(engine, owner, { content });
  const writeTwo = async (engine: MemoryEngine): Promise<void> => {
    await write("first fact about apples")(engine);
    await write("second fact about pears")(engine);
  };
  const reembedWith = (dims: number) => (engine: MemoryEngine) => reembed(engineOn(engine.storage!, dims));
  const cases: CrashCase[] = [
    {
      name: "the first snapshot",
      setup: async () => undefined,
      change: write("first fact about apples"),
      path: VECTOR_FILE_PATH,
      kind: "new",
    },
    {
      name: "a journal's first append (base + commit)",
      setup: write("first fact about apples"),
      change: write("second fact about pears"),
      path: VECTOR_JOURNAL_PATH,
      kind: "append",
    },
    {
      name: "an append to an open journal",
      setup: writeTwo,
      change: write("third fact about plums"),
      path: VECTOR_JOURNAL_PATH,
      kind: "append",
    },
    {
      name: "a commit of two ops (update: remove + add)",
      setup: writeTwo,
      change: (engine) => updateMemory(engine, owner, { old: "second fact about pears", content: "second fact: pears are ripe" }),
      path: VECTOR_JOURNAL_PATH,
      kind: "append",
    },
    {
      name: "a compaction at re-embed",
      setup: writeTwo,
      change: reembedWith(32),
      path: VECTOR_FILE_PATH,
      kind: "new",
      next: async (engine) => {
        await reembed(engine);
        await write("fourth fact about figs")(engine);
      },
    },
    {
      name: "an append after a compaction whose journal removal was cut (stale journal removed first)",
      embedder: 32,
      setup: async (engine) => {
        await writeTwo(engine);
        const cut = reembed(engineOn(cutAfterWrites(engine.storage as MemoryStorage, 1), 32));
        await assert.rejects(cut, /no-card|power cut/);
      },
      change: write("third fact about plums"),
      path: VECTOR_JOURNAL_PATH,
      kind: "new",
    },
  ];

  for (const c of cases) {
    it(`${c.name}: a save cut at any byte leaves the old or the new store, and the next write lands`, async () => {
      const card0 = memoryStorage();
      await c.setup(engineOn(card0));
      const oldState = stateOf(engineOn(card0));
      const probe = cloneCard(card0);
      await c.change(engineOn(probe, c.embedder));
      const newState = stateOf(engineOn(probe));
      assert.notDeepEqual(newState, oldState);
      const before = c.kind === "append" ? (card0.files.get(c.path)?.length ?? 0) : 0;
      const size = probe.files.get(c.path)!.length - before;
      assert.ok(size > 100, String(size));
      for (let cut = 0; cut <= size; cut++) {
        const card = cloneCard(card0);
        const attempt = c.change(engineOn(tornStorage(card, cut), c.embedder));
        if (cut < size) await assert.rejects(attempt, /power cut|no-card/, `cut at ${cut}`);
        else await attempt;
        await checkRecovery(card, cut < size ? oldState : newState, c, `cut at ${cut}`);
      }
    });

    it(`${c.name}: power lost between any two steps of the save leaves the old or the new store`, async () => {
      const card0 = memoryStorage();
      await c.setup(engineOn(card0));
      const oldState = stateOf(engineOn(card0));
      for (let steps = 0; ; steps++) {
        const card = cloneCard(card0);
        const storage = cutAfterWrites(card, steps);
        const done = await c.change(engineOn(storage, c.embedder)).then(
          () => true,
          () => false,
        );
        const state = stateOf(engineOn(card));
        if (done) {
          await checkRecovery(card, state, c, `all ${steps} steps`);
          const probe = cloneCard(card0);
          await c.change(engineOn(probe, c.embedder));
          assert.deepEqual(state, stateOf(engineOn(probe)), "an acknowledged save is on the card");
          break;
        }
        assert.ok(storage.tripped);
        if (JSON.stringify(state) !== JSON.stringify(oldState)) {
          const probe = cloneCard(card0);
          await c.change(engineOn(probe, c.embedder));
          assert.deepEqual(state, stateOf(engineOn(probe)), `after ${steps} steps: neither the old nor the new store`);
        }
        await checkRecovery(card, state, c, `after ${steps} steps`);
      }
    });
  }

  /** A reboot reads `expected`; a further change lands and survives the next reboot. */
  async function checkRecovery(card: MemoryStorage, expected: unknown, c: CrashCase, what: string): Promise<void> {
    const rebooted = engineOn(card, c.embedder);
    assert.deepEqual(stateOf(rebooted), expected, what);
    await (c.next ?? write("fourth fact about figs"))(rebooted);
    const after = engineOn(card, c.embedder);
    assert.deepEqual(contents(after), contents(rebooted), `write after: ${what}`);
    assert.ok(contents(after).includes("fourth fact about figs"), `write after: ${what}`);
    assert.deepEqual(stateOf(after), stateOf(rebooted), `write after: ${what}`);
  }

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
    const residual = Uint8Array.from({ length: 8 }, (_, i) => 0x97 + i * 16);
    const card0 = memoryStorage();
    new MemoryArchive(card0, memoryLog()).add([{ meta: meta("old expired fact"), row, residual }], "e/16", 1000);
    const before = card0.files.get(ARCHIVE_PATH)!.length;
    const probe = cloneCard(card0);
    new MemoryArchive(probe, memoryLog()).add([{ meta: meta("newly expired fact!"), row, residual }], "e/16", 2000);
    const size = probe.files.get(ARCHIVE_PATH)!.length - before;
    const names = (s: MemoryStorage): string[] => new MemoryArchive(s, memoryLog()).load().map((e) => e.meta.content);
    for (let cut = 0; cut <= size; cut++) {
      const card = cloneCard(card0);
      const writer = new MemoryArchive(tornStorage(card, cut), memoryLog());
      const add = (): void => writer.add([{ meta: meta("newly expired fact!"), row, residual }], "e/16", 2000);
      if (cut < size) assert.throws(add, /power cut/);
      else add();
      const expected = ["old expired fact", ...(cut < size ? [] : ["newly expired fact!"])];
      assert.deepEqual(names(card), expected, `cut at ${cut}`);
      new MemoryArchive(card, memoryLog()).add([{ meta: meta("a later expiry, same session"), row, residual }], "e/16", 3000);
      assert.deepEqual(names(card), [...expected, "a later expiry, same session"], `append after a cut at ${cut}`);
      const loaded = new MemoryArchive(card, memoryLog()).load();
      assert.deepEqual(Array.from(loaded[0].row), Array.from(row));
      for (const e of loaded)
        assert.deepEqual(Array.from(e.residual), Array.from(residual), `${e.meta.content}: its residuals, cut at ${cut}`);
    }
  });
});
