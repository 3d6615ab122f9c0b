// The files.search index on XS: every case of the contract holds there too.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runSearchContract } from "../files/search-contract.ts";

describe("the files.search index on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  before(async function () {
    this.timeout(300_000);
    xs = await runOnXs("test/xs/search-index.xs.ts", { timeoutMs: 300_000 });
  });

  it("runs every case of the contract to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
    const names = xs.stdout
      .split("\n")
      .filter((l) => l.startsWith("SEARCH "))
      .map((l) => (JSON.parse(l.slice(7)) as { name: string }).name);
    assert.deepEqual(
      names,
      runSearchContract().map((c) => c.name),
    );
  });

  it("every case holds on XS", () => {
    for (const line of xs.stdout.split("\n").filter((l) => l.startsWith("SEARCH "))) {
      const c = JSON.parse(line.slice(7)) as { name: string; failures: string[] };
      assert.deepEqual(c.failures, [], c.name);
    }
  });
});
