// Margins of the wake engine on one split of test/support/wake-set.ts, for choosing its tuned constants
// (modules/wake/wake.h) on the "tune" split. Builds the engine with extra -D flags into its own addon (the
// simulator's stays as it is), runs every positive and the negatives with per-hop scores (the best distance
// over the threshold), and prints, for each phrase and threshold scale, the detection rates and the false
// accepts an hour: a curve, where the bench prints one point (scale 1).
//
//   npx tsx bench/wake-tune.ts [tune|test] [-DWAKE_NAME=value ... [/ -DWAKE_NAME=value ...]]
//
// Builds are separated by "/" ("-" alone: the defaults); the split's audio is made once for all of them.
//
// A positive counts when a hop from the phrase's start to half a second after its end scores under the scale;
// false accepts are runs of hops under it, 1.5 s apart (the refractory period). Both are close to what the
// detector itself does (it also drops its partial matches after a detection).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findNodeHeaders } from "../hosts/sim/wake/build.mjs";
import type { WakeAddon } from "../hosts/sim/wake/kernel.ts";
import {
  type Negatives,
  type Positive,
  type Split,
  WAKE_PHRASES,
  type WakePhrase,
  wakeExamples,
  wakeNegatives,
  wakePositives,
} from "../test/support/wake-set.ts";
import { CONDITIONS } from "./wake-work.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ENGINE = join(ROOT, "modules/wake");
const SCALES = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3];
const LATE_HOPS = 50;
const REFRACTORY_HOPS = 150;

/** The engine compiled with `flags` into a cached addon of its own. */
function addonWith(flags: string[]): WakeAddon {
  const headers = findNodeHeaders();
  if (!headers) throw new Error("no Node headers");
  const files = [
    ...readdirSync(ENGINE)
      .filter((f) => f.endsWith(".c") && f !== "wake_xs.c")
      .sort()
      .map((f) => join(ENGINE, f)),
    join(ROOT, "hosts/sim/wake/wake_napi.c"),
  ];
  const args = ["-O2", "-ffp-contract=off", "-fPIC", "-shared", "-std=gnu99", ...flags, `-I${headers}`, `-I${ENGINE}`, ...files, "-lm"];
  const hash = createHash("sha256").update(JSON.stringify(args));
  for (const f of [...files, join(ENGINE, "wake.h")]) hash.update(spawnSync("cat", [f]).stdout);
  const dir = join(tmpdir(), "halo-wake-tune");
  const out = join(dir, `${hash.digest("hex").slice(0, 16)}.node`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const r = spawnSync("cc", [...args, "-o", out], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr);
  }
  return createRequire(import.meta.url)(out) as WakeAddon;
}

function scoresOf(addon: WakeAddon, detector: object, samples: Int16Array): Float32Array {
  const scores = new Float32Array(Math.floor(samples.length / 160));
  addon.reset(detector);
  addon.sensitivity(detector, 0.5);
  let done = 0;
  for (let at = 0; at < samples.length; at += 320) {
    const block = samples.subarray(at, at + 320);
    addon.push(detector, block, scores.subarray(done));
    done += Math.floor(block.length / 160);
  }

  return scores;
}

function falseAccepts(scores: Float32Array, scale: number): number {
  let count = 0;
  let quiet = 0;
  for (let h = 0; h < scores.length; h++) {
    if (quiet > 0) quiet--;
    else if (scores[h] < scale) {
      count++;
      quiet = REFRACTORY_HOPS;
    }
  }
  return count;
}

/** The phrase's figures with one build: rates at each scale and false accepts an hour. */
function phraseCurve(addon: WakeAddon, phrase: WakePhrase, data: SplitData): string[] {
  const detector = addon.create();
  const taught = addon.teach(
    detector,
    ...wakeExamples(phrase).map((s) => {
      const f = addon.features(s);
      if (!f.features) throw new Error(`example refused: ${f.reason}`);
      return f.features;
    }),
  );
  if (taught.reason) throw new Error(`examples refused: ${taught.reason}`);
  const best: Record<string, number[]> = {};
  for (const [name] of CONDITIONS)
    best[name] = data.positives[phrase][name].map((p) => {
      const s = scoresOf(addon, detector, p.samples);
      let min = Number.POSITIVE_INFINITY;
      for (let h = Math.floor(p.phraseStart / 160); h < Math.min(s.length, Math.ceil(p.phraseEnd / 160) + LATE_HOPS); h++)
        min = Math.min(min, s[h]);
      return min;
    });
  const ns = scoresOf(addon, detector, data.negatives.samples);
  addon.close(detector);
  const hours = data.negatives.seconds / 3600;
  let nmin = Number.POSITIVE_INFINITY;
  for (const v of ns) nmin = Math.min(nmin, v);
  const out = [
    `${phrase}: mutual ${taught.d01.toFixed(2)},${taught.d02.toFixed(2)},${taught.d12.toFixed(2)} threshold ${taught.threshold.toFixed(2)}; least negative score ${nmin.toFixed(3)}`,
    `  scale  ${CONDITIONS.map(([n]) => n.padStart(12)).join("")}   FA/h`,
  ];
  for (const scale of SCALES) {
    const rates = CONDITIONS.map(([n]) => (best[n].filter((v) => v < scale).length / best[n].length).toFixed(3).padStart(12));
    out.push(`  ${scale.toFixed(2)}   ${rates.join("")}   ${(falseAccepts(ns, scale) / hours).toFixed(2)}`);
  }
  const at = (v: number) => best["10db"].filter((x) => x < v).length / best["10db"].length;
  out.push(
    `  at the least negative score: 10 dB ${at(nmin).toFixed(3)}, 5 dB ${(best["5db"].filter((x) => x < nmin).length / best["5db"].length).toFixed(3)}`,
  );
  const misses = best["10db"]
    .map((v, i) => [v, i] as const)
    .filter(([v]) => v >= 1)
    .map(([v, i]) => `${data.positives[phrase]["10db"][i].label.replace(/^en-us /, "").replace(/ 10dB$/, "")} ${v.toFixed(2)}`);
  out.push(`  10 dB misses: ${misses.join("; ") || "none"}`);
  return out;
}

interface SplitData {
  positives: Record<string, Record<string, Positive[]>>;
  negatives: Negatives;
}

function main(): void {
  const args = process.argv.slice(2);
  const split = (args[0] === "test" ? "test" : "tune") as Split;
  // configurations: groups of -D flags separated by "/", "-" alone for none
  const configs = args
    .filter((a) => a !== "test" && a !== "tune")
    .join(" ")
    .split("/")
    .map((c) => c.split(/\s+/).filter((f) => f.startsWith("-D")));
  if (configs.length === 0) configs.push([]);
  const data: SplitData = { positives: {}, negatives: wakeNegatives(split) };
  for (const phrase of WAKE_PHRASES) {
    data.positives[phrase] = {};
    for (const [name, condition] of CONDITIONS) data.positives[phrase][name] = wakePositives(phrase, split, condition);
  }
  for (const flags of configs) {
    // Built to score only: a detection drops the partial matches, and the score would stop falling there.
    const addon = addonWith([...flags, "-DWAKE_DETECTS=0"]);
    console.log(`== split ${split} flags ${flags.join(" ") || "(none)"} bytes ${addon.bytes()}`);
    for (const phrase of WAKE_PHRASES) console.log(phraseCurve(addon, phrase, data).join("\n"));
  }
}

main();
