// The staged replace (modules/sdcard/replace.ts) cut at every step, by a power
// cut (the run stops; the next boot mounts and recovers) and by a pulled card
// (the port refuses, the card comes back, the remount recovers). After either,
// the file holds the old or the new bytes whole, nothing acknowledged is lost,
// and no temporary, backup or marker file is left on the card.
import { REMOUNT_MAX_DELAY_MS } from "../../hosts/device/ports/card-mount.ts";
import type { SdStorage } from "../../hosts/device/ports/storage.ts";
import {
  BACKUP_SUFFIX,
  REPLACE_MARKER,
  REPLACE_WRITE_CHUNK,
  TEMP_SUFFIX,
  recoverReplace,
  type ReplaceStep,
} from "../../modules/sdcard/replace.ts";
import { deepEqual, equal, ok, throws } from "./check.ts";
import type { SdHarness, XsCase } from "./sd-harness.ts";

const WRITE_STEPS: ReplaceStep[] = ["marker", "temp-partial", "temp", "backup", "swap", "cleanup", "done"];
const RENAME_STEPS: ReplaceStep[] = ["marker", "backup", "swap", "cleanup", "done"];
/** From these steps on a replace is past its point of no return: recovery finishes it. Over an existing
 * file that is once the old file is moved aside; for a new file, once the temp file has its name. */
const COMMITTED: ReplaceStep[] = ["backup", "swap", "cleanup", "done"];
const COMMITTED_NEW: ReplaceStep[] = ["swap", "cleanup", "done"];

class Cut extends Error {}

/** Bytes of a recognisable pattern, longer than one write chunk so a cut can land inside the temp file. */
function pattern(seed: number, length = REPLACE_WRITE_CHUNK + 5000): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed * 7) & 0xff;
  return out;
}

function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Every name on the card, folders walked, as "dir/name" (the raw view, hidden names included). */
function everything(h: SdHarness, dir = ""): string[] {
  const out: string[] = [];
  for (const name of h.card.readdir(dir).sort()) {
    const path = dir === "" ? name : `${dir}/${name}`;
    out.push(path);
    if (h.card.stat(path)?.directory) out.push(...everything(h, path));
  }
  return out;
}

function noLeftovers(h: SdHarness, label: string): void {
  const left = everything(h).filter((n) => n.endsWith(TEMP_SUFFIX) || n.endsWith(BACKUP_SUFFIX) || n === REPLACE_MARKER);
  deepEqual(left, [], `${label}: leftovers`);
}

type Interrupt = "power cut" | "pulled card";

/** Runs `act` on a port whose replace stops at `step`; then boots again (or reinserts) and returns the recovered port. */
function interrupted(h: SdHarness, root: string, step: ReplaceStep, how: Interrupt, act: (s: SdStorage) => void): SdStorage {
  let armed = true;
  const port: SdStorage = h.storage(root, {
    onStep: (at) => {
      if (!armed || at !== step) return;
      armed = false;
      if (how === "power cut") throw new Cut(step);
      h.simulate("remove");
    },
  });
  if (how === "power cut") {
    throws(
      () => act(port),
      (e) => e instanceof Cut,
      `cut at ${step}`,
    );
    h.card.unmount(); // the power went: the next boot mounts afresh and recovers
    return h.storage(root);
  }
  // A pull at "done" lands after the last card call: the write itself went through.
  if (step === "done") act(port);
  else throws(() => act(port), /no SD card/, `pulled at ${step}`);
  h.simulate("insert");
  h.clock.t += REMOUNT_MAX_DELAY_MS;
  ok(port.present(), "the card is back");
  return port;
}

/** `data` in pieces of `size` bytes through one reused buffer, as the memory snapshot is written. */
function inPieces(data: Uint8Array, size: number): () => Uint8Array | undefined {
  const buffer = new Uint8Array(size);
  let at = 0;
  return () => {
    if (at >= data.length) return undefined;
    const n = Math.min(size, data.length - at);
    buffer.set(data.subarray(at, at + n));
    at += n;
    return buffer.subarray(0, n);
  };
}

function writeCase(how: Interrupt, existing: boolean, streamed = false): XsCase {
  const write = (s: SdStorage, path: string, data: Uint8Array): void =>
    streamed ? s.writeAtomicFrom(path, inPieces(data, 16 * 1024)) : s.writeAtomic(path, data);
  return {
    name: `${streamed ? "writeAtomicFrom (16 KB pieces)" : "writeAtomic"} ${existing ? "over an existing file" : "of a new file"}: a ${how} at every step leaves the old or the new file whole`,
    run: (h) => {
      const oldBytes = pattern(1);
      const newBytes = pattern(2, REPLACE_WRITE_CHUNK * 2 + 17);
      for (const step of WRITE_STEPS) {
        const root = h.freshRoot("cut");
        const first = h.storage(root);
        if (existing) first.writeAtomic("d/f.bin", oldBytes);
        else first.writeAtomic("d/other.bin", oldBytes);
        const after = interrupted(h, root, step, how, (s) => write(s, "d/f.bin", newBytes));
        const got = after.read("d/f.bin");
        const committed = (existing ? COMMITTED : COMMITTED_NEW).includes(step);
        const expected = committed ? newBytes : existing ? oldBytes : undefined;
        ok(same(got, expected), `${how} at ${step}: read ${got === undefined ? "nothing" : got.length + " bytes"}`);
        if (!existing) ok(same(after.read("d/other.bin"), oldBytes), `${how} at ${step}: the other file`);
        noLeftovers(h, `${how} at ${step}`);
        deepEqual(after.list("d"), expected === undefined ? ["other.bin"] : existing ? ["f.bin"] : ["f.bin", "other.bin"]);
        after.writeAtomic("d/f.bin", oldBytes); // and the card takes the next write
        ok(same(after.read("d/f.bin"), oldBytes), `${how} at ${step}: next write`);
      }
    },
  };
}

function renameCase(how: Interrupt): XsCase {
  return {
    name: `rename over an existing file: a ${how} at every step leaves the old or the new state whole`,
    run: (h) => {
      const a = pattern(3, 100);
      const b = pattern(4, 200);
      for (const step of RENAME_STEPS) {
        const root = h.freshRoot("rename-cut");
        const first = h.storage(root);
        first.writeAtomic("a.txt", a);
        first.writeAtomic("to/b.txt", b);
        const after = interrupted(h, root, step, how, (s) => s.rename("a.txt", "to/b.txt"));
        const done = COMMITTED.includes(step);
        ok(same(after.read("to/b.txt"), done ? a : b), `${how} at ${step}: target`);
        ok(same(after.read("a.txt"), done ? undefined : a), `${how} at ${step}: source`);
        noLeftovers(h, `${how} at ${step}`);
      }
    },
  };
}

export const REPLACE_CASES: XsCase[] = [
  writeCase("power cut", true),
  writeCase("power cut", false),
  writeCase("pulled card", true),
  writeCase("pulled card", false),
  writeCase("power cut", true, true),
  writeCase("power cut", false, true),
  writeCase("pulled card", true, true),
  writeCase("pulled card", false, true),
  renameCase("power cut"),
  renameCase("pulled card"),
  {
    name: "a marker cut while it was written is discarded at mount, and the file is untouched",
    run: (h) => {
      const root = h.freshRoot("partial-marker");
      const first = h.storage(root);
      first.writeAtomic("f.txt", new TextEncoder().encode("old"));
      for (const partial of ["", "W\n", "W\nf.txt.halo-tmp\nf.t", "W\nf.txt.halo-tmp\nf.txt\n", "X\na\nb\n.\n", "W\n\nf.txt\n.\n"]) {
        const m = h.card.open(REPLACE_MARKER, "w");
        h.card.write(m, new TextEncoder().encode(partial));
        h.card.close(m);
        equal(recoverReplace(h.card), "discarded", JSON.stringify(partial));
        equal(h.card.stat(REPLACE_MARKER), undefined);
      }
      equal(new TextDecoder().decode(first.read("f.txt")), "old");
      equal(recoverReplace(h.card), "none");
    },
  },
  {
    name: "a hostile marker on the card is discarded without touching any file; one that cannot be recovered leaves the card usable",
    run: (h) => {
      const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
      const root = h.freshRoot("hostile-marker");
      const port = h.storage(root);
      port.writeAtomic("f.txt", enc("mine"));
      port.writeAtomic("other.txt", enc("other"));
      const plant = (marker: string): void => {
        const m = h.card.open(REPLACE_MARKER, "w");
        h.card.write(m, enc(marker));
        h.card.close(m);
      };
      for (const marker of [
        "W\nother.txt\nf.txt\n.\n", // a write naming a user file as its temporary file
        "W\n../x.halo-tmp\n../x\n.\n",
        "R\n/abs\nf.txt\n.\n",
        `W\n${"y/".repeat(150)}y.halo-tmp\n${"y/".repeat(150)}y\n.\n`,
        "R\n.halo-replace\nf.txt\n.\n",
        "R\nf.txt\nbad|name\n.\n",
      ]) {
        plant(marker);
        equal(recoverReplace(h.card), "discarded", JSON.stringify(marker.slice(0, 30)));
      }
      deepEqual(
        [port.read("f.txt"), port.read("other.txt")].map((b) => new TextDecoder().decode(b)),
        ["mine", "other"],
      );
      // a backup that is a folder: the recovery's unlink fails (EISDIR), yet the card mounts and serves
      h.card.mkdir("d.halo-old");
      port.writeAtomic("d", enc("target"));
      plant("R\nsrc.txt\nd\n.\n");
      h.card.unmount();
      const warnings: string[] = [];
      const again = h.storage(root, { log: { info: () => undefined, warn: (m) => void warnings.push(m) } });
      equal(again.present(), true);
      equal(new TextDecoder().decode(again.read("d")), "target");
      ok(
        warnings.some((w) => /could not be recovered/.test(w)),
        warnings.join("; "),
      );
      deepEqual(again.list(""), ["d", "f.txt", "other.txt"]);
    },
  },
  {
    name: "a replace refused for lack of room is undone at once: old file kept, no leftovers, room given back",
    run: (h) => {
      const root = h.freshRoot("full");
      const port = h.storage(root, { mount: { root, capacity: 8192 } });
      port.writeAtomic("keep.bin", new Uint8Array(3000).fill(1));
      const free = port.freeBytes();
      throws(() => port.writeAtomic("keep.bin", new Uint8Array(6000)), /full/);
      equal(port.freeBytes(), free);
      deepEqual(port.read("keep.bin"), new Uint8Array(3000).fill(1));
      noLeftovers(h, "after ENOSPC");
    },
  },
];
