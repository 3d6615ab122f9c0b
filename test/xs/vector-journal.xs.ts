// XS entry: the vector journal replayed frame by frame on the XS host, hashed by the C SHA-256
// (modules/sha256) into the native arena with the C lexicon kernels, as on the device; prints the
// transcript (test/scenarios/vector-journal.ts).
import { nativeDigest } from "../../modules/sha256/sha256.ts";
import { nativeArena } from "../../modules/vector/arena.ts";
import { nativeLexiconKernels } from "../../modules/vector/lexicon.ts";
import { runVectorJournalScenario } from "../scenarios/vector-journal.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runVectorJournalScenario(nativeDigest, nativeArena, nativeLexiconKernels));
