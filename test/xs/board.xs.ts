// XS entry: runs the board scenario (ring, button, DNS, Improv, Wi-Fi setup) on the XS host and prints its transcript.
import { runBoardScenario } from "../scenarios/board.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runBoardScenario);
