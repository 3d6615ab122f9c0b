// Binds the C lexicon kernels (lexicon.c) as the LexiconKernels port: the
// lexical index's loops over its arena memory. On the device xsc turns each
// native("...") into a host function at build time; on the XS test host
// native() is a global that finds the function in the linked modules.
import type { LexiconKernels } from "../../lib/ports";

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

/** The C kernels: same contract, results and region bytes as tsLexiconKernels (lib/memory/recall/lexicon-ts.ts). */
export const nativeLexiconKernels: LexiconKernels = {
  add: native("xs_vector_lexicon_add"),
  reserve: native("xs_vector_lexicon_reserve"),
  remove: native("xs_vector_lexicon_remove"),
  lookup: native("xs_vector_lexicon_lookup"),
  score: native("xs_vector_lexicon_score"),
  rebuild: native("xs_vector_lexicon_rebuild"),
  compact: native("xs_vector_lexicon_compact"),
  moveDocs: native("xs_vector_lexicon_move_docs"),
};
