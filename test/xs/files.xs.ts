// XS entry: runs the files scenario on the XS host and prints its transcript.
import { runFilesScenario } from "../scenarios/files.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

runFilesScenario().then(
  (transcript) => {
    for (const line of transcript) print(`T ${JSON.stringify(line)}`);
    print("END");
  },
  (e) => {
    print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
    exit(1);
  },
);
