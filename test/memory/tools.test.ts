// The memory tools through the real registry: what they store, find, change, and hide.
import assert from "node:assert/strict";
import { makePrincipal, type Principal } from "../../lib/registry/principal.ts";
import { memoryCore, type CoreRig } from "../support/memory.ts";

const admin = makePrincipal("owner", "admin", "mcp");
const alice = makePrincipal("alice", "user", "mcp");
const bob = makePrincipal("bob", "user", "mcp");
const guest = makePrincipal("gus", "guest", "mcp");

async function call(rig: CoreRig, tool: string, args: object, who: Principal = admin): Promise<string> {
  const r = await rig.core.registry.dispatch(tool, args, who);
  assert.ok(!r.isError, `${tool}: ${r.text}`);
  return r.text;
}

async function refusal(rig: CoreRig, tool: string, args: object, who: Principal = admin): Promise<string> {
  const r = await rig.core.registry.dispatch(tool, args, who);
  assert.equal(r.isError, true, `${tool} should refuse: ${r.text}`);
  return r.text;
}

const idOf = (text: string): string => /id ([0-9a-f]{8})/.exec(text)![1];

describe("memory tools", () => {
  it("write then search finds the fact, formatted as - [NN%] content", async () => {
    const rig = memoryCore();
    await call(rig, "memory.write", { content: "My favourite colour is blue" });
    await call(rig, "memory.write", { content: "The dentist appointment is on Tuesday at 10am" });
    await call(rig, "memory.write", { content: "Alice's birthday is on March 3rd" });
    const text = await call(rig, "memory.search", { query: "what is my favourite colour" });
    assert.match(text, /^- \[\d{1,3}%\] My favourite colour is blue$/m);
    assert.doesNotMatch(text, /dentist/);
    assert.equal(await call(rig, "memory.search", { query: "quantum chromodynamics" }), "No memories match.");
  });

  it("the same content twice raises importance instead of storing a copy; so does a near-duplicate", async () => {
    const rig = memoryCore();
    const first = await call(rig, "memory.write", { content: "The garage code is 4711" });
    const again = await call(rig, "memory.write", { content: "The garage code is 4711" });
    assert.match(again, /^Already remembered \(id [0-9a-f]{8}\); importance raised to 0\.60\./);
    assert.equal(idOf(first), idOf(again));
    const near = await call(rig, "memory.write", { content: "the garage code is 4711." });
    assert.match(near, /^A near-identical memory exists/);
    assert.equal(rig.core.memory.store.count, 1);
  });

  it("update replaces by id, by exact old text and by closest match", async () => {
    const rig = memoryCore();
    const id = idOf(await call(rig, "memory.write", { content: "The meeting with Bob is on Thursday" }));
    const r1 = await call(rig, "memory.update", { id, content: "The meeting with Bob is on Friday" });
    assert.match(r1, new RegExp(`^Updated: replaced id ${id} with id [0-9a-f]{8}\\.`));
    await call(rig, "memory.update", { old: "The meeting with Bob is on Friday", content: "The meeting with Bob is on Monday" });
    await call(rig, "memory.update", { old: "meeting with Bob", content: "The meeting with Bob was cancelled" });
    const found = await call(rig, "memory.search", { query: "meeting with Bob" });
    assert.match(found, /cancelled/);
    assert.doesNotMatch(found, /Thursday|Friday|Monday/);
    assert.equal(rig.core.memory.store.count, 1);
  });

  it("pin, unpin and delete by id or exact content", async () => {
    const rig = memoryCore();
    const id = idOf(await call(rig, "memory.write", { content: "Passport is in the top drawer" }));
    assert.match(await call(rig, "memory.pin", { action: "pin", id }), /^Pinned id/);
    assert.match(await call(rig, "memory.pin", { action: "pin", content: "Passport is in the top drawer" }), /already pinned/);
    assert.match(await call(rig, "memory.pin", { action: "unpin", id }), /^Unpinned/);
    assert.match(await call(rig, "memory.pin", { action: "delete", content: "Passport is in the top drawer" }), /^Deleted id/);
    assert.equal(rig.core.memory.store.count, 0);
    assert.match(await refusal(rig, "memory.pin", { action: "pin", id }), /^not-found:/);
  });

  it("a member never sees or changes another person's memories (same wording as a real miss)", async () => {
    const rig = memoryCore();
    const id = idOf(await call(rig, "memory.write", { content: "Alice's bank PIN hint is her first cat" }, alice));
    assert.match(await call(rig, "memory.search", { query: "bank PIN hint" }, alice), /first cat/);
    assert.equal(await call(rig, "memory.search", { query: "bank PIN hint" }, bob), "No memories stored yet.");
    await call(rig, "memory.write", { content: "Bob likes tea" }, bob);
    assert.equal(await call(rig, "memory.search", { query: "bank PIN hint" }, bob), "No memories match.");
    const missing = await refusal(rig, "memory.pin", { action: "delete", id: "0badf00d" }, bob);
    assert.equal(await refusal(rig, "memory.pin", { action: "delete", id }, bob), missing);
    assert.equal(
      await refusal(rig, "memory.update", { id, content: "hacked" }, bob),
      await refusal(rig, "memory.update", { id: "0badf00d", content: "hacked" }, bob),
    );
    assert.match(
      await refusal(rig, "memory.pin", { action: "pin", content: "Alice's bank PIN hint is her first cat" }, bob),
      /^not-found:/,
    );
    assert.equal(rig.core.memory.store.countIn("alice"), 1);
    // The same content in two namespaces is two entries.
    await call(rig, "memory.write", { content: "Alice's bank PIN hint is her first cat" }, bob);
    assert.equal(rig.core.memory.store.count, 3);
  });

  it("quotas: TTL is clamped, vectors evict the person's own least valuable entry, pins are capped", async () => {
    const rig = memoryCore();
    const r = await call(rig, "memory.write", { content: "Guest wants the guest room", ttl: "months" }, guest);
    assert.match(r, /ttl weeks\)\. TTL clamped to weeks by your quota\./);
    assert.match(await call(rig, "memory.write", { content: "Guest never expires", permanent: true }, guest), /ttl weeks/);
    assert.match(await call(rig, "memory.write", { content: "Owner fact forever", permanent: true }), /ttl permanent\)\.$/);
    // guest quota: 100 vectors, 5 pins
    for (let i = 0; i < 98; i++) await call(rig, "memory.write", { content: `guest fact number ${i} zebra${i}`, importance: 0.9 }, guest);
    assert.equal(rig.core.memory.store.countIn("gus"), 100);
    assert.match(
      await call(rig, "memory.write", { content: "lowly note xylophone", importance: 0 }, guest),
      /Evicted your lower-value memory [0-9a-f]{8} \("Guest wants the guest room"\) to make room\./,
    );
    const low = idOf(await call(rig, "memory.write", { content: "lowly note xylophone", importance: 0 }, guest));
    assert.equal(rig.core.memory.store.countIn("gus"), 100);
    const evicting = await call(rig, "memory.write", { content: "one more important fact quokka", importance: 1 }, guest);
    assert.match(evicting, new RegExp(`Evicted your lower-value memory ${low} \\("lowly note xylophone"\\)`));
    assert.equal(rig.core.memory.store.countIn("gus"), 100);
    assert.match(await refusal(rig, "memory.pin", { action: "delete", id: low }, guest), /^not-found:/, "the lowest-value entry went");
    assert.equal(rig.core.memory.store.countIn("owner"), 1, "the owner's memory is untouched");
    const ids = rig.core.memory.store.ids;
    let pinned = 0;
    for (let slot = 0; slot < rig.core.memory.store.count && pinned < 5; slot++) {
      if (rig.core.memory.store.nsOf(slot) !== "gus") continue;
      await call(rig, "memory.pin", { action: "pin", id: ids[slot].toString(16).padStart(8, "0") }, guest);
      pinned++;
    }
    const sixth = Array.from({ length: rig.core.memory.store.count }, (_, s) => s).find(
      (s) => rig.core.memory.store.nsOf(s) === "gus" && !(rig.core.memory.store.flags[s] & 1),
    )!;
    assert.match(
      await refusal(rig, "memory.pin", { action: "pin", id: ids[sixth].toString(16).padStart(8, "0") }, guest),
      /^quota: you have 5 pinned memories/,
    );
  });

  it("memory.config: anyone approved views, only an admin updates; updates persist across a reboot", async () => {
    const rig = memoryCore();
    assert.match(await call(rig, "memory.config", { action: "view" }, guest), /retrieval_count: 5 \(1-20, default 5/);
    assert.match(await refusal(rig, "memory.config", { action: "update", retrieval_count: 2 }, alice), /^admin-only:/);
    assert.match(
      await refusal(rig, "memory.config", { action: "update", retrieval_count: 2 }, makePrincipal("owner", "admin", "turn", true)),
      /^scheduled-refused:/,
    );
    assert.equal(
      await call(rig, "memory.config", { action: "update", retrieval_count: 2, mmr_lambda: 0.5 }),
      "Updated: retrieval_count = 2, mmr_lambda = 0.5.",
    );
    for (const c of ["red apples", "red roses", "red cars", "red shoes"]) await call(rig, "memory.write", { content: `I like ${c}` });
    assert.equal((await call(rig, "memory.search", { query: "I like red" })).split("\n").length, 2);
    const again = memoryCore();
    again.core.ports.settings.set("memory.config", rig.core.ports.settings.get("memory.config")!);
    const rebooted = memoryCore({ settings: again.core.ports.settings }).core.memory;
    assert.equal(rebooted.config.retrieval_count, 2);
    assert.equal(rebooted.config.mmr_lambda, 0.5);
  });

  it("memory.config max_vectors can't go under the live count", async () => {
    const rig = memoryCore();
    for (let i = 0; i < 101; i++) await call(rig, "memory.write", { content: `fact ${i} about topic${i}` });
    assert.match(await refusal(rig, "memory.config", { action: "update", max_vectors: 100 }), /can't go under the 101 memories/);
    assert.equal(rig.core.memory.config.max_vectors, 5000);
  });

  it("the scratchpad: set_active, add, replace, clear, bounded tiers, persisted", async () => {
    const rig = memoryCore();
    await call(rig, "memory.scratchpad", { action: "set_active", text: "Plan the garden" });
    await call(rig, "memory.scratchpad", { action: "add", tier: "short", text: "buy seeds" });
    await call(rig, "memory.scratchpad", { action: "replace", tier: "long", items: ["grow tomatoes", "build a shed"] });
    const view = await call(rig, "memory.scratchpad", { action: "view" });
    assert.equal(
      view,
      "Active task: Plan the garden\nshort-term goals:\n  1. buy seeds\nmid-term goals: (none)\nlong-term goals:\n  1. grow tomatoes\n  2. build a shed",
    );
    for (let i = 1; i < 8; i++) await call(rig, "memory.scratchpad", { action: "add", tier: "short", text: `item ${i}` });
    assert.match(
      await refusal(rig, "memory.scratchpad", { action: "add", tier: "short", text: "ninth" }),
      /^full: the short tier holds 8 items/,
    );
    const { Scratchpad } = await import("../../lib/memory/scratchpad.ts");
    assert.equal(new Scratchpad(rig.core.ports.settings, rig.core.ports.log).render().split("\n").length, 1 + 1 + 8 + 1 + 1 + 2);
    await call(rig, "memory.scratchpad", { action: "clear", tier: "short" });
    assert.match(await call(rig, "memory.scratchpad", { action: "view" }), /short-term goals: \(none\)/);
    assert.match(await call(rig, "memory.scratchpad", { action: "clear" }), /^Active task: \(none\)/);
    assert.match(
      await refusal(rig, "memory.scratchpad", { action: "view" }, makePrincipal("owner", "admin", "turn", true)),
      /^scheduled-refused:/,
    );
  });

  it("memory.archive and memory.episodic are listed only with an SD card slot; without one a call says why", async () => {
    const admin = makePrincipal("owner", "admin", "mcp");
    const listed = (rig: CoreRig): string[] => rig.core.registry.toolSpecsFor(admin).map((s) => s.name);
    assert.ok(listed(memoryCore()).includes("memory.archive"));
    assert.ok(listed(memoryCore()).includes("memory.episodic"));
    const cardless = memoryCore({ storage: false });
    assert.ok(!listed(cardless).includes("memory.archive"));
    assert.ok(!listed(cardless).includes("memory.episodic"));
    const refused = await cardless.core.registry.dispatch("memory.episodic", {}, admin);
    assert.equal(refused.error?.tag, "not-configured");
    assert.match(refused.text, /^not-configured: this device keeps no episodic history/);
    const specs = memoryCore()
      .core.registry.toolSpecsFor(guest)
      .map((s) => s.name);
    assert.ok(specs.includes("memory.write") && !specs.includes("memory.scratchpad"));
  });

  it("device.status reports the caller's memory against their quota (and the whole store to an admin)", async () => {
    const rig = memoryCore();
    await call(rig, "memory.write", { content: "Alice waters the ferns on Sundays" }, alice);
    await call(rig, "memory.write", { content: "The owner's fact" });
    assert.match(await call(rig, "device.status", {}, alice), /^Memory: your memories 1 of 1000; your pinned memories 0 of 50$/m);
    assert.match(
      await call(rig, "device.status", {}),
      /^Memory: your memories 1 of 5000; your pinned memories 0 of 200; live memories \(all people\) 2 of 5000; vector arena 2\.1 MB of 4\.0 MB; max_vectors this device fits 5163$/m,
    );
  });

  it("without any SD card memory works in RAM and says it is not persisted", async () => {
    const rig = memoryCore({ storage: false });
    assert.match(await call(rig, "memory.write", { content: "RAM only fact" }), /kept in RAM only/);
    assert.match(await call(rig, "memory.search", { query: "RAM only fact" }), /RAM only fact/);
  });

  it("a pulled card: writes refuse cleanly, search still answers, reinserting works without restart", async () => {
    const rig = memoryCore();
    await call(rig, "memory.write", { content: "The boiler was serviced in May" });
    rig.storage.pull();
    assert.match(await refusal(rig, "memory.write", { content: "New fact while pulled" }), /^no-card:/);
    assert.match(await refusal(rig, "memory.pin", { action: "delete", content: "The boiler was serviced in May" }), /^no-card:/);
    assert.match(await refusal(rig, "memory.archive", { action: "list" }), /^no-card:/);
    assert.match(await refusal(rig, "memory.episodic", {}), /^no-card:/);
    assert.match(await call(rig, "memory.search", { query: "boiler serviced" }), /boiler/);
    assert.equal(rig.core.memory.store.count, 1);
    rig.storage.insert();
    await call(rig, "memory.write", { content: "New fact after reinsert" });
    assert.equal(rig.core.memory.store.count, 2);
  });
});
