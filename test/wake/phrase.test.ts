// The wake phrase store on Node and XS: the same transcript line for line (engine, settings, refusals,
// restarts, a commit cut off by a power cut), and what the transcript must say.
import assert from "node:assert/strict";
import { nodeWakeKernel } from "../../hosts/sim/wake/kernel.ts";
import { compareOnXs } from "../support/xs-compare.ts";
import { runPhraseScenario } from "./phrase-scenario.ts";

describe("the wake phrase store on Node and XS", () => {
  const cmp = compareOnXs("test/wake/phrase.xs.ts", async () => runPhraseScenario(nodeWakeKernel()), 25);
  const line = (prefix: string, nth = 0): string => {
    const found = cmp.node().filter((l) => l.startsWith(prefix))[nth];
    assert.ok(found, `no line ${nth} starting ${prefix}`);
    return found;
  };

  it("refuses silent, clipped, empty and over-long examples with the sentence for each, keeping nothing", () => {
    assert.match(line("silent: "), /refused invalid: .*silent/);
    assert.match(line("square: "), /refused invalid: .*clips/);
    assert.match(line("empty: "), /refused invalid: .*empty/);
    assert.match(line("five seconds: "), /refused invalid: .*too long/);
    assert.match(line("first: "), /"pending":1/);
  });

  it("keeps recorded examples across a restart and drops all three when the third is unlike the others", () => {
    assert.match(line("after restart: ", 0), /"set":false.*"pending":2/);
    assert.match(line("unlike third: "), /refused invalid: .*unlike/);
    assert.match(line("take 0: "), /"pending":1/);
  });

  it("teaches on the third example, detects the phrase in a stream, and stores features under one generation", () => {
    assert.match(line("take 2: "), /"set":true,"enabled":true,"sensitivity":0.5,"pending":0/);
    assert.match(line("detects the phrase: "), /hop 1\d\d/);
    assert.equal(line("keys "), "keys wake.ex.0.0.0,wake.ex.0.1.0,wake.ex.0.2.0,wake.phrase");
  });

  it("turns off, changes sensitivity, refuses one out of range, and keeps both across a restart", () => {
    assert.match(line("configure: "), /"enabled":false,"sensitivity":0.75.* detector=no$/);
    assert.match(line("configure before teaching: "), /refused conflict: .*record three examples first/);
    assert.match(line("sensitivity 2: "), /refused invalid/);
    assert.match(line("after restart: ", 1), /"set":true,"enabled":false,"sensitivity":0.75/);
    assert.match(line("enable: "), /"enabled":true.* detects: hop \d+/);
  });

  it("keeps the old phrase whole when a new one's commit is cut off, and sweeps the half-written generation", () => {
    assert.match(line("cut at the commit: "), /power cut/);
    assert.match(line("keys after the cut "), /wake\.ex\.1\./);
    assert.match(line("after restart: ", 2), /"set":true,"enabled":true,"sensitivity":0.75.* detects: hop \d+/);
    assert.doesNotMatch(line("keys after restart "), /wake\.ex\.1\./);
  });

  it("refuses damaged stored features at boot with a warning and forgets them; a broken record reads as no phrase", () => {
    assert.match(line("damaged: "), /"set":false/);
    assert.doesNotMatch(line("damaged: "), /wake\.ex\./);
    assert.match(line("log warn wake: the stored phrase cannot be used"), /teach it again/);
    assert.match(line("broken record: "), /"set":false/);
  });

  it("removes the phrase and every stored key", () => {
    assert.match(line("remove: "), /"set":false.* keys none$/);
    assert.match(line("after restart: ", 3), /"set":false,"enabled":false,"sensitivity":0.5,"pending":0/);
  });
});
