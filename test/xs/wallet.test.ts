// The Cashu wallet on the XS engine: the same transcript as on Node, line for line (test/scenarios/wallet.ts).
import assert from "node:assert/strict";
import { runWalletScenario } from "../scenarios/wallet.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("Cashu wallet on XS", () => {
  const cmp = compareOnXs("test/xs/wallet.xs.ts", runWalletScenario, 30);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^claim unpaid ERROR conflict: the quote is not paid yet\.$/m);
    assert.match(text, /^claim ok \{"quote":"mq00000001","mint":"http:\/\/mint\.test","amount":100\}$/m);
    assert.match(text, /^token cashuB/m);
    assert.match(text, /^receive again ERROR conflict: the mint says a proof was already spent\.$/m);
    assert.match(text, /^receive cashuA ok \{"mint":"http:\/\/mint\.test","amount":5,"fee":0\}$/m);
    assert.match(text, /^forged ERROR invalid: /m);
    assert.match(text, /^unknown mint ERROR not-allowed: /m);
    assert.match(text, /^melt ok \{.*"state":"PAID","amount":30,"fee":1/m);
    assert.match(text, /^send offline ERROR unavailable: .*reserved/m);
    assert.match(text, /^recover online \{"committed":0,"aborted":1,"pending":0/m);
    assert.match(text, /^claim answer lost ok \{.*"amount":40\}$/m);
    assert.match(text, /^reopened after a torn record: alice balance 83 /m);
    assert.match(text, /^restored balance 83 /m);
  });

  it("installed the four globals cashu-ts needs from lib/wallet/shims on XS", () => {
    assert.match(cmp.xsStdout(), /^SHIMS \["crypto\.getRandomValues","btoa","atob","URL"\]$/m);
  });
});
