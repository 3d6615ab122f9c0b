// What waits for the owner outlives a restart (docs/wallet.md, "Rails"): a stranger's token held for the owner
// is on the card beside the wallet's log, a simulator started again over the same folder lists it, and the
// owner's approval then redeems it at the stand-in mint. A damaged approvals file is kept aside, not read.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { CashuWallet } from "../../lib/wallet/wallet.ts";
import { type LoopbackMint, startStandInMint } from "../support/cashu-mint.ts";
import { openWallet, seededRandom } from "../support/cashu-wallet.ts";
import { ownerApi } from "../support/owner-api.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";

describe("wallet approvals survive a restart (simulator, stand-in mint)", () => {
  let mint: LoopbackMint;
  let payer: CashuWallet;
  let dataDir: string;
  let sim: TestSim | undefined;
  const log = memoryLog();
  const start = async (): Promise<TestSim> => (sim = await startTestSim({ dataDir, portOverrides: { log } }));
  const approvals = async (s: TestSim): Promise<Array<{ id: string; kind: string; amount: number; state: string }>> =>
    (await ownerApi(s, "GET", "/api/wallet/approvals")).json.approvals;

  before(async () => {
    mint = await startStandInMint({ height: 12 });
    dataDir = mkdtempSync(join(tmpdir(), "halo-approvals-"));
    payer = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(5) }, [mint.url]);
    const q = await payer.mintQuote(50);
    mint.mint.payQuote(q.quote);
    await payer.mintClaim(q.quote);
  });
  after(async () => {
    await sim?.stop();
    await mint.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps a held token across a restart and redeems it once the owner approves", async () => {
    let s = await start();
    assert.equal((await ownerApi(s, "PUT", "/api/wallet/mints", { allowed: [mint.url] })).status, 200);
    const { token } = await payer.sendToken(13);
    const screened = s.halo.core.wallet.screenMessage(`a gift: ${token}`, "a Nostr DM from 0123456789abcdef");
    assert.equal(screened.held, 1);
    const held = await approvals(s);
    assert.deepEqual(
      held.map((a) => [a.kind, a.amount, a.state]),
      [["receive", 13, "awaiting-approval"]],
    );
    await s.stop();
    sim = undefined;

    s = await start();
    const kept = await approvals(s);
    assert.deepEqual(kept, held, "the same approval, by the same id, after the restart");
    assert.ok(!JSON.stringify(kept).includes("cashu"), "the owner API never shows the token");
    assert.equal((await payer.checkProofs()).sentOutstanding, 1, "nothing was redeemed by the restart");
    const approved = await ownerApi(s, "POST", `/api/wallet/approvals/${kept[0].id}/approve`, {});
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.json.received, { mint: mint.url, amount: 13, fee: 0 });
    assert.equal((await ownerApi(s, "GET", "/api/wallet")).json.balance.total, 13);
    assert.deepEqual(await approvals(s), [], "a redeemed token waits no more");
    await s.stop();
    sim = undefined;

    s = await start();
    assert.deepEqual(await approvals(s), [], "and stays gone after another restart");
    for (const line of log.lines) assert.ok(!line.includes(token.slice(6, 40)), line);
  });

  it("keeps a damaged approvals file aside and starts with nothing waiting", async () => {
    const s = sim!;
    const { token } = await payer.sendToken(4);
    assert.equal(s.halo.core.wallet.screenMessage(token, "a Nostr DM from fedcba9876543210").held, 1);
    await s.stop();
    sim = undefined;
    const file = [join(dataDir, "sd", "wallet", "approvals.json"), join(dataDir, "wallet", "approvals.json")].find((f) => existsSync(f));
    assert.ok(file, "the approvals file is on the card");
    const text = readFileSync(file, "utf8");
    assert.ok(text.includes(token.slice(6, 40)), "the held token is kept on the card (it is money)");
    writeFileSync(file, text.slice(0, text.length - 20));
    const again = await start();
    assert.deepEqual(await approvals(again), []);
    assert.ok(existsSync(file.replace("approvals.json", "approvals.bad")), "the damaged file is kept for the owner");
    assert.ok(log.lines.some((l) => /approvals file on the card is damaged/.test(l)));
    assert.equal((await ownerApi(again, "GET", "/api/nostr")).status, 200, "the device keeps serving");
  });
});
