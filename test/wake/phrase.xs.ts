// XS entry: the wake phrase store (test/wake/phrase-scenario.ts) with the XS binding of the engine.
import { xsWakeKernel } from "../../modules/wake/wake.ts";
import { printTranscript } from "../support/xs-entry.ts";
import { runPhraseScenario } from "./phrase-scenario.ts";

printTranscript(async () => runPhraseScenario(xsWakeKernel));
