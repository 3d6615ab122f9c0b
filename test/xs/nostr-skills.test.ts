// Skill triggers on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runNostrSkillsScenario } from "../scenarios/nostr-skills.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("Nostr skill triggers on XS", () => {
  const cmp = compareOnXs("test/xs/nostr-skills.xs.ts", runNostrSkillsScenario, 25);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^adopt t1 ERROR invalid: a skill's trigger is one of/m);
    assert.match(text, /^adopt t5 ERROR invalid: a subscription filter has kinds and only/m);
    assert.match(text, /^unapproved: 0 turns, webhook not-found$/m);
    assert.match(text, /^turn owner admin scheduled=true tools=\["agent\.version"\] \[skill "check"/m);
    assert.equal(text.match(/^turn /gm)!.length, 6, "five fires, and the last webhook run printed again");
    assert.match(text, /^status hook chain fires=1 dropped=1 next=- not run: the chain is deeper than 3$/m);
    assert.match(text, /^webhook with no scheduled turns left started$/m);
    assert.match(text, /^turn webhook-[0-9a-f]{16} user scheduled=true /m);
    assert.doesNotMatch(text, /^turn owner admin scheduled=true tools=null \[skill "hook" by a/m, "a webhook never runs as the owner");
  });
});
