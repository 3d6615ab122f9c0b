// The int8 kernel on XS: the C kernel (every scan path) and the TypeScript
// kernel must give the same outcomes as the TypeScript kernel on Node, case by
// case, errors included.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { runKernelContract, type ContractReport } from "../memory/kernel-contract.ts";

interface XsReport {
  impl: string;
  digest: string;
  cases: Array<[name: string, digest: string, ok: boolean]>;
  failures: string[];
}

describe("the int8 kernel on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  let reports: Map<string, XsReport>;
  let node: ContractReport;
  before(async () => {
    xs = await runOnXs("test/xs/kernel.xs.ts", { timeoutMs: 120_000 });
    reports = new Map();
    for (const line of xs.stdout.split("\n")) {
      if (!line.startsWith("KERNEL ")) continue;
      const r = JSON.parse(line.slice(7)) as XsReport;
      reports.set(r.impl, r);
    }
    node = runKernelContract(tsKernels);
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("runs the TypeScript kernel and at least the portable C scan", () => {
    assert.ok(reports.has("ts"));
    assert.ok(reports.has("c-portable"));
    const best = /^BEST (c-\w+)$/m.exec(xs.stdout)?.[1];
    assert.ok(best && reports.has(best), `best path ${best} was not run`);
    if (process.arch === "x64") assert.ok(reports.has("c-avx2") || /^SKIP c-avx2/m.test(xs.stdout));
  });

  it("refuses an unknown scan path and keeps the best one", () => {
    const best = /^BEST (c-\w+)$/m.exec(xs.stdout)?.[1];
    assert.match(xs.stdout, new RegExp(`^PATH-ERROR RangeError ${best?.slice(2)}$`, "m"));
  });

  it("fails like the TypeScript kernel when called directly with missing arguments", () => {
    assert.match(
      xs.stdout,
      /^DIRECT \[\]$/m,
      xs.stdout.split("\n").find((l) => l.startsWith("DIRECT")),
    );
  });

  function assertSameAsNode(r: XsReport): void {
    assert.deepEqual(r.failures, []);
    assert.equal(r.cases.length, node.results.length);
    for (let i = 0; i < r.cases.length; i++) {
      const [name, digest, ok] = r.cases[i];
      const expected = node.results[i];
      assert.equal(name, expected.name);
      assert.ok(ok, `${r.impl}: ${name}`);
      assert.equal(digest, expected.digest, `${r.impl}: ${name}: XS outcome differs from Node's ${expected.outcome.slice(0, 120)}`);
    }
    assert.equal(r.digest, node.digest);
  }

  it("the TypeScript kernel on XS gives Node's outcome in every case", () => {
    const ts = reports.get("ts");
    assert.ok(ts);
    assertSameAsNode(ts);
  });

  it("the C kernel over native arena memory (host buffers) gives Node's outcome in every case", () => {
    const arena = reports.get("c-arena");
    assert.ok(arena);
    assertSameAsNode(arena);
  });

  it("every C scan path on XS gives Node's outcome in every case", () => {
    const paths = [...reports.values()].filter((r) => r.impl.startsWith("c-"));
    assert.ok(paths.length >= 1);
    for (const r of paths) assertSameAsNode(r);
  });
});
