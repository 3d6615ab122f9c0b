// The artifact store's crash recovery as a transcript: a new save, an overwrite
// and a delete, each with the card pulled after 0, 1, 2 ... storage steps, then
// a reboot over the same card. Each line shows the refusal, what the rebooted
// store reads (record size and time, the text), whether a staged file is left,
// and that the next save lands. The Node and XS runs must match line for line.
// No Node imports.
import { memoryStorage, type MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import type { Storage } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { ArtifactStore } from "../../lib/store/artifact-store.ts";

const owner = makePrincipal("owner", "admin", "mcp");

/** The card pulled at the (writes+1)th write; reads pass through. */
function pulledAfter(inner: MemoryStorage, writes: number): Storage {
  let left = writes;
  const step = (): void => {
    if (left-- === 0) inner.pull();
  };
  return {
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

function copyOf(card: MemoryStorage): MemoryStorage {
  const copy = memoryStorage();
  for (const [path, bytes] of card.files) copy.files.set(path, bytes.slice());
  return copy;
}

function view(store: ArtifactStore): string {
  return store
    .list(owner)
    .map(
      (r) =>
        `${r.project}/${r.name} ${r.size}B t${r.updated} "${new TextDecoder().decode(store.readBytes(owner, r.project, r.name).bytes)}"`,
    )
    .join(", ");
}

export async function runFilesCrashScenario(): Promise<string[]> {
  const out: string[] = [];
  let now = 1000;
  const clock = { now: () => now };
  const base = memoryStorage();
  const setup = new ArtifactStore(base, clock);
  setup.saveText(owner, "p", "doc.md", "old version");
  setup.saveText(owner, "q", "solo.md", "alone");
  now += 1000;
  const changes: Array<[string, (s: ArtifactStore) => unknown]> = [
    ["new", (s) => s.saveText(owner, "p", "new.md", "a new file")],
    ["overwrite", (s) => s.saveText(owner, "p", "doc.md", "the new version")],
    ["delete", (s) => s.remove(owner, "q", "solo.md")],
  ];
  for (const [name, change] of changes) {
    for (let steps = 0; steps < 10; steps++) {
      const card = copyOf(base);
      let said = "done";
      try {
        change(new ArtifactStore(pulledAfter(card, steps), clock));
      } catch (e) {
        said = (e as Error).message;
      }
      card.insert();
      const rebooted = new ArtifactStore(card, clock);
      const seen = view(rebooted);
      const stray = Array.from(card.files.keys()).filter((p) => p === "files/.staged" || p === "files/q/solo.md");
      out.push(`${name} pulled after ${steps}: ${said} | ${seen} | card: ${stray.join(" ") || "-"}`);
      rebooted.saveText(owner, "p", "doc.md", "next");
      out.push(`  next save: ${view(new ArtifactStore(card, clock))}`);
      if (said === "done") break;
    }
  }
  return out;
}
