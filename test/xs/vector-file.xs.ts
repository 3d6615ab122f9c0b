// XS entry: the vector file read and written in pieces on the XS host, hashed by the C SHA-256
// (modules/sha256) into the native arena; prints the transcript (test/scenarios/vector-file.ts).
import { nativeDigest } from "../../modules/sha256/sha256.ts";
import { nativeArena } from "../../modules/vector/arena.ts";
import { runVectorFileScenario } from "../scenarios/vector-file.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runVectorFileScenario(nativeDigest, nativeArena));
