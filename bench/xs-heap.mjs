// XS heap in use after the core has booted and registered every tool, measured on the XS test host.
import { runOnXs } from "../hosts/xs/run.mjs";

export async function runXsHeapBench() {
  const r = await runOnXs("test/xs/core.xs.ts");
  const m = /^HEAP (.*)$/m.exec(r.stdout);
  if (r.code !== 0 || !m) throw new Error(`XS run failed: ${r.stderr.slice(0, 500)}`);
  const heap = JSON.parse(m[1]);
  return [
    ["xs-heap-after-boot-kb", heap.heapBytes / 1024],
    ["xs-heap-of-code-and-constants-kb", heap.loadedBytes / 1024],
    ["xs-heap-built-by-boot-kb", (heap.heapBytes - heap.loadedBytes) / 1024],
    ["xs-tools-registered", heap.tools],
    // Each subsystem's share of what boot builds (the heap after it, minus the heap before; GC first).
    ...heap.subsystems.map(([name, bytes]) => [`xs-boot-kb-${name}`, bytes / 1024]),
  ];
}
