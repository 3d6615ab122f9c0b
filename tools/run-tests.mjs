// `npm test`: type-checks every tree, checks formatting (Prettier) and lint (Biome), makes sure the XS host
// is built, runs every mocha test (Node and XS), and ends with one summary line "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Mocha from "mocha";

const TSCONFIGS = ["tsconfig.lib.json", "tsconfig.json", "hosts/device/tsconfig.json", "web/tsconfig.json"];
/** The folders Prettier checks: the same as `npm run format` writes. */
const FORMATTED = ["lib", "hosts", "test", "tools", "bench", "modules", "web"];
/** The checks besides the type checks; each one's failure is counted and named in the summary. */
const CHECKS = [
  {
    name: "format (prettier --check; fix with npm run format)",
    cmd: "npx",
    args: ["prettier", "--check", "--cache", "--log-level", "warn", ...FORMATTED],
  },
  { name: "lint (biome; see npm run lint)", cmd: "npx", args: ["biome", "lint", "--error-on-warnings", "--no-errors-on-unmatched"] },
];

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

const failedChecks = [];
for (const config of TSCONFIGS) {
  if (!existsSync(config)) continue;
  console.log(`typecheck: ${config}`);
  if (!run("npx", ["tsc", "-p", config, "--noEmit"])) failedChecks.push(`typecheck ${config}`);
}
for (const check of CHECKS) {
  console.log(`check: ${check.name}`);
  if (!run(check.cmd, check.args)) failedChecks.push(check.name);
}
if (!run("node", ["hosts/xs/build.mjs"])) failedChecks.push("XS host build");

const mocha = new Mocha({ timeout: 120000, reporter: "spec" });
for (const file of testFiles("test")) mocha.addFile(file);
await mocha.loadFilesAsync();
const runner = mocha.run((failures) => {
  const passed = runner.stats?.passes ?? 0;
  const failed = failures + failedChecks.length;
  for (const name of failedChecks) console.log(`check failed: ${name}`);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
});
