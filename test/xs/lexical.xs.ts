// XS entry: the compact lexical index against its reference on the XS host (test/scenarios/lexical.ts).
import { runLexicalScenario } from "../scenarios/lexical.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runLexicalScenario);
