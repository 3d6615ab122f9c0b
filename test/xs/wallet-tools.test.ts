// The wallet's tools and rails on the XS engine: the same transcript as on Node, line for line
// (test/scenarios/wallet-tools.ts), and the transcript shows what the rails did.
import assert from "node:assert/strict";
import { runWalletToolsScenario } from "../scenarios/wallet-tools.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("wallet tools and rails on XS", () => {
  const cmp = compareOnXs("test/xs/wallet-tools.xs.ts", runWalletToolsScenario, 60);

  it("mints, claims, sends, receives and melts through the tools", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^tools 11$/m);
    assert.match(text, /^claim unpaid: ERROR conflict: the quote is not paid yet\.$/m);
    assert.match(text, /^claim: \{"quote":"mq00000001","mint":"http:\/\/mint\.test","amount":200\}$/m);
    assert.match(text, /^send 21: token of \d+ chars$/m);
    assert.match(text, /^receive from bob: Received 8 sats/m);
    assert.match(text, /^melt_pay: \{.*"state":"PAID","amount":30,"fee":1/m);
  });

  it("refuses a double spend and keeps the sats of a send the mint never saw", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^device receives the same token: ERROR conflict: the mint says a proof was already spent\.$/m);
    assert.match(text, /^receive it twice: ERROR conflict: /m);
    assert.match(text, /^send offline: ERROR unavailable: .*reserved/m);
    assert.match(text, /^balance 148 pending 8 outstanding 0\nrecover \{"committed":0,"aborted":1,.*\nbalance 156 pending 0 /m);
  });

  it("holds payments over the limits for the owner, once, for exactly that payment", () => {
    const text = cmp.node().join("\n");
    assert.match(
      text,
      /^send 60: The payment of 60 sats waits for the owner's approval \(w[0-9a-f]{8}; above the per-payment limit of 50 sats\)/m,
    );
    assert.match(text, /^with the approval too early: ERROR not-approved: /m);
    assert.match(text, /^with another amount: ERROR not-found: /m);
    assert.match(text, /^with the approval: <token> \(token of \d+ chars\)$/m);
    assert.match(text, /^approval used up: ERROR not-found: /m);
    assert.match(text, /^send 10 under both limits: <token>/m);
    assert.match(text, /^send 20 past the day's limit: The payment of 20 sats waits .*past the daily limit of 130 sats/m);
  });

  it("shows guests nothing, lets in whom the owner allows, and holds others' tokens", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^guest balance: ERROR not-allowed: /m);
    assert.match(text, /^guest sends: ERROR not-allowed: /m);
    assert.match(text, /^guest hands a token: The token of 5 sats waits for the owner's approval/m);
    assert.match(text, /^owner redeems it: \{"mint":"http:\/\/mint\.test","amount":5,"fee":0\}$/m);
    assert.match(text, /^kid before: ERROR not-allowed: /m);
    // One guest cannot fill the owner's list, nor make it hold a token from a mint off the allow-list.
    assert.equal(text.match(/^guest token \d: The token of 1 sats waits/gm)!.length, 4);
    assert.match(text, /^guest token 5: ERROR limit: 4 tokens from this sender already wait/m);
    assert.match(text, /^guest token from another mint: ERROR not-allowed: /m);
    assert.match(text, /^kid allowed: \{"unit":"sat"/m);
    assert.match(text, /^stranger's DM as the turn sees it: hi! here is a tip \[a Cashu token, held for the owner\] enjoy \(held 1\)$/m);
    // The stranger's token is held, not redeemed: the balance before and after the DM is the same.
    assert.match(text, /^kid allowed: \{"unit":"sat","total":91,/m);
    assert.match(text, /^held: .*\["receive",3,"a Nostr DM from 0123456789abcdef"\]\]\nbalance 91 /m);
  });

  it("refuses every hostile argument with a clear error, and the wallet keeps serving", () => {
    const lines = cmp.node().filter((l) => l.startsWith("hostile "));
    assert.equal(lines.length, 25);
    for (const l of lines) assert.match(l, /: ERROR (invalid arguments|not-allowed|not-found): /, l);
    assert.doesNotMatch(cmp.node().join("\n"), /cashuB[A-Za-z0-9_-]{40,}/, "no token in the transcript");
    assert.match(cmp.node().at(-2)!, /^balance 91 pending 0 /);
  });
});
