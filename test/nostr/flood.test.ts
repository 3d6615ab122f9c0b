// A flood of 2,000 events from the real relay of the Nostr tests into the simulator: the verification
// queue stays bounded and checks at most its budget a second, the owner's event is checked ahead of the
// backlog, what does not fit is dropped and counted in one log line, the relay is backed off (and comes
// back), device.status shows the queue, and /mcp keeps answering tools/list within 500 ms throughout.
import assert from "node:assert/strict";
import { npubEncode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { NOSTR_VERIFY_OTHERS_MAX, NOSTR_VERIFY_PER_SECOND } from "../../lib/nostr/limits.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { signFast } from "../support/nostr-sign.ts";
import { ownerApi } from "../support/owner-api.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";
import { sleep, until } from "./support.ts";

const FLOOD = 2000;
/** Where in the flood the owner's contact list comes: behind a backlog of strangers' events. */
const OWNER_AT = 60;

describe("a flood of 2,000 events from a relay (simulator, real relay)", function () {
  this.timeout(60_000);
  let relay: TestRelay;
  let sim: TestSim;
  let device: string;
  const log = memoryLog();
  const ownerSk = generateSecretKey();
  const owner = getPublicKey(ownerSk);
  const friend = getPublicKey(generateSecretKey());
  const now = (): number => Math.floor(Date.now() / 1000);

  const frames: string[] = [];

  before(async () => {
    relay = await startTestRelay();
    sim = await startTestSim({ portOverrides: { log } });
    device = sim.halo.core.nostr.identity.pubkey;
    // signed before any request; the spam with Halo's signer over the C curve (support/nostr-sign.ts), the owner's with nostr-tools
    const strangers = Array.from({ length: 8 }, () => generateSecretKey());
    for (let i = 0; i < FLOOD; i++) {
      if (i === OWNER_AT) {
        const contacts = finalizeEvent({ kind: 3, content: "", tags: [["p", friend]], created_at: now() }, ownerSk);
        frames.push(JSON.stringify(["EVENT", "owner-contacts", contacts]));
        continue;
      }
      const spam = signFast({ kind: 4, content: `spam ${i}`, tags: [["p", device]], created_at: now() }, strangers[i % 8]);
      frames.push(JSON.stringify(["EVENT", "dm-inbox", spam]));
    }
    assert.equal((await ownerApi(sim, "PUT", "/api/nostr/relays", { relays: [relay.url] })).status, 200);
    const who = await ownerApi(sim, "PUT", "/api/nostr/owner", { pubkey: npubEncode(owner) });
    assert.equal(who.json.pubkey, device);
    await until(() => sim.halo.core.nostr.pool!.connectedCount() === 1, 5000, "the relay connection");
    await until(() => relay.received.some((f) => f.includes('"owner-contacts"')), 5000, "the contacts subscription");
  });
  after(async () => {
    await sim.stop();
    await relay.close();
  });

  it("stays bounded, checks the owner first, drops and backs off, and /mcp keeps answering", async () => {
    const nostr = sim.halo.core.nostr;
    assert.equal(nostr.tierOf(friend), "stranger");
    const latencies: number[] = [];
    const listTools = async (): Promise<void> => {
      const started = performance.now();
      const r = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: latencies.length + 1, method: "tools/list" }));
      latencies.push(performance.now() - started);
      assert.equal(r.status, 200, r.text);
      assert.ok(r.json.result.tools.length > 10);
    };
    await listTools();
    const started = Date.now();
    for (const frame of frames) relay.broadcastRaw(frame);
    // the owner's contact list is checked while the strangers' backlog still waits
    let waitingWhenOwnerChecked = -1;
    let peakWaiting = 0;
    let done = false;
    const watcher = (async () => {
      while (!done) {
        const q = nostr.verifier.status();
        peakWaiting = Math.max(peakWaiting, q.waiting);
        if (waitingWhenOwnerChecked < 0 && nostr.tierOf(friend) === "wot") waitingWhenOwnerChecked = q.waiting;
        await sleep(10);
      }
    })();
    await until(() => nostr.verifier.status().dropped > 0, 5000, "the first drop");
    while (nostr.verifier.status().waiting > 0) {
      await listTools();
      await sleep(100);
    }
    const seconds = (Date.now() - started) / 1000;
    done = true;
    await watcher;
    await listTools();

    const q = nostr.verifier.status();
    const r = nostr.pool!.status()[0];
    assert.ok(
      waitingWhenOwnerChecked > 20,
      `the owner's event was checked with ${waitingWhenOwnerChecked} strangers' events still waiting`,
    );
    assert.ok(peakWaiting <= q.capacity, `${peakWaiting} waiting at most`);
    assert.ok(q.dropped > 0 && r.dropped >= q.dropped, `${q.dropped} dropped by the queue, ${r.dropped} by the relay connection`);
    // every event the relay connection took was checked or dropped; the rest never arrived (the relay was cut off)
    assert.equal(r.received + r.refused + r.dropped, q.verified + q.refused + q.dropped);
    assert.ok(r.received + r.refused + r.dropped < FLOOD, "the flooding relay was disconnected before it sent everything");
    assert.ok(q.verified <= NOSTR_VERIFY_OTHERS_MAX + 64, `${q.verified} checked`);
    assert.ok(q.verified <= NOSTR_VERIFY_PER_SECOND * (seconds + 1), `${q.verified} checks in ${seconds.toFixed(1)} s`);
    assert.ok(r.backoffs >= 1);
    // one counted log line for the drops, one for the backoff
    const dropLines = log.lines.filter((l) => l.includes("the verification queue is full"));
    assert.equal(dropLines.length, 1, dropLines.join("\n"));
    assert.match(dropLines[0], /dropped \d+ event\(s\) \(\d+ since boot\)/);
    assert.equal(log.lines.filter((l) => l.includes("disconnecting for")).length, r.backoffs);
    assert.ok(Math.max(...latencies) < 500, `tools/list took up to ${Math.max(...latencies).toFixed(0)} ms (${latencies.length} calls)`);
    console.log(
      `      flood: ${q.verified} checked, ${q.dropped} dropped by the queue, ${r.dropped - q.dropped} by the relay window; ` +
        `${latencies.length} tools/list calls, slowest ${Math.max(...latencies).toFixed(0)} ms; ${seconds.toFixed(1)} s`,
    );

    const status = await sim.halo.core.registry.dispatch("device.status", {}, makePrincipal("owner", "admin", "turn"));
    assert.match(
      status.text,
      new RegExp(
        `^Nostr verification: events waiting for a signature check 0 of ${q.capacity}; of them the owner's or followed keys' 0; ` +
          `checked \\(at most ${NOSTR_VERIFY_PER_SECOND} a second\\) ${q.verified}; refused 0; dropped ${q.dropped}; relay backoffs ${r.backoffs}$`,
        "m",
      ),
    );
    await until(() => nostr.pool!.connectedCount() === 1, 8000, "the reconnect after the backoff");
  });
});
