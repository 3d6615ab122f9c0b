// The wake engine's C on Node (the N-API addon) and on the XS host: the same transcript line for line, so
// features, distances, scores and detections are byte-identical; and what the transcript must say.
import assert from "node:assert/strict";
import { nodeWakeKernel } from "../../hosts/sim/wake/kernel.ts";
import { compareOnXs } from "../support/xs-compare.ts";
import { DETECTOR_BYTES_AIM, runWakeContract } from "./contract.ts";

/** The features of the three synthetic takes, hashed. Pinned: the engine is deterministic on every IEEE-754 build,
 *  so this changes only when the front end does (then update it and say why in the commit). */
const FEATURES_HASH = "1b337d20";

describe("the wake engine on Node and XS", () => {
  const cmp = compareOnXs("test/wake/contract.xs.ts", async () => runWakeContract(nodeWakeKernel()), 30);
  const line = (prefix: string): string => {
    const found = cmp.node().find((l) => l.startsWith(prefix));
    assert.ok(found, `no line starting ${prefix}`);
    return found;
  };

  it("makes byte-identical features for a fixed input (hash pinned)", () => {
    assert.equal(line("features-hash"), `features-hash ${FEATURES_HASH}`);
    for (let i = 0; i < 3; i++) assert.match(line(`example ${i}`), /refusal=none frames=\d{2} /);
  });

  it("keeps a detector's memory fixed and within the aim for three examples", () => {
    const bytes = Number(/^bytes (\d+)/.exec(line("bytes "))![1]);
    assert.ok(bytes <= DETECTOR_BYTES_AIM, `${bytes} bytes`);
    assert.equal(line("detector-bytes"), `detector-bytes ${bytes}`);
  });

  it("detects the taught phrase once in a stream and not the other phrase", () => {
    assert.match(line("teach refusal="), /^teach refusal=none distances=[\d.]+,[\d.]+,[\d.]+ threshold=[\d.]+$/);
    const hits = line("stream detections").split(" ").slice(2);
    assert.equal(hits.length, 1, hits.join(" "));
    const hop = Number(hits[0].split("/")[0]);
    assert.ok(hop > 200 && hop < 280, `detected at hop ${hop}, the phrase is at hops 200-262`);
    assert.match(line("stream scores="), /nan=false/);
  });

  it("refuses silence, clipping, 0-length, over-long, full-scale square waves, steady tones and unlike examples", () => {
    const expected: Record<string, string> = {
      empty: "empty",
      silence: "silent",
      quiet: "silent",
      "square full scale": "clipped",
      "clipped speech": "clipped",
      short: "too-short",
      "steady tone": "not-speech",
      "60 s": "too-long",
      "long phrase": "too-long",
      "random full range": "clipped",
    };
    for (const [name, refusal] of Object.entries(expected))
      assert.match(line(`refuse ${name}:`), new RegExp(`^refuse ${name}: ${refusal} `));
    assert.equal(line("teach unlike"), "teach unlike: unlike");
    assert.equal(line("teach bad"), "teach bad: bad-features bad-features");
    assert.equal(line("teach none"), "teach none: RangeError: bad examples");
    assert.equal(line("after refusal"), "after refusal: none");
  });

  it("stays NaN-free and silent on extreme input, and gives the same scores whatever the block sizes", () => {
    for (const name of ["full-scale square", "alternating", "random", "zeros"]) assert.match(line(`extreme ${name}:`), /nan=false hit=no /);
    assert.equal(line("blocks"), "blocks same-scores=true");
    assert.match(line("sensitivity"), /NaN -> [\d.]+$/);
  });

  it("refuses wrong arrays and a closed detector with short errors", () => {
    assert.equal(line("bad samples"), "bad samples: TypeError: bad samples");
    assert.equal(line("bad scores"), "bad scores: TypeError: bad scores");
    assert.equal(line("closed"), "closed: HaloError: the wake-word detector is closed.");
  });
});
