// Every lib/ module loads on the XS engine and its exports deep-freeze, as the device's preload leaves them
// (the scenario runs freeze only the modules they reach: test/support/xs-compare.ts).
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { frozenEntry, reachedLibModules } from "../support/frozen-lib.ts";
import { libModules } from "../support/lib-sources.ts";

describe("every lib/ module frozen on XS", () => {
  it("loads all of them, freezes what they export and runs on", async () => {
    const all = libModules();
    const r = await runOnXs(frozenEntry("test/xs/frozen-lib.xs.ts", all), { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr + r.stdout.slice(-2000));
    assert.match(r.stdout, /^END$/m);
    const m = /^FROZEN (.*)$/m.exec(r.stdout);
    assert.ok(m, r.stdout.slice(0, 2000));
    const report = JSON.parse(m[1]);
    assert.equal(report.modules, all.length);
    assert.ok(report.frozen > 1000, `${report.frozen} objects frozen`);
  });

  it("a scenario's set is what its bundle holds, lib/ only", async () => {
    const reached = await reachedLibModules("test/xs/vector-journal.xs.ts");
    assert.ok(reached.includes("lib/memory/store/vector-journal.ts"), reached.join(" "));
    assert.ok(reached.every((f) => f.startsWith("lib/")));
    assert.ok(!reached.includes("lib/wallet/cashu/kit.ts") && reached.length < libModules().length / 2, `${reached.length} modules`);
  });
});
