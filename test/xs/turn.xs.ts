// XS entry: the scripted turn scenario on the XS host; prints its transcript.
import { runTurnScenario } from "../scenarios/turn.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

runTurnScenario().then(
  (transcript) => {
    for (const line of transcript) print(`T ${JSON.stringify(line)}`);
    print("END");
  },
  (e) => {
    print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
    exit(1);
  },
);
