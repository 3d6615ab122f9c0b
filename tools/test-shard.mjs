// One of `npm test`'s mocha processes: runs the files named on the command line in that order and
// writes its counts and each file's wall time as JSON to the path in HALO_SHARD_REPORT.
import { readFileSync, writeFileSync } from "node:fs";
import Mocha from "mocha";

const files = process.argv.slice(2);
const mocha = new Mocha({ timeout: 120000, reporter: "spec", color: process.env.HALO_TEST_COLOR === "1" });
for (const file of files) mocha.addFile(file);
await mocha.loadFilesAsync();

const seconds = {};
const cpuSeconds = {};
const started = new Map();
const cpuStarted = new Map();

/** CPU seconds of this process and of the children it has reaped (test servers, XS runs, browsers), from
 * /proc where Linux has it: what a file costs the machine, which its wall time on a busy machine hides. */
function cpuNow() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    // utime, stime, cutime, cstime: fields 14-17 of proc(5), in clock ticks of 1/100 s.
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
  } catch {
    return 0;
  }
}
const runner = mocha.run((failures) => {
  const report = { passed: runner.stats?.passes ?? 0, failed: failures, seconds, cpuSeconds };
  writeFileSync(process.env.HALO_SHARD_REPORT, JSON.stringify(report));
  process.exitCode = failures > 0 ? 1 : 0;
});
// A file's time runs from its top-level suite's start to its end, hooks included.
runner.on("suite", (suite) => {
  if (suite.file && suite.parent?.root && !started.has(suite.file)) {
    started.set(suite.file, performance.now());
    cpuStarted.set(suite.file, cpuNow());
  }
});
runner.on("suite end", (suite) => {
  if (!suite.file || !suite.parent?.root) return;
  seconds[suite.file] = (performance.now() - started.get(suite.file)) / 1000;
  cpuSeconds[suite.file] = cpuNow() - cpuStarted.get(suite.file);
});
