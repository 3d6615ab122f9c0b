// Layer order and cycles of lib/'s import graph (docs/architecture.md, "Layers"). Every failure names the
// importing file and what it imports, or the whole cycle.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { type ImportEdge, importEdges, libModules, runtimeCycles } from "../support/lib-sources.ts";

/** [importer pattern, forbidden target pattern, why]. Type-only imports count: a layer must not even name them. */
const LAYER_RULES: Array<[RegExp, RegExp, string]> = [
  [/^lib\/(registry|util|mcp)\/|^lib\/ports\.ts$/, /^lib\/(tools|turn|agents)\/|^(\.\.\/)*hosts\//, "the base layer"],
  [/^lib\//, /^(\.\.\/)*(hosts|test)\/|^(hosts|test)\//, "lib/ (the portable core)"],
];

function layerViolations(edges: ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    for (const [importer, target, layer] of LAYER_RULES) {
      if (importer.test(e.from) && target.test(e.to)) out.push(`${e.from} imports ${e.to}, which ${layer} must not`);
    }
  }
  return out;
}

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

  it("keeps the layer order: registry, util, mcp and ports never import tools, turn, agents or hosts; lib/ never imports hosts/ or test/", () => {
    assert.deepEqual(layerViolations(edges), []);
  });

  it("has no import cycles (type-only imports are erased at compile time and do not count)", () => {
    assert.deepEqual(
      runtimeCycles(edges).map((c) => c.join(" -> ")),
      [],
    );
  });

  it("the checks catch what they look for", () => {
    const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly });
    assert.deepEqual(layerViolations([edge("lib/util/text.ts", "lib/turn/engine.ts", true)]), [
      "lib/util/text.ts imports lib/turn/engine.ts, which the base layer must not",
    ]);
    assert.equal(layerViolations([edge("lib/ports.ts", "../hosts/sim/start.ts")]).length, 2);
    assert.equal(layerViolations([edge("lib/tools/web.ts", "lib/turn/engine.ts")]).length, 0);
    const graph = [edge("lib/a.ts", "lib/b.ts"), edge("lib/b.ts", "lib/c.ts"), edge("lib/c.ts", "lib/a.ts"), edge("lib/c.ts", "lib/d.ts")];
    assert.deepEqual(runtimeCycles(graph), [["lib/a.ts", "lib/b.ts", "lib/c.ts", "lib/a.ts"]]);
    assert.deepEqual(runtimeCycles([edge("lib/a.ts", "lib/b.ts"), edge("lib/b.ts", "lib/a.ts", true)]), []);
  });
});
