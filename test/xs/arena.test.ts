// The vector store over the native arena (modules/vector/arena.c) on the XS
// engine: its rows are not in the chunk heap the collector scans, the kernel
// reads them, resize and collection give memory back, and the capacity clamp
// and refusals work through the tools (test/xs/arena.xs.ts prints the figures).
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";

describe("the vector arena on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  // Parsed JSON lines, checked field by field below.
  const lines = new Map<string, { [field: string]: never }>();
  const line = (name: string): { [field: string]: never } => {
    const found = lines.get(name);
    assert.ok(found, `the XS run printed no ${name} line`);
    return found;
  };
  before(async () => {
    xs = await runOnXs("test/xs/arena.xs.ts", { timeoutMs: 120_000 });
    for (const l of xs.stdout.split("\n")) {
      const m = /^([A-Z]+) (\{.*\})$/.exec(l);
      if (m) lines.set(m[1], JSON.parse(m[2]));
    }
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("a 5,000-row store's rows, fields, id table, texts and lexical index are not in the chunk heap; over plain ArrayBuffers they are", () => {
    const c = line("CHUNKS");
    const rows = 5000 * (256 + 128 + 51 + 1); // rows, residual planes, fields and id table, one mask
    assert.equal(c.arenaBytes, rows + c.textBytes + c.lexiconBytes);
    assert.ok(c.lexiconBytes > 0 && c.lexiconBytes < 200 * 5000, `lexical index ${c.lexiconBytes} bytes`);
    assert.ok(c.textBytes >= c.textLength && c.textBytes < c.textLength + 64 * 1024, `text pages ${c.textBytes} for ${c.textLength} bytes`);
    // The store has taken its memory (one entry): almost nothing in chunks over the arena, all of it over plain buffers.
    assert.ok(c.arenaOne < 0.1 * c.arenaBytes, `arena store grew the chunk heap by ${c.arenaOne} bytes`);
    assert.ok(c.plainOne >= 0.9 * rows, `plain store grew it by only ${c.plainOne}`);
    // Full (5,000 entries): over the arena the chunk heap holds no string, map entry or array per entry.
    assert.ok(c.arenaFull < 32 * 1024, `the full store over the arena grew the chunk heap by ${c.arenaFull} bytes`);
    assert.ok(c.plainFull - c.arenaFull >= 0.9 * c.arenaBytes, `difference ${c.plainFull - c.arenaFull}`);
    assert.equal(c.sameTopK, true, "the C kernel ranks the same over arena memory and plain memory");
    assert.equal(c.top, 42);
  });

  it("resize copies into new memory and releases the old at once; dropped memory goes back at collection", () => {
    const r = line("RESIZE");
    assert.equal(r.intact, true);
    assert.equal(r.afterResize, r.expected, "only the new memory is held");
    assert.equal(r.oldLength, 0, "the old views are detached");
    assert.equal(r.oldRead, true);
    assert.ok(r.beforeGc >= r.afterResize + 2_000_000);
    assert.equal(r.afterGc, r.afterResize);
  });

  it("memory.config reports the limit, refuses past it, and a refused growth leaves memory serving", () => {
    const t = line("TOOLS");
    assert.match(t.view, /Vector arena: 0 B of 4\.0 MB in use; this device fits at most 5163 memories \(max_vectors\)$/);
    assert.match(t.write, /^Remembered/);
    assert.match(t.over, /^ERROR limit: max_vectors can be at most 5163 on this device, not 13000/);
    assert.equal(t.grow, "Updated: max_vectors = 5100.");
    assert.equal(
      t.grownUsed,
      5100 * (256 + 128 + 51 + 1) + 2048 + t.lexiconBytes,
      "grown through parked entries: only the new memory (and a text page and the lexical index) is held",
    );
    assert.match(t.shrink, /^ERROR full: the vector store asked for \d+ bytes and this device cannot give them/);
    assert.equal(t.capacity, 5100);
    assert.equal(t.maxVectors, 5100);
    assert.match(t.search, /blue flowerpot/);
    assert.match(t.write2, /^Remembered/);
    assert.equal(t.shrunk, "Updated: max_vectors = 5000.");
    assert.equal(t.shrunkCapacity, 5000);
    assert.equal(t.count, 2);
    assert.match(t.status, /live memories \(all people\) 2 of 5000; vector arena 2\.1 MB of 4\.0 MB; max_vectors this device fits 5163$/m);
  });

  it("a boot config over the limit is clamped", () => {
    assert.equal(line("BOOT").maxVectors, 5163);
  });
});
