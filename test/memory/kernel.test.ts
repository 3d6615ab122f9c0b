import assert from "node:assert/strict";
import { MAX_TOP_K, tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { mulberry32, randomInt8 } from "../support/prng.ts";
import { runKernelContract } from "./kernel-contract.ts";

describe("the TypeScript int8 kernel", () => {
  it("passes the kernel contract on Node", () => {
    const report = runKernelContract(tsKernels);
    assert.deepEqual(report.failures, []);
    assert.ok(report.results.length > 60);
    // The suite must exercise both outcomes: results and every error.
    const errors = new Set(report.results.filter((r) => !r.outcome.startsWith("ok ")).map((r) => r.outcome));
    for (const name of ["store", "dims", "count", "query", "k", "mask", "scales", "residuals", "rows"]) {
      assert.ok(
        [...errors].some((e) => e.endsWith(`:bad ${name}`)),
        name,
      );
    }
  });

  it("gives a stable contract digest across runs", () => {
    assert.equal(runKernelContract(tsKernels).digest, runKernelContract(tsKernels).digest);
  });

  it("does not change its inputs", () => {
    const prng = mulberry32(5);
    const store = randomInt8(prng, 64 * 20);
    const query = randomInt8(prng, 64);
    const mask = new Uint8Array(20).fill(1);
    const before = [Array.from(store), Array.from(query), Array.from(mask)];
    tsKernels.topK(store, 64, 20, query, MAX_TOP_K, mask);
    assert.deepEqual([Array.from(store), Array.from(query), Array.from(mask)], before);
  });

  it("returns fresh arrays sized to the rows found", () => {
    const store = new Int8Array([1, 2, 3, 4]);
    const a = tsKernels.topK(store, 2, 2, new Int8Array([1, 1]), 5);
    const b = tsKernels.topK(store, 2, 2, new Int8Array([1, 1]), 5);
    assert.equal(a.indices.length, 2);
    assert.notEqual(a.indices, b.indices);
    assert.equal(a.indices.buffer === a.scores.buffer, false);
  });
});
