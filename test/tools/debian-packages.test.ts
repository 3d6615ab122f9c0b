// npm test installs a missing Debian package itself, saying so in one line first, and otherwise stops with
// the one command to run.
import assert from "node:assert/strict";
import { installMissing, TEST_PACKAGES } from "../../tools/debian-packages.mjs";

describe("the tests' Debian packages", () => {
  const absent = { name: "halo-absent", present: () => false, why: "a test of the installer" };

  it("prints one line naming the packages and the command before installing, then says what still fails", () => {
    const lines: string[] = [];
    const scripts: string[] = [];
    const problem = installMissing(
      ["halo-absent"],
      (l: string) => lines.push(l),
      [absent],
      (s: string) => void scripts.push(s),
    );
    assert.deepEqual(lines, ["npm test: installing Debian packages for a test of the installer: apt-get install -y halo-absent"]);
    assert.equal(scripts.length, 1);
    assert.match(scripts[0], /^\(apt-get install -y -qq halo-absent \|\| \(apt-get update -qq && apt-get install -y -qq halo-absent\)\)/);
    assert.equal(problem, "These tests need Debian packages: run `apt-get install -y halo-absent` as root.");
  });

  it("installs nothing and prints nothing when every package is there", () => {
    const lines: string[] = [];
    let ran = false;
    const present = { name: "halo-present", present: () => true, why: "x" };
    assert.equal(
      installMissing(
        ["halo-present"],
        (l: string) => lines.push(l),
        [present],
        () => {
          ran = true;
        },
      ),
      undefined,
    );
    assert.deepEqual(lines, []);
    assert.equal(ran, false);
  });

  it("names every package the tests use", () => {
    assert.deepEqual(TEST_PACKAGES.map((p) => p.name).sort(), ["chromium", "espeak-ng", "sox"]);
  });
});
