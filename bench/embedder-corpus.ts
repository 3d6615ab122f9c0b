// The "embedder" recall set of bench/vector.mjs: short facts of the kind a
// person tells the device, built deterministically from word lists, and
// queries that ask for one of them in other words. The bench embeds both with
// the device's default offline embedder (lib/memory/embedders/hashing.ts).
//
// Facts: CORPUS_FACTS distinct sentences, each one of FACT_KINDS templates
// (where a thing was left, where a relative lives, an appointment, a code, a
// birthday, a favourite, an allergy, a pet, a parking spot, a lend) filled with
// seeded choices from the lists below. Queries: QUERIES questions, each about a
// seeded fact: same slot values, different wording (another verb form, a
// question template, sometimes one slot left out), as a person would ask.
import { mulberry32, type Prng } from "../test/support/prng.ts";

export const CORPUS_FACTS = 20000;
export const CORPUS_QUERIES = 100;
const SEED = 2026;

const NAMES = (
  "Anna Ben Carla David Emma Felix Grace Hugo Ines Jonas Karin Liam Maria Noah Olga Paul Quinn Rosa Sam Tara " +
  "Uwe Vera Walter Xenia Yusuf Zoe Alice Bruno Chloe Dmitri Elena Farid Greta Hannah Igor Julia Kenji Lena Marco Nina " +
  "Oscar Petra Rahul Sofia Tomas Ute Viktor Wanda Yara Zack"
).split(" ");
const RELATIONS =
  "mother father sister brother aunt uncle cousin grandmother grandfather daughter son niece nephew boss friend neighbour".split(" ");
const CITIES = (
  "Berlin Hamburg Munich Vienna Zurich Paris Lyon Madrid Lisbon Rome Milan Prague Warsaw Oslo Stockholm Helsinki " +
  "Dublin London Leeds Glasgow Boston Denver Toronto Seattle Chicago Austin Sydney Perth Auckland Tokyo Osaka Seoul"
).split(" ");
const OBJECTS = (
  "keys passport charger umbrella headphones wallet glasses tablet camera drill ladder toolbox backpack helmet " +
  "scarf gloves notebook stapler remote thermos tent racket skateboard guitar blender kettle vacuum hammer"
).split(" ");
const PLACES = (
  "kitchen garage attic basement hallway bedroom office bathroom balcony cellar shed pantry closet drawer " +
  "cupboard bookshelf car trunk desk wardrobe"
).split(" ");
const EVENTS =
  "dentist appointment|haircut|doctor visit|team meeting|flight|concert|yoga class|parent evening|car service|job interview|vet appointment|piano lesson".split(
    "|",
  );
const DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(" ");
const MONTHS = "January February March April May June July August September October November December".split(" ");
/** Favourite things: a category and the values that fit it. */
const FAVOURITES: Array<[string, string[]]> = [
  ["colour", "blue green red purple orange yellow".split(" ")],
  ["food", "pizza sushi curry pasta tacos ramen".split(" ")],
  ["film", "Alien Amelie Dune Casablanca Heat Up".split(" ")],
  ["band", "Queen Abba Blur Muse Oasis Toto".split(" ")],
  ["sport", "football tennis chess climbing rowing cycling".split(" ")],
  ["drink", "coffee tea lemonade cider espresso cocoa".split(" ")],
  ["flower", "tulips roses daisies orchids lilies peonies".split(" ")],
  ["season", "autumn winter spring summer".split(" ")],
];
const FOODS = "peanuts shellfish gluten lactose eggs strawberries sesame kiwi soy celery mustard fish".split(" ");
const PETS = "dog cat rabbit hamster parrot turtle goldfish pony".split(" ");
const PET_NAMES = "Bello Luna Max Mimi Rocky Kiki Oskar Pepper Nala Simba Toffee Biscuit".split(" ");
const SECURED = "garage door|front gate|bike lock|alarm panel|safe|wifi router|storage unit|mailbox".split("|");
const LEVELS = "first second third fourth fifth".split(" ");
const GARAGES = "station|mall|airport|office|stadium|hospital".split("|");

type Pick = <T>(list: readonly T[]) => T;

/** One fact kind: a stored sentence and the questions that ask for it, over the same slot values. */
interface FactKind {
  slots(pick: Pick, prng: Prng): string[];
  fact(s: string[]): string;
  /** Question wordings over the fact's slots; some leave a slot out. */
  questions: Array<(s: string[]) => string>;
}

const FACT_KINDS: FactKind[] = [
  {
    slots: (pick) => [pick(NAMES), pick(OBJECTS), pick(PLACES)],
    fact: ([n, o, p]) => `${n} left the ${o} in the ${p}.`,
    questions: [
      ([n, o]) => `where did ${n} leave his ${o}`,
      ([n, o]) => `where are ${n}'s ${o}`,
      ([, o, p]) => `who is leaving the ${o} in the ${p}`,
    ],
  },
  {
    slots: (pick) => [pick(NAMES), pick(RELATIONS), pick(CITIES)],
    fact: ([n, r, c]) => `${n}'s ${r} lives in ${c}.`,
    questions: [
      ([n, r]) => `where does ${n}'s ${r} live`,
      ([n, r, c]) => `does ${n}'s ${r} still live in ${c}`,
      ([n, r]) => `which city is ${n} ${r} living in`,
    ],
  },
  {
    slots: (pick, prng) => [pick(NAMES), pick(EVENTS), pick(DAYS), String(prng.int(7, 18))],
    fact: ([n, e, d, h]) => `${n} has a ${e} on ${d} at ${h} o'clock.`,
    questions: [
      ([n, e]) => `when is ${n}'s ${e}`,
      ([n, e, d]) => `what time is the ${e} for ${n} on ${d}`,
      ([n, , d]) => `what does ${n} have on ${d}`,
    ],
  },
  {
    slots: (pick, prng) => [pick(SECURED), pick(NAMES), String(prng.int(1000, 9999))],
    fact: ([s, n, c]) => `The code for the ${s} at ${n}'s place is ${c}.`,
    questions: [([s, n]) => `what is the ${s} code at ${n}'s`, ([s, n]) => `${n} ${s} code`, ([s]) => `code of the ${s}`],
  },
  {
    slots: (pick, prng) => [pick(NAMES), pick(MONTHS), String(prng.int(1, 28)), String(prng.int(1940, 2020))],
    fact: ([n, m, d, y]) => `${n} was born on ${m} ${d}, ${y}.`,
    questions: [([n]) => `when is ${n}'s birthday`, ([n, m]) => `is ${n} born in ${m}`, ([n, , , y]) => `how old is ${n}, born ${y}`],
  },
  {
    slots: (pick) => {
      const [category, values] = pick(FAVOURITES);
      return [pick(NAMES), category, pick(values)];
    },
    fact: ([n, c, v]) => `${n}'s favourite ${c} is ${v}.`,
    questions: [
      ([n, c]) => `what is ${n}'s favourite ${c}`,
      ([n, c]) => `which ${c} does ${n} like best`,
      ([n, , v]) => `does ${n} love ${v}`,
    ],
  },
  {
    slots: (pick) => [pick(NAMES), pick(FOODS)],
    fact: ([n, f]) => `${n} is allergic to ${f}.`,
    questions: [([n]) => `what is ${n} allergic to`, ([n, f]) => `can ${n} eat ${f}`, ([n]) => `${n} allergies`],
  },
  {
    slots: (pick) => [pick(NAMES), pick(PETS), pick(PET_NAMES)],
    fact: ([n, p, m]) => `${n} has a ${p} called ${m}.`,
    questions: [([n, p]) => `what is the name of ${n}'s ${p}`, ([, p, m]) => `whose ${p} is ${m}`, ([n]) => `does ${n} have pets`],
  },
  {
    slots: (pick) => [pick(NAMES), pick(LEVELS), pick(GARAGES)],
    fact: ([n, l, g]) => `${n} parked on the ${l} level of the ${g} garage.`,
    questions: [
      ([n, , g]) => `where is ${n} parking at the ${g}`,
      ([n]) => `which level did ${n} park on`,
      ([n]) => `where are ${n}'s parking spots`,
    ],
  },
  {
    slots: (pick) => [pick(NAMES), pick(OBJECTS), pick(NAMES)],
    fact: ([a, o, b]) => `${a} lent the ${o} to ${b} last week.`,
    questions: [
      ([a, o]) => `who has ${a}'s ${o}`,
      ([a, o, b]) => `did ${b} return the ${o} ${a} lends`,
      ([, o, b]) => `what did ${b} borrow, the ${o}`,
    ],
  },
];

export interface EmbedderCorpus {
  facts: string[];
  queries: string[];
}

/** The documented set: CORPUS_FACTS distinct facts and CORPUS_QUERIES questions (seed 2026). */
export function buildEmbedderCorpus(facts = CORPUS_FACTS, queries = CORPUS_QUERIES): EmbedderCorpus {
  const prng = mulberry32(SEED);
  const pick: Pick = (list) => list[prng.int(0, list.length - 1)];
  const seen = new Set<string>();
  const stored: Array<{ kind: FactKind; slots: string[] }> = [];
  const texts: string[] = [];
  while (texts.length < facts) {
    const kind = pick(FACT_KINDS);
    const slots = kind.slots(pick, prng);
    const text = kind.fact(slots);
    if (seen.has(text)) continue;
    seen.add(text);
    stored.push({ kind, slots });
    texts.push(text);
  }
  const asked: string[] = [];
  for (let q = 0; q < queries; q++) {
    const { kind, slots } = stored[prng.int(0, stored.length - 1)];
    asked.push(pick(kind.questions)(slots));
  }
  return { facts: texts, queries: asked };
}
