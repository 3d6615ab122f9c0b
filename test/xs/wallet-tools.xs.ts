// XS entry: the wallet's tools and rails (test/scenarios/wallet-tools.ts) on the XS host, with Error.prototype
// frozen as the device's is after preload (cashu-ts's errors must still reach the tools as refusals).
import { runWalletToolsScenario } from "../scenarios/wallet-tools.ts";
import { printTranscript } from "../support/xs-entry.ts";

Object.freeze(Error.prototype);
printTranscript(runWalletToolsScenario);
