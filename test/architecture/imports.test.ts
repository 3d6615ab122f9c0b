// The folder layers of lib/ and the import graph's cycles. Every failure names the importing file and
// what it imports, or the whole cycle.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { folderOf, layerOf, layerViolations } from "../support/layers.ts";
import { type ImportEdge, importEdges, libModules, runtimeCycles } from "../support/lib-sources.ts";

describe("lib/ import graph", () => {
  const files = libModules();
  const edges = importEdges(files, existsSync);

  it("reads the whole graph", () => {
    assert.ok(files.length > 100 && edges.length > 500, `${files.length} files, ${edges.length} imports`);
    assert.ok(edges.some((e) => e.typeOnly) && edges.some((e) => !e.typeOnly));
  });

  it("every relative import resolves to a file under lib/", () => {
    // Bare specifiers (an npm package the device manifest maps) are not relative: only lib/ paths are checked.
    const escaped = edges.filter((e) => e.to.startsWith(".") || (e.to.startsWith("lib/") && !existsSync(e.to)));
    assert.deepEqual(
      escaped.map((e) => `${e.from} -> ${e.to}`),
      [],
    );
  });

  it("every folder of lib/ has a layer, and every import points down (types included)", () => {
    const folders = new Set(files.map(folderOf).filter((f): f is string => f !== undefined));
    assert.deepEqual(
      [...folders].filter((f) => layerOf(f) < 0),
      [],
    );
    assert.deepEqual(layerViolations(edges), []);
  });

  it("has no import cycles between files (type-only imports are erased when compiling and do not count)", () => {
    assert.deepEqual(
      runtimeCycles(edges).map((c) => c.join(" -> ")),
      [],
    );
  });

  it("the checks catch what they look for", () => {
    const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly });
    assert.deepEqual(layerViolations([edge("lib/util/text.ts", "lib/turn/engine.ts", true)]), [
      "lib/util/text.ts imports lib/turn/engine.ts (type): turn/ is in a higher layer (turns and agents above utilities)",
    ]);
    assert.deepEqual(layerViolations([edge("lib/turn/engine.ts", "lib/agents/routines.ts")]), [
      "lib/turn/engine.ts imports lib/agents/routines.ts: agents/ is in the same layer (turns and agents)",
    ]);
    assert.equal(layerViolations([edge("lib/ports.ts", "../hosts/sim/start.ts")]).length, 1);
    assert.equal(layerViolations([edge("lib/tools/web.ts", "lib/turn/engine.ts")]).length, 0);
    assert.equal(layerViolations([edge("lib/store/firmware-docs.ts", "lib/generated/docs-pack.ts")]).length, 0);
    assert.equal(layerViolations([edge("lib/registry/registry.ts", "lib/generated/web-assets.ts", true)]).length, 1);
    assert.match(layerViolations([edge("lib/newfolder/a.ts", "lib/util/text.ts")])[0], /has no layer/);
    const graph = [edge("lib/a.ts", "lib/b.ts"), edge("lib/b.ts", "lib/c.ts"), edge("lib/c.ts", "lib/a.ts"), edge("lib/c.ts", "lib/d.ts")];
    assert.deepEqual(runtimeCycles(graph), [["lib/a.ts", "lib/b.ts", "lib/c.ts", "lib/a.ts"]]);
    assert.deepEqual(runtimeCycles([edge("lib/a.ts", "lib/b.ts"), edge("lib/b.ts", "lib/a.ts", true)]), []);
  });
});
