// The hybrid-recall set (docs/memory.md): HYBRID_PAIRS hand-written facts, each
// with one question, stored among HYBRID_DISTRACTORS facts of the embedder
// corpus (bench/embedder-corpus.ts, seed 2026) in one namespace. The questions
// are of four kinds: a single word of the fact, a name, a number, and a
// paraphrase. A question scores a hit when its fact is among memory.search's
// first 5 results. bench/memory.mjs prints memory-hit-at-5-hybrid and
// memory-hit-at-5-vector-only (lexical_weight 0) on it with the offline
// embedder; test/memory/hybrid.test.ts runs it too.
import { memorySettings } from "../hosts/sim/ports/memory-settings.ts";
import { updateConfig } from "../lib/memory/config-ops.ts";
import { MemoryEngine } from "../lib/memory/engine.ts";
import { hashingEmbedder } from "../lib/memory/embedders/hashing.ts";
import { tsKernels } from "../lib/memory/store/kernel-ts.ts";
import { simVectorArena } from "../hosts/sim/ports/vector-arena.ts";
import { searchMemory } from "../lib/memory/recall/search.ts";
import { writeMemory } from "../lib/memory/writes.ts";
import { makePrincipal } from "../lib/registry/principal.ts";
import { buildEmbedderCorpus } from "./embedder-corpus.ts";
import { zeroDigest } from "../test/support/digests.ts";

export const HYBRID_DISTRACTORS = 2000;

export type QuestionKind = "word" | "name" | "number" | "paraphrase";

export interface HybridPair {
  fact: string;
  question: string;
  kind: QuestionKind;
}

export const HYBRID_PAIRS: readonly HybridPair[] = [
  { fact: "My ficus needs water every Sunday", question: "ficus", kind: "word" },
  { fact: "The sourdough starter lives in the fridge on the top shelf", question: "sourdough", kind: "word" },
  { fact: "The plumber said the boiler pressure should stay near 1.5 bar", question: "boiler", kind: "word" },
  { fact: "We keep the spare fuses in the blue tin under the stairs", question: "fuses", kind: "word" },
  { fact: "The landlord wants the gutters cleared before November", question: "gutters", kind: "word" },
  { fact: "Granny's quilt goes to the dry cleaner only, never the washing machine", question: "quilt", kind: "word" },
  { fact: "The telescope lens cap is in the left coat pocket", question: "telescope", kind: "word" },
  { fact: "Our mortgage fixed rate ends in the spring of 2028", question: "mortgage", kind: "word" },
  { fact: "The kombucha needs another week before bottling", question: "kombucha", kind: "word" },
  { fact: "The trampoline warranty covers the springs for five years", question: "trampoline", kind: "word" },
  { fact: "Okonkwo from the climbing gym can lend us a rope", question: "Okonkwo", kind: "name" },
  { fact: "Dr. Valdivia moved her practice to the river side of town", question: "Valdivia", kind: "name" },
  { fact: "Siobhan is allergic to cats and brings her own pillow", question: "what about Siobhan", kind: "name" },
  { fact: "Thibault fixes bicycles in the courtyard on Saturdays", question: "Thibault", kind: "name" },
  { fact: "Mrs. Abernathy waters the plants when we travel", question: "Abernathy", kind: "name" },
  { fact: "Priyanka recommended the Zanzibar spice market tour", question: "Priyanka", kind: "name" },
  { fact: "Our neighbour Gustavsson has a key to the back door", question: "Gustavsson key", kind: "name" },
  { fact: "Leopold's wedding is in Ljubljana next summer", question: "Ljubljana", kind: "name" },
  { fact: "The storage unit PIN is 4471", question: "4471", kind: "number" },
  { fact: "Flight LH2215 leaves from terminal 2 at 06:40", question: "LH2215", kind: "number" },
  { fact: "The printer model is HP 8710 and takes 953XL cartridges", question: "953XL", kind: "number" },
  { fact: "The car insurance policy number is 88-301-7742", question: "7742", kind: "number" },
  { fact: "Room 1408 at the conference hotel is booked under my name", question: "1408", kind: "number" },
  { fact: "The library card barcode ends in 90215", question: "90215", kind: "number" },
  { fact: "The water meter read 3317 cubic metres in January", question: "3317", kind: "number" },
  { fact: "I parked on level P3, spot 217, at the airport", question: "spot 217", kind: "number" },
  { fact: "My ficus should be repotted in April with cactus soil", question: "when should the ficus get new soil", kind: "paraphrase" },
  {
    fact: "The dishwasher salt goes in the round cap at the bottom",
    question: "where does the salt for the dishwasher go",
    kind: "paraphrase",
  },
  { fact: "Grandpa likes his tea with two sugars and no milk", question: "how does grandpa take his tea", kind: "paraphrase" },
  {
    fact: "The smoke detector batteries were replaced in October",
    question: "when did we change the smoke detector batteries",
    kind: "paraphrase",
  },
];

/** The facts to store (the distractors first, then the pairs' facts) and the questions. */
export function hybridSet(): { facts: string[]; pairs: readonly HybridPair[] } {
  const { facts } = buildEmbedderCorpus(HYBRID_DISTRACTORS, 1);
  return { facts: [...facts, ...HYBRID_PAIRS.map((p) => p.fact)], pairs: HYBRID_PAIRS };
}

/** hit@5 on the set with `lexicalWeight` (0: embeddings only), in RAM, offline embedder, TypeScript kernels. */
export async function hybridHitAt5(lexicalWeight: number): Promise<{ hitAt5: number; misses: string[] }> {
  const engine = new MemoryEngine({
    clock: { now: () => Date.UTC(2026, 5, 1) },
    log: { info: () => undefined, warn: () => undefined },
    settings: memorySettings(),
    digest: zeroDigest(),
    kernels: tsKernels,
    arena: simVectorArena(),
    embedder: hashingEmbedder(256),
  });
  updateConfig(engine, { lexical_weight: lexicalWeight });
  const owner = makePrincipal("owner", "admin", "turn");
  const { facts, pairs } = hybridSet();
  for (const content of facts) await writeMemory(engine, owner, { content });
  const misses: string[] = [];
  for (const pair of pairs) {
    const { hits } = await searchMemory(engine, owner, pair.question, 5);
    if (!hits.some((h) => h.content === pair.fact)) misses.push(`${pair.kind}: ${pair.question}`);
  }
  return { hitAt5: (pairs.length - misses.length) / pairs.length, misses };
}
