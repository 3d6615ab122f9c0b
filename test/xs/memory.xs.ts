// XS entry: runs the memory scenario on the XS host with the TypeScript kernel and prints its transcript.
// The store lives in the native vector arena (modules/vector/arena.c): the transcript must still be Node's.
import { nativeArena } from "../../modules/vector/arena.ts";
import { runMemoryScenario } from "../scenarios/memory.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runMemoryScenario(nativeArena));
