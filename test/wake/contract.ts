// The wake engine's contract as a transcript: run with the Node addon (hosts/sim/wake/kernel.ts) and on the XS
// host (modules/wake/wake.ts), the lines must be the same, which makes the features, distances, scores and
// detections byte-identical across the two builds of the same C. Inputs are synthetic (test/wake/synthetic.ts)
// so both engines make them without files.
import type { WakeDetector, WakeKernel } from "../../lib/wake/kernel.ts";
import { hashBytes, join, PHRASE_A, PHRASE_B, synthPhrase, uniformNoise } from "./synthetic.ts";

/** The bound the issue sets on a detector's fixed memory for three examples. */
export const DETECTOR_BYTES_AIM = 48 * 1024;

/** "name: message" of a thrown error, without the prefix XS puts on a host function's messages. */
function failure(run: () => unknown): string {
  try {
    run();
    return "no error";
  } catch (e) {
    const error = e as Error;
    return `${error.name}: ${error.message.replace(/^.*: (?=[^:]+$)/, "")}`;
  }
}

function hasNaN(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i])) return true;
  return false;
}

/** Hops, example and distance of every detection when `samples` go through in 20 ms blocks. */
function detections(detector: WakeDetector, samples: Int16Array): string {
  const hits: string[] = [];
  for (let at = 0; at < samples.length; at += 320) {
    const hit = detector.push(samples.subarray(at, at + 320));
    if (hit) hits.push(`${hit.hop}/${hit.example}/${hit.distance}`);
  }
  return hits.join(" ") || "none";
}

export function runWakeContract(kernel: WakeKernel): string[] {
  const out: string[] = [];
  out.push(`constants ${kernel.sampleRate} ${kernel.hopSamples} ${kernel.frameValues} ${kernel.maxExamples} ${kernel.maxExampleSamples}`);
  out.push(`bytes ${kernel.detectorBytes} within-aim=${kernel.detectorBytes <= DETECTOR_BYTES_AIM}`);

  // Three takes of one phrase at 94%, 100% and 106% of its length, and their features.
  const takes = [94, 100, 106].map((percent, i) => synthPhrase(PHRASE_A, percent, 10 + i));
  const features: Int16Array[] = [];
  for (const [i, take] of takes.entries()) {
    const f = kernel.exampleFeatures(take);
    out.push(
      `example ${i} refusal=${f.refusal ?? "none"} frames=${f.frames} peak=${f.peak} values=${f.features?.length} hash=${f.features ? hashBytes(f.features) : "-"}`,
    );
    if (f.features) features.push(f.features);
  }
  out.push(`features-hash ${hashBytes(join(...features))}`);

  const detector = kernel.createDetector();
  out.push(`detector-bytes ${detector.bytes}`);
  const taught = detector.teach(features);
  out.push(`teach refusal=${taught.refusal ?? "none"} distances=${taught.distances.join(",")} threshold=${taught.threshold}`);

  // A stream: noise, another take of the phrase, noise, the other phrase, noise. Scores of every hop hashed.
  const stream = join(
    uniformNoise(32000, 300, 1),
    synthPhrase(PHRASE_A, 103, 20, 9000, 0, 0),
    uniformNoise(24000, 300, 2),
    synthPhrase(PHRASE_B, 100, 21, 9000, 0, 0),
    uniformNoise(24000, 300, 3),
  );
  const scores = new Float32Array(Math.floor(stream.length / 160));
  detector.reset();
  detector.push(stream, scores);
  out.push(`stream scores=${hashBytes(scores)} nan=${hasNaN(scores)} best=${Math.min(...scores)}`);
  detector.reset();
  out.push(`stream detections ${detections(detector, stream)}`);
  out.push(
    `sensitivity 0 -> ${detector.setSensitivity(0)}, 1 -> ${detector.setSensitivity(1)}, NaN -> ${detector.setSensitivity(Number.NaN)}`,
  );
  detector.setSensitivity(0.5);

  // Recordings the checks refuse.
  const square = new Int16Array(16000);
  for (let i = 0; i < square.length; i++) square[i] = (i >> 4) % 2 ? 32767 : -32768;
  const loud = synthPhrase(PHRASE_A, 100, 30, 12000);
  for (let i = 0; i < loud.length; i++) loud[i] = Math.max(-32768, Math.min(32767, loud[i] * 6));
  const tone = new Int16Array(16000);
  for (let i = 0; i < tone.length; i++) tone[i] = ((i % 40) - 20) * 400; // a steady 400 Hz sawtooth
  const hostile: Array<[string, Int16Array]> = [
    ["empty", new Int16Array(0)],
    ["silence", new Int16Array(16000)],
    ["quiet", uniformNoise(16000, 60, 4)],
    ["square full scale", square],
    ["clipped speech", loud],
    ["short", synthPhrase([{ formants: [700, 1200], ms: 150, periodFrom: 100, periodTo: 100 }], 100, 5)],
    ["steady tone", tone],
    ["60 s", new Int16Array(60 * 16000)],
    ["long phrase", synthPhrase(PHRASE_A, 320, 6)],
    ["random full range", uniformNoise(32000, 32767, 7)],
  ];
  for (const [name, samples] of hostile) {
    const f = kernel.exampleFeatures(samples);
    out.push(`refuse ${name}: ${f.refusal ?? "accepted"} frames=${f.frames} clipped=${f.clipped}`);
  }

  // Examples too unlike each other, features that are not features, and the state after a refusal.
  const other = kernel.exampleFeatures(synthPhrase(PHRASE_B, 100, 40)).features!;
  out.push(`teach unlike: ${detector.teach([features[0], features[1], other]).refusal}`);
  out.push(`teach bad: ${detector.teach([new Int16Array(13)]).refusal} ${detector.teach([new Int16Array(14 * 40)]).refusal}`);
  out.push(`teach none: ${failure(() => detector.teach([]))}`);
  out.push(`teach four: ${failure(() => detector.teach([features[0], features[0], features[0], features[0]]))}`);
  out.push(`after refusal: ${detections(detector, stream)}`);
  out.push(`teach one: ${JSON.stringify(detector.teach([features[1]]))}`);
  out.push(`one example: ${detections(detector, stream)}`);

  // Extreme input through the detector: no NaN, no crash.
  detector.teach(features);
  const alternating = new Int16Array(32000);
  for (let i = 0; i < alternating.length; i++) alternating[i] = i % 2 ? 32767 : -32768;
  for (const [name, samples] of [
    ["full-scale square", square],
    ["alternating", alternating],
    ["random", uniformNoise(48000, 32767, 8)],
    ["zeros", new Int16Array(48000)],
  ] as Array<[string, Int16Array]>) {
    const s = new Float32Array(samples.length / 160);
    detector.reset();
    const hits = detector.push(samples, s);
    out.push(`extreme ${name}: nan=${hasNaN(s)} hit=${hits ? "yes" : "no"} scores=${hashBytes(s)}`);
  }
  // Odd block sizes give the same scores as one block.
  const pieces = new Float32Array(scores.length);
  detector.reset();
  let scored = 0;
  for (let at = 0, size = 1; at < stream.length; at += size, size = 1 + ((size * 7 + 3) % 997)) {
    const chunk = stream.subarray(at, at + size);
    const room = pieces.subarray(scored);
    detector.push(chunk, room);
    scored += Math.floor((at + chunk.length) / 160) - Math.floor(at / 160);
  }
  out.push(`blocks same-scores=${hashBytes(pieces) === hashBytes(scores)}`);

  out.push(`bad samples: ${failure(() => detector.push(new Float32Array(160) as unknown as Int16Array))}`);
  out.push(`bad scores: ${failure(() => detector.push(new Int16Array(160), new Int16Array(4) as unknown as Float32Array))}`);
  detector.close();
  out.push(`closed: ${failure(() => detector.reset())}`);
  detector.close();
  return out;
}
