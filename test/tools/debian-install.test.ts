// `npm test` installs a missing Debian package (espeak-ng, sox, chromium) only after printing one line that
// names it and says why: the line comes first, exactly once, then apt-get. Every test helper that installs
// goes through installDebianPackage (a source scan keeps apt-get out of the others).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { installDebianPackage, installNotice } from "../support/debian.ts";

describe("npm test and Debian packages", () => {
  it("prints one line naming the package before apt-get runs", () => {
    const events: string[] = [];
    const ok = installDebianPackage("espeak-ng", "the voice tests' speech", {
      say: (line) => events.push(`say ${line}`),
      run: (command) => (events.push(`run ${command}`), true),
    });
    assert.equal(ok, true);
    assert.equal(events.length, 2);
    assert.equal(events[0], `say ${installNotice("espeak-ng", "the voice tests' speech")}`);
    assert.match(events[0], /installing the Debian package espeak-ng with apt-get \(as root\)/);
    assert.match(events[1], /^run \(apt-get install -y -qq espeak-ng /);
  });

  it("refuses a name that is not a Debian package (nothing is printed or run)", () => {
    const events: string[] = [];
    const deps = { say: (l: string) => void events.push(l), run: () => true };
    assert.throws(() => installDebianPackage("sox; rm -rf /", "x", deps));
    assert.deepEqual(events, []);
  });

  it("no other test helper or tool runs apt-get itself", () => {
    const offenders: string[] = [];
    for (const dir of ["test/support", "tools"]) {
      for (const name of readdirSync(dir)) {
        if (!/\.(ts|mjs)$/.test(name) || name === "debian.ts") continue;
        const text = readFileSync(`${dir}/${name}`, "utf8");
        if (/spawnSync\([^)]*apt-get|"apt-get install[^"]*>\/dev\/null/.test(text)) offenders.push(`${dir}/${name}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
