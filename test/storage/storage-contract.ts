// The Storage port's contract: one list of cases, run against every
// implementation (those of the ranged read and the streamed write are in
// streamed-contract.ts). storage.test.ts runs it on Node (memory and folder
// storage) with mocha; sdcard.xs.ts runs the same cases on the XS host against
// the SD module's POSIX backend. No Node imports here: the cases use ./check.ts.
import type { RemovableStorage, StorageFaults } from "../../hosts/sim/ports/removable.ts";
import { onePiece } from "../../lib/util/bytes.ts";
import { deepEqual, equal, ok, throws } from "./check.ts";
import { STREAMED_CASES } from "./streamed-contract.ts";

export interface ContractSubject {
  storage: RemovableStorage;
  /** Paths of everything the implementation holds outside its root (must stay empty), when it has a root. */
  outside?: () => string[];
  cleanup?: () => void;
}

export type ContractOptions = StorageFaults & { capacityBytes?: number };

export type ContractFactory = (options: ContractOptions) => ContractSubject;

/** What a case gets: the storage opened with no options, and a way to reopen it with some. */
export interface CaseContext {
  s: RemovableStorage;
  open(options?: ContractOptions): RemovableStorage;
  subject(): ContractSubject;
}

export interface ContractCase {
  name: string;
  run(ctx: CaseContext): void;
}

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

export const STORAGE_CASES: ContractCase[] = [
  {
    name: "starts present and empty: missing files read and stat as undefined, folders list empty",
    run: ({ s }) => {
      equal(s.present(), true);
      equal(s.read("nothing.txt"), undefined);
      equal(s.stat("nothing.txt"), undefined);
      deepEqual(s.list("no-folder"), []);
    },
  },
  {
    name: "round-trips every byte value and empty files, creating parent folders",
    run: ({ s }) => {
      const all = new Uint8Array(256).map((_, i) => i);
      s.writeAtomic("a/b/c/all.bin", all);
      s.writeAtomic("a/empty", new Uint8Array(0));
      deepEqual(s.read("a/b/c/all.bin"), all);
      deepEqual(s.read("a/empty"), new Uint8Array(0));
      deepEqual(s.list("a"), ["b", "empty"]);
      equal(s.stat("a/b")?.directory, true);
    },
  },
  {
    name: "overwrites atomically and hands out copies, never its own buffers",
    run: ({ s }) => {
      const data = bytes("first");
      s.writeAtomic("f.txt", data);
      data[0] = 0x58;
      equal(text(s.read("f.txt")), "first");
      const back = s.read("f.txt")!;
      back[0] = 0x58;
      equal(text(s.read("f.txt")), "first");
      s.writeAtomic("f.txt", bytes("second, longer"));
      equal(text(s.read("f.txt")), "second, longer");
      deepEqual(s.list(""), ["f.txt"]);
    },
  },
  {
    name: "appends, creating the file and its folders",
    run: ({ s }) => {
      s.append("log/x.log", bytes("one\n"));
      s.append("log/x.log", bytes("two\n"));
      equal(text(s.read("log/x.log")), "one\ntwo\n");
      equal(s.stat("log/x.log")?.size, 8);
    },
  },
  {
    name: "renames over an existing file and refuses a missing source",
    run: ({ s }) => {
      s.writeAtomic("from.txt", bytes("new"));
      s.writeAtomic("to/to.txt", bytes("old"));
      s.rename("from.txt", "to/to.txt");
      equal(s.read("from.txt"), undefined);
      equal(text(s.read("to/to.txt")), "new");
      throws(() => s.rename("missing.txt", "x.txt"));
    },
  },
  {
    name: "removes files and empty folders; removing a missing path does nothing",
    run: ({ s }) => {
      s.writeAtomic("d/f.txt", bytes("x"));
      s.remove("d/f.txt");
      equal(s.read("d/f.txt"), undefined);
      s.remove("d");
      deepEqual(s.list(""), []);
      s.remove("never/was.txt");
    },
  },
  {
    name: "lists one level, sorted, folders included",
    run: ({ s }) => {
      for (const n of ["b.txt", "a.txt", "sub/deep/x.txt", "C.txt"]) s.writeAtomic(`top/${n}`, bytes(n));
      deepEqual(s.list("top"), ["C.txt", "a.txt", "b.txt", "sub"]);
      deepEqual(s.list("top/sub"), ["deep"]);
    },
  },
  {
    name: "stats size, a numeric mtime and the folder flag",
    run: ({ s }) => {
      s.writeAtomic("st/file.txt", bytes("12345"));
      const f = s.stat("st/file.txt")!;
      equal(f.size, 5);
      equal(f.directory, false);
      ok(Number.isFinite(f.mtime) && f.mtime >= 0, "mtime is a number");
      equal(s.stat("st")?.directory, true);
    },
  },
  {
    name: "refuses a file where a folder is, and a folder under a file",
    run: ({ s }) => {
      s.writeAtomic("x/y.txt", bytes("y"));
      throws(() => s.writeAtomic("x", bytes("clash")));
      throws(() => s.writeAtomic("x/y.txt/z.txt", bytes("under a file")));
      equal(text(s.read("x/y.txt")), "y");
    },
  },
  {
    name: "reports free space that shrinks as files are written",
    run: ({ open }) => {
      const storage = open({ capacityBytes: 4096 });
      const before = storage.freeBytes();
      ok(before > 0 && before <= 4096, `free space ${before} within the card`);
      storage.writeAtomic("fill.bin", new Uint8Array(1000));
      ok(storage.freeBytes() <= before - 1000, "free space shrank");
    },
  },
  {
    name: "refuses a write past the card's capacity and keeps the old file",
    run: ({ open }) => {
      const storage = open({ capacityBytes: 4096 });
      storage.writeAtomic("keep.bin", new Uint8Array(1000).fill(7));
      throws(() => storage.writeAtomic("keep.bin", new Uint8Array(5000)), /full/);
      throws(() => storage.append("keep.bin", new Uint8Array(5000)), /full/);
      deepEqual(storage.read("keep.bin"), new Uint8Array(1000).fill(7));
    },
  },
  {
    name: "refuses hostile paths and writes nothing outside its root",
    run: ({ s, subject }) => {
      const hostile = [
        "../escape.txt",
        "a/../../escape.txt",
        "/abs.txt",
        "a//b.txt",
        "./a.txt",
        "a/./b",
        "nul\u0000.txt",
        "ctl\u0001.txt",
        "back\\slash.txt",
        "x".repeat(10_000),
        "",
        "c:/win.txt",
      ];
      s.writeAtomic("src.txt", bytes("source"));
      for (const path of hostile) {
        const label = JSON.stringify(path.slice(0, 40));
        throws(() => s.writeAtomic(path, bytes("no")), /bad path/, label);
        throws(() => s.append(path, bytes("no")), /bad path/, label);
        throws(() => s.read(path), /bad path/, label);
        throws(() => s.readRange(path, 0, new Uint8Array(4)), /bad path/, label);
        throws(() => s.writeAtomicFrom(path, onePiece(bytes("no"))), /bad path/, label);
        throws(() => s.remove(path), /bad path/, label);
        throws(() => s.rename("src.txt", path), /bad path/, label);
        throws(() => s.rename(path, "dst.txt"), /bad path/, label);
      }
      deepEqual(s.list(""), ["src.txt"]);
      const outside = subject().outside;
      if (outside) deepEqual(outside(), []);
    },
  },
  {
    name: "with the card pulled: present() is false and every method throws a short message; reinserted, the data is back",
    run: ({ s: storage }) => {
      storage.writeAtomic("keep.txt", bytes("kept"));
      storage.pull();
      equal(storage.present(), false);
      const calls: Array<() => unknown> = [
        () => storage.read("keep.txt"),
        () => storage.readRange("keep.txt", 0, new Uint8Array(4)),
        () => storage.writeAtomic("keep.txt", bytes("lost")),
        () => storage.writeAtomicFrom("keep.txt", onePiece(bytes("lost"))),
        () => storage.append("keep.txt", bytes("lost")),
        () => storage.rename("keep.txt", "moved.txt"),
        () => storage.remove("keep.txt"),
        () => storage.list(""),
        () => storage.stat("keep.txt"),
        () => storage.freeBytes(),
      ];
      for (const call of calls) {
        throws(call, (e: Error) => e.message.length > 0 && e.message.length < 80 && !e.message.includes("/"));
      }
      storage.insert();
      equal(storage.present(), true);
      equal(text(storage.read("keep.txt")), "kept");
    },
  },
  {
    name: "a card pulled between the temporary file and the rename leaves the old file intact and no visible temp",
    run: ({ open }) => {
      let armed = false;
      const storage: RemovableStorage = open({ beforeRename: () => void (armed && storage.pull()) });
      storage.writeAtomic("doc.md", bytes("old"));
      armed = true;
      throws(() => storage.writeAtomic("doc.md", bytes("new")), /no SD card/);
      storage.insert();
      equal(text(storage.read("doc.md")), "old");
      armed = true;
      throws(() => storage.writeAtomicFrom("doc.md", onePiece(bytes("new"))), /no SD card/);
      storage.insert();
      equal(text(storage.read("doc.md")), "old");
      deepEqual(storage.list(""), ["doc.md"]);
    },
  },
  ...STREAMED_CASES,
];

/** Runs one case against a fresh subject from `make`, cleaning up every subject it opened. */
export function runStorageCase(c: ContractCase, make: ContractFactory): void {
  let current: ContractSubject | undefined;
  const open = (options: ContractOptions = {}): RemovableStorage => {
    current?.cleanup?.();
    current = make(options);
    return current.storage;
  };
  try {
    const s = open();
    c.run({ s, open, subject: () => current! });
  } finally {
    current?.cleanup?.();
  }
}

/** The contract as a mocha suite (Node). */
export function storageContract(name: string, make: ContractFactory): void {
  describe(`Storage contract: ${name}`, () => {
    for (const c of STORAGE_CASES) it(c.name, () => runStorageCase(c, make));
  });
}
