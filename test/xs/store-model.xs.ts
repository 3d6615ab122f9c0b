// XS entry: the vector store against its model (test/scenarios/store-model.ts) over the native arena.
import { nativeArena } from "../../modules/vector/arena.ts";
import { runStoreModelScenario } from "../scenarios/store-model.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runStoreModelScenario(nativeArena));
