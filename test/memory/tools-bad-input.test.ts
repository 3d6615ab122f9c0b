// Every memory tool refuses bad input with a clear isError result and stores nothing.
import assert from "node:assert/strict";
import { MEM_CONFIG_SETTINGS_KEY } from "../../lib/memory/config.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryCore } from "../support/memory.ts";

const MB = "x".repeat(1024 * 1024);
const admin = makePrincipal("owner", "admin", "mcp");
const member = makePrincipal("bob", "user", "mcp");

describe("memory tools: bad input", () => {
  const rig = memoryCore();
  const { registry, memory } = rig.core;
  type Snapshot = { count: number; file: string; config: string | undefined; pad: string };

  const snapshot = (): Snapshot => ({
    count: memory.store.count,
    file: Buffer.from(rig.storage.files.get("memory/vectors.bin") ?? []).toString("hex"),
    config: rig.core.ports.settings.get(MEM_CONFIG_SETTINGS_KEY),
    pad: memory.scratchpad.render(),
  });

  before(async () => {
    const r = await registry.dispatch("memory.write", { content: "The spare key is under the blue flowerpot" }, admin);
    assert.ok(!r.isError, r.text);
    await registry.dispatch("memory.episodic", {}, admin);
  });

  const cases: Array<[string, unknown, RegExp, typeof admin?]> = [
    ["memory.write", {}, /'content' is required/],
    ["memory.write", { content: 5 }, /'content' must be string/],
    ["memory.write", { content: "" }, /'content' must NOT have fewer than 1 characters/],
    ["memory.write", { content: "   \n " }, /'content' is empty/],
    ["memory.write", { content: MB }, /'content' must NOT have more than 2000 characters/],
    ["memory.write", { content: "é".repeat(1500) }, /longer than 2000 bytes/],
    ["memory.write", { content: "ok", importance: Number.NaN }, /importance/],
    ["memory.write", { content: "ok", importance: 1.5 }, /'importance' must be <= 1/],
    ["memory.write", { content: "ok", importance: "high" }, /'importance' must be number/],
    ["memory.write", { content: "ok", ttl: "forever" }, /'ttl' must be one of session, days, weeks, months, permanent/],
    ["memory.write", { content: "ok", permanent: "yes" }, /'permanent' must be boolean/],
    ["memory.write", { content: "ok", source: "" }, /'source'/],
    ["memory.write", { content: "ok", colour: "red" }, /unknown argument 'colour'/],
    ["memory.write", { content: "?!.,;" }, /nothing to embed/],
    ["memory.search", {}, /'query' is required/],
    ["memory.search", { query: "" }, /'query'/],
    ["memory.search", { query: 1 }, /'query' must be string/],
    ["memory.search", { query: MB }, /'query' must NOT have more than 500 characters/],
    ["memory.search", { query: "key", n_results: 0 }, /'n_results' must be >= 1/],
    ["memory.search", { query: "key", n_results: 21 }, /'n_results' must be <= 20/],
    ["memory.search", { query: "key", n_results: 1.5 }, /'n_results' must be integer/],
    ["memory.search", { query: "key", n_results: Number.NaN }, /'n_results'/],
    ["memory.update", { old: "x" }, /'content' is required/],
    ["memory.update", { content: "new fact" }, /give either 'old' or 'id'/],
    ["memory.update", { content: "new fact", old: "spare key", id: "00000000" }, /give either 'old' or 'id'/],
    ["memory.update", { content: "new fact", id: "xyz" }, /'id'/],
    ["memory.update", { content: "new fact", id: "00000000" }, /^not-found: no memory with that id/],
    ["memory.update", { content: "new fact", old: "quantum chromodynamics lecture" }, /^not-found:/],
    ["memory.update", { content: "new fact", id: "00000000", importance: Number.NaN }, /importance/],
    ["memory.pin", {}, /'action' is required/],
    ["memory.pin", { action: "nuke", id: "00000000" }, /'action' must be one of pin, unpin, delete/],
    ["memory.pin", { action: "pin" }, /give either 'content' or 'id'/],
    ["memory.pin", { action: "delete", id: "0000000g" }, /'id'/],
    ["memory.pin", { action: "delete", id: "00000000" }, /^not-found: no memory with that id/],
    ["memory.pin", { action: "pin", content: "The spare key" }, /^not-found: no memory with exactly that content/],
    ["memory.config", {}, /'action' is required/],
    ["memory.config", { action: "reset" }, /'action' must be one of view, update, reembed/],
    ["memory.config", { action: "update" }, /name at least one knob/],
    ["memory.config", { action: "update", retrieval_count: 0 }, /'retrieval_count' must be >= 1/],
    ["memory.config", { action: "update", retrieval_count: 1.5 }, /'retrieval_count' must be integer/],
    ["memory.config", { action: "update", relevance_threshold: Number.NaN }, /relevance_threshold/],
    ["memory.config", { action: "update", relevance_threshold: "0.5" }, /'relevance_threshold' must be number/],
    ["memory.config", { action: "update", mmr_lambda: 2 }, /'mmr_lambda' must be <= 1/],
    ["memory.config", { action: "update", max_vectors: 50 }, /'max_vectors' must be >= 100/],
    ["memory.config", { action: "update", max_vectors: 30000 }, /'max_vectors' must be <= 20000/],
    ["memory.config", { action: "update", recency_half_life_hours: 23 }, /'recency_half_life_hours' must be >= 24/],
    ["memory.config", { action: "update", decay_factor: 0.2 }, /'decay_factor' must be >= 0.5/],
    ["memory.config", { action: "update", max_context_bytes: 100000 }, /'max_context_bytes' must be <= 8192/],
    ["memory.config", { action: "update", retrieval_count: 3 }, /^admin-only:/, member],
    ["memory.config", { action: "reembed" }, /^admin-only:/, member],
    ["memory.scratchpad", { action: "view" }, /^admin-only:/, member],
    ["memory.scratchpad", { action: "erase" }, /'action' must be one of/],
    ["memory.scratchpad", { action: "add", tier: "huge", text: "x" }, /'tier' must be one of short, mid, long/],
    ["memory.scratchpad", { action: "add", text: "x" }, /add needs 'tier' and 'text'/],
    ["memory.scratchpad", { action: "add", tier: "short", text: "é".repeat(100) }, /longer than 160 bytes/],
    ["memory.scratchpad", { action: "add", tier: "short", text: "  " }, /needs some text/],
    ["memory.scratchpad", { action: "set_active", text: "é".repeat(121) }, /longer than 240 bytes/],
    ["memory.scratchpad", { action: "set_active", text: MB }, /'text' must NOT have more than 240 characters/],
    ["memory.scratchpad", { action: "set_active" }, /set_active needs 'text'/],
    ["memory.scratchpad", { action: "replace", tier: "mid", items: Array(9).fill("x") }, /'items' must NOT have more than 8 items/],
    ["memory.scratchpad", { action: "replace", tier: "mid", items: [3] }, /'items.0' must be string/],
    ["memory.scratchpad", { action: "replace", tier: "mid" }, /replace needs 'tier' and 'items'/],
    ["memory.episodic", { kind: "video" }, /'kind' must be one of message, tool_output/],
    ["memory.episodic", { limit: -1 }, /'limit' must be >= 0/],
    ["memory.episodic", { limit: "5" }, /'limit' must be integer/],
    ["memory.episodic", { since_hours: 0 }, /'since_hours' must be >= 1/],
    ["memory.episodic", { before: "garbage" }, /'before' must match pattern/],
    ["memory.episodic", { session: "" }, /'session'/],
    ["memory.archive", {}, /'action' is required/],
    ["memory.archive", { action: "purge" }, /'action' must be one of search, restore, list/],
    ["memory.archive", { action: "restore" }, /restore needs 'id'/],
    ["memory.archive", { action: "restore", id: "zz" }, /'id'/],
    ["memory.archive", { action: "restore", id: "00000000" }, /^not-found: no archived memory with that id/],
    ["memory.archive", { action: "restore", id: "00000000", ttl: "forever" }, /'ttl' must be one of/],
    ["memory.archive", { action: "search" }, /search needs 'query'/],
    ["memory.archive", { action: "search", query: "key", n_results: 0 }, /'n_results' must be >= 1/],
    ["memory.archive", { action: "list", limit: 51 }, /'limit' must be <= 50/],
  ];

  for (const [tool, args, expected, who] of cases) {
    it(`${tool} ${JSON.stringify(args, (_k, v) => (typeof v === "string" && v.length > 40 ? `<${v.length} chars>` : Number.isNaN(v) ? "NaN" : v))}`, async () => {
      const prior = snapshot();
      const r = await registry.dispatch(tool, args, who ?? admin);
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, expected);
      assert.ok(r.text.length < 300 && !r.text.includes("\n"), "one short sentence");
      assert.deepEqual(snapshot(), prior, "nothing changed");
    });
  }

  it("wrong argument container types are refused", async () => {
    for (const args of [[], "text", 5, null]) {
      const r = await registry.dispatch("memory.write", args, admin);
      assert.equal(r.isError, true);
    }
  });
});
