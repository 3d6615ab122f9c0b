// `npm test`: type-checks every tree, checks formatting (Prettier) and lint (Biome), makes sure the XS host
// is built, runs every mocha test (Node and XS), and ends with one summary line "tests: N passed, N failed".
//
// The mocha files run in several processes at once (tools/test-plan.mjs splits them by their last
// measured times), beside the checks: most tests wait on sockets, browsers and child processes, so two
// cores serve three or four of them. Each process's output is printed whole when it ends.
//
// `--quick` (npm run test:quick): the mocha files alone, without the slow ones in SLOW_FILES.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { installMissing } from "./debian-packages.mjs";
import { SLOW_FILES, shard } from "./test-plan.mjs";

const quick = process.argv.includes("--quick");
const CACHE = "node_modules/.cache/halo-tests";
const TIMINGS = join(CACHE, "seconds.json");
/** Each file's CPU seconds in the last run, children included (tools/test-shard.mjs): where to look when
 * `npm test` gets slow, since on two shared cores the wall times mostly measure the neighbours. */
const CPU_TIMINGS = join(CACHE, "cpu-seconds.json");
const TSCONFIGS = ["tsconfig.lib.json", "tsconfig.json", "hosts/device/tsconfig.json", "web/tsconfig.json"];
/** The folders Prettier checks: the same as `npm run format` writes. */
const FORMATTED = ["lib", "hosts", "test", "tools", "bench", "modules", "web"];
/** Mocha processes: one more than the cores, since most of a test's time is spent waiting. */
const PROCESSES = Math.max(2, Math.min(4, availableParallelism() + 1));

/** Type checks keep their state between runs (--incremental), so an unchanged tree is checked in seconds. */
const typecheck = (config) => ({
  name: `typecheck ${config}`,
  cmd: "npx",
  args: ["tsc", "-p", config, "--noEmit", "--incremental", "--tsBuildInfoFile", join(CACHE, `${config.replace(/\W/g, "_")}.tsbuildinfo`)],
});
const CHECKS = [
  ...TSCONFIGS.filter((c) => existsSync(c)).map(typecheck),
  {
    name: "format (prettier --check; fix with npm run format)",
    cmd: "npx",
    args: ["prettier", "--check", "--cache", "--log-level", "warn", ...FORMATTED],
  },
  { name: "lint (biome; see npm run lint)", cmd: "npx", args: ["biome", "lint", "--error-on-warnings", "--no-errors-on-unmatched"] },
];

/** Runs a command with its output collected; resolves to { ok, output }. */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    child.on("close", (code) => resolve({ ok: code === 0, output: Buffer.concat(chunks).toString() }));
  });
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

function readTimings() {
  try {
    return JSON.parse(readFileSync(TIMINGS, "utf8"));
  } catch {
    return {};
  }
}

async function runChecks(failed) {
  for (const check of CHECKS) {
    const { ok, output } = await run(check.cmd, check.args);
    console.log(`check: ${check.name}: ${ok ? "ok" : "FAILED"}`);
    if (!ok) {
      process.stdout.write(output);
      failed.push(check.name);
    }
  }
}

async function runShard(files, index, count) {
  const report = join(CACHE, `shard-${index}.json`);
  rmSync(report, { force: true });
  const { output } = await run(process.execPath, ["--import", "tsx", "tools/test-shard.mjs", ...files], { HALO_SHARD_REPORT: report });
  console.log(`\n── mocha process ${index + 1} of ${count} (${files.length} files) ──`);
  process.stdout.write(output);
  try {
    return JSON.parse(readFileSync(report, "utf8"));
  } catch {
    return { passed: 0, failed: 1, seconds: {}, crashed: true };
  }
}

const startedAt = Date.now();
mkdirSync(CACHE, { recursive: true });
const failedChecks = [];
// Once, before the parallel processes: two apt-get runs at once would fight over dpkg's lock.
const packagesProblem = installMissing();
if (packagesProblem) console.log(packagesProblem);
// The XS host is built before any test needs it.
if (!(await run("node", ["hosts/xs/build.mjs"])).ok) failedChecks.push("XS host build");

const files = testFiles("test").filter((f) => !quick || !(f in SLOW_FILES));
const timings = readTimings();
const groups = shard(files, PROCESSES, timings);
const [, results] = await Promise.all([
  quick ? Promise.resolve() : runChecks(failedChecks),
  Promise.all(groups.map((g, i) => runShard(g.files, i, groups.length))),
]);

let passed = 0;
let failed = failedChecks.length;
const cpu = {};
for (const [i, r] of results.entries()) {
  passed += r.passed;
  failed += r.failed;
  if (r.crashed) console.log(`mocha process ${i + 1} ended without a report`);
  Object.assign(timings, r.seconds);
  Object.assign(cpu, r.cpuSeconds);
}
writeFileSync(TIMINGS, JSON.stringify(timings));
writeFileSync(CPU_TIMINGS, JSON.stringify(cpu));
const costliest = Object.entries(cpu).sort((a, b) => b[1] - a[1]);
const cpuTotal = costliest.reduce((sum, [, s]) => sum + s, 0);
console.log(`\nCPU of the mocha files: ${Math.round(cpuTotal)} s; the costliest (in ${CPU_TIMINGS}):`);
for (const [file, s] of costliest.slice(0, 5)) console.log(`  ${s.toFixed(1).padStart(6)} s  ${file}`);
for (const name of failedChecks) console.log(`check failed: ${name}`);
console.log(`\n${groups.length} mocha processes, ${Math.round((Date.now() - startedAt) / 1000)} s in all`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
