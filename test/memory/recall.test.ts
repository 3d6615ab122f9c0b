// Recall scoring: recency, the score formula, duplicate collapse, MMR, the byte cap.
import { describeSearch } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import { updateConfig } from "../../lib/memory/config-ops.ts";
import { diversify, formatHits, recallScore, recency, type Hit } from "../../lib/memory/recall/recall.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { pinMemory, writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { utf8Length } from "../../lib/util/utf8.ts";
import { DAY, HOUR, memoryRig } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");

describe("memory recall", () => {
  it("recency = 0.35 + 0.65 x 0.5^(age / half-life), pinned never under 0.75", () => {
    assert.equal(recency(0, 168, false), 1);
    assert.ok(Math.abs(recency(168 * HOUR, 168, false) - 0.675) < 1e-12);
    assert.ok(Math.abs(recency(336 * HOUR, 168, false) - (0.35 + 0.65 / 4)) < 1e-12);
    assert.ok(Math.abs(recency(1e6 * HOUR, 168, false) - 0.35) < 1e-9);
    assert.equal(recency(1e6 * HOUR, 168, true), 0.75);
    assert.equal(recency(0, 168, true), 1);
    assert.equal(recency(-5 * HOUR, 168, false), 1, "a clock that went back counts as age 0");
    assert.ok(Math.abs(recallScore(0.8, 0.5, 0.6) - 0.8 * 0.5 * 0.8) < 1e-12);
  });

  it("diversify drops near-duplicates and spreads near-tied results by MMR", () => {
    // a and b are near-identical, c is different; all near-tied.
    const hits: Hit[] = [
      { slot: 0, similarity: 0.9, score: 0.9 },
      { slot: 1, similarity: 0.89, score: 0.89 },
      { slot: 2, similarity: 0.85, score: 0.85 },
      { slot: 3, similarity: 0.84, score: 0.84 },
      { slot: 4, similarity: 0.5, score: 0.5 },
    ];
    const n = hits.length;
    const sims = new Float32Array(n * n);
    const set = (i: number, j: number, v: number): void => {
      sims[i * n + j] = v;
      sims[j * n + i] = v;
    };
    for (let i = 0; i < n; i++) set(i, i, 1);
    set(0, 1, 0.97); // duplicate of 0
    set(0, 2, 0.9); // close to 0
    set(0, 3, 0.1); // different from 0
    set(2, 3, 0.1);
    const picked = diversify(hits, sims, 0.5, 4).map((h) => h.slot);
    assert.deepEqual(picked, [0, 3, 2, 4], "1 collapsed into 0; 3 (diverse) jumps ahead of 2; 4 is not tied and stays last");
    assert.deepEqual(
      diversify(hits, sims, 1, 4).map((h) => h.slot),
      [0, 2, 3, 4],
      "lambda 1 is relevance order",
    );
    assert.deepEqual(
      diversify(hits, sims, 0.5, 2).map((h) => h.slot),
      [0, 3],
    );
  });

  it("formatHits caps the output at max bytes, whole lines only, shortening a lone first line", () => {
    const lines = [0.91, 0.8, 0.7].map((similarity, i) => ({ similarity, content: `fact number ${i} ` + "é".repeat(40) }));
    const all = formatHits(lines, 10000);
    assert.equal(all.shown, 3);
    assert.match(all.text, /^- \[91%\] fact number 0 /);
    const two = formatHits(lines, utf8Length(all.text) - 1);
    assert.equal(two.shown, 2);
    assert.equal(two.text.split("\n").length, 2);
    const cut = formatHits(lines, 30);
    assert.equal(cut.shown, 1);
    assert.ok(utf8Length(cut.text) <= 30 && cut.text.endsWith("..."));
  });

  it("search applies relevance_threshold, retrieval_count, max_context_bytes, and ranks recent + important first", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { decay_factor: 1 });
    await writeMemory(rig.engine, owner, { content: "The old plan for the holiday was Spain", importance: 0.5 });
    rig.clock.advance(60 * DAY);
    await writeMemory(rig.engine, owner, { content: "The new plan for the holiday is Norway", importance: 0.5 });
    const ranked = (await searchMemory(rig.engine, owner, "plan for the holiday")).text.split("\n");
    assert.match(ranked[0], /Norway/, "the recent fact first at equal similarity");
    pinMemory(rig.engine, owner, "pin", { content: "The old plan for the holiday was Spain" });
    // Pinned: recency at least 0.75 against Norway's (60 days newer) 1.0 - Norway still first, both shown.
    assert.equal((await searchMemory(rig.engine, owner, "plan for the holiday")).hits.length, 2);
    updateConfig(rig.engine, { relevance_threshold: 0.99 });
    assert.equal(describeSearch(await searchMemory(rig.engine, owner, "plan for the holiday")), "No memories match.");
    updateConfig(rig.engine, { relevance_threshold: 0.1, retrieval_count: 1 });
    assert.equal((await searchMemory(rig.engine, owner, "plan for the holiday")).hits.length, 1);
    updateConfig(rig.engine, { retrieval_count: 5, max_context_bytes: 256 });
    for (let i = 0; i < 10; i++)
      await writeMemory(rig.engine, owner, { content: `holiday plan detail ${i}: ` + "pack sunscreen and a hat ".repeat(3) });
    const capped = await searchMemory(rig.engine, owner, "holiday plan");
    assert.ok(utf8Length(capped.text) <= 256, String(utf8Length(capped.text)));
    assert.ok(capped.hits.length >= 1 && capped.hits.length < 5);
  });

  it("only shown hits are boosted", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { decay_factor: 1, retrieval_count: 1 });
    await writeMemory(rig.engine, owner, { content: "Coffee beans are in the left cupboard", importance: 0.5 });
    await writeMemory(rig.engine, owner, { content: "Coffee filters are in the right cupboard", importance: 0.5 });
    const answer = await searchMemory(rig.engine, owner, "coffee cupboard");
    assert.equal(answer.hits.length, 1);
    const boosted = Array.from(rig.engine.store.importance.subarray(0, 2)).filter((x) => Math.abs(x - 0.55) < 1e-6).length;
    assert.equal(boosted, 1);
  });
});
