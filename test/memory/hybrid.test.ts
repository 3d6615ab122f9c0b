// Hybrid recall: a BM25-style lexical score over the stored texts, kept per
// namespace as entries come and go, fused with the cosine, so an exact word,
// name or number of a stored fact is found whatever the embedder makes of it.
import { describeSearch } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import { hybridHitAt5, HYBRID_PAIRS } from "../../bench/hybrid-set.ts";
import { updateConfig } from "../../lib/memory/config-ops.ts";
import { LexicalIndex, terms } from "../../lib/memory/recall/lexical.ts";
import { fuseRelevance, searchMemory } from "../../lib/memory/recall/search.ts";
import { pinMemory, updateMemory, writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryRig } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "mcp");
const zoe = makePrincipal("zoë", "user", "mcp");

describe("lexical index", () => {
  it("indexes lower-cased words and numbers, without stopwords, plural s cut", () => {
    assert.deepEqual(terms("My Ficus needs water every Sunday!"), ["ficus", "need", "water", "every", "sunday"]);
    assert.deepEqual(terms("PIN 4471, room 7 & a b"), ["pin", "4471", "room", "7"]);
    assert.deepEqual(terms("Zoë's glasses, Straße"), ["zoë", "glasse", "straße"]);
    assert.deepEqual(terms(""), []);
  });

  it("scores the share of the query's idf mass a fact holds, per namespace", () => {
    const index = new LexicalIndex();
    index.add("a", 1, "the ficus needs water");
    index.add("a", 2, "water the garden on Sunday");
    index.add("b", 3, "ficus in zoë's room");
    const hits = index.search("a", "ficus water", 5);
    assert.deepEqual(
      hits.map((h) => h.id),
      [1, 2],
    );
    assert.ok(hits[0].score > 0.9 && hits[0].score <= 1, `${hits[0].score}`);
    assert.ok(hits[1].score > 0 && hits[1].score < 0.5);
    assert.deepEqual(
      index.search("b", "water", 5).map((h) => h.id),
      [],
    );
    index.remove("a", 1, "the ficus needs water");
    assert.deepEqual(
      index.search("a", "ficus", 5).map((h) => h.id),
      [],
    );
    index.remove("a", 2, "water the garden on Sunday");
    assert.deepEqual(index.search("a", "water", 5), []);
    assert.equal(index.search("b", "ficus", 5)[0].id, 3);
  });

  it("fuses: the cosine alone without word matches, lifted toward 1 with them", () => {
    assert.equal(fuseRelevance(0.42, 0, 0.6), 0.42);
    assert.equal(fuseRelevance(0.42, 1, 0), 0.42);
    assert.ok(Math.abs(fuseRelevance(0.2, 1, 0.6) - 0.68) < 1e-12);
    assert.ok(Math.abs(fuseRelevance(-0.3, 1, 0.6) - 0.6) < 1e-12, "a negative cosine counts as 0");
  });
});

describe("hybrid recall in memory.search", () => {
  it("finds a stored fact by one of its words (the wave-1 'ficus' report)", async () => {
    const { engine } = memoryRig();
    await writeMemory(engine, owner, { content: "My ficus needs water every Sunday" });
    await writeMemory(engine, owner, { content: "The dentist appointment is on Tuesday morning" });
    const { hits, text } = await searchMemory(engine, owner, "ficus");
    assert.equal(hits[0].content, "My ficus needs water every Sunday");
    assert.ok(hits[0].relevance >= 0.6, `${hits[0].relevance}`);
    assert.ok(hits[0].relevance > hits[0].similarity);
    assert.match(text, /^- \[\d+%\] My ficus needs water every Sunday$/);
  });

  it("follows deletes, updates and namespaces, and survives a reboot", async () => {
    const rig = memoryRig();
    const { engine } = rig;
    updateConfig(engine, { relevance_threshold: 0.5 });
    await writeMemory(engine, owner, { content: "The storage unit PIN is 4471" });
    await writeMemory(engine, owner, { content: "Thibault fixes bicycles on Saturdays" });
    await writeMemory(engine, zoe, { content: "Zoë keeps the Okonkwo rope in her car" });
    assert.equal((await searchMemory(engine, owner, "Okonkwo")).hits.length, 0, "another person's words are never found");
    assert.equal((await searchMemory(engine, zoe, "Okonkwo")).hits[0].content, "Zoë keeps the Okonkwo rope in her car");
    await updateMemory(engine, owner, { old: "The storage unit PIN is 4471", content: "The storage unit PIN is 5582" });
    assert.ok(!(await searchMemory(engine, owner, "4471")).hits.some((h) => /4471/.test(h.content)));
    assert.equal((await searchMemory(engine, owner, "5582")).hits[0].content, "The storage unit PIN is 5582");
    pinMemory(engine, owner, "delete", { content: "Thibault fixes bicycles on Saturdays" });
    assert.equal((await searchMemory(engine, owner, "Thibault")).hits.length, 0);
    const again = rig.reboot();
    updateConfig(again, { relevance_threshold: 0.5 });
    assert.equal((await searchMemory(again, owner, "5582")).hits[0].content, "The storage unit PIN is 5582");
    assert.equal((await searchMemory(again, owner, "Thibault")).hits.length, 0);
    assert.equal((await searchMemory(again, zoe, "Okonkwo")).hits.length, 1);
  });

  it("keeps the threshold, the result count and the byte cap", async () => {
    const { engine } = memoryRig();
    for (let i = 0; i < 12; i++)
      await writeMemory(engine, owner, { content: `Kombucha batch ${i} was bottled with ${"ginger ".repeat(i + 1)}` });
    updateConfig(engine, { max_context_bytes: 256 });
    const capped = await searchMemory(engine, owner, "kombucha", 10);
    assert.ok(new TextEncoder().encode(capped.text).length <= 256);
    assert.ok(capped.hits.length >= 1 && capped.hits.length < 10);
    updateConfig(engine, { max_context_bytes: 8192, relevance_threshold: 0.99 });
    assert.equal(describeSearch(await searchMemory(engine, owner, "kombucha")), "No memories match.");
    updateConfig(engine, { relevance_threshold: 0.3, lexical_weight: 0 });
    const plain = await searchMemory(engine, owner, "kombucha", 3);
    for (const h of plain.hits) assert.equal(h.relevance, h.similarity, "weight 0: the cosine alone");
  });

  it("finds every fact of the documented set by word, name, number and paraphrase, and no worse than embeddings alone", async function () {
    this.timeout(30_000);
    const kinds = new Set(HYBRID_PAIRS.map((p) => p.kind));
    assert.deepEqual([...kinds].sort(), ["name", "number", "paraphrase", "word"]);
    const hybrid = await hybridHitAt5(0.6);
    const vectorOnly = await hybridHitAt5(0);
    assert.deepEqual(hybrid.misses, []);
    assert.ok(hybrid.hitAt5 >= vectorOnly.hitAt5);
  });
});
