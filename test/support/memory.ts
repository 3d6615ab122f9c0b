// Rigs for the memory tests: an engine (or the whole core) over in-memory ports
// with a fake clock, and a Storage wrapper that cuts a write at byte N.
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage, type MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { tempPathOf } from "../../hosts/sim/ports/removable.ts";
import { fakeClock, memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { buildCore, type Core, type CoreOptions } from "../../lib/app/core.ts";
import { MemoryEngine, type MemoryDeps } from "../../lib/memory/engine.ts";
import { hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import type { Ports, Settings, Storage, VectorArena } from "../../lib/ports.ts";
import { concatBytes, onePiece } from "../../lib/util/bytes.ts";

export const HOUR = 3600 * 1000;
export const DAY = 24 * HOUR;

export type FakeClock = ReturnType<typeof fakeClock>;

export interface MemoryRig {
  engine: MemoryEngine;
  clock: FakeClock;
  storage: MemoryStorage;
  settings: Settings;
  log: ReturnType<typeof memoryLog>;
  deps: MemoryDeps;
  /** A new engine over the same card, settings and clock: what a reboot sees. */
  reboot(overrides?: Partial<MemoryDeps>): MemoryEngine;
}

export function memoryRig(overrides: Partial<MemoryDeps> = {}): MemoryRig {
  const clock = fakeClock();
  const storage = memoryStorage();
  const settings = memorySettings();
  const log = memoryLog();
  const deps: MemoryDeps = {
    clock,
    log,
    settings,
    digest: nodeDigest,
    kernels: tsKernels,
    arena: simVectorArena(),
    embedder: hashingEmbedder(256),
    storage,
    ...overrides,
  };
  return {
    engine: new MemoryEngine(deps),
    clock,
    storage,
    settings,
    log,
    deps,
    // A reboot starts with the whole arena free: PSRAM does not survive a restart.
    reboot: (more = {}) => new MemoryEngine({ ...deps, arena: simVectorArena(deps.arena.budgetBytes()), ...more }),
  };
}

export interface CoreRig {
  core: Core;
  clock: FakeClock;
  storage: MemoryStorage;
  log: ReturnType<typeof memoryLog>;
}

/** The real core (registry, validators, every tool) over memory ports with a fake clock; the card holds the episodic store. */
export function memoryCore(
  options: { storage?: boolean; settings?: Settings; core?: Partial<CoreOptions>; arena?: VectorArena; ports?: Partial<Ports> } = {},
): CoreRig {
  const clock = fakeClock();
  const storage = memoryStorage();
  const log = memoryLog();
  const ports = memoryPorts({
    clock,
    log,
    storage: options.storage === false ? undefined : storage,
    settings: options.settings ?? memorySettings(),
    vectorArena: options.arena ?? simVectorArena(),
    ...options.ports,
  });
  return { core: buildCore(ports, { baseUrls: {}, otaBuild: undefined, walletKit: undefined, ...options.core }), clock, storage, log };
}

/** Thrown by a TornStorage when the power is cut. */
export class PowerCut extends Error {
  constructor() {
    super("power cut");
  }
}

/**
 * A Storage whose next write is cut after `cutAt` bytes, as by a power cut:
 * for writeAtomic (and writeAtomicFrom, counting the bytes of its pieces) the
 * temporary file is cut and the rename never happens; for append only `cutAt`
 * bytes land. After the cut every call throws (no power). A write of at most
 * `cutAt` bytes completes normally.
 */
export function tornStorage(inner: MemoryStorage, cutAt: number): Storage & { tripped: boolean } {
  let tripped = false;
  const alive = (): void => {
    if (tripped) throw new PowerCut();
  };
  const writeAtomicFrom = (path: string, next: () => Uint8Array | undefined): void => {
    alive();
    const pieces: Uint8Array[] = [];
    let size = 0;
    for (let piece = next(); piece !== undefined; piece = next()) {
      if (size + piece.length > cutAt) {
        tripped = true;
        // What a real card is left with: a partial temporary file beside the untouched target.
        pieces.push(piece.subarray(0, cutAt - size));
        inner.files.set(tempPathOf(path), concatBytes(pieces));
        throw new PowerCut();
      }
      pieces.push(piece.slice()); // a producer may reuse its buffer
      size += piece.length;
    }
    inner.writeAtomic(path, concatBytes(pieces));
  };
  return {
    get tripped() {
      return tripped;
    },
    present: () => !tripped && inner.present(),
    read: (path) => (alive(), inner.read(path)),
    readRange: (path, offset, into) => (alive(), inner.readRange(path, offset, into)),
    writeAtomic: (path, data) => writeAtomicFrom(path, onePiece(data)),
    writeAtomicFrom,
    append(path, data) {
      alive();
      if (data.length <= cutAt) return inner.append(path, data);
      tripped = true;
      if (cutAt > 0) inner.append(path, data.subarray(0, cutAt));
      throw new PowerCut();
    },
    rename: (from, to) => (alive(), inner.rename(from, to)),
    remove: (path) => (alive(), inner.remove(path)),
    list: (dir) => (alive(), inner.list(dir)),
    stat: (path) => (alive(), inner.stat(path)),
    freeBytes: () => (alive(), inner.freeBytes()),
  };
}

/**
 * A Storage that loses power after `writes` completed writes (writeAtomic,
 * append, rename, remove): a cut between the steps of a multi-step save.
 */
export function cutAfterWrites(inner: MemoryStorage, writes: number): Storage & { tripped: boolean } {
  let left = writes;
  let tripped = false;
  const alive = (): void => {
    if (tripped) throw new PowerCut();
  };
  const step = (): void => {
    alive();
    if (left-- <= 0) {
      tripped = true;
      throw new PowerCut();
    }
  };
  return {
    get tripped() {
      return tripped;
    },
    present: () => !tripped && inner.present(),
    read: (path) => (alive(), inner.read(path)),
    readRange: (path, offset, into) => (alive(), inner.readRange(path, offset, into)),
    writeAtomic: (path, data) => (step(), inner.writeAtomic(path, data)),
    writeAtomicFrom: (path, next) => (step(), inner.writeAtomicFrom(path, next)),
    append: (path, data) => (step(), inner.append(path, data)),
    rename: (from, to) => (step(), inner.rename(from, to)),
    remove: (path) => (step(), inner.remove(path)),
    list: (dir) => (alive(), inner.list(dir)),
    stat: (path) => (alive(), inner.stat(path)),
    freeBytes: () => (alive(), inner.freeBytes()),
  };
}

/** A deep copy of a memory card's files (to restart every crash case from the same state). */
export function cloneCard(source: MemoryStorage): MemoryStorage {
  const copy = memoryStorage();
  for (const [path, bytes] of source.files) copy.files.set(path, bytes.slice());
  return copy;
}

/** Every entry's text, by slot (the store keeps them as UTF-8 in arena pages). */
export function storedContents(store: { count: number; contentOf(slot: number): string }): string[] {
  return Array.from({ length: store.count }, (_, slot) => store.contentOf(slot));
}
