// For mocha: run a scenario's XS entry and the same scenario on Node; require identical transcripts.
// On XS every lib/ module the scenario's bundle holds is loaded and its exports deep-frozen before it runs (frozen-lib.ts).
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { frozenEntry, reachedLibModules } from "./frozen-lib.ts";

export interface XsComparison {
  /** The Node transcript, for tests that check what the scenario did. */
  node(): string[];
  /** The XS host's whole output. */
  xsStdout(): string;
}

/** Registers the XS run and the two standard checks inside the calling describe(). */
export function compareOnXs(entry: string, scenario: () => Promise<string[]>, minLines: number): XsComparison {
  let xs: { code: number; stdout: string; stderr: string };
  let node: string[];
  let reached: string[];
  before(async () => {
    reached = await reachedLibModules(entry);
    xs = await runOnXs(frozenEntry(entry, reached), { timeoutMs: 120_000 });
    node = await scenario();
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("ran with every lib/ module it reaches loaded and its exports deep-frozen first", () => {
    const m = /^FROZEN (.*)$/m.exec(xs.stdout);
    assert.ok(m, xs.stdout.slice(0, 2000));
    const report = JSON.parse(m[1]);
    assert.ok(reached.length > 0, "the scenario reaches lib/");
    assert.equal(report.modules, reached.length);
    assert.ok(report.frozen >= reached.length, `${report.frozen} objects frozen`);
  });

  it("gives the same transcript as Node, line for line", () => {
    const onXs = xs.stdout
      .split("\n")
      .filter((l) => l.startsWith("T "))
      .map((l) => JSON.parse(l.slice(2)));
    assert.ok(node.length >= minLines, `${node.length} lines`);
    assert.equal(onXs.length, node.length);
    for (let i = 0; i < node.length; i++) assert.equal(onXs[i], node[i], `line ${i}`);
  });

  return { node: () => node, xsStdout: () => xs.stdout };
}
