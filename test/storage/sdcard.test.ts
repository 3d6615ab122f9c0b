// The SD module (modules/sdcard) on the XS host over its POSIX backend: the
// Storage contract against the device's storage port, the module's file
// operations, the staged replace cut at every step, card removal, and the
// Settings port over NVS. The
// cases run in one XS process (sdcard.xs.ts); each becomes one test here.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { STORAGE_CASES } from "./storage-contract.ts";
import { PLAIN_SUITES, RESULT_PREFIX, SD_SUITES, type CaseResult } from "./suites.ts";

describe("SD module on the XS host (POSIX backend)", () => {
  const results = new Map<string, CaseResult>();
  let run: { code: number; stdout: string; stderr: string };
  let base: string;

  before(async function () {
    this.timeout(120_000);
    base = mkdtempSync(join(tmpdir(), "halo-sdcard-"));
    run = await runOnXs("test/storage/sdcard.xs.ts", { args: [base], timeoutMs: 110_000 });
    for (const line of run.stdout.split("\n")) {
      if (!line.startsWith(RESULT_PREFIX)) continue;
      const r = JSON.parse(line.slice(RESULT_PREFIX.length)) as CaseResult;
      results.set(`${r.suite} :: ${r.name}`, r);
    }
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it("runs to the end", () => {
    assert.equal(run.code, 0, run.stderr + run.stdout.slice(-2000));
    assert.match(run.stdout, /^END$/m);
  });

  const suites: { [suite: string]: string[] } = { "Storage contract": STORAGE_CASES.map((c) => c.name) };
  for (const suite of Object.keys(SD_SUITES)) suites[suite] = SD_SUITES[suite].map((c) => c.name);
  for (const suite of Object.keys(PLAIN_SUITES)) suites[suite] = PLAIN_SUITES[suite].map((c) => c.name);
  for (const suite of Object.keys(suites)) {
    describe(suite, () => {
      for (const name of suites[suite]) {
        it(name, () => {
          const r = results.get(`${suite} :: ${name}`);
          assert.ok(r, "the case did not report (see 'runs to the end')");
          assert.ok(r.ok, r.message);
        });
      }
    });
  }
});
