// XS entry: runs the core scenario on the XS host and prints its transcript, then the heap after boot.
import { TEST_HOST } from "../support/halo.ts";
import { buildCore } from "../../lib/app/core.ts";
import { runCoreScenario } from "../scenarios/core.ts";
import { nativeArena } from "../../modules/vector/arena.ts";
import { portablePorts } from "../support/portable-ports.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

async function main(): Promise<void> {
  // Loaded code and module constants are in the heap here (on the device they stay in flash).
  const loaded = xsHeapInfo().heapBytes;
  // Each subsystem's share of the boot heap: the heap after it is built, minus the heap before.
  // The store's memory is the native arena, outside the chunk heap, as on the device.
  const subsystems: Array<[string, number]> = [];
  let before = loaded;
  const core = buildCore(
    { ...portablePorts(), vectorArena: nativeArena },
    {
      ...TEST_HOST,
      onBuilt: (name) => {
        const now = xsHeapInfo().heapBytes;
        subsystems.push([name, now - before]);
        before = now;
      },
    },
  );
  print(`HEAP ${JSON.stringify({ ...xsHeapInfo(), loadedBytes: loaded, tools: core.registry.all().length, subsystems })}`);
  const transcript = await runCoreScenario();
  for (const line of transcript) print(`T ${JSON.stringify(line)}`);
  print("END");
}

main().catch((e) => {
  print(`FAILED ${e instanceof Error ? e.message : String(e)}`);
  exit(1);
});
