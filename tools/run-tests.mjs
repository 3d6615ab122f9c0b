// `npm test`: type-checks every tree, makes sure the XS host is built, runs every mocha test
// (Node and XS), and ends with one summary line "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Mocha from "mocha";

const TSCONFIGS = ["tsconfig.lib.json", "tsconfig.json", "hosts/device/tsconfig.json", "web/tsconfig.json"];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  return r.status === 0;
}

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

let failedChecks = 0;
for (const config of TSCONFIGS) {
  if (!existsSync(config)) continue;
  console.log(`typecheck: ${config}`);
  if (!run("npx", ["tsc", "-p", config, "--noEmit"])) failedChecks++;
}
if (!run("node", ["hosts/xs/build.mjs"])) failedChecks++;

const mocha = new Mocha({ timeout: 120000, reporter: "spec" });
for (const file of testFiles("test")) mocha.addFile(file);
await mocha.loadFilesAsync();
const runner = mocha.run((failures) => {
  const passed = runner.stats?.passes ?? 0;
  const failed = failures + failedChecks;
  if (failedChecks) console.log(`${failedChecks} type or build check(s) failed`);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
});
