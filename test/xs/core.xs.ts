// XS entry: runs the core scenario on the XS host and prints its transcript, then the heap after boot.
import { buildCore } from "../../lib/core.ts";
import { runCoreScenario } from "../scenarios/core.ts";
import { nativeArena } from "../../modules/vector/arena.ts";
import { portablePorts } from "../support/portable-ports.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

async function main(): Promise<void> {
  // Loaded code and module constants are in the heap here (on the device they stay in flash).
  const loaded = xsHeapInfo().heapBytes;
  // The store's memory as on the device: the native arena, outside the chunk heap.
  const core = buildCore({ ...portablePorts(), vectorArena: nativeArena });
  print(`HEAP ${JSON.stringify({ ...xsHeapInfo(), loadedBytes: loaded, tools: core.registry.all().length })}`);
  const transcript = await runCoreScenario();
  for (const line of transcript) print(`T ${JSON.stringify(line)}`);
  print("END");
}

main().catch((e) => {
  print(`FAILED ${e instanceof Error ? e.message : String(e)}`);
  exit(1);
});
