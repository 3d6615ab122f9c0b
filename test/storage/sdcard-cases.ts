// The SD module's own file operations (modules/sdcard/*.c) through its binding,
// on the XS host's POSIX backend: every call, its bounds and its errors.
import { SDCARD_MAX_FILES, SDCARD_MAX_PATH_BYTES } from "../../modules/sdcard/common.ts";
import type { SdCard } from "../../modules/sdcard/sdcard.ts";
import { deepEqual, equal, ok, throws } from "./check.ts";
import type { SdHarness, XsCase } from "./sd-harness.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const errno = (name: string): RegExp => new RegExp(`\\b${name}\\b`);

function mounted(h: SdHarness, label: string, capacity?: number): { card: SdCard; root: string } {
  const root = h.freshRoot(label);
  h.card.mount(capacity === undefined ? { root } : { root, capacity });
  return { card: h.card, root };
}

function writeFile(card: SdCard, path: string, data: Uint8Array, mode: "w" | "a" = "w"): void {
  const f = card.open(path, mode);
  try {
    card.write(f, data);
  } finally {
    card.close(f);
  }
}

function readFile(card: SdCard, path: string): string {
  const f = card.open(path, "r");
  try {
    const out = new Uint8Array(card.size(f));
    let got = 0;
    for (let n = 1; n > 0 && got < out.length; got += n) n = card.read(f, out.subarray(got));
    return text(out.subarray(0, got));
  } finally {
    card.close(f);
  }
}

export const SDCARD_CASES: XsCase[] = [
  {
    name: "every call before a mount throws ENODEV",
    run: (h) => {
      h.card.unmount();
      equal(h.card.mounted(), false);
      for (const call of [
        () => h.card.open("a", "w"),
        () => h.card.stat("a"),
        () => h.card.readdir(""),
        () => h.card.space(),
        () => h.card.info(),
      ]) {
        throws(call, errno("ENODEV"));
      }
      equal(h.card.check(), false);
    },
  },
  {
    name: "open, write, read, seek, r+ writes, truncate, append, sync and close",
    run: (h) => {
      const { card } = mounted(h, "ops");
      writeFile(card, "f.txt", bytes("hello world"));
      equal(readFile(card, "f.txt"), "hello world");
      const f = card.open("f.txt", "r+");
      equal(card.seek(f, 6), 6);
      card.write(f, bytes("WORLD"));
      equal(card.seek(f, 0), 0);
      const head = new Uint8Array(5);
      equal(card.read(f, head), 5);
      equal(text(head), "hello");
      const buffer = new Uint8Array(8);
      card.seek(f, 6);
      equal(card.read(f, buffer.subarray(3)), 5, "reads into a view at an offset");
      equal(text(buffer.subarray(3)), "WORLD");
      card.truncate(f, 5);
      card.sync(f);
      equal(card.size(f), 5);
      card.close(f);
      writeFile(card, "f.txt", bytes(", again"), "a");
      equal(readFile(card, "f.txt"), "hello, again");
      writeFile(card, "f.txt", bytes("w truncates"));
      equal(readFile(card, "f.txt"), "w truncates");
      const s = card.stat("f.txt")!;
      deepEqual([s.size, s.directory], [11, false]);
      ok(s.mtime > 1e12, "mtime in ms since the epoch");
      const end = card.open("f.txt", "r");
      card.seek(end, 11);
      equal(card.read(end, new Uint8Array(4)), 0, "0 at the end");
      card.close(end);
      throws(() => card.open("f.txt", "x" as "r"), /bad mode/);
      const g = card.open("f.txt", "r");
      throws(() => card.seek(g, -1), /bad position/);
      card.close(g);
      card.unmount();
      // A relative root is a folder under the working folder (the POSIX backend's lin data folder): absent here.
      throws(() => card.mount({ root: "no-such-relative-folder" }), /ENODEV/);
      throws(() => card.mount({ root: "" }), /bad root/);
      throws(() => card.mount({ root: "x".repeat(150) }), /bad root/); // fits the buffer, not with the working folder before it
    },
  },
  {
    name: "paths of 255 bytes with the mount point work; one byte more is refused as a bad path on every call",
    run: (h) => {
      const { card, root } = mounted(h, "long");
      const room = SDCARD_MAX_PATH_BYTES - 1 - root.length - 1; // NUL and the "/" after the mount point
      const folder = "d".repeat(100);
      card.mkdir(folder);
      const nameBytes = room - folder.length - 1;
      ok(nameBytes > 20 && nameBytes < 255, `room for a name: ${nameBytes}`);
      // é is two bytes in UTF-8: the limit counts bytes, not characters
      const name = "é".repeat(10) + "n".repeat(nameBytes - 20);
      const longest = `${folder}/${name}`;
      writeFile(card, longest, bytes("at the limit"));
      equal(readFile(card, longest), "at the limit");
      deepEqual(card.readdir(folder), [name]);
      card.rename(longest, `${folder}/short`);
      card.rename(`${folder}/short`, longest);
      const over = longest + "x";
      for (const call of [
        () => card.open(over, "w"),
        () => card.stat(over),
        () => card.mkdir(over),
        () => card.rmdir(over),
        () => card.unlink(over),
        () => card.readdir(over),
        () => card.rename(longest, over),
        () => card.rename(over, "x"),
        () => card.open("y".repeat(10_000), "w"),
      ]) {
        throws(call, (e) => e instanceof RangeError && /bad path/.test(e.message));
      }
      deepEqual(card.readdir(folder), [name], "nothing was made by a refused call");
    },
  },
  {
    name: "refuses paths that could leave the card or that FAT cannot hold",
    run: (h) => {
      const { card } = mounted(h, "hostile");
      const hostile = ["", "/abs", "..", "../up", "a/../../up", "a//b", ".", "./a", "a/.", "a/", "tab\there", "del\u007f", "nul\u0000x"];
      for (const c of '\\:*?"<>|') hostile.push(`bad${c}name`);
      for (const path of hostile) {
        throws(() => card.open(path, "w"), /bad path/, JSON.stringify(path));
        throws(() => card.mkdir(path), /bad path/, JSON.stringify(path));
      }
      throws(() => card.stat(42 as unknown as string), /bad path/);
      deepEqual(card.readdir(""), []);
    },
  },
  {
    name: `holds at most ${SDCARD_MAX_FILES} open files; closing frees a slot; stale handles are refused`,
    run: (h) => {
      const { card } = mounted(h, "handles");
      const open: number[] = [];
      for (let i = 0; i < SDCARD_MAX_FILES; i++) open.push(card.open(`f${i}`, "w"));
      throws(() => card.open("one-more", "w"), errno("EMFILE"));
      const stale = open.pop()!;
      card.close(stale);
      card.close(stale); // closing twice does nothing
      throws(() => card.write(stale, bytes("x")), errno("EBADF"));
      const reused = card.open("again", "w");
      ok(reused !== stale, "a reused slot gets a new handle");
      throws(() => card.write(stale, bytes("x")), errno("EBADF"));
      card.write(reused, bytes("ok"));
      for (const f of [...open, reused]) card.close(f);
      throws(() => card.read(12345, new Uint8Array(1)), errno("EBADF"));
      equal(card.stat("again")?.size, 2);
    },
  },
  {
    name: "rename never replaces (EEXIST on every backend, as on FAT); missing sources and parents fail",
    run: (h) => {
      const { card } = mounted(h, "rename");
      writeFile(card, "a", bytes("A"));
      writeFile(card, "b", bytes("B"));
      throws(() => card.rename("a", "b"), errno("EEXIST"));
      deepEqual([readFile(card, "a"), readFile(card, "b")], ["A", "B"]);
      throws(() => card.rename("missing", "c"), errno("ENOENT"));
      throws(() => card.rename("a", "no-folder/a"), errno("ENOENT"));
      card.rename("a", "c");
      equal(card.stat("a"), undefined);
      equal(readFile(card, "c"), "A");
    },
  },
  {
    name: "mkdir, rmdir, unlink and readdir, with their errors",
    run: (h) => {
      const { card } = mounted(h, "dirs");
      card.mkdir("d");
      throws(() => card.mkdir("d"), errno("EEXIST"));
      writeFile(card, "d/f", bytes("x"));
      throws(() => card.rmdir("d"), errno("ENOTEMPTY"));
      throws(() => card.open("d", "r"), errno("EISDIR"));
      throws(() => card.open("missing", "r"), errno("ENOENT"));
      throws(() => card.readdir("d/f"), errno("ENOTDIR"));
      equal(card.stat("d/f/x"), undefined, "stat under a file is undefined");
      const names: string[] = [];
      for (let i = 0; i < 20; i++) names.push(`${String(i).padStart(2, "0")}-${"n".repeat(200)}`);
      for (const n of names) writeFile(card, `d/${n}`, new Uint8Array(0));
      deepEqual(card.readdir("d").sort(), [...names, "f"].sort(), "long names list whole");
      for (const n of names) card.unlink(`d/${n}`);
      card.unlink("d/f");
      throws(() => card.unlink("d/f"), errno("ENOENT"));
      card.rmdir("d");
      deepEqual(card.readdir(""), []);
      equal(card.stat("")?.directory, true, "the root stats as a folder");
    },
  },
  {
    name: "card info and free space; a simulated capacity refuses a write past it with ENOSPC and writes nothing",
    run: (h) => {
      const { card } = mounted(h, "space");
      const info = card.info();
      deepEqual([info.name, info.type, info.sectorSize], ["folder", "folder", 512]);
      ok(info.capacity > 0, "capacity");
      const [free, total] = card.space();
      ok(free > 0 && free <= total, "free within total");
      card.unmount();
      const small = mounted(h, "small", 4096).card;
      deepEqual(small.space(), [4096, 4096]);
      equal(small.info().capacity, 4096);
      writeFile(small, "a", new Uint8Array(1000));
      deepEqual(small.space(), [3096, 4096]);
      throws(() => writeFile(small, "a", new Uint8Array(5000), "a"), errno("ENOSPC"));
      equal(small.stat("a")?.size, 1000, "the refused append wrote nothing");
      const f = small.open("a", "r+");
      small.seek(f, 500);
      small.write(f, new Uint8Array(500)); // rewriting inside the file needs no room
      small.close(f);
    },
  },
  {
    name: "a pulled card: the next call fails with EIO, unmounts and closes every handle; mounting fails until it is back",
    run: (h) => {
      const { card, root } = mounted(h, "pull");
      writeFile(card, "keep", bytes("kept"));
      const f = card.open("keep", "r");
      equal(card.check(), true);
      h.simulate("remove");
      throws(() => card.read(f, new Uint8Array(4)), errno("EIO"));
      equal(card.mounted(), false);
      throws(() => card.mount({ root }), errno("ENODEV"));
      h.simulate("insert");
      card.mount({ root });
      throws(() => card.read(f, new Uint8Array(4)), errno("EBADF"), "handles did not survive the removal");
      equal(readFile(card, "keep"), "kept");
      h.simulate("remove");
      equal(card.check(), false, "check() sees the card gone");
      equal(card.mounted(), false, "and unmounts it");
      h.simulate("insert");
      throws(() => card.mount({ root: `${root}/missing` }), errno("ENODEV"));
      card.mount({ root: `${root}/made`, create: true });
      equal(card.check(), true, "create makes the folder on POSIX hosts");
    },
  },
];
