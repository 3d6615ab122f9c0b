// XS entry: the Cashu wallet scenario (test/scenarios/wallet.ts) on the XS host, after printing which globals
// lib/wallet/shims had to install (a bare XS machine has none of the four; Node has all).
import { installCashuGlobals } from "../../lib/wallet/shims.ts";
import { runWalletScenario } from "../scenarios/wallet.ts";
import { seededRandom } from "../support/cashu-wallet.ts";
import { printTranscript } from "../support/xs-entry.ts";

declare function print(...args: unknown[]): void;

print(`SHIMS ${JSON.stringify(installCashuGlobals(seededRandom(1)))}`);
printTranscript(runWalletScenario);
