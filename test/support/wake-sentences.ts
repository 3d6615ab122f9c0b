// Sentences for the wake-word negatives: everyday sentences from small word lists, and a share of
// "near misses" that share a word or a syllable with the test phrases ("hey", "halo", "hello", "hollow",
// "okay", "nova", "novel", "over") without saying a phrase itself. Seeded: a seed gives the same list.
import type { Prng } from "./prng.ts";

const NAMES = ["Anna", "Ben", "Carla", "David", "Elena", "Frank", "Grace", "Hugo", "Ivy", "Jonas", "Kate", "Leo", "Maya", "Nina", "Oscar"];
const THINGS = [
  "the red cup",
  "a paper map",
  "the kitchen window",
  "my blue jacket",
  "the garden hose",
  "an old radio",
  "the train ticket",
  "a box of nails",
  "the yellow lamp",
  "the weekly report",
  "a bottle of water",
  "the front door",
  "the spare key",
  "a loaf of bread",
  "the broken chair",
  "her new bicycle",
  "the printer cable",
  "a bag of apples",
];
const VERBS = ["found", "moved", "painted", "cleaned", "borrowed", "fixed", "opened", "sold", "carried", "forgot", "checked", "washed"];
const PLACES = [
  "in the hallway",
  "near the station",
  "after lunch",
  "before the meeting",
  "at the market",
  "on Tuesday morning",
  "by the river",
  "under the table",
  "in the garage",
  "last weekend",
  "at the office",
  "behind the shed",
];
const QUESTIONS = [
  "could you pass the salt",
  "did you see the game last night",
  "where did you park the car",
  "is the kettle still on",
  "what time does the shop close",
  "have you called your sister",
];

/** Sentences that share a word or a syllable with "hey halo" or "okay nova" but say neither phrase. */
const NEAR_MISSES: Array<(pick: <T>(list: T[]) => T) => string> = [
  (p) => `Hey ${p(NAMES)}, ${p(QUESTIONS)}?`,
  (p) => `Hello ${p(NAMES)}, I ${p(VERBS)} ${p(THINGS)} ${p(PLACES)}.`,
  (p) => `The saint in the old painting wore a golden halo ${p(PLACES)}.`,
  (p) => `They stacked the hay in the hollow barn ${p(PLACES)}.`,
  (p) => `Okay, I ${p(VERBS)} ${p(THINGS)} ${p(PLACES)}.`,
  (p) => `The astronomer said the nova was bright ${p(PLACES)}.`,
  (p) => `${p(NAMES)} wrote a novel about a small town in Nevada.`,
  (p) => `We drove over the hill and ${p(VERBS)} ${p(THINGS)}.`,
  (p) => `The halo effect changed how ${p(NAMES)} judged the new manager.`,
  () => `Hey, that is a nice halo of light around the lamp.`,
  (p) => `Is it okay if ${p(NAMES)} borrows ${p(THINGS)}?`,
  () => `Nova Scotia is known for its lobsters and its long winters.`,
  (p) => `Say hello to ${p(NAMES)} and tell her the game is over.`,
  () => `The hollow log by the lake was home to a family of owls.`,
  (p) => `No, ${p(NAMES)}, the novel is on the shelf ${p(PLACES)}.`,
  (p) => `Hey, hey, slow down, the road is wet ${p(PLACES)}.`,
];

const PLAIN: Array<(pick: <T>(list: T[]) => T) => string> = [
  (p) => `${p(NAMES)} ${p(VERBS)} ${p(THINGS)} ${p(PLACES)}.`,
  (p) => `I think ${p(NAMES)} ${p(VERBS)} ${p(THINGS)} ${p(PLACES)}, but I am not sure.`,
  (p) => `${p(NAMES)} asked ${p(NAMES)} whether she ${p(VERBS)} ${p(THINGS)}.`,
  (p) => `${p(QUESTIONS)}? I need to know before ${p(NAMES)} arrives.`,
  (p) => `We ${p(VERBS)} ${p(THINGS)} and ${p(THINGS)} ${p(PLACES)}.`,
  (p) => `The forecast says rain ${p(PLACES)}, so bring ${p(THINGS)}.`,
];

export interface Sentence {
  text: string;
  /** Shares a word or a syllable with a test phrase. */
  nearMiss: boolean;
}

/** `count` sentences, about a third of them near misses. */
export function sentences(rng: Prng, count: number): Sentence[] {
  const pick = <T>(list: T[]): T => list[rng.int(0, list.length - 1)];
  const out: Sentence[] = [];
  for (let i = 0; i < count; i++) {
    const nearMiss = rng.next() < 0.33;
    const text = (nearMiss ? pick(NEAR_MISSES) : pick(PLAIN))(pick);
    out.push({ text: text.charAt(0).toUpperCase() + text.slice(1), nearMiss });
  }
  return out;
}
