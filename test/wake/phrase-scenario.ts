// The wake phrase store (lib/wake/phrase.ts) as a transcript, with the engine of the host it runs on: Node's
// addon or the XS binding. Both must print the same lines. Synthetic takes (test/wake/synthetic.ts) so both
// engines make the same samples without files.
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import type { Settings, WakeKernel } from "../../lib/ports.ts";
import { WakePhrase } from "../../lib/wake/phrase.ts";
import { join, PHRASE_A, PHRASE_B, synthPhrase, uniformNoise } from "./synthetic.ts";

function outcome(run: () => unknown): string {
  try {
    return `ok ${JSON.stringify(run())}`;
  } catch (e) {
    const error = e as Error & { tag?: string };
    return `refused ${error.tag}: ${error.message}`;
  }
}

/** The hop of the first detection when `samples` go through in 20 ms blocks, or "none". */
function firstHit(phrase: WakePhrase, samples: Int16Array): string {
  const detector = phrase.detector();
  if (!detector) return "no detector";
  detector.reset();
  for (let at = 0; at < samples.length; at += 320) {
    const hit = detector.push(samples.subarray(at, at + 320));
    if (hit) return `hop ${hit.hop}`;
  }
  return "none";
}

/** Settings whose `set` of one key fails, as a power cut at that write would leave them. */
function cutAt(settings: Settings, key: string): Settings {
  return {
    ...settings,
    get: (k) => settings.get(k),
    keys: (p) => settings.keys(p),
    remove: (k) => settings.remove(k),
    set: (k, v) => {
      if (k === key) throw new Error("power cut");
      settings.set(k, v);
    },
  };
}

export function runPhraseScenario(kernel: WakeKernel): string[] {
  const out: string[] = [];
  const lines: string[] = [];
  const log = { info: (m: string) => void lines.push(m), warn: (m: string) => void lines.push(`warn ${m}`) };
  const settings = memorySettings();
  const open = (s: Settings = settings): WakePhrase => new WakePhrase({ kernel, settings: s, log });
  const takesA = [94, 100, 106].map((percent, i) => synthPhrase(PHRASE_A, percent, 10 + i));
  const takeB = synthPhrase(PHRASE_B, 100, 20);
  const stream = join(uniformNoise(16000, 40, 3), synthPhrase(PHRASE_A, 98, 30), uniformNoise(16000, 40, 4));

  let phrase = open();
  out.push(`fresh ${JSON.stringify(phrase.state())} detector=${phrase.detector() ? "yes" : "no"}`);
  out.push(`configure before teaching: ${outcome(() => phrase.configure({ enabled: true }))}`);
  out.push(`silent: ${outcome(() => phrase.addExample(new Int16Array(16000)))}`);
  const square = new Int16Array(16000);
  for (let i = 0; i < square.length; i++) square[i] = (i >> 4) & 1 ? 32767 : -32768;
  out.push(`square: ${outcome(() => phrase.addExample(square))}`);
  out.push(`empty: ${outcome(() => phrase.addExample(new Int16Array(0)))}`);
  out.push(`five seconds: ${outcome(() => phrase.addExample(join(takesA[0], takesA[1], takesA[2], uniformNoise(40000, 40, 5))))}`);
  out.push(`first: ${outcome(() => phrase.addExample(takesA[0]))}`);
  out.push(`second: ${outcome(() => phrase.addExample(takesA[1]))}`);
  out.push(`after restart: ${JSON.stringify(open().state())}`);
  out.push(`unlike third: ${outcome(() => phrase.addExample(takeB))}`);
  for (const [i, take] of takesA.entries()) out.push(`take ${i}: ${outcome(() => phrase.addExample(take))}`);
  out.push(`detects the phrase: ${firstHit(phrase, stream)}`);
  out.push(`keys ${settings.keys("wake.").join(",")}`);
  out.push(
    `configure: ${outcome(() => phrase.configure({ enabled: false, sensitivity: 0.75 }))} detector=${phrase.detector() ? "yes" : "no"}`,
  );
  out.push(`sensitivity 2: ${outcome(() => phrase.configure({ sensitivity: 2 }))}`);
  phrase = open();
  out.push(`after restart: ${JSON.stringify(phrase.state())}`);
  out.push(`enable: ${outcome(() => phrase.configure({ enabled: true }))} detects: ${firstHit(phrase, stream)}`);

  // A new phrase cut off at its commit: the old one stays whole, the other generation's keys are swept.
  const cut = open(cutAt(settings, "wake.phrase"));
  cut.addExample(takesA[2]);
  cut.addExample(takesA[1]);
  out.push(`cut at the commit: ${outcome(() => cut.addExample(takesA[0]))}`);
  out.push(`keys after the cut ${settings.keys("wake.").join(",")}`);
  phrase = open();
  out.push(`after restart: ${JSON.stringify(phrase.state())} detects: ${firstHit(phrase, stream)}`);
  out.push(`keys after restart ${settings.keys("wake.").join(",")}`);

  // Stored features that are damaged: refused at boot with a warning, never a crash.
  const damaged = settings.keys("wake.ex.")[0];
  settings.set(damaged, "!!not base64!!");
  phrase = open();
  out.push(`damaged: ${JSON.stringify(phrase.state())} keys ${settings.keys("wake.").join(",")}`);
  settings.set("wake.phrase", "{broken");
  out.push(`broken record: ${JSON.stringify(open().state())}`);

  for (const take of takesA) phrase.addExample(take);
  out.push(`taught again: ${JSON.stringify(phrase.state())}`);
  out.push(`remove: ${outcome(() => phrase.remove())} keys ${settings.keys("wake.").join(",") || "none"}`);
  out.push(`after restart: ${JSON.stringify(open().state())}`);
  out.push(...lines.map((l) => `log ${l}`));
  return out;
}
