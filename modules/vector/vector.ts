// Binds the C int8 kernel (vector.c) as the Kernels port. On the device xsc
// turns each native("...") into a host function at build time; on the XS test
// host native() is a global that finds the function in the linked modules.
import type { Kernels } from "../../lib/ports";
import { nativeLexiconKernels } from "./lexicon";

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

const topk = native("xs_vector_topk");
const rerank = native("xs_vector_rerank");

/** The C kernels: same contract and results as tsKernels (lib/memory/store/kernel-ts.ts). */
export const nativeKernels: Kernels = {
  topK: (store, dims, count, query, k, mask, scales) => topk(store, dims, count, query, k, mask, scales),
  rerank: (store, dims, residuals, rows, query) => rerank(store, dims, residuals, rows, query),
  lexicon: nativeLexiconKernels,
};
