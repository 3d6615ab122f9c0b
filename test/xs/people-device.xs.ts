// XS entry: runs the people/device/owner-API scenario on the XS host and prints its transcript.
import { runPeopleDeviceScenario } from "../scenarios/people-device.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runPeopleDeviceScenario);
