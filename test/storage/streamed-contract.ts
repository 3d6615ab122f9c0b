// The Storage contract's cases for the ranged read (readRange) and the streamed
// atomic write (writeAtomicFrom): what the memory snapshot is read and written
// with, a piece at a time. Part of STORAGE_CASES (storage-contract.ts), so they
// run on every implementation, the device's SD port on the XS host included.
import type { RemovableStorage } from "../../hosts/sim/ports/removable.ts";
import { deepEqual, equal, ok, throws } from "./check.ts";
import type { ContractCase } from "./storage-contract.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b));

/** Bytes of a recognisable pattern. */
function pattern(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 13 + seed * 101 + (i >> 8)) & 0xff;
  return out;
}

/**
 * A producer handing out `data` in pieces of the given sizes (cycled), all through one buffer it overwrites
 * (with junk first, so a storage that kept a piece after the next call shows it); `onPiece` runs before
 * piece n is handed out.
 */
function producer(data: Uint8Array, sizes: number[], onPiece?: (n: number) => void): () => Uint8Array | undefined {
  const buffer = new Uint8Array(Math.max(1, ...sizes));
  let at = 0;
  let n = 0;
  return () => {
    if (at >= data.length) return undefined;
    onPiece?.(n);
    const size = Math.min(sizes[n++ % sizes.length], data.length - at);
    buffer.fill(0xee);
    buffer.set(data.subarray(at, at + size));
    at += size;
    return buffer.subarray(0, size);
  };
}

/** The file read back through readRange in pieces of `piece` bytes. */
function readInPieces(s: RemovableStorage, path: string, piece: number): Uint8Array | undefined {
  const parts: number[] = [];
  const into = new Uint8Array(piece);
  for (let offset = 0; ;) {
    const n = s.readRange(path, offset, into);
    if (n === undefined) return undefined;
    for (let i = 0; i < n; i++) parts.push(into[i]);
    offset += n;
    if (n < piece) return Uint8Array.from(parts);
  }
}

export const STREAMED_CASES: ContractCase[] = [
  {
    name: "readRange reads from any offset, short only at the end and 0 past it; undefined for a missing file",
    run: ({ s }) => {
      const data = pattern(70_000, 1);
      s.writeAtomic("r/data.bin", data);
      const into = new Uint8Array(1000);
      equal(s.readRange("r/data.bin", 0, into), 1000);
      deepEqual(into, data.subarray(0, 1000));
      equal(s.readRange("r/data.bin", 69_500, into), 500, "short at the end");
      deepEqual(into.subarray(0, 500), data.subarray(69_500));
      equal(s.readRange("r/data.bin", 70_000, into), 0, "at the end");
      equal(s.readRange("r/data.bin", 1_000_000, into), 0, "past the end");
      equal(s.readRange("r/data.bin", 5, new Uint8Array(0)), 0, "into nothing");
      for (const piece of [1, 7, 4096, 16_384, 100_000]) deepEqual(readInPieces(s, "r/data.bin", piece), data, `pieces of ${piece}`);
      equal(s.readRange("r/missing.bin", 0, into), undefined);
      equal(s.readRange("nothing/here.bin", 0, into), undefined);
      throws(() => s.readRange("r/data.bin", -1, into), /bad offset/);
      throws(() => s.readRange("r/data.bin", 0.5, into), /bad offset/);
    },
  },
  {
    name: "writeAtomicFrom writes the pieces in order from one reused buffer, creating folders; no pieces make an empty file",
    run: ({ s }) => {
      const data = pattern(100_003, 2);
      s.writeAtomicFrom("w/deep/stream.bin", producer(data, [1, 4096, 0, 40_000, 7]));
      deepEqual(s.read("w/deep/stream.bin"), data);
      equal(s.stat("w/deep/stream.bin")?.size, data.length);
      s.writeAtomicFrom("w/deep/stream.bin", producer(bytes("short now"), [3]));
      equal(text(s.read("w/deep/stream.bin")), "short now");
      s.writeAtomicFrom("w/empty.bin", () => undefined);
      deepEqual(s.read("w/empty.bin"), new Uint8Array(0));
      deepEqual(s.list("w"), ["deep", "empty.bin"]);
      deepEqual(s.list("w/deep"), ["stream.bin"]);
    },
  },
  {
    name: "a producer that throws part-way leaves the old file (or no file) and no visible temp",
    run: ({ s }) => {
      const old = pattern(50_000, 3);
      s.writeAtomic("t/kept.bin", old);
      const failing = (n: number): void => {
        if (n === 3) throw new Error("producer failed");
      };
      throws(() => s.writeAtomicFrom("t/kept.bin", producer(pattern(90_000, 4), [20_000], failing)), /producer failed/);
      deepEqual(s.read("t/kept.bin"), old);
      throws(() => s.writeAtomicFrom("t/new.bin", producer(pattern(90_000, 4), [20_000], failing)), /producer failed/);
      equal(s.read("t/new.bin"), undefined);
      deepEqual(s.list("t"), ["kept.bin"]);
      s.writeAtomicFrom("t/kept.bin", producer(bytes("next write lands"), [5]));
      equal(text(s.read("t/kept.bin")), "next write lands");
    },
  },
  {
    name: "a card pulled in the middle of a streamed write leaves the old file intact; reinserted, the card takes the next write",
    run: ({ s }) => {
      const old = pattern(60_000, 5);
      s.writeAtomic("p/doc.bin", old);
      const pullAt = (n: number): void => {
        if (n === 2) s.pull();
      };
      throws(
        () => s.writeAtomicFrom("p/doc.bin", producer(pattern(120_000, 6), [16_384], pullAt)),
        (e: Error) => /no SD card/.test(e.message),
      );
      equal(s.present(), false);
      s.insert();
      ok(s.present(), "the card is back");
      deepEqual(s.read("p/doc.bin"), old);
      deepEqual(s.list("p"), ["doc.bin"]);
      const next = pattern(33_000, 7);
      s.writeAtomicFrom("p/doc.bin", producer(next, [16_384]));
      deepEqual(s.read("p/doc.bin"), next);
    },
  },
  {
    name: "refuses a streamed write past the card's capacity and keeps the old file",
    run: ({ open }) => {
      const storage = open({ capacityBytes: 8192 });
      storage.writeAtomic("keep.bin", new Uint8Array(1000).fill(7));
      throws(() => storage.writeAtomicFrom("keep.bin", producer(new Uint8Array(12_000), [1000])), /full/);
      deepEqual(storage.read("keep.bin"), new Uint8Array(1000).fill(7));
      deepEqual(storage.list(""), ["keep.bin"]);
    },
  },
];
