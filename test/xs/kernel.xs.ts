// XS entry: the kernel contract against the TypeScript kernel and against the
// C kernel (each scan path the host CPU has), on the XS engine. One line per
// implementation:
//   KERNEL {"impl":"ts"|"c-<path>"|"c-arena","digest":..,"cases":[[name,digest,ok],..],"failures":[..]}
// ("c-arena": the C kernel with every typed-array argument copied into native
// arena memory, modules/vector/arena.c, as the vector store lays its arrays)
// then END. test/xs/kernel.test.ts compares them with Node's run.
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import type { Kernels } from "../../lib/ports.ts";
import { nativeArena } from "../../modules/vector/arena.ts";
import { nativeKernels } from "../../modules/vector/vector.ts";
import { runKernelContract } from "../memory/kernel-contract.ts";

declare function print(...args: unknown[]): void;
declare function native(name: string): (...args: any[]) => any;

const vectorPath = native("xs_vector_path") as (name?: string) => string;
/** The scan paths of modules/vector/vector.c ("avx2" exists on x86-64 builds only). */
const C_PATHS = ["portable", "avx2"];

function report(impl: string, kernels: typeof tsKernels): void {
  const r = runKernelContract(kernels);
  const cases = r.results.map((c) => [c.name, c.digest, c.ok]);
  print(`KERNEL ${JSON.stringify({ impl, digest: r.digest, cases, failures: r.failures })}`);
}

report("ts", tsKernels);
const best = vectorPath("best");
for (const path of C_PATHS) {
  let available = true;
  try {
    vectorPath(path);
  } catch {
    available = false;
  }
  if (available) report(`c-${path}`, nativeKernels);
  else print(`SKIP c-${path}: this CPU lacks it`);
}
vectorPath("best");
print(`BEST c-${best}`);

type View = Int8Array | Uint8Array | Int32Array | Float32Array;
/** A copy of a typed-array argument in arena memory, 8 bytes into its allocation; anything else as it is. */
function overArena(value: unknown): unknown {
  if (!(value instanceof Int8Array || value instanceof Uint8Array || value instanceof Int32Array || value instanceof Float32Array))
    return value;
  const memory = nativeArena.allocate(value.byteLength + 8);
  const copy = new (value.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => View)(memory, 8, value.length);
  copy.set(value);
  return copy;
}
const arenaKernels: Kernels = {
  topK: (...args: Parameters<Kernels["topK"]>) =>
    (nativeKernels.topK as (...a: unknown[]) => ReturnType<Kernels["topK"]>)(...args.map(overArena)),
  rerank: (...args: Parameters<Kernels["rerank"]>) => (nativeKernels.rerank as (...a: unknown[]) => Float64Array)(...args.map(overArena)),
  lexicon: nativeKernels.lexicon,
};
report("c-arena", arenaKernels);
// Called directly with missing trailing arguments, the native fails like the TypeScript kernel.
const topk = native("xs_vector_topk");
const full = [new Int8Array(32), 8, 4, new Int8Array(8), 2, new Uint8Array(4).fill(1)];
const outcome = (fn: (...args: unknown[]) => { indices: Int32Array }, args: unknown[]): string => {
  try {
    return `ok ${Array.from(fn(...args).indices).join(",")}`;
  } catch (error) {
    return `${(error as Error).name}:${(error as Error).message.replace(/^[\w$]+: /, "")}`;
  }
};
const mismatches: string[] = [];
for (let n = 0; n <= full.length; n++) {
  const args = full.slice(0, n);
  const c = outcome(topk, args);
  const ts = outcome(tsKernels.topK as (...args: unknown[]) => { indices: Int32Array }, args);
  if (c !== ts) mismatches.push(`${n} args: C ${c}, TS ${ts}`);
}
// The same for rerank (its result is a Float64Array of values, not { indices }).
const rerank = native("xs_vector_rerank");
const rerankFull = [new Int8Array(8), 4, new Uint8Array(4), Int32Array.from([1]), new Float32Array(4)];
const values =
  (fn: (...args: unknown[]) => Float64Array) =>
  (...args: unknown[]) => ({ indices: Int32Array.from(fn(...args)) });
for (let n = 0; n <= rerankFull.length; n++) {
  const args = rerankFull.slice(0, n);
  const c = outcome(values(rerank), args);
  const ts = outcome(values(tsKernels.rerank as (...args: unknown[]) => Float64Array), args);
  if (c !== ts) mismatches.push(`rerank, ${n} args: C ${c}, TS ${ts}`);
}
print(`DIRECT ${JSON.stringify(mismatches)}`);
try {
  vectorPath("no-such-path");
  print("PATH-ERROR none");
} catch (error) {
  print(`PATH-ERROR ${(error as Error).name} ${vectorPath()}`);
}
print("END");
