// The wake engine on Node with real speech (espeak-ng, test/support/wake-speech.ts): teaching refuses bad
// recordings with the right reason, a taught phrase is detected over 10 dB babble, and near misses are not.
// Small cases only; bench/wake.mjs has the statistics.
import assert from "node:assert/strict";
import { nodeWakeKernel } from "../../hosts/sim/wake/kernel.ts";
import type { WakeDetector, WakeKernel } from "../../lib/wake/kernel.ts";
import { wakeRefusalSentence } from "../../lib/wake/refusal.ts";
import { wakeExamples } from "../support/wake-set.ts";
import { babbleNoise, mixAtSnr, speak, trim, type Voice } from "../support/wake-speech.ts";

const VOICE: Voice = { voice: "en-us", wordsPerMinute: 165, pitch: 50 };

function hops(detector: WakeDetector, samples: Int16Array): number[] {
  const found: number[] = [];
  detector.reset();
  for (let at = 0; at < samples.length; at += 320) {
    const hit = detector.push(samples.subarray(at, at + 320));
    if (hit) found.push(hit.hop);
  }
  return found;
}

describe("the wake engine with spoken phrases", () => {
  let kernel: WakeKernel;
  let detector: WakeDetector;
  let features: Int16Array[];
  before(() => {
    kernel = nodeWakeKernel();
    features = wakeExamples("hey halo").map((s) => kernel.exampleFeatures(s).features!);
    detector = kernel.createDetector();
  });
  after(() => detector.close());

  it("takes three takes of a phrase", () => {
    assert.equal(features.length, 3);
    for (const f of features) assert.ok(f && f.length % 13 === 0 && f.length / 13 - 1 >= 30, `${f?.length} values`);
    const taught = detector.teach(features);
    assert.equal(taught.refusal, undefined);
    assert.ok(taught.threshold > 0 && taught.distances.every((d) => d > 0 && d < 15), JSON.stringify(taught));
  });

  it("refuses a clipped, a silent, a too long and a too short recording, each with its reason", () => {
    const take = wakeExamples("hey halo")[0];
    const loud = Int16Array.from(take, (x) => Math.max(-32768, Math.min(32767, x * 8)));
    const faint = Int16Array.from(take, (x) => Math.round(x / 400));
    const long = speak("hey halo, how are you doing on this fine morning", VOICE);
    const short = trim(speak("hi", { ...VOICE, wordsPerMinute: 300 }));
    const cases: Array<[Int16Array, string]> = [
      [loud, "clipped"],
      [faint, "silent"],
      [long, "too-long"],
      [short, "too-short"],
    ];
    for (const [samples, refusal] of cases) {
      const r = kernel.exampleFeatures(samples);
      assert.equal(r.refusal, refusal, `${refusal}: got ${r.refusal} (${r.frames} frames, peak ${r.peak})`);
      assert.equal(r.features, undefined);
      assert.ok(wakeRefusalSentence(r.refusal!).length > 10);
    }
  });

  it("refuses examples of two different phrases as unlike", () => {
    const other = kernel.exampleFeatures(wakeExamples("okay nova")[0]).features!;
    const d = kernel.createDetector();
    assert.equal(d.teach([features[0], features[1], other]).refusal, "unlike");
    d.close();
  });

  it("detects the phrase at another speed and pitch over 10 dB babble, once, where it is said", () => {
    detector.teach(features);
    const talkers = ["en-gb", "en-us+f2", "en-gb-x-rp+m3", "en-029"].map((voice, i) =>
      speak(
        [
          "The train was late again this morning.",
          "We painted the fence on Sunday.",
          "Could you pass me the salt?",
          "The report is due on Friday.",
        ][i],
        {
          voice,
          wordsPerMinute: 170,
          pitch: 50,
        },
      ),
    );
    const phrase = trim(speak("hey halo", { voice: "en-us", wordsPerMinute: 180, pitch: 60 }));
    const lead = 5 * 16000;
    const noise = babbleNoise(lead + phrase.length + 16000, talkers, 3);
    const scene = mixAtSnr(phrase, noise, 10, lead);
    const found = hops(detector, scene);
    assert.equal(found.length, 1, `detections at hops ${found.join(",")}`);
    assert.ok(found[0] * 160 >= lead && found[0] * 160 <= lead + phrase.length + 8000, `at hop ${found[0]}`);
  });

  it("does not detect near misses or the other phrase", () => {
    detector.teach(features);
    const sentences = [
      "Hey Anna, could you pass the salt?",
      "The saint in the old painting wore a golden halo.",
      "Hello, is the hollow log still by the lake?",
      "Okay nova.",
      "They stacked the hay in the barn, and then said hello to the neighbours.",
    ];
    for (const text of sentences) {
      const clip = speak(text, VOICE);
      const scene = new Int16Array(clip.length + 32000);
      scene.set(clip, 16000);
      assert.deepEqual(hops(detector, scene), [], text);
    }
  });
});
