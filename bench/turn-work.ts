// The turn benchmark's unit of work, shared by Node (bench/turn.mjs) and XS
// (bench/turn.xs.ts): one orchestrator turn on the real core without a network
// (compose the prompt with recall, two tool calls through the registry, parse
// the contract answer, apply mem_query[] and a device[] led action, save the
// conversation), with a scripted in-process router in place of the providers.
import { makePrincipal } from "../lib/registry/principal.ts";
import { scenarioTurnRig, scriptBenchTurn } from "../test/scenarios/turn.ts";

/** Turns run before timing, so the conversation history is at its steady size. */
export const WARMUP_TURNS = 14;

/** Milliseconds of each of `samples` turns, timed with `now`. */
export async function timeTurns(samples: number, now: () => number): Promise<number[]> {
  const { engine, router } = scenarioTurnRig();
  const owner = makePrincipal("owner", "admin", "turn");
  await engine.runTurn(owner, { text: "I like green tea." });
  const ms: number[] = [];
  for (let i = 0; i < WARMUP_TURNS + samples; i++) {
    scriptBenchTurn(router);
    const start = now();
    const r = await engine.runTurn(owner, { text: `What did the docs say about memory? (${i})` });
    const took = now() - start;
    if (!r.ok) throw new Error(`the bench turn failed: ${r.reply}`);
    if (i >= WARMUP_TURNS) ms.push(took);
  }
  return ms;
}

export function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
