import assert from "node:assert/strict";
import { RESULTS_RING_MAX_BYTES, RESULTS_RING_MAX_ENTRIES, RESULTS_RING_MAX_NAMESPACES } from "../../lib/limits.ts";
import { ResultsRing } from "../../lib/registry/results-ring";
import { deviceRegistry, principal } from "../support/registry.ts";

describe("results.get and results.list", () => {
  it("read back a clamped docs result in full, page by page", async () => {
    const { registry, ring } = deviceRegistry();
    const owner = principal("admin", "mcp", "owner");
    // Plant a large output as a tool would have produced it, then read it through the tools.
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${"x".repeat(30)}`).join("\n");
    const tag = ring.put("owner", "tool_output", "docs.read", text);
    let offset = 0;
    let assembled = "";
    for (let pages = 0; pages < 20; pages++) {
      const r = await registry.dispatch("results.get", { tag, offset }, owner);
      assert.ok(!r.isError, r.text);
      const more = /\n\[more: call results.get with offset (\d+)\]$/.exec(r.text);
      assembled += more ? r.text.slice(0, more.index) : r.text;
      if (!more) break;
      offset = Number(more[1]);
    }
    assert.equal(assembled, text);
    const list = await registry.dispatch("results.list", {}, owner);
    assert.match(list.text, new RegExp(`- ${tag}: tool_output docs.read \\(${text.length} bytes\\)`));
  });

  it("never shows one namespace's results to another", async () => {
    const { registry, ring } = deviceRegistry();
    const tag = ring.put("alice", "tool_output", "docs.read", "alice's text");
    const bob = principal("user", "mcp", "bob");
    const r = await registry.dispatch("results.get", { tag }, bob);
    assert.equal(r.isError, true);
    assert.match(r.text, /^not-found:/);
    assert.equal((await registry.dispatch("results.list", {}, bob)).text, "No stored results.");
  });

  it("refuses bad tags and offsets clearly", async () => {
    const { registry, ring } = deviceRegistry();
    const tag = ring.put("admin", "tool_output", "x", "short");
    const p = principal();
    assert.match((await registry.dispatch("results.get", { tag, offset: 99 }, p)).text, /offset is past the end/);
    assert.match((await registry.dispatch("results.get", { tag, offset: -1 }, p)).text, /'offset' must be >= 0/);
    assert.match((await registry.dispatch("results.get", { tag: "" }, p)).text, /invalid arguments/);
    assert.match((await registry.dispatch("results.get", { tag: "t".repeat(17) }, p)).text, /invalid arguments/);
    assert.match((await registry.dispatch("results.get", {}, p)).text, /'tag' is required/);
  });

  it("bounds the ring by entries and bytes, oldest out first", () => {
    const ring = new ResultsRing();
    const tags: string[] = [];
    for (let i = 0; i < RESULTS_RING_MAX_ENTRIES + 5; i++) tags.push(ring.put("a", "k", "n", `r${i}`));
    assert.equal(ring.list("a").length, RESULTS_RING_MAX_ENTRIES);
    assert.equal(ring.get("a", tags[0]), undefined);
    assert.equal(ring.get("a", tags[tags.length - 1])?.text, `r${RESULTS_RING_MAX_ENTRIES + 4}`);
    const huge = ring.put("a", "k", "n", "z".repeat(1024 * 1024));
    const kept = ring.get("a", huge)!;
    assert.equal(kept.cut, true);
    assert.ok(kept.bytes <= 64 * 1024);
  });

  it("keeps one ring per namespace: a flood from one never evicts another's tags", () => {
    const ring = new ResultsRing();
    const alice = ring.put("alice", "k", "n", "alice's result");
    for (let i = 0; i < RESULTS_RING_MAX_ENTRIES * 4; i++) ring.put("mallory", "k", "n", "m".repeat(32 * 1024));
    assert.equal(ring.get("alice", alice)?.text, "alice's result");
    assert.equal(ring.get("mallory", alice), undefined, "a tag reads only in its own namespace");
    assert.ok(ring.list("mallory").reduce((n, e) => n + e.bytes, 0) <= RESULTS_RING_MAX_BYTES);
  });

  it("bounds the namespaces: a new one replaces the one idle longest", () => {
    const ring = new ResultsRing();
    const first = ring.put("ns0", "k", "n", "zero");
    for (let i = 1; i < RESULTS_RING_MAX_NAMESPACES; i++) ring.put(`ns${i}`, "k", "n", `v${i}`);
    ring.put("ns0", "k", "n", "zero again"); // ns0 is now the most recent; ns1 the idlest
    ring.put("newcomer", "k", "n", "new");
    assert.equal(ring.get("ns0", first)?.text, "zero");
    assert.equal(ring.list("ns1").length, 0);
    assert.equal(ring.list("newcomer").length, 1);
  });
});
