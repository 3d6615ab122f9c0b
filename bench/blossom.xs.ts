// XS entry of bench/wallet.mjs's Blossom figure: times a 1 MB upload with hostNow() (the C SHA-256 as the
// Digest port, as on the device) and prints BLOSSOM-XS {json}.
import { nativeDigest } from "../modules/sha256/sha256.ts";
import { runBlossomWork } from "./blossom-work.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare const scriptArgs: readonly string[];

runBlossomWork(hostNow, nativeDigest, Number(scriptArgs[0] ?? "4")).then(
  (times) => print(`BLOSSOM-XS ${JSON.stringify(times)}`),
  (e) => print(`FAILED ${e instanceof Error ? e.stack : String(e)}`),
);
