// The docs name endpoints and tools that exist: every `/api/...` path in README.md and docs/ matches a route of
// the simulator, and every backticked `namespace.tool` whose namespace is a registry namespace is a registered
// tool. A renamed route or tool fails here until the docs follow.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { markdownFiles } from "../../tools/gen/docs-pack.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";

const DOCS = ["README.md", "CONTRIBUTING.md", ...markdownFiles("docs")];

/** Every local `/api/...` path a document names (links to other sites' /api/ pages are not ours). */
function apiPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(^|[^\w.:/-])(\/api\/[A-Za-z0-9_/:<>{}.*-]*)/g)) out.push(m[2].replace(/[.]+$/, ""));
  return out;
}

/** A documented path's segments: placeholders (`<id>`, `{name}`, `:id`, `...`, `<16 hex>.wav`) match any segment. */
function matches(path: string, pattern: string): boolean {
  const want = pattern.split("/");
  const have = path.split("/");
  // "/api/skills/..." and "/api/skills/" name every path under /api/skills/.
  if (have.at(-1) === "..." || have.at(-1) === "")
    return want.length > have.length - 1 && have.slice(0, -1).every((s, i) => s === want[i] || isPlaceholder(s) || want[i].startsWith(":"));
  if (want.length !== have.length) return false;
  return have.every((s, i) => s === want[i] || isPlaceholder(s) || want[i].startsWith(":"));
}

function isPlaceholder(segment: string): boolean {
  return /^(<[^>]*>|\{[^}]*\}|:\w+)/.test(segment);
}

/** Backticked names in a tool namespace that are not tools: settings keys, host config, a Realtime API event. */
const NOT_TOOLS = new Set([
  "memory.embedder", // settings key
  "web.usage", // settings key
  "loop.governor", // settings key
  "session.update", // an OpenAI Realtime event
  "config.sd", // the device's mc/config fields
  "config.ring",
  "config.button",
  "config.improv",
  "config.led",
]);

describe("the docs name what exists", () => {
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim({ portOverrides: { log: memoryLog() } });
  });
  after(async () => sim.stop());

  it("every /api/ path in the docs matches a route", () => {
    const patterns = sim.halo.http.routes().map((r) => r.pattern);
    const missing: string[] = [];
    let seen = 0;
    for (const file of DOCS) {
      for (const path of apiPaths(readFileSync(file, "utf8"))) {
        // "/api/" and "/api/..." name the whole API.
        if (path === "/api/..." || path === "/api/") continue;
        seen++;
        if (!patterns.some((p) => matches(path, p))) missing.push(`${file}: ${path}`);
      }
    }
    assert.ok(seen > 80, `${seen} paths read`);
    assert.deepEqual(missing, []);
  });

  it("every backticked tool name in a registry namespace is a registered tool", () => {
    const tools = new Set(sim.halo.core.registry.all().map((t) => t.name));
    const namespaces = new Set([...tools].map((n) => n.split(".")[0]));
    const missing: string[] = [];
    let seen = 0;
    for (const file of DOCS) {
      for (const m of readFileSync(file, "utf8").matchAll(/`([a-z]+)\.([a-z_]+)`/g)) {
        if (!namespaces.has(m[1]) || NOT_TOOLS.has(`${m[1]}.${m[2]}`) || /^(ts|js|mjs|json|md|c|h)$/.test(m[2])) continue;
        seen++;
        if (!tools.has(`${m[1]}.${m[2]}`)) missing.push(`${file}: ${m[1]}.${m[2]}`);
      }
    }
    assert.ok(seen > 100, `${seen} tool names read`);
    assert.deepEqual(missing, []);
  });

  it("the check can fail: a path and a tool that do not exist are found", () => {
    const patterns = sim.halo.http.routes().map((r) => r.pattern);
    assert.equal(
      patterns.some((p) => matches("/api/nothing-here", p)),
      false,
    );
    assert.equal(
      patterns.some((p) => matches("/api/skills/<id>/approve", p)),
      true,
    );
    assert.equal(
      patterns.some((p) => matches("/api/skills/...", p)),
      true,
    );
    assert.equal(
      sim.halo.core.registry.all().some((t) => t.name === "memory.searcher"),
      false,
    );
  });
});
