// Forgetting on a fake clock: TTL expiry into the SD archive, renewal on recall,
// decay, pruning, eviction at capacity, restore.
import { describeArchiveHits, describeArchiveList, describeRestore, describeSearch, describeWrite } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import { listArchive, restoreArchived, searchArchive } from "../../lib/memory/forgetting/archive-ops.ts";
import { MAINTAIN_INTERVAL_MS, PRUNE_IMPORTANCE_FLOOR } from "../../lib/memory/bounds.ts";
import { updateConfig } from "../../lib/memory/config-ops.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { FLAG_PINNED } from "../../lib/memory/store/vector-store.ts";
import { pinMemory, writeMemory, type WriteArgs } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { DAY, HOUR, memoryRig, type MemoryRig } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");
const member = makePrincipal("mia", "user", "turn");

async function write(rig: MemoryRig, args: WriteArgs, who = owner): Promise<string> {
  return describeWrite(await writeMemory(rig.engine, who, args));
}
async function found(rig: MemoryRig, query: string, who = owner): Promise<string> {
  return describeSearch(await searchMemory(rig.engine, who, query));
}
const slotOf = (rig: MemoryRig, content: string): number => {
  for (let s = 0; s < rig.engine.store.count; s++) if (rig.engine.store.contentOf(s) === content) return s;
  return -1;
};

describe("memory forgetting", () => {
  it("an entry past its TTL leaves live memory for the SD archive, embedding and residuals kept, and can be restored", async () => {
    const rig = memoryRig();
    await write(rig, { content: "The parcel arrives with the evening courier", ttl: "session" });
    await write(rig, { content: "Keep this month-long fact about the garden" });
    const parcel = slotOf(rig, "The parcel arrives with the evening courier");
    const row = Array.from(rig.engine.store.row(parcel));
    const residual = Array.from(rig.engine.store.residual(parcel));
    assert.ok(residual.some((b) => b !== 0));
    rig.clock.advance(11 * HOUR);
    assert.match(await found(rig, "parcel courier"), /parcel/);
    rig.clock.advance(13 * HOUR); // 13 h after the recall at 11 h renewed it: expired
    assert.equal(await found(rig, "parcel courier"), "No memories match.");
    assert.equal(rig.engine.store.count, 1);
    assert.match(
      describeArchiveList(listArchive(rig.engine, owner, 10)),
      /^- [0-9a-f]{8} \(archived 2026-01-02, was session\): The parcel arrives/,
    );
    assert.match(describeArchiveHits(await searchArchive(rig.engine, owner, "parcel courier", 5)), /^- \[\d+%\] The parcel arrives/);
    assert.equal(describeArchiveList(listArchive(rig.engine, member, 10)), "The archive holds none of your memories.");
    const id = /^- ([0-9a-f]{8})/.exec(describeArchiveList(listArchive(rig.engine, owner, 10)))![1];
    await assert.rejects(restoreArchived(rig.engine, member, id), /^HaloError: not-found: no archived memory with that id/);
    assert.match(describeRestore(await restoreArchived(rig.engine, owner, id, "days")), new RegExp(`^Restored id ${id} \\(ttl days\\)\\.`));
    assert.match(await found(rig, "parcel courier"), /parcel/);
    const restored = slotOf(rig, "The parcel arrives with the evening courier");
    assert.deepEqual(Array.from(rig.engine.store.row(restored)), row, "the archived row comes back");
    assert.deepEqual(Array.from(rig.engine.store.residual(restored)), residual, "and its residuals with it");
    assert.equal(describeArchiveList(listArchive(rig.engine, owner, 10)), "The archive holds none of your memories.");
    // The restored entry got a fresh TTL (days: 96 h) and survives a reboot.
    rig.clock.advance(90 * HOUR);
    assert.match(await found(rig, "parcel courier"), /parcel/);
    assert.match(await searchMemory(rig.reboot(), owner, "parcel courier").then((a) => a.text), /parcel/);
  });

  it("restore refuses when the live store is full and loses nothing", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { max_vectors: 100 });
    await write(rig, { content: "Short-lived fact about the kettle", ttl: "session" });
    rig.clock.advance(13 * HOUR);
    await found(rig, "anything");
    const id = /^- ([0-9a-f]{8})/.exec(describeArchiveList(listArchive(rig.engine, owner, 10)))![1];
    for (let i = 0; i < 100; i++) await write(rig, { content: `filler fact ${i} about item${i}`, permanent: true });
    assert.equal(rig.engine.store.count, 100);
    await assert.rejects(
      restoreArchived(rig.engine, owner, id),
      /full: the live memory store is full; nothing was restored and the entry stays in the archive/,
    );
    assert.match(describeArchiveList(listArchive(rig.engine, owner, 10)), new RegExp(`^- ${id} `));
    assert.equal(rig.engine.store.count, 100);
  });

  it("a recall renews the TTL and raises importance", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { decay_factor: 1 });
    await write(rig, { content: "Water the basil on the balcony", ttl: "session", importance: 0.5 });
    rig.clock.advance(10 * HOUR);
    await found(rig, "basil balcony");
    const slot = slotOf(rig, "Water the basil on the balcony");
    assert.equal(rig.engine.store.lastRecalled[slot], rig.clock.now());
    assert.ok(Math.abs(rig.engine.store.importance[slot] - 0.55) < 1e-6);
    rig.clock.advance(11 * HOUR);
    assert.equal(rig.engine.store.count, 1);
    await write(rig, { content: "unrelated" });
    assert.equal(slotOf(rig, "Water the basil on the balcony") >= 0, true, "21 h after writing, 11 h after the recall: alive");
  });

  it("importance decays by decay_factor per day; faded entries are pruned, not archived", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { decay_factor: 0.9 });
    await write(rig, { content: "A fact that slowly fades away", importance: 0.5 });
    await write(rig, { content: "A faint fact barely worth keeping", importance: 0.06 });
    await write(rig, { content: "A pinned fact that never fades", importance: 0.5 });
    pinMemory(rig.engine, owner, "pin", { content: "A pinned fact that never fades" });
    rig.clock.advance(3 * DAY);
    assert.equal(await found(rig, "quantum chromodynamics"), "No memories match.");
    const fading = slotOf(rig, "A fact that slowly fades away");
    assert.ok(Math.abs(rig.engine.store.importance[fading] - 0.5 * 0.9 ** 3) < 1e-6, String(rig.engine.store.importance[fading]));
    assert.equal(slotOf(rig, "A faint fact barely worth keeping"), -1, "0.06 x 0.9^3 is under the prune floor");
    assert.ok(0.06 * 0.9 ** 3 < PRUNE_IMPORTANCE_FLOOR);
    assert.equal(rig.engine.store.importance[slotOf(rig, "A pinned fact that never fades")], 0.5);
    assert.equal(describeArchiveList(listArchive(rig.engine, owner, 10)), "The archive holds none of your memories.");
  });

  it("pinned and permanent entries never expire", async () => {
    const rig = memoryRig();
    await write(rig, { content: "Pinned session note", ttl: "session" });
    pinMemory(rig.engine, owner, "pin", { content: "Pinned session note" });
    await write(rig, { content: "Permanent birthday of grandma", permanent: true });
    rig.clock.advance(400 * DAY);
    await found(rig, "note");
    assert.equal(rig.engine.store.count, 2);
  });

  it("decay keeps counting across a reboot (the file records the last pass)", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { decay_factor: 0.5 });
    await write(rig, { content: "Fact across reboots", importance: 0.8 });
    rig.clock.advance(MAINTAIN_INTERVAL_MS);
    await found(rig, "x");
    await write(rig, { content: "second fact forces a save" });
    rig.clock.advance(DAY);
    const after = rig.reboot();
    await searchMemory(after, owner, "anything");
    const slot = Array.from({ length: after.store.count }, (_, s) => s).find((s) => after.store.contentOf(s) === "Fact across reboots")!;
    assert.ok(
      Math.abs(after.store.importance[slot] - 0.4 * 0.5 ** (MAINTAIN_INTERVAL_MS / DAY)) < 0.01,
      String(after.store.importance[slot]),
    );
  });

  it("at capacity the lowest importance x TTL-left entry is evicted; pinned ones are exempt", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { max_vectors: 100 });
    await write(rig, { content: "Pinned trivia of little importance", importance: 0.01 });
    pinMemory(rig.engine, owner, "pin", { content: "Pinned trivia of little importance" });
    await write(rig, { content: "Nearly expired session note", ttl: "session", importance: 0.9 });
    for (let i = 0; i < 98; i++) await write(rig, { content: `ordinary fact ${i} about thing${i}`, importance: 0.5 });
    rig.clock.advance(11 * HOUR); // the session note has 1/12 of its TTL left: 0.9 x 0.083 < 0.5 x 0.99
    const r = await write(rig, { content: "The newest fact pushes one out", importance: 0.5 });
    assert.match(r, /Evicted your lower-value memory [0-9a-f]{8} \("Nearly expired session note"\) to make room\./);
    assert.equal(slotOf(rig, "Nearly expired session note"), -1);
    assert.ok(rig.engine.store.flags[slotOf(rig, "Pinned trivia of little importance")] & FLAG_PINNED);
    assert.equal(rig.engine.store.count, 100);
  });

  it("an eviction of another person's memory says so without naming it", async () => {
    const rig = memoryRig();
    updateConfig(rig.engine, { max_vectors: 100 });
    const zoe = makePrincipal("zoë", "user", "mcp");
    await writeMemory(rig.engine, zoe, { content: "Zoë's secret surprise party plan", importance: 0 });
    for (let i = 0; i < 99; i++) await write(rig, { content: `owner fact ${i} about gadget${i}`, importance: 0.9 });
    const r = await write(rig, { content: "The owner's hundred and first fact", importance: 0.9 });
    assert.match(r, /Evicted a lower-value memory of another person to make room\.$/);
    assert.doesNotMatch(r, /surprise|party|Zoë/);
    assert.equal(rig.engine.store.countIn("zoë"), 0);
  });

  it("without an SD card an expired entry is dropped (there is no archive)", async () => {
    const rig = memoryRig({ storage: undefined });
    await write(rig, { content: "RAM-only session fact", ttl: "session" });
    rig.clock.advance(13 * HOUR);
    await found(rig, "x");
    assert.equal(rig.engine.store.count, 0);
    assert.ok(rig.log.lines.some((l) => /reached their TTL and were dropped \(no SD archive\)/.test(l)));
  });
});
