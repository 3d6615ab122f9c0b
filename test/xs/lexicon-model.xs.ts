// XS entry: the lexical index against its model (test/scenarios/lexicon-model.ts), C kernels over the native arena.
import { nativeArena } from "../../modules/vector/arena.ts";
import { nativeLexiconKernels } from "../../modules/vector/lexicon.ts";
import { runLexiconModelScenario } from "../scenarios/lexicon-model.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runLexiconModelScenario(nativeArena, nativeLexiconKernels));
