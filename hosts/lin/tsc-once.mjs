// Compiles every TypeScript module of an mcconfig makefile in one tsc run, then puts each output where that
// makefile's per-module rule would write it, so `make` finds them newer than their sources and skips the
// 365 separate tsc runs (about 10 s each on a busy machine: most of a lin build's time).
// Run: node hosts/lin/tsc-once.mjs <the makefile mcconfig wrote>   (tsc from the repo's node_modules/.bin on PATH)
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const makefile = process.argv[2];
if (!makefile) {
  console.error("usage: node hosts/lin/tsc-once.mjs <makefile>");
  process.exit(64);
}
const modulesDir = join(dirname(makefile), "modules");
// Each rule runs `tsc -p $(MODULES_DIR)/<module>-tsconfig.json`: outDir and one source, rootDir "/".
const configs = [...readFileSync(makefile, "utf8").matchAll(/tsc -p \$\(MODULES_DIR\)\/(\S+-tsconfig\.json)/g)].map((m) =>
  join(modulesDir, m[1]),
);
const units = configs.map((path) => {
  const config = JSON.parse(readFileSync(path, "utf8"));
  return { outDir: config.compilerOptions.outDir, source: config.files[0] };
});
if (units.length === 0) {
  console.log("tsc-once: no TypeScript rules in the makefile");
  process.exit(0);
}

const all = join(dirname(makefile), "tsc-once");
rmSync(all, { recursive: true, force: true });
const project = join(modulesDir, "tsc-once-tsconfig.json");
writeFileSync(
  project,
  JSON.stringify({
    extends: join(modulesDir, "tsconfig-base.json"),
    compilerOptions: { rootDir: "/", outDir: all },
    files: units.map((u) => u.source),
  }),
);
// tsc emits even with type errors: the app's type check is `npx tsc -p tsconfig.json`. Here (mcconfig's paths
// point lib/wallet/cashu/ at cashu-ts' bundled .js, which has no declarations beside it) errors are reported,
// and only a missing output fails the build.
const run = spawnSync("tsc", ["-p", project], { stdio: "inherit" });
if (run.error) {
  console.error(`tsc-once: cannot run tsc: ${run.error.message}`);
  process.exit(1);
}
if (run.status !== 0) console.error("tsc-once: tsc reported type errors (above); its output is used");

for (const { outDir, source } of units) {
  const js = source.replace(/\.ts$/, ".js");
  const from = join(all, js);
  if (!existsSync(from)) {
    console.error(`tsc-once: tsc wrote no ${from}`);
    process.exit(1);
  }
  const to = join(outDir, js);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  // The map names its source relative to where it sits, which differs between the two places.
  const map = JSON.parse(readFileSync(`${from}.map`, "utf8"));
  map.sources = map.sources.map((s) => relative(dirname(to), join(dirname(from), s)));
  writeFileSync(`${to}.map`, JSON.stringify(map));
}
console.log(`tsc-once: ${units.length} modules compiled in one run`);
