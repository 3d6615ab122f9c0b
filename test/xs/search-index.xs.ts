// XS entry: the files.search index contract (test/files/search-contract.ts) on
// the XS engine (damage at every eighth byte; Node's run covers every byte). One line per case: SEARCH {"name":..,"failures":[..]}, then END.
import { runSearchContract } from "../files/search-contract.ts";

declare function print(...args: unknown[]): void;

for (const c of runSearchContract(8)) print(`SEARCH ${JSON.stringify({ name: c.name, failures: c.failures.slice(0, 3) })}`);
print("END");
