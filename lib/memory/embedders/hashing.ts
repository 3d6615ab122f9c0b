// The offline embedder: feature hashing of words and character trigrams. It
// needs no key and no network, is deterministic on every engine, and is good
// enough to find a stored fact by the words it shares with a query.
import { djb2 } from "../../util/hash";
import type { Embedder } from "./embedder";

export const HASHING_EMBEDDER_VERSION = "offline-hash-v1";

/** Words too common to say anything about a fact: they add no features at all. */
const STOPWORDS = new Set(
  (
    "a an and are as at be by for from has have i in is it its my of on or our the to was were " +
    "what when where which who will with you your me we this that do does did not"
  ).split(" "),
);
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.35;
/** Characters of one text that feed the features; a longer text is read up to here. */
const MAX_TEXT_CHARS = 8000;
/** ASCII whitespace and punctuation split words; other characters (accents, CJK) stay in words. */
const WORD_SPLIT = /[\s!-/:-@[-`{-~]+/;

/** The feature-hashing embedder at `dims` dimensions. */
export function hashingEmbedder(dims: number): Embedder {
  return {
    id: `${HASHING_EMBEDDER_VERSION}/${dims}`,
    dims,
    embed: (texts) => Promise.resolve(texts.map((t) => hashText(t, dims))),
  };
}

/** The un-normalized feature vector of one text (the store normalizes). */
export function hashText(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  const words = text.slice(0, MAX_TEXT_CHARS).toLowerCase().split(WORD_SPLIT);
  for (const word of words) {
    if (word.length === 0 || STOPWORDS.has(word)) continue;
    add(v, djb2("w:" + stem(word)), WORD_WEIGHT);
    const padded = " " + word + " ";
    for (let i = 0; i + 3 <= padded.length; i++) add(v, djb2("c:" + padded.substr(i, 3)), TRIGRAM_WEIGHT);
  }
  return v;
}

/** A crude English suffix strip so "parked", "parking" and "parks" share the word feature of "park". */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

// djb2's low bits mix poorly (short strings that differ in one character
// land near each other), so the hash goes through murmur3's finalizer first.
// The low bits then pick the dimension, the top bit the sign (signed hashing
// keeps the dot product of unrelated texts near zero).
function add(v: Float32Array, djb: number, weight: number): void {
  let h = djb ^ (djb >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  v[h % v.length] += h >= 0x80000000 ? -weight : weight;
}
