// XS entry: the re-embed in place (batches, a cut, the resume, the refusal of a second store) on the XS host.
import { runReembedScenario } from "../scenarios/reembed-in-place.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runReembedScenario());
