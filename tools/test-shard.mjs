// One of `npm test`'s mocha processes: runs the files named on the command line in that order and
// writes its counts and each file's wall time as JSON to the path in HALO_SHARD_REPORT.
import { writeFileSync } from "node:fs";
import Mocha from "mocha";

const files = process.argv.slice(2);
const mocha = new Mocha({ timeout: 120000, reporter: "spec", color: process.env.HALO_TEST_COLOR === "1" });
for (const file of files) mocha.addFile(file);
await mocha.loadFilesAsync();

const seconds = {};
const started = new Map();
const runner = mocha.run((failures) => {
  const report = { passed: runner.stats?.passes ?? 0, failed: failures, seconds };
  writeFileSync(process.env.HALO_SHARD_REPORT, JSON.stringify(report));
  process.exitCode = failures > 0 ? 1 : 0;
});
// A file's time runs from its top-level suite's start to its end, hooks included.
runner.on("suite", (suite) => {
  if (suite.file && suite.parent?.root && !started.has(suite.file)) started.set(suite.file, performance.now());
});
runner.on("suite end", (suite) => {
  if (suite.file && suite.parent?.root) seconds[suite.file] = (performance.now() - started.get(suite.file)) / 1000;
});
