// XS entry: the update engine scenario with the C SHA-256 (modules/sha256).
import { nativeSha256 } from "../../modules/sha256/sha256.ts";
import { otaScenario } from "../ota/ota-scenario.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => otaScenario(nativeSha256));
