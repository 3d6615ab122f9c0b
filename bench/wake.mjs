// Wake-word figures, one `name: value` line each, for each of the two test phrases: the phrase is the
// name's suffix ("-hey-halo", "-okay-nova"). Measured on the "test" split of test/support/wake-set.ts (the
// engine's defaults were set on the "tune" split; docs/wake-word.md says how "test" was looked at), at the
// default sensitivity (0.5):
//
//   wake-detect-rate-20db/-10db/-5db   positives in the examples' voice at other speeds and pitches, with
//                                      white, pink and babble noise at that SNR; aim >= 0.95 at 10 dB
//   wake-detect-rate-other-voice       the same phrase in another espeak-ng voice at 20 dB (no aim: the
//                                      examples should be in the owner's own voice)
//   wake-false-accepts-per-hour        detections over 62 minutes of other speech and noise; aim <= 0.5
//   wake-cpu-fraction-xs-speech        on the XS host: detector time over audio time for 20 s of speech
//   wake-cpu-fraction-xs-silence       ... and for 20 s of a quiet room; aim <= 0.005 during speech
//   wake-detector-bytes                a detector's fixed memory (three examples or fewer); aim <= 49152
//
//   node bench/wake.mjs    (or through `npm run bench`)
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const XS_REPEATS = 5;
const CPU_SECONDS = 20;

const base64 = (view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");

/** Detector time over audio time on the XS host, for speech and for silence, with the phrase's examples. */
async function xsCpu(features, speech, silence, name) {
  const { runOnXs } = await import("../hosts/xs/run.mjs");
  const dir = join(ROOT, "hosts/xs/build/wake-bench");
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `${name}.js`);
  const data = { features: features.map(base64), speech: base64(speech), silence: base64(silence), repeats: XS_REPEATS };
  // Plain JavaScript in the build folder, so the type checks never read it.
  writeFileSync(
    entry,
    `import { runWakeCpu } from ${JSON.stringify(join(ROOT, "bench/wake-cpu.ts"))};\nrunWakeCpu(${JSON.stringify(data)});\n`,
  );
  const r = await runOnXs(entry, { timeoutMs: 600_000 });
  const line = /WAKE-XS (\{.*\})/.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`the XS wake bench failed (exit ${r.code}): ${(r.stderr + r.stdout).slice(0, 400)}`);
  return JSON.parse(line[1]);
}

export async function runWakeBench() {
  const { nodeWakeKernel } = await tsImport("../hosts/sim/wake/kernel.ts", import.meta.url);
  const { phraseFigures, teachPhrase } = await tsImport("./wake-work.ts", import.meta.url);
  const { WAKE_PHRASES, wakeNegatives } = await tsImport("../test/support/wake-set.ts", import.meta.url);
  const { whiteNoise } = await tsImport("../test/support/wake-speech.ts", import.meta.url);
  const kernel = nodeWakeKernel();
  const speech = wakeNegatives("test").samples.subarray(0, CPU_SECONDS * 16000);
  const room = whiteNoise(CPU_SECONDS * 16000, 5);
  const silence = Int16Array.from(room, (x) => Math.round(x * 20));
  const figures = [];
  for (const phrase of WAKE_PHRASES) {
    const suffix = phrase.replace(/ /g, "-");
    const f = phraseFigures(kernel, phrase, "test");
    for (const [condition, rate] of f.rates) if (condition !== "clean") figures.push([`wake-detect-rate-${condition}-${suffix}`, rate]);
    figures.push([`wake-false-accepts-per-hour-${suffix}`, f.falseAccepts / f.negativeHours]);
    const { detector, features } = teachPhrase(kernel, phrase);
    detector.close();
    const cpu = await xsCpu(features, speech, silence, suffix);
    figures.push([`wake-cpu-fraction-xs-speech-${suffix}`, cpu.speech]);
    figures.push([`wake-cpu-fraction-xs-silence-${suffix}`, cpu.silence]);
    figures.push([`wake-detector-bytes-${suffix}`, cpu.bytes]);
  }
  return figures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, value] of await runWakeBench()) console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(4)}`);
}
