// XS entry of bench/turn.mjs: times the same scripted turn on the XS host with
// hostNow(). Prints one line: TURN-XS {json}.
import { median, timeTurns } from "./turn-work.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;
declare function hostNow(): number;
/** [samples] */
declare const scriptArgs: readonly string[];

timeTurns(Number(scriptArgs[0] ?? "5"), hostNow).then(
  (ms) => print(`TURN-XS ${JSON.stringify({ medianMs: median(ms), samples: ms.length })}`),
  (e) => {
    print(`FAILED ${e instanceof Error ? e.message : String(e)}`);
    exit(1);
  },
);
