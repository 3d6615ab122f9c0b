// The Storage port's contract: one suite, run against every implementation
// (storage.test.ts). A new host's storage passes this before lib/ trusts it.
import assert from "node:assert/strict";
import type { Storage } from "../../lib/ports.ts";
import type { RemovableStorage, StorageFaults } from "../../hosts/sim/ports/removable.ts";

export interface ContractSubject {
  storage: RemovableStorage;
  /** Paths of everything the implementation holds outside its root (must stay empty), when it has a root. */
  outside?: () => string[];
  cleanup?: () => void;
}

export type ContractFactory = (options: StorageFaults & { capacityBytes?: number }) => ContractSubject;

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

export function storageContract(name: string, make: ContractFactory): void {
  describe(`Storage contract: ${name}`, () => {
    let subject: ContractSubject;
    let s: Storage;
    const open = (options: StorageFaults & { capacityBytes?: number } = {}): RemovableStorage => {
      subject?.cleanup?.();
      subject = make(options);
      s = subject.storage;
      return subject.storage;
    };
    beforeEach(() => void open());
    afterEach(() => subject.cleanup?.());

    it("starts present and empty: missing files read and stat as undefined, folders list empty", () => {
      assert.equal(s.present(), true);
      assert.equal(s.read("nothing.txt"), undefined);
      assert.equal(s.stat("nothing.txt"), undefined);
      assert.deepEqual(s.list("no-folder"), []);
    });

    it("round-trips every byte value and empty files, creating parent folders", () => {
      const all = new Uint8Array(256).map((_, i) => i);
      s.writeAtomic("a/b/c/all.bin", all);
      s.writeAtomic("a/empty", new Uint8Array(0));
      assert.deepEqual(s.read("a/b/c/all.bin"), all);
      assert.deepEqual(s.read("a/empty"), new Uint8Array(0));
      assert.deepEqual(s.list("a"), ["b", "empty"]);
      assert.equal(s.stat("a/b")?.directory, true);
    });

    it("overwrites atomically and hands out copies, never its own buffers", () => {
      const data = bytes("first");
      s.writeAtomic("f.txt", data);
      data[0] = 0x58;
      assert.equal(text(s.read("f.txt")), "first");
      const back = s.read("f.txt")!;
      back[0] = 0x58;
      assert.equal(text(s.read("f.txt")), "first");
      s.writeAtomic("f.txt", bytes("second, longer"));
      assert.equal(text(s.read("f.txt")), "second, longer");
      assert.deepEqual(s.list(""), ["f.txt"]);
    });

    it("appends, creating the file and its folders", () => {
      s.append("log/x.log", bytes("one\n"));
      s.append("log/x.log", bytes("two\n"));
      assert.equal(text(s.read("log/x.log")), "one\ntwo\n");
      assert.equal(s.stat("log/x.log")?.size, 8);
    });

    it("renames over an existing file and refuses a missing source", () => {
      s.writeAtomic("from.txt", bytes("new"));
      s.writeAtomic("to/to.txt", bytes("old"));
      s.rename("from.txt", "to/to.txt");
      assert.equal(s.read("from.txt"), undefined);
      assert.equal(text(s.read("to/to.txt")), "new");
      assert.throws(() => s.rename("missing.txt", "x.txt"));
    });

    it("removes files and empty folders; removing a missing path does nothing", () => {
      s.writeAtomic("d/f.txt", bytes("x"));
      s.remove("d/f.txt");
      assert.equal(s.read("d/f.txt"), undefined);
      s.remove("d");
      assert.deepEqual(s.list(""), []);
      s.remove("never/was.txt");
    });

    it("lists one level, sorted, folders included", () => {
      for (const n of ["b.txt", "a.txt", "sub/deep/x.txt", "C.txt"]) s.writeAtomic(`top/${n}`, bytes(n));
      assert.deepEqual(s.list("top"), ["C.txt", "a.txt", "b.txt", "sub"]);
      assert.deepEqual(s.list("top/sub"), ["deep"]);
    });

    it("stats size, a numeric mtime and the folder flag", () => {
      s.writeAtomic("st/file.txt", bytes("12345"));
      const f = s.stat("st/file.txt")!;
      assert.equal(f.size, 5);
      assert.equal(f.directory, false);
      assert.ok(Number.isFinite(f.mtime) && f.mtime >= 0);
      assert.equal(s.stat("st")?.directory, true);
    });

    it("refuses a file where a folder is, and a folder under a file", () => {
      s.writeAtomic("x/y.txt", bytes("y"));
      assert.throws(() => s.writeAtomic("x", bytes("clash")));
      assert.throws(() => s.writeAtomic("x/y.txt/z.txt", bytes("under a file")));
      assert.equal(text(s.read("x/y.txt")), "y");
    });

    it("reports free space that shrinks as files are written", () => {
      const storage = open({ capacityBytes: 4096 });
      const before = storage.freeBytes();
      assert.ok(before > 0 && before <= 4096);
      storage.writeAtomic("fill.bin", new Uint8Array(1000));
      assert.ok(storage.freeBytes() <= before - 1000);
    });

    it("refuses a write past the card's capacity and keeps the old file", () => {
      const storage = open({ capacityBytes: 4096 });
      storage.writeAtomic("keep.bin", new Uint8Array(1000).fill(7));
      assert.throws(() => storage.writeAtomic("keep.bin", new Uint8Array(5000)), /full/);
      assert.throws(() => storage.append("keep.bin", new Uint8Array(5000)), /full/);
      assert.deepEqual(storage.read("keep.bin"), new Uint8Array(1000).fill(7));
    });

    it("refuses hostile paths and writes nothing outside its root", () => {
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
        assert.throws(() => s.writeAtomic(path, bytes("no")), /bad path/, label);
        assert.throws(() => s.append(path, bytes("no")), /bad path/, label);
        assert.throws(() => s.read(path), /bad path/, label);
        assert.throws(() => s.remove(path), /bad path/, label);
        assert.throws(() => s.rename("src.txt", path), /bad path/, label);
        assert.throws(() => s.rename(path, "dst.txt"), /bad path/, label);
      }
      assert.deepEqual(s.list(""), ["src.txt"]);
      if (subject.outside) assert.deepEqual(subject.outside(), []);
    });

    it("with the card pulled: present() is false and every method throws a short message; reinserted, the data is back", () => {
      const storage = s as RemovableStorage;
      storage.writeAtomic("keep.txt", bytes("kept"));
      storage.pull();
      assert.equal(storage.present(), false);
      const calls: Array<() => unknown> = [
        () => storage.read("keep.txt"),
        () => storage.writeAtomic("keep.txt", bytes("lost")),
        () => storage.append("keep.txt", bytes("lost")),
        () => storage.rename("keep.txt", "moved.txt"),
        () => storage.remove("keep.txt"),
        () => storage.list(""),
        () => storage.stat("keep.txt"),
        () => storage.freeBytes(),
      ];
      for (const call of calls) {
        assert.throws(call, (e: Error) => e.message.length > 0 && e.message.length < 80 && !e.message.includes("/"));
      }
      storage.insert();
      assert.equal(storage.present(), true);
      assert.equal(text(storage.read("keep.txt")), "kept");
    });

    it("a card pulled between the temporary file and the rename leaves the old file intact and no visible temp", () => {
      let armed = false;
      const storage: RemovableStorage = open({ beforeRename: () => void (armed && storage.pull()) });
      storage.writeAtomic("doc.md", bytes("old"));
      armed = true;
      assert.throws(() => storage.writeAtomic("doc.md", bytes("new")), /no SD card/);
      storage.insert();
      assert.equal(text(storage.read("doc.md")), "old");
      assert.deepEqual(storage.list(""), ["doc.md"]);
    });
  });
}
