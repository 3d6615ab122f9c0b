// kill -9 at every kind of step of send, receive, claim and melt (card writes, torn appends, mint requests
// before and after the answer, relay publishes): after the last restart and recovery no sat is lost
// (test/support/cashu-crash.ts defines the count), none is counted twice, and nothing waits. npm test kills
// 24 times (a child process each: about 0.6 s of CPU per run); `npm run bench` kills 100 times with another
// seed (bench/wallet.mjs) and prints cashu-sats-lost-in-crashes. HALO_CRASH_KILLS and HALO_CRASH_SEED change this run.
import assert from "node:assert/strict";
import { runCrashTest } from "../support/cashu-crash.ts";

describe("cashu wallet survives kill -9 at any step", function () {
  this.timeout(900_000);

  it("loses no sat over 24 kills at every kind of step", async () => {
    const kills = Number(process.env.HALO_CRASH_KILLS ?? 24);
    const r = await runCrashTest({ kills, seed: Number(process.env.HALO_CRASH_SEED ?? 1) });
    console.log(`      cashu-sats-lost-in-crashes: ${r.lost}`);
    console.log(
      `      (${r.kills} kills in ${r.runs} runs, ${(r.ms / 1000).toFixed(1)} s; lightning in ${r.lightningIn}, out ${r.lightningOut}, held ${r.held})`,
    );
    assert.ok(r.kills >= kills);
    assert.equal(r.lost, 0);
    assert.equal(r.phantom, 0, "the card counts no spent proof as spendable");
    assert.equal(r.pendingAfter, 0, "recovery settled every operation");
    assert.ok(r.lightningIn > 0 && r.held > 0);
  });
});
