// XS entry: the Cashu wallet scenario (test/scenarios/wallet.ts) on the XS host, after printing which globals
// lib/wallet/shims had to install (a bare XS machine has none of the four; Node has all). Error.prototype is
// frozen first, as the device's is after preload: cashu-ts names its errors by assignment, which then throws
// unless the kit has given them a name of their own (lib/wallet/cashu/errors.ts), and a mint's refusal would
// reach the wallet as a TypeError instead (found on the SDK's Linux target).
import { installCashuGlobals } from "../../lib/wallet/shims.ts";
import { runWalletScenario } from "../scenarios/wallet.ts";
import { seededRandom } from "../support/cashu-wallet.ts";
import { printTranscript } from "../support/xs-entry.ts";

declare function print(...args: unknown[]): void;

Object.freeze(Error.prototype);
print(`SHIMS ${JSON.stringify(installCashuGlobals(seededRandom(1)))}`);
printTranscript(runWalletScenario);
