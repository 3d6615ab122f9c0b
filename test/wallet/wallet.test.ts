// The wallet against the stand-in mint over a real loopback socket, through the simulator's HttpClient port:
// mint, claim, send, receive (cashuA and cashuB), melt, and the refusals (a double spend, a forged proof, an
// unknown keyset, a mint off the owner's allow-list), each leaving the balance as it was.
import assert from "node:assert/strict";
import { getDecodedToken } from "@cashu/cashu-ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { HaloError } from "../../lib/errors.ts";
import type { CashuWallet } from "../../lib/wallet/wallet.ts";
import { startStandInMint, type LoopbackMint } from "../support/cashu-mint.ts";
import { cashuAToken, openWallet, seededRandom } from "../support/cashu-wallet.ts";

async function refusal(work: Promise<unknown>): Promise<HaloError> {
  try {
    await work;
  } catch (e) {
    assert.ok(e instanceof HaloError, String(e));
    return e;
  }
  assert.fail("expected a refusal");
}

describe("cashu wallet against the stand-in mint (loopback)", () => {
  let m: LoopbackMint;
  let other: LoopbackMint;
  let alice: CashuWallet;
  let bob: CashuWallet;
  // Every mint call must go through the HttpClient port (cashu-ts's customRequest), never the global fetch.
  const realFetch = globalThis.fetch;
  let fetches = 0;

  before(async () => {
    globalThis.fetch = (() => {
      fetches++;
      return Promise.reject(new Error("the wallet used the global fetch"));
    }) as typeof fetch;
    m = await startStandInMint();
    other = await startStandInMint({ seed: new Uint8Array(32).fill(9) });
    alice = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(11) }, [m.url]);
    bob = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(12) }, [m.url]);
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await m.close();
    await other.close();
  });

  async function fund(w: CashuWallet, sats: number): Promise<void> {
    const q = await w.mintQuote(sats, "sat");
    m.mint.payQuote(q.quote);
    await w.mintClaim(q.quote);
  }

  it("mints: a quote, its invoice paid, checked and claimed once", async () => {
    const q = await alice.mintQuote(100, "sat");
    assert.equal(q.state, "UNPAID");
    assert.match(q.request, /^lnbc1000n1/);
    assert.equal((await refusal(alice.mintClaim(q.quote))).tag, "conflict");
    m.mint.payQuote(q.quote);
    assert.equal((await alice.mintCheck(q.quote)).state, "PAID");
    assert.deepEqual(await alice.mintClaim(q.quote), { quote: q.quote, mint: m.url, amount: 100 });
    assert.equal(alice.balance().total, 100);
    assert.equal((await refusal(alice.mintClaim(q.quote))).tag, "conflict");
    assert.equal(alice.balance().total, 100);
  });

  it("sends a cashuB token that another wallet receives; the same token twice is refused", async () => {
    const sent = await alice.sendToken(21);
    assert.match(sent.token, /^cashuB/);
    assert.equal(sent.amount, 21);
    assert.deepEqual([alice.balance().total, alice.balance().outstanding], [79, 21]);
    const got = await bob.receiveToken(sent.token);
    assert.deepEqual([got.amount, got.fee], [21, 0]);
    assert.equal(bob.balance().total, 21);
    const again = await refusal(bob.receiveToken(sent.token));
    assert.equal(again.tag, "conflict");
    assert.doesNotMatch(again.message, /cashu/);
    assert.equal(bob.balance().total, 21);
    assert.equal(bob.pendingOps().length, 0);
    const check = await alice.checkProofs();
    assert.deepEqual([check.sentClaimed, check.sentOutstanding, check.unspent.amount], [1, 0, 79]);
  });

  it("receives a cashuA token", async () => {
    const sent = await alice.sendToken(5);
    const proofs = getDecodedToken(sent.token, [m.mint.keysetId]).proofs.map((p) => ({
      id: p.id,
      amount: Number(p.amount.toString()),
      secret: p.secret,
      C: p.C,
    }));
    const legacy = cashuAToken(m.url, proofs, "thanks");
    assert.match(legacy, /^cashuA/);
    assert.equal((await bob.receiveToken(legacy)).amount, 5);
    assert.equal(bob.balance().total, 26);
  });

  it("melts: pays an invoice and keeps the NUT-08 change", async () => {
    const before = alice.balance().total;
    const q = await alice.meltQuote(m.mint.invoice(30));
    assert.deepEqual([q.amount, q.feeReserve, q.state], [30, 2, "UNPAID"]);
    const paid = await alice.meltPay(q.quote);
    assert.equal(paid.state, "PAID");
    assert.equal(paid.fee, 1);
    assert.equal(alice.balance().total, before - 31);
    assert.equal((await refusal(alice.meltPay(q.quote))).tag, "conflict");
  });

  it("refuses a forged proof and a proof of an unknown keyset, and keeps the balance", async () => {
    await fund(alice, 64);
    const sent = await alice.sendToken(8);
    const proofs = getDecodedToken(sent.token, [m.mint.keysetId]).proofs.map((p) => ({
      id: p.id,
      amount: Number(p.amount.toString()),
      secret: p.secret,
      C: p.C,
    }));
    const forged = proofs.map((p) => ({ ...p, amount: p.amount * 2 }));
    const before = bob.balance().total;
    const e1 = await refusal(bob.receiveToken(cashuAToken(m.url, forged)));
    assert.equal(e1.tag, "invalid");
    assert.match(e1.sentence, /not valid/);
    const unknown = proofs.map((p) => ({ ...p, id: "00ffffffffffffff" }));
    const e2 = await refusal(bob.receiveToken(cashuAToken(m.url, unknown)));
    assert.equal(e2.tag, "invalid");
    assert.deepEqual([bob.balance().total, bob.pendingOps().length], [before, 0]);
    assert.equal((await bob.receiveToken(sent.token)).amount, 8);
  });

  it("refuses a mint that is not on the owner's allow-list, without calling it", async () => {
    const stranger = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(13) }, [other.url]);
    const q = await stranger.mintQuote(10, "sat");
    other.mint.payQuote(q.quote);
    await stranger.mintClaim(q.quote);
    const token = (await stranger.sendToken(10)).token;
    const calls = [...m.faults.counts.values(), ...other.faults.counts.values()].reduce((a, b) => a + b, 0);
    const e = await refusal(alice.receiveToken(token));
    assert.equal(e.tag, "not-allowed");
    assert.doesNotMatch(e.message, /127\.0\.0\.1/);
    assert.equal(
      [...m.faults.counts.values(), ...other.faults.counts.values()].reduce((a, b) => a + b, 0),
      calls,
    );
    assert.equal((await refusal(alice.setMints("wallet", [other.url]))).tag, "not-allowed");
    assert.equal((await refusal(alice.mintQuote(5, "sat", other.url))).tag, "not-allowed");
  });

  it("checks arguments: amounts, units, tokens, invoices", async () => {
    assert.equal((await refusal(alice.sendToken(0))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.sendToken(1.5))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.sendToken(10_000_000))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.sendToken(alice.balance().total + 1))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.mintQuote(10, "usd"))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.receiveToken("hello"))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.receiveToken("cashuBnotatoken"))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.meltQuote("not an invoice"))).tag, "invalid-arguments");
    assert.equal((await refusal(alice.setMints("other" as never, [m.url]))).tag, "invalid-arguments");
  });

  it("refuses without a card, and never writes the token into an error", async () => {
    const cardless = await openWallet({ http: nodeHttpClient, storage: undefined }).catch((e) => e);
    assert.ok(cardless instanceof HaloError);
    assert.equal(cardless.tag, "no-card");
  });

  it("takes back a token it sent that nobody claimed; a claimed one cannot be", async () => {
    const before = alice.balance().total;
    const sent = await alice.sendToken(13);
    const op = alice.sentTokens().find((t) => t.amount === 13)?.op;
    assert.ok(op);
    assert.equal((await alice.reclaimSent(op)).amount, 13);
    assert.deepEqual([alice.balance().total, alice.sentTokens().some((t) => t.op === op)], [before, false]);
    assert.equal((await refusal(bob.receiveToken(sent.token))).tag, "conflict");
    assert.equal((await refusal(alice.reclaimSent("op-none"))).tag, "not-found");
  });

  it("called every mint through the HttpClient port, never the global fetch", () => {
    assert.equal(fetches, 0);
    assert.ok((m.faults.counts.get("swap") ?? 0) > 0);
  });
});
