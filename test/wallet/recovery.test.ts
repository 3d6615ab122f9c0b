// Operations whose mint call ends badly: the answer lost after the mint did the work (settled at once from
// the mint's records, and the operation still completes), no answer at all, the mint going offline
// mid-operation, a payment left pending. Every one ends with each sat either in the wallet or known spent,
// settled at once when the mint can say and by recovery when it comes back.
import assert from "node:assert/strict";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { HaloError } from "../../lib/errors.ts";
import { WALLET_LOG_PATH } from "../../lib/wallet/ledger.ts";
import type { CashuWallet } from "../../lib/wallet/wallet.ts";
import { startStandInMint, type LoopbackMint } from "../support/cashu-mint.ts";
import { openWallet, seededRandom } from "../support/cashu-wallet.ts";

async function failure(work: Promise<unknown>): Promise<HaloError> {
  try {
    await work;
  } catch (e) {
    assert.ok(e instanceof HaloError, String(e));
    return e;
  }
  assert.fail("expected a failure");
}

describe("cashu wallet: mint calls that end badly, and recovery", () => {
  let m: LoopbackMint;
  let w: CashuWallet;
  let storage = memoryStorage();
  const wallets: CashuWallet[] = [];
  let seed = 20;

  /** Sats the mint owes = what the wallets hold, reserve and have out in tokens (nothing else holds its ecash). */
  const balanced = async (): Promise<void> => {
    let held = 0;
    for (const x of wallets) {
      await x.checkProofs(); // tokens another wallet claimed are no longer outstanding
      held += x.balance().total + x.balance().pending + x.balance().outstanding;
    }
    assert.equal(held, m.mint.liabilities());
  };

  /** A wallet holding one proof of 512 sats, so that any smaller send needs a swap. */
  async function funded(sats = 512): Promise<CashuWallet> {
    storage = memoryStorage();
    const x = await openWallet({ http: nodeHttpClient, storage, random: seededRandom(++seed), timeoutMs: 400 }, [m.url]);
    wallets.push(x);
    if (sats > 0) {
      const q = await x.mintQuote(sats, "sat");
      m.mint.payQuote(q.quote);
      await x.mintClaim(q.quote);
    }
    return x;
  }

  before(async () => {
    m = await startStandInMint();
  });
  after(() => m.close());
  beforeEach(async () => {
    w = await funded();
  });
  afterEach(() => {
    m.faults.offline = false;
  });

  it("a send whose answer was lost is settled from the mint's records and still hands out its token", async () => {
    m.faults.failNext("swap", "drop");
    const sent = await w.sendToken(37);
    assert.equal(sent.amount, 37);
    assert.deepEqual([w.balance().total, w.balance().outstanding, w.balance().pending, w.pendingOps().length], [475, 37, 0, 0]);
    await balanced();
  });

  it("a send with no answer at all is rolled back when the mint says it saw nothing", async () => {
    m.faults.failNext("swap", "hang");
    assert.match((await failure(w.sendToken(37))).sentence, /nothing was spent/);
    assert.deepEqual([w.balance().total, w.pendingOps().length], [512, 0]);
    await balanced();
  });

  it("a mint that goes offline mid-send leaves the sats reserved until recovery, then rolls the send back", async () => {
    m.faults.failNext("swap", "down");
    const e = await failure(w.sendToken(37));
    assert.match(e.sentence, /reserved/);
    assert.equal(w.pendingOps().length, 1);
    assert.equal(w.balance().total + w.balance().pending, 512);
    assert.deepEqual(await w.recover(), { committed: 0, aborted: 0, pending: 1, recoveredSats: 0 });
    m.faults.offline = false;
    const r = await w.recover();
    assert.deepEqual([r.aborted, r.pending], [1, 0]);
    assert.deepEqual([w.balance().total, w.balance().pending], [512, 0]);
    await balanced();
  });

  it("a receive cut off before the mint saw it is resumed by recovery with the same outputs", async () => {
    const token = (await w.sendToken(64)).token;
    const bob = await funded(0);
    m.faults.failNext("swap", "down");
    await failure(bob.receiveToken(token));
    assert.equal(bob.pendingOps().length, 1);
    m.faults.offline = false;
    assert.equal((await bob.recover()).committed, 1);
    assert.equal(bob.balance().total, 64);
    const again = await w.sendToken(16);
    m.faults.failNext("swap", "drop");
    assert.equal((await bob.receiveToken(again.token)).amount, 16);
    assert.deepEqual([bob.balance().total, bob.pendingOps().length], [80, 0]);
    await balanced();
  });

  it("a claim whose answer was lost is settled at once (restore)", async () => {
    const q = await w.mintQuote(50, "sat");
    m.mint.payQuote(q.quote);
    m.faults.failNext("mint", "drop");
    assert.equal((await w.mintClaim(q.quote)).amount, 50);
    assert.equal(w.pendingOps().length, 0);
    await balanced();
  });

  it("a claim cut off before the mint saw it is re-sent by recovery (NUT-04 allows it)", async () => {
    const q = await w.mintQuote(20, "sat");
    m.mint.payQuote(q.quote);
    m.faults.failNext("mint", "down");
    await failure(w.mintClaim(q.quote));
    m.faults.offline = false;
    const before = w.balance().total;
    assert.equal((await w.recover()).committed, 1);
    assert.equal(w.balance().total, before + 20);
    await balanced();
  });

  it("a payment whose answer was lost is settled as paid, with its change", async () => {
    const before = w.balance().total;
    const q = await w.meltQuote(m.mint.invoice(100));
    m.faults.failNext("melt", "drop");
    const paid = await w.meltPay(q.quote);
    assert.equal(paid.state, "PAID");
    assert.equal(w.balance().total, before - 101);
    await balanced();
  });

  it("a pending payment keeps its inputs reserved until the mint settles it", async () => {
    const before = w.balance().total;
    const q = await w.meltQuote(m.mint.invoice(40));
    m.mint.nextPayment = "pending";
    assert.equal((await w.meltPay(q.quote)).state, "PENDING");
    assert.equal(w.balance().pending >= 42, true);
    assert.equal((await failure(w.meltPay(q.quote))).tag, "busy");
    assert.equal((await w.recover()).pending, 1);
    m.mint.settleMelt(q.quote, "paid");
    assert.equal((await w.recover()).committed, 1);
    assert.deepEqual([w.balance().total, w.balance().pending], [before - 41, 0]);
    await balanced();
  });

  it("a failed payment spends nothing", async () => {
    const before = w.balance().total;
    const q = await w.meltQuote(m.mint.invoice(10));
    m.mint.nextPayment = "failed";
    assert.equal((await failure(w.meltPay(q.quote))).tag, "failed");
    assert.equal(w.balance().total, before);
    await balanced();
  });

  it("a torn record at the end of the card's log is dropped and the log rewritten", async () => {
    const before = w.balance();
    storage.append(WALLET_LOG_PATH, new TextEncoder().encode('0badc0de {"t":"spent","secrets":["x"'));
    const again = await openWallet({ http: nodeHttpClient, storage, random: seededRandom(23) });
    assert.deepEqual(again.balance(), before);
    const text = new TextDecoder().decode(storage.read(WALLET_LOG_PATH));
    assert.equal(text.split("\n").length, 2, "one snapshot line");
    const reopened = await openWallet({ http: nodeHttpClient, storage, random: seededRandom(24) });
    assert.deepEqual(reopened.balance(), before);
  });
});
