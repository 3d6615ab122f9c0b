// Power cuts and pulled cards at every storage step of an artifact save (a new
// file, an overwrite, one that compacts the index), a delete and a share, and at
// every byte of each write: after a reboot (or the card's return) every file
// reads whole with its own record (old or new, never one with the other's size
// or time), the refusal said only what is true, files.search agrees with a scan,
// no stray file is left, and the next save lands.
import assert from "node:assert/strict";
import { fakeClock } from "../../hosts/sim/ports/node-basics.ts";
import { memoryStorage, type MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { TEMP_SUFFIX } from "../../hosts/sim/ports/removable.ts";
import type { Storage } from "../../lib/ports.ts";
import { ArtifactStore } from "../../lib/store/artifact-store.ts";
import { principal } from "../support/registry.ts";
import { cloneCard, cutAfterWrites, tornStorage } from "../support/memory.ts";

const owner = principal("admin", "mcp", "owner");
const bob = principal("user", "mcp", "bob");
const clock = fakeClock();
const TERMS = ["apples", "plums", "version"];

interface CrashCase {
  name: string;
  setup(store: ArtifactStore, card: MemoryStorage): void;
  change(store: ArtifactStore): unknown;
}

const cases: CrashCase[] = [
  {
    name: "a save of a new file",
    setup: (s) => void s.saveText(owner, "p", "a.md", "apples and pears"),
    change: (s) => s.saveText(owner, "q", "new.md", "plums and figs, version one"),
  },
  {
    name: "an overwrite of the same size at the same time",
    setup: (s) => void s.saveText(owner, "p", "doc.md", "old version: apples"),
    change: (s) => s.saveText(owner, "p", "doc.md", "new version: plums!"),
  },
  {
    name: "an overwrite of a shared file by a longer one",
    setup: (s) => {
      s.saveText(owner, "p", "doc.md", "old version: apples");
      s.share(owner, "p", "doc.md", true);
    },
    change: (s) => s.saveText(owner, "p", "doc.md", "the new version has plums and is longer"),
  },
  {
    name: "an overwrite whose record compacts the index",
    setup: (s, card) => {
      // The log is compacted past 2 * 1 + 256 lines: the change's last line crosses that.
      for (let i = 0; indexLines(card) < 257; i++) s.saveText(owner, "p", "doc.md", `apples version ${i}`);
    },
    change: (s) => s.saveText(owner, "p", "doc.md", "plums version last"),
  },
  {
    name: "a delete of a project's last file",
    setup: (s) => {
      s.saveText(owner, "p", "a.md", "apples and pears");
      s.saveText(owner, "q", "solo.md", "plums alone");
    },
    change: (s) => s.remove(owner, "q", "solo.md"),
  },
  {
    name: "a share",
    setup: (s) => void s.saveText(owner, "p", "a.md", "apples and pears"),
    change: (s) => s.share(owner, "p", "a.md", true),
  },
];

function indexLines(card: MemoryStorage): number {
  const log = card.files.get("files/.index");
  return log ? new TextDecoder().decode(log).split("\n").length - 1 : 0;
}

/** Everything a reader sees: each visible record with the bytes it reads, for the owner and for bob. */
function stateOf(store: ArtifactStore): unknown {
  const view = (p: typeof owner): unknown =>
    store.list(p).map((record) => {
      const { bytes } = store.readBytes(p, record.project, record.name);
      assert.equal(bytes.length, record.size, `${record.name}: the file's size is its record's`);
      return { record, text: new TextDecoder().decode(bytes) };
    });
  return { owner: view(owner), bob: view(bob) };
}

/** The files on the card besides the index's own: exactly the recorded ones (no staged or orphaned file). */
function cardFiles(card: MemoryStorage): string[] {
  return Array.from(card.files.keys())
    .filter((p) => p.startsWith("files/") && p !== "files/.index" && !p.startsWith("files/.sx/") && !p.endsWith(TEMP_SUFFIX))
    .sort();
}

function setupCard(c: CrashCase): MemoryStorage {
  const card = memoryStorage();
  const store = new ArtifactStore(card, clock);
  c.setup(store, card);
  store.search(owner, TERMS); // the search index holds the old versions
  return card;
}

/** What a refusal claims the change left: the old state, the new one, or either. */
function claimOf(message: string): "old" | "new" | "either" {
  if (/previous version of the file is intact|the file was not saved/.test(message)) return "old";
  if (/is in place once the card is back|the file was deleted/.test(message)) return "new";
  assert.match(message, / either /, message);
  return "either";
}

/** A reader after the reboot sees `expected` (old or new), consistent search and files, and a next save lands. */
function checkRecovery(
  card: MemoryStorage,
  store: ArtifactStore,
  states: { old: unknown; new: unknown },
  claim: string,
  what: string,
): void {
  const state = stateOf(store);
  const is = JSON.stringify(state) === JSON.stringify(states.old) ? "old" : "new";
  if (is === "new") assert.deepEqual(state, states.new, `${what}: neither the old nor the new state`);
  if (claim !== "either") assert.equal(is, claim, `${what}: the refusal said ${claim}, the card holds ${is}`);
  const paths = store.list(owner).map((r) => `files/${r.project}/${r.name}`);
  assert.deepEqual(cardFiles(card), paths.sort(), `${what}: stray files`);
  assert.deepEqual(store.search(owner, TERMS), store.scan(owner, TERMS), `${what}: search`);
  store.saveText(owner, "p", "doc.md", "next version: cherries");
  store.saveText(owner, "r", "more.md", "cherries too");
  const after = new ArtifactStore(card, clock);
  assert.equal(new TextDecoder().decode(after.readBytes(owner, "p", "doc.md").bytes), "next version: cherries", what);
  assert.deepEqual(stateOf(after), stateOf(store), `${what}: after the next save`);
  assert.deepEqual(after.search(owner, ["cherries"]), after.scan(owner, ["cherries"]), `${what}: search after`);
}

/** A storage whose card is pulled at its (writes+1)th write, unless disarmed first; the card can be reinserted. */
function pullAfterWrites(inner: MemoryStorage, writes: number): Storage & { disarm(): void } {
  let left = writes;
  const step = (): void => {
    if (left-- === 0) inner.pull();
  };
  return {
    disarm: () => {
      left = -1;
    },
    present: () => inner.present(),
    read: (path) => inner.read(path),
    readRange: (path, offset, into) => inner.readRange(path, offset, into),
    writeAtomic: (path, data) => (step(), inner.writeAtomic(path, data)),
    writeAtomicFrom: (path, next) => (step(), inner.writeAtomicFrom(path, next)),
    append: (path, data) => (step(), inner.append(path, data)),
    rename: (from, to) => (step(), inner.rename(from, to)),
    remove: (path) => (step(), inner.remove(path)),
    list: (dir) => inner.list(dir),
    stat: (path) => inner.stat(path),
    freeBytes: () => inner.freeBytes(),
  };
}

function attempt(c: CrashCase, store: ArtifactStore): string | undefined {
  try {
    c.change(store);
    return undefined;
  } catch (e) {
    assert.match((e as Error).message, /^no-card: /);
    return (e as Error).message;
  }
}

describe("artifact store crash safety", () => {
  for (const c of cases) {
    const states = (card0: MemoryStorage): { old: unknown; new: unknown } => {
      const probe = cloneCard(card0);
      c.change(new ArtifactStore(probe, clock));
      const s = { old: stateOf(new ArtifactStore(card0, clock)), new: stateOf(new ArtifactStore(probe, clock)) };
      assert.notDeepEqual(s.new, s.old);
      return s;
    };

    it(`${c.name}: power lost after any storage step leaves the old or the new file with its own record`, () => {
      const card0 = setupCard(c);
      const expected = states(card0);
      for (let steps = 0; ; steps++) {
        const card = cloneCard(card0);
        const storage = cutAfterWrites(card, steps);
        const refusal = attempt(c, new ArtifactStore(storage, clock));
        const claim = refusal === undefined ? "new" : claimOf(refusal);
        checkRecovery(card, new ArtifactStore(card, clock), expected, claim, `power cut after ${steps} steps`);
        if (refusal === undefined) {
          assert.ok(steps >= 1, "a change takes at least one step");
          break;
        }
        assert.ok(storage.tripped);
      }
    });

    it(`${c.name}: a card pulled at any step and reinserted serves the old or the new file to the same store`, () => {
      const card0 = setupCard(c);
      const expected = states(card0);
      for (let steps = 0; ; steps++) {
        const card = cloneCard(card0);
        const storage = pullAfterWrites(card, steps);
        const store = new ArtifactStore(storage, clock);
        store.list(owner);
        const refusal = attempt(c, store);
        storage.disarm();
        card.insert();
        checkRecovery(card, store, expected, refusal === undefined ? "new" : claimOf(refusal), `card pulled after ${steps} steps`);
        if (refusal === undefined) break;
      }
    });

    it(`${c.name}: a write torn at any byte leaves the old or the new file with its own record`, () => {
      const card0 = setupCard(c);
      const expected = states(card0);
      for (let cut = 0; ; cut++) {
        const card = cloneCard(card0);
        const refusal = attempt(c, new ArtifactStore(tornStorage(card, cut), clock));
        checkRecovery(
          card,
          new ArtifactStore(card, clock),
          expected,
          refusal === undefined ? "new" : claimOf(refusal),
          `cut at byte ${cut}`,
        );
        if (refusal === undefined) break;
      }
    });
  }
});
