// The lexicon kernels on XS: the C kernels (over ArrayBuffers and over native arena memory) and the
// TypeScript kernels must give the outcome the TypeScript kernels give on Node, case by case, errors
// and region bytes included.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { tsLexiconKernels } from "../../lib/memory/recall/lexicon-ts.ts";
import { runLexiconContract, type ContractReport } from "../memory/lexicon-contract.ts";

interface XsReport {
  impl: string;
  digest: string;
  cases: Array<[name: string, digest: string, ok: boolean]>;
  failures: string[];
}

describe("the lexicon kernels on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  const reports = new Map<string, XsReport>();
  let node: ContractReport;
  before(async () => {
    xs = await runOnXs("test/xs/lexicon-kernel.xs.ts", { timeoutMs: 300_000 });
    for (const line of xs.stdout.split("\n")) {
      if (!line.startsWith("LEXICON ")) continue;
      const r = JSON.parse(line.slice(8)) as XsReport;
      reports.set(r.impl, r);
    }
    node = runLexiconContract(tsLexiconKernels);
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  for (const impl of ["ts", "c", "c-arena", "ts-arena"]) {
    it(`${impl}: every case passes and gives Node's outcome`, () => {
      const r = reports.get(impl);
      assert.ok(r, `no ${impl} report`);
      assert.deepEqual(r.failures, []);
      assert.equal(r.cases.length, node.results.length);
      for (let i = 0; i < r.cases.length; i++) {
        const [name, digest, ok]: [string, string, boolean] = r.cases[i];
        const expected = node.results[i];
        assert.equal(name, expected.name);
        assert.ok(ok, `${impl}: ${name}`);
        assert.equal(digest, expected.digest, `${impl}: ${name}: differs from Node's ${expected.outcome.slice(0, 160)}`);
      }
      assert.equal(r.digest, node.digest);
    });
  }
});
