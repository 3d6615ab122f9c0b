// XS entry: the sub-agent and routine scenario on the XS host; prints its transcript.
import { runAgentsScenario } from "../scenarios/agents.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

runAgentsScenario().then(
  (transcript) => {
    for (const line of transcript) print(`T ${JSON.stringify(line)}`);
    print("END");
  },
  (e) => {
    print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
    exit(1);
  },
);
