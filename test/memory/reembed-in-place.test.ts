// The simulator's vector arena keeps the device's budget, and a re-embed fits in it: in place, batch by
// batch, crash-safe and resumable (Node and XS, same transcript), and killed with SIGKILL mid-way in a
// child process: every memory stays stored and findable, old or new row, and the re-embed resumes.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { folderStorage } from "../../hosts/sim/ports/folder-storage.ts";
import { memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { folderSettings } from "../../hosts/sim/ports/settings.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { REEMBED_SETTINGS_KEY, VECTOR_ARENA_DEVICE_BYTES } from "../../lib/memory/bounds.ts";
import { reembed } from "../../lib/memory/config-ops.ts";
import type { Embedder } from "../../lib/memory/embedders/embedder.ts";
import { hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { MemoryEngine } from "../../lib/memory/engine.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { maxVectorsFitting } from "../../lib/memory/store/store-arrays.ts";
import { writeMemory } from "../../lib/memory/writes.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { fact, fill, findable, flagged, nextModel, peakArena, runReembedScenario, SCENARIO_BUDGET } from "../scenarios/reembed-in-place.ts";
import { compareOnXs } from "../support/xs-compare.ts";
import { memoryRig } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");

/**
 * Every fact searched by its own words, ten searches to a freshly booted engine: each search lifts what it
 * shows (the recall boost, kept in RAM until a flush), and hundreds in one engine would let a few
 * much-shown facts outrank the rest.
 */
async function findableFresh(boot: () => MemoryEngine, count: number): Promise<number> {
  let found = 0;
  for (let from = 0; from < count; from += 10) {
    const engine = boot();
    for (let i = from; i < Math.min(count, from + 10); i++) {
      const answer = await searchMemory(engine, owner, fact(i));
      if (answer.hits.some((h) => h.content === fact(i))) found++;
    }
  }
  return found;
}

describe("the simulator's vector arena", () => {
  it("holds the live total to the device's budget, the one arena.c has", () => {
    const arena = simVectorArena();
    assert.equal(arena.budgetBytes(), VECTOR_ARENA_DEVICE_BYTES);
    const c = readFileSync("modules/vector/arena.c", "utf8");
    const m = /#define VECTOR_ARENA_BUDGET \((\d+) \* (\d+) \* (\d+)\)/.exec(c);
    assert.ok(m, "arena.c names its budget");
    assert.equal(Number(m[1]) * Number(m[2]) * Number(m[3]), VECTOR_ARENA_DEVICE_BYTES, "the same figure as lib/memory/bounds.ts");
    const a = arena.allocate(3 * 1024 * 1024);
    assert.throws(
      () => arena.allocate(2 * 1024 * 1024),
      /^HaloError: full: the vector store needs 2097152 bytes more; this host's vector arena has 1048576 of 4194304 free\.$/,
    );
    arena.release(a);
    assert.equal(arena.usedBytes(), 0);
    arena.release(arena.allocate(2 * 1024 * 1024));
  });

  it("a re-embed at the default max_vectors fits the device's 4 MB, where two stores would not", async () => {
    const rig = memoryRig();
    for (let i = 0; i < 20; i++) await writeMemory(rig.engine, owner, { content: fact(i) });
    const one = rig.engine.store.arenaBytes;
    assert.ok(2 * one > VECTOR_ARENA_DEVICE_BYTES, `one store at max_vectors ${rig.engine.store.capacity} holds ${one} bytes`);
    const arena = peakArena(simVectorArena());
    const same: Embedder = { ...hashingEmbedder(256), id: "next-model/256" };
    const engine = rig.reboot({ embedder: same, arena });
    assert.equal((await reembed(engine)).count, 20);
    assert.ok(arena.peak() <= VECTOR_ARENA_DEVICE_BYTES && arena.peak() < 1.2 * one, `peak ${arena.peak()}`);
    // Other dimensions with a few memories: the new store is built at their count beside the old one.
    const narrow = rig.reboot({ embedder: hashingEmbedder(128) });
    assert.equal((await reembed(narrow)).count, 20);
    assert.equal(narrow.store.capacity, narrow.config.max_vectors, "grown back to max_vectors");
    assert.equal(await findable(narrow, 20), 20);
  });
});

describe("re-embed in place (Node and XS)", () => {
  const run = compareOnXs("test/xs/reembed.xs.ts", () => runReembedScenario(), 12);
  const line = (prefix: string): string => {
    const found = run.node().find((l) => l.startsWith(prefix));
    assert.ok(found, `no line starting ${prefix}`);
    return found;
  };

  it("re-embeds a store near the arena's limit batch by batch without a second store", () => {
    assert.equal(line("arena "), "arena 98304 bytes fits 199 memories of 64 dims (443 bytes each)");
    assert.match(line("filled "), /^filled 180 of 199; .* \(over the budget: true\)$/);
    assert.equal(
      line("re-embedded "),
      "re-embedded 180 with next-model/64 in 6 batches of at most 32: 32/180 64/180 96/180 128/180 160/180 180/180",
    );
    assert.match(line("peak arena "), /^peak arena \d+ of 98304 \(fits: true\); flagged 0; note none$/);
    assert.equal(run.node()[4], "after a reboot: 180 memories of next-model/64; found 20 of 20 asked");
  });

  it("a cut keeps every memory, each with its old or new row, findable; writes wait; the re-embed resumes", () => {
    assert.equal(
      line("cut: "),
      "cut: unavailable: embedding failed: the embeddings service answered HTTP 503.; 64 of 180 re-made; stored embedder offline-hash-v1/64",
    );
    assert.equal(run.node()[6], "after a reboot: 180 memories, 64 re-made; found 20 of 20 asked");
    assert.match(
      line("a write meanwhile: "),
      /^a write meanwhile: unavailable: a re-embed to next-model\/64 was cut part way; .* resumes it/,
    );
    assert.equal(line("resumed: "), "resumed: 180 memories, 116 embedded now (116 were left); flagged 0; note none");
    assert.equal(run.node()[9], "after a reboot: next-model/64; found 20 of 20 asked; write stored");
  });

  it("refuses other dimensions that would need two stores, and changes nothing", () => {
    assert.match(line("to 128 dims: "), /^to 128 dims: full: /);
    assert.equal(line("nothing changed: "), "nothing changed: 180 memories of offline-hash-v1/64; file as it was; found 20 of 20 asked");
  });
});

describe("re-embed killed with SIGKILL", function () {
  this.timeout(120000);

  it("leaves every memory stored and findable, old or new row, and resumes where it stopped", async () => {
    const card = mkdtempSync(join(tmpdir(), "halo-reembed-card-"));
    const settingsDir = mkdtempSync(join(tmpdir(), "halo-reembed-settings-"));
    const boot = (embedder: Embedder): MemoryEngine =>
      new MemoryEngine({
        clock: { now: () => Date.now() },
        log: memoryLog(),
        settings: folderSettings(settingsDir),
        digest: nodeDigest,
        kernels: tsKernels,
        arena: simVectorArena(SCENARIO_BUDGET),
        embedder,
        storage: folderStorage(card),
      });
    const COUNT = 180;
    folderSettings(settingsDir).set("memory.config", JSON.stringify({ max_vectors: maxVectorsFitting(SCENARIO_BUDGET, 64) }));
    await fill(boot(hashingEmbedder(64)), COUNT);

    const child = spawn(process.execPath, ["--import", "tsx", "test/support/reembed-kill-child.ts", card, settingsDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (c) => (err += c));
    const killedAt = await new Promise<number>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (c: string) => {
        out += c;
        const batches = out.split("\n").filter((l) => l.startsWith("BATCH "));
        // Killed inside the third batch's wait for its embeddings, after two batches were saved.
        if (batches.length === 2 && !child.killed) {
          setTimeout(() => child.kill("SIGKILL"), 15);
          resolve(Number(batches[1].slice(6)));
        }
      });
      child.on("close", (code, signal) => {
        if (signal !== "SIGKILL") reject(new Error(`the child ended on its own (${code}): ${out} ${err}`));
      });
    });
    await new Promise<void>((ok) => (child.exitCode !== null || child.signalCode !== null ? ok() : child.on("close", () => ok())));
    assert.equal(child.signalCode, "SIGKILL");
    assert.ok(!out.includes("DONE"), "killed before the end");
    assert.equal(killedAt, 64);

    const calls = { texts: 0, batches: 0 };
    const after = boot(nextModel(calls));
    assert.equal(after.store.count, COUNT, "every memory is stored");
    const remade = flagged(after);
    assert.ok(remade >= 64 && remade < COUNT, `${remade} rows re-made`);
    assert.equal(folderSettings(settingsDir).get(REEMBED_SETTINGS_KEY), "next-model/64");
    assert.equal(
      await findableFresh(() => boot(nextModel({ texts: 0, batches: 0 })), COUNT),
      COUNT,
      "every memory findable, by vector or by its words",
    );
    calls.texts = 0;
    const done = await reembed(boot(nextModel(calls)));
    assert.equal(done.count, COUNT);
    assert.equal(calls.texts, COUNT - remade, "only the rows not yet re-made were embedded");
    const again = boot(nextModel(calls));
    assert.equal(again.storeEmbedderId, "next-model/64");
    assert.equal(flagged(again), 0);
    assert.equal(folderSettings(settingsDir).get(REEMBED_SETTINGS_KEY), undefined);
    assert.equal(await findableFresh(() => boot(nextModel({ texts: 0, batches: 0 })), COUNT), COUNT);
  });
});
