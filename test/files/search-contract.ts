// The files.search index contract, run on Node (test/files/search-index.test.ts)
// and on XS (test/xs/search-index.xs.ts): over a seeded store, the index gives the
// scan's hits, scores and snippets for every query (asked again too, answered
// from the postings it holds in memory), after saves, overwrites, deletes,
// shares and quarantine verdicts, and after damage at any byte of its files or
// a power cut mid-update (then it rebuilds from the files, which are never
// lost). No Node imports.
import { memoryStorage, type MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import type { Storage } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import type { SearchHit } from "../../lib/store/artifact-search.ts";
import { ArtifactStore } from "../../lib/store/artifact-store.ts";
import { queryTerms } from "../../lib/store/docs-pack.ts";
import { SEARCH_INDEX_DIR } from "../../lib/store/search-index.ts";
import { mulberry32 } from "../support/prng.ts";

export const owner = makePrincipal("owner", "admin", "mcp");
export const zoe = makePrincipal("zoë", "user", "mcp");

const WORDS = (
  "garden garage key keys keystone spare 4471 44 1408 zoë straße 日本語 naïve café co-op e-mail note notes " +
  "notebook boiler pressure bar rare common commons x y z_1 Ünïcode ÜBER über"
).split(" ");

export const QUERIES = [
  "garden",
  "key",
  "k",
  "4",
  "44",
  "zoë",
  "straße",
  "日本",
  "naïve café",
  "co-op",
  "e-mail notes",
  "note",
  "boiler pressure bar",
  "über",
  "x",
  "z_1",
  "nothingmatches",
  "common rare garden",
];

/** A seeded store: both people's files, some shared, a few images with notes. */
export function seededStore(card: Storage = memoryStorage(), docs = 40, seed = 99): ArtifactStore {
  let now = Date.UTC(2026, 0, 1);
  const store = new ArtifactStore(card, { now: () => (now += 1000) });
  const prng = mulberry32(seed);
  for (let d = 0; d < docs; d++) {
    const words: string[] = [];
    for (let n = prng.int(3, 40); n > 0; n--) words.push(WORDS[prng.int(0, WORDS.length - 1)]);
    const who = d % 3 === 0 ? zoe : owner;
    store.saveText(who, `p${d % 4}`, `doc-${d}.md`, words.join(prng.int(0, 3) === 0 ? ".\n" : " "));
    if (d % 5 === 0) store.share(who, `p${d % 4}`, `doc-${d}.md`, true);
  }
  return store;
}

/** Every query's answer, as text, for `p`: through the index, or by the scan. */
export function answers(store: ArtifactStore, p = owner, via: "search" | "scan" = "search"): string[] {
  return QUERIES.map((q) => {
    const hits = via === "search" ? store.search(p, queryTerms(q)) : store.scan(p, queryTerms(q));
    return `${q} => ${describe(hits)}`;
  });
}

function describe(hits: SearchHit[]): string {
  return hits.map((h) => `${h.record.project}/${h.record.name} ${h.score} ${JSON.stringify(h.snippet)}`).join(" | ");
}

/**
 * Cases of the contract; each returns failures (empty when it holds). `damageStride` 1 damages every
 * byte (Node); the XS run takes every third byte, as its engine is far slower at rebuilding.
 */
export function runSearchContract(damageStride = 1): { name: string; failures: string[] }[] {
  const cases: Array<[string, () => string[]]> = [
    ["the index answers as the scan does, for both people", caseSameAsScan],
    ["saves, overwrites, deletes, shares and verdicts keep it in step", caseInStep],
    ["damage at any byte of its files: rebuilt, same answers, no file lost", () => caseDamage(damageStride)],
    ["a power cut at any write of a save: the files stay, answers match after", casePowerCut],
    ["another writer on the same card: stale documents are indexed again", caseAnotherWriter],
  ];
  return cases.map(([name, run]) => ({ name, failures: run() }));
}

function compare(label: string, got: string[], want: string[]): string[] {
  const out: string[] = [];
  got.forEach((g, i) => {
    if (g !== want[i]) out.push(`${label}: got ${g.slice(0, 300)} want ${want[i].slice(0, 300)}`);
  });
  return out;
}

function caseSameAsScan(): string[] {
  const store = seededStore();
  const want = answers(store, owner, "scan");
  // Each query twice in a row: the second answer counts from the postings held in memory (postings-cache.ts).
  const cached = QUERIES.map((q) => {
    store.search(owner, queryTerms(q));
    return `${q} => ${describe(store.search(owner, queryTerms(q)))}`;
  });
  return [
    ...compare("owner", answers(store), want),
    ...compare("owner, repeated", cached, want),
    ...compare("zoë", answers(store, zoe), answers(store, zoe, "scan")),
  ];
}

function caseInStep(): string[] {
  const failures: string[] = [];
  const card = memoryStorage();
  const store = seededStore(card);
  answers(store); // postings held in memory, which the changes below make stale
  store.remove(owner, "p3", "doc-7.md");
  store.saveText(owner, "p9", "other.md", "x y z");
  failures.push(...compare("after a delete", answers(store), answers(store, owner, "scan")));
  store.saveText(owner, "p1", "doc-1.md", "now about the garden shed key only");
  store.saveText(owner, "p9", "fresh.md", "garden garden garden café");
  store.remove(owner, "p2", "doc-2.md");
  store.share(owner, "p1", "doc-1.md", true);
  store.save(owner, "dl", "held.txt", new TextEncoder().encode("garden quarantined text"), { quarantine: "f1" });
  failures.push(
    ...compare("after changes", answers(store), answers(store, owner, "scan")),
    ...compare("zoë", answers(store, zoe), answers(store, zoe, "scan")),
  );
  store.settleQuarantine("f1", true);
  failures.push(...compare("after the verdict", answers(store), answers(store, owner, "scan")));
  const fresh = new ArtifactStore(card, { now: () => 0 });
  failures.push(...compare("a new store over the card", answers(fresh), answers(fresh, owner, "scan")));
  return failures;
}

function indexFiles(card: MemoryStorage): string[] {
  return [...card.files.keys()].filter((k) => k.startsWith(SEARCH_INDEX_DIR + "/")).sort();
}

function caseDamage(stride: number): string[] {
  const pristine = memoryStorage();
  seededStore(pristine, 6);
  const want = answers(new ArtifactStore(pristine, { now: () => 0 }), owner, "scan");
  const failures: string[] = [];
  const listed = new ArtifactStore(pristine, { now: () => 0 }).list(owner).length;
  // The docs log and the two busiest buckets, every byte.
  const targets = indexFiles(pristine)
    .map((path) => ({ path, size: pristine.files.get(path)!.length }))
    .sort((a, b) => b.size - a.size)
    .filter((t, i) => t.path.endsWith("/docs") || i < 2);
  for (const { path, size } of targets) {
    for (let at = 0; at < size; at += stride) {
      const card = memoryStorage();
      for (const [k, v] of pristine.files) card.files.set(k, v.slice());
      const bytes = card.files.get(path)!;
      bytes[at] ^= at % 2 === 0 ? 0x01 : 0x20;
      const store = new ArtifactStore(card, { now: () => 0 });
      const got = answers(store);
      failures.push(...compare(`${path} byte ${at}`, got, want));
      if (store.list(owner).length !== listed) failures.push(`${path} byte ${at}: files lost`);
      if (failures.length > 5) return failures;
    }
    // Cut short at every length.
    for (let cut = 0; cut < size; cut += 7) {
      const card = memoryStorage();
      for (const [k, v] of pristine.files) card.files.set(k, v.slice());
      card.files.set(path, card.files.get(path)!.slice(0, cut));
      failures.push(...compare(`${path} cut at ${cut}`, answers(new ArtifactStore(card, { now: () => 0 })), want));
      if (failures.length > 5) return failures;
    }
  }
  return failures;
}

/**
 * Power cuts during the index's own writes (a cut between a file's write and
 * its artifact record is the artifact store's window, not the index's: there
 * the record no longer describes the file, for the scan as much as for the index).
 */
function casePowerCut(): string[] {
  const failures: string[] = [];
  for (let writes = 0; writes < 24; writes++) {
    const inner = memoryStorage();
    seededStore(inner, 5);
    let left = writes;
    let tripped = false;
    const step = (path: string): void => {
      if (tripped) throw new Error("power cut");
      if (!path.startsWith(SEARCH_INDEX_DIR + "/")) return;
      if (left-- <= 0) {
        tripped = true;
        throw new Error("power cut");
      }
    };
    const card: Storage = {
      ...inner,
      present: () => !tripped && inner.present(),
      writeAtomic: (p, d) => (step(p), inner.writeAtomic(p, d)),
      append: (p, d) => {
        step(p);
        // Half of the last append lands before the cut.
        if (left === 0 && p.startsWith(SEARCH_INDEX_DIR + "/")) {
          inner.append(p, d.subarray(0, d.length >> 1));
          tripped = true;
          throw new Error("power cut");
        }
        inner.append(p, d);
      },
      remove: (p) => (step(p), inner.remove(p)),
      rename: (f, t) => (step(t), inner.rename(f, t)),
    };
    const store = new ArtifactStore(card, { now: () => Date.UTC(2026, 1, 1) });
    try {
      store.saveText(owner, "px", "cut.md", "garden key café note written during a power cut");
      store.saveText(owner, "p1", "doc-1.md", "rewritten garden");
    } catch {
      // the cut
    }
    const after = new ArtifactStore(inner, { now: () => Date.UTC(2026, 1, 2) });
    failures.push(...compare(`cut after ${writes} writes`, answers(after), answers(after, owner, "scan")));
    if (after.list(owner).length < 3) failures.push(`cut after ${writes} writes: files lost`);
    if (failures.length > 5) break;
  }
  return failures;
}

function caseAnotherWriter(): string[] {
  const card = memoryStorage();
  const a = seededStore(card, 8);
  answers(a);
  const b = new ArtifactStore(card, { now: () => Date.UTC(2027, 0, 1) });
  b.saveText(owner, "p1", "doc-1.md", "garden from the other writer");
  b.saveText(owner, "p7", "other.md", "key garden note");
  answers(b);
  a.saveText(owner, "p8", "mine.md", "key key key");
  const failures = [
    ...compare("first writer", answers(a), answers(a, owner, "scan")),
    ...compare("second writer", answers(b), answers(b, owner, "scan")),
  ];
  // A delete whose index update fails (the docs log refuses the line): the file and its record go, the
  // index's documents stay as they were, and the first writer's records move up by one.
  const docsLog = `${SEARCH_INDEX_DIR}/docs`;
  const refusing: Storage = {
    ...card,
    append: (path, data) => {
      if (path === docsLog) throw new Error("refused");
      card.append(path, data);
    },
  };
  new ArtifactStore(refusing, { now: () => Date.UTC(2027, 0, 2) }).remove(owner, "p1", "doc-1.md");
  failures.push(...compare("after another writer's delete", answers(a), answers(a, owner, "scan")));
  return failures;
}
