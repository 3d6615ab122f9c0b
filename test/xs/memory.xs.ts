// XS entry: runs the memory scenario on the XS host with the TypeScript kernel and prints its transcript.
import { runMemoryScenario } from "../scenarios/memory.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

runMemoryScenario().then(
  (transcript) => {
    for (const line of transcript) print(`T ${JSON.stringify(line)}`);
    print("END");
  },
  (e) => {
    print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
    exit(1);
  },
);
