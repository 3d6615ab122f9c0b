// Voice latency, one `name: value` line each:
//
//   voice-overhead-ms-node  the pipeline's own time on Node (baseline for the XS figure)
//   voice-overhead-ms-xs    on the XS host: end of speech (the deciding mic block) to the last byte of the
//                           transcription request, plus first speech byte received to first speaker write,
//                           with in-process stand-ins (bench/voice-work.ts); aim <= 50
//   voice-first-audio-ms    on Node over a real socket: reply text ready to the first speaker write, with a
//                           local speech stand-in that streams PCM (test/support/voice-server.ts); aim <= 150
//
// Medians of 9 exchanges (Node, XS) and 15 replies.
//
//   node bench/voice.mjs    (or through `npm run bench`)
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const RUNS = 9;
const REPLIES = 15;

export async function runVoiceBench() {
  const { timeVoiceOverhead, median } = await tsImport("./voice-work.ts", import.meta.url);
  const figures = [["voice-overhead-ms-node", median(await timeVoiceOverhead(RUNS, () => performance.now()))]];
  const { runOnXs } = await import("../hosts/xs/run.mjs");
  const r = await runOnXs("bench/voice.xs.ts", { args: [String(RUNS)], timeoutMs: 300_000 });
  const line = /VOICE-XS (\{.*\})/.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`the XS voice bench failed (exit ${r.code}): ${(r.stderr + r.stdout).slice(0, 400)}`);
  figures.push(["voice-overhead-ms-xs", JSON.parse(line[1]).medianMs]);
  const { timeFirstAudio } = await tsImport("./voice-first-audio.ts", import.meta.url);
  figures.push(["voice-first-audio-ms", median(await timeFirstAudio(REPLIES))]);
  return figures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, value] of await runVoiceBench()) console.log(`${name}: ${value.toFixed(3)}`);
}
