// XS entry: the vector store against its model (test/scenarios/store-model.ts) over the native arena, its lexical index through the C kernels.
import { nativeArena } from "../../modules/vector/arena.ts";
import { nativeLexiconKernels } from "../../modules/vector/lexicon.ts";
import { runStoreModelScenario } from "../scenarios/store-model.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runStoreModelScenario(nativeArena, 2000, nativeLexiconKernels));
