// XS entry: the provider scenario (request building, reply parsing, router, budget) on the XS host.
import { runProvidersScenario } from "../scenarios/providers.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

async function main(): Promise<void> {
  const transcript = await runProvidersScenario();
  for (const line of transcript) print(`T ${JSON.stringify(line)}`);
  print("END");
}

main().catch((e) => {
  print(`FAILED ${e instanceof Error ? e.message : String(e)}`);
  exit(1);
});
