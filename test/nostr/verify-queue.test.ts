// lib/nostr/verify-queue.ts on its own, over a clock and sleeps the test moves: the per-second budget, the
// two lanes and their bounds, EOSE after the events before it, hostile input refused (never thrown), the
// counted log line, and a receiver that throws.
import assert from "node:assert/strict";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import { memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { NOSTR_VERIFY_OTHERS_MAX, NOSTR_VERIFY_PREFERRED_MAX } from "../../lib/nostr/limits.ts";
import { type Verdict, VerifyQueue } from "../../lib/nostr/verify-queue.ts";

const ownerSk = generateSecretKey();
const owner = getPublicKey(ownerSk);
const strangerSk = generateSecretKey();
const at = Math.floor(Date.UTC(2026, 11, 2) / 1000);

function event(sk: Uint8Array, content: string): unknown {
  return JSON.parse(JSON.stringify(finalizeEvent({ kind: 1, content, tags: [], created_at: at }, sk)));
}

/** A queue whose sleeps wait until the test releases them, over a clock the test sets. */
function rig(perSecond: number) {
  let now = at * 1000;
  const sleeps: Array<{ ms: number; wake: () => void }> = [];
  const log = memoryLog();
  const queue = new VerifyQueue({
    curve: nodeCurve(),
    digest: nodeDigest,
    log,
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleeps.push({ ms, wake })),
    isPreferred: (pubkey) => pubkey === owner,
    perSecond,
  });
  const seen: string[] = [];
  const receiver =
    (name: string) =>
    (v: Verdict): void =>
      void seen.push(`${name}:${"event" in v ? "ok" : v.refused}`);
  /** Wakes the oldest sleep after moving the clock by what it asked; lets the pump run. */
  const step = async (): Promise<number> => {
    const s = sleeps.shift();
    if (!s) return -1;
    now += s.ms;
    s.wake();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return s.ms;
  };
  return { queue, log, seen, receiver, step, sleeps };
}

describe("the Nostr verification queue", () => {
  it("checks a lone event at once, and at most its budget a second in a burst", async () => {
    const r = rig(3);
    r.queue.submit(event(strangerSk, "lone"), "k", false, r.receiver("lone"));
    assert.deepEqual(r.seen, ["lone:ok"]);
    for (let i = 0; i < 7; i++) r.queue.submit(event(strangerSk, `b${i}`), "k", false, r.receiver(`b${i}`));
    // the burst's first two take the rest of this second's three checks at once; five wait for the next seconds
    assert.equal(r.seen.length, 3);
    assert.equal(r.queue.status().waiting, 5);
    const waits: number[] = [];
    while (r.queue.status().waiting > 0) {
      const before = r.seen.length;
      waits.push(await r.step());
      assert.ok(r.seen.length - before <= 3, "never more than three checks between two waits of a second");
    }
    assert.equal(r.seen.length, 8);
    assert.ok(waits.filter((w) => w >= 1000 - 1).length >= 2, `waited ${waits.join(", ")} ms`);
    assert.equal(r.queue.status().verified, 8);
  });

  it("checks the owner's events (and preferred subscriptions) before the backlog", async () => {
    const r = rig(2);
    for (let i = 0; i < 6; i++) r.queue.submit(event(strangerSk, `s${i}`), "k", false, r.receiver(`s${i}`));
    r.queue.submit(event(ownerSk, "owner"), "k", false, r.receiver("owner"));
    r.queue.submit(event(strangerSk, "asked"), "q", true, r.receiver("asked"));
    while (r.queue.status().waiting > 0) await r.step();
    assert.deepEqual(r.seen, ["s0:ok", "s1:ok", "owner:ok", "asked:ok", "s2:ok", "s3:ok", "s4:ok", "s5:ok"]);
  });

  it("drops what does not fit in a lane, counts it, and logs once per window", () => {
    const r = rig(1);
    r.queue.submit(event(strangerSk, "spends the budget"), "k", false, r.receiver("x"));
    const raw = event(strangerSk, "same event, many times");
    let accepted = 0;
    for (let i = 0; i < NOSTR_VERIFY_OTHERS_MAX + 40; i++) if (r.queue.submit(raw, "k", false, () => undefined)) accepted++;
    assert.equal(accepted, NOSTR_VERIFY_OTHERS_MAX);
    const ownerRaw = event(ownerSk, "owner");
    for (let i = 0; i < NOSTR_VERIFY_PREFERRED_MAX + 5; i++) r.queue.submit(ownerRaw, "k", false, () => undefined);
    const s = r.queue.status();
    assert.equal(s.waiting, NOSTR_VERIFY_OTHERS_MAX + NOSTR_VERIFY_PREFERRED_MAX);
    assert.equal(s.waitingPreferred, NOSTR_VERIFY_PREFERRED_MAX);
    assert.equal(s.dropped, 45);
    assert.equal(s.droppedPreferred, 5);
    const lines = r.log.lines.filter((l) => l.includes("verification queue is full"));
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0], /nostr: the verification queue is full; dropped 1 event\(s\) \(1 since boot\)$/);
  });

  it("runs an EOSE only after the events queued before it under the same key", async () => {
    const r = rig(1);
    r.queue.submit(event(strangerSk, "first"), "relay sub", false, r.receiver("first"));
    r.queue.submit(event(strangerSk, "second"), "relay sub", false, r.receiver("second"));
    r.queue.afterPending("relay sub", () => r.seen.push("eose"));
    r.queue.afterPending("other sub", () => r.seen.push("other eose"));
    assert.deepEqual(r.seen, ["first:ok", "other eose"]);
    while (r.queue.status().waiting > 0) await r.step();
    assert.deepEqual(r.seen, ["first:ok", "other eose", "second:ok", "eose"]);
  });

  it("refuses hostile input with a verdict, and survives a receiver that throws", async () => {
    const r = rig(50);
    const good = event(strangerSk, "good") as { [k: string]: unknown };
    const hostile: Array<[string, unknown]> = [
      ["null", null],
      ["string", "EVENT"],
      ["array", [good]],
      ["forged sig", { ...good, sig: "00".repeat(64) }],
      ["changed content", { ...good, content: "changed" }],
      ["pubkey not a string", { ...good, pubkey: 7 }],
    ];
    for (const [name, raw] of hostile) r.queue.submit(raw, "k", false, r.receiver(name));
    r.queue.submit(good, "k", false, () => {
      throw new Error("receiver bug");
    });
    r.queue.submit(good, "k", false, r.receiver("after the bug"));
    while (r.queue.status().waiting > 0) await r.step();
    assert.deepEqual(r.seen, [
      "null:shape",
      "string:shape",
      "array:shape",
      "forged sig:bad-signature",
      "changed content:bad-id",
      "pubkey not a string:shape",
      "after the bug:ok",
    ]);
    assert.equal(r.queue.status().refused, 6);
    assert.ok(r.log.lines.some((l) => l.includes("an event's receiver failed (Error)")));
  });
});
