// XS entry: the wallet's tools and rails (test/scenarios/wallet-tools.ts) on the XS host.
import { runWalletToolsScenario } from "../scenarios/wallet-tools.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runWalletToolsScenario);
