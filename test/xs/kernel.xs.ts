// XS entry: the kernel contract against the TypeScript kernel and against the
// C kernel (each scan path the host CPU has), on the XS engine. One line per
// implementation:
//   KERNEL {"impl":"ts"|"c-<path>","digest":..,"cases":[[name,digest,ok],..],"failures":[..]}
// then END. test/xs/kernel.test.ts compares them with Node's run.
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
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
print(`DIRECT ${JSON.stringify(mismatches)}`);
try {
  vectorPath("no-such-path");
  print("PATH-ERROR none");
} catch (error) {
  print(`PATH-ERROR ${(error as Error).name} ${vectorPath()}`);
}
print("END");
