// XS entry: the button's gestures and the press-to-talk controller on the voice loop, on the XS host.
import { runPressToTalkScenario } from "../scenarios/press-to-talk.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runPressToTalkScenario);
