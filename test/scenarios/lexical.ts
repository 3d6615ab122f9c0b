// The compact lexical index (lib/memory/recall/lexical.ts) against the reference it replaced
// (test/support/lexical-reference.ts): seeded adds, removes and searches over two namespaces,
// with words nearly every entry holds (dense postings, and the full pass for queries of those
// alone), rare names, numbers and non-Latin words. Every search must give the reference's hits
// and scores exactly; the transcript (scores to 9 places: Math.log may differ in the last bit
// between engines) must match between Node and XS.
import { LexicalIndex, terms } from "../../lib/memory/recall/lexical.ts";
import { ReferenceLexicalIndex, referenceTerms } from "../support/lexical-reference.ts";
import { mulberry32 } from "../support/prng.ts";

const COMMON = ["note", "reminder", "today"];
const WORDS = ["garden", "dentist", "Ficus", "zoë's", "Straße", "ключ", "東京", "bicycles", "glass", "status", "taxis", "PIN"];
const PUNCT = [" ", " ", " ", ", ", ". ", "\n", "\t", "-", "'", "!", " & "];

export async function runLexicalScenario(): Promise<string[]> {
  const prng = mulberry32(1107);
  const pick = <T>(list: T[]): T => list[prng.int(0, list.length - 1)];
  const word = (): string => {
    const r = prng.next();
    if (r < 0.3) return pick(COMMON);
    if (r < 0.55) return pick(WORDS);
    if (r < 0.7) return String(prng.int(0, 5000));
    if (r < 0.8) return pick(["the", "a", "is", "my", "x", "7"]);
    return `name${prng.int(0, 400)}`;
  };
  const sentence = (n: number): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += word() + pick(PUNCT);
    return prng.int(0, 3) === 0 ? s.toUpperCase() : s;
  };
  const index = new LexicalIndex();
  const reference = new ReferenceLexicalIndex();
  const live: Array<{ ns: string; id: number; text: string }> = [];
  const transcript: string[] = [];
  let nextId = 1;
  let searches = 0;
  for (let step = 0; step < 1400; step++) {
    const r = prng.next();
    if (r < 0.6 || live.length < 20) {
      const entry = { ns: prng.int(0, 4) === 0 ? "kim" : "owner", id: nextId++, text: sentence(prng.int(1, 14)) };
      // Most entries hold the common words, so their postings turn dense.
      if (prng.int(0, 9) > 1) entry.text += " note";
      if (prng.int(0, 9) > 2) entry.text = "Today: " + entry.text;
      const a = terms(entry.text).join("|");
      const b = referenceTerms(entry.text).join("|");
      if (a !== b) throw new Error(`terms differ for ${JSON.stringify(entry.text)}: ${a} / ${b}`);
      index.add(entry.ns, entry.id, entry.text);
      reference.add(entry.ns, entry.id, entry.text);
      live.push(entry);
    } else if (r < 0.85) {
      const [entry] = live.splice(prng.int(0, live.length - 1), 1);
      index.remove(entry.ns, entry.id, entry.text);
      reference.remove(entry.ns, entry.id, entry.text);
    } else {
      const ns = prng.int(0, 3) === 0 ? "kim" : "owner";
      const query = prng.int(0, 3) === 0 ? pick(COMMON) + " " + pick(COMMON) : sentence(prng.int(1, 5));
      const limit = pick([1, 5, 16]);
      const got = index.search(ns, query, limit);
      const want = reference.search(ns, query, limit);
      if (JSON.stringify(got) !== JSON.stringify(want))
        throw new Error(`search ${ns} ${JSON.stringify(query)}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      searches++;
      transcript.push(`${ns} ${JSON.stringify(query)} ${limit} => ${got.map((h) => `${h.id}:${h.score.toFixed(9)}`).join(" ")}`);
    }
  }
  transcript.push(`live ${live.length} searches ${searches}`);
  return transcript;
}
