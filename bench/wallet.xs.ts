// XS entry of bench/wallet.mjs: times the wallet work with hostNow() and prints WALLET-XS {json}.
import { runWalletWork } from "./wallet-work.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare const scriptArgs: readonly string[];

runWalletWork(hostNow, Number(scriptArgs[0] ?? "10")).then(
  (times) => print(`WALLET-XS ${JSON.stringify(times)}`),
  (e) => print(`FAILED ${e instanceof Error ? e.stack : String(e)}`),
);
