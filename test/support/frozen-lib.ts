// For XS runs: an entry that first loads lib/ modules and deep-freezes their exports (test/support/deep-freeze.ts),
// then runs the given XS entry. A scenario that passes this way keeps no state in what a module exports, which is
// what the device's preload needs (docs/architecture.md, "Preloadable core").
//
// A scenario can only touch the modules its bundle holds, so the scenario runs freeze those (reachedLibModules);
// test/xs/frozen-lib.test.ts loads and freezes every lib/ module once.
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { bundleInputs } from "../../hosts/xs/run.mjs";

const DIR = "hosts/xs/build/frozen";

/** The lib/ modules an XS bundle of `entry` holds, sorted. */
export async function reachedLibModules(entry: string): Promise<string[]> {
  const inputs: string[] = await bundleInputs(entry);
  return inputs.filter((f) => f.startsWith("lib/")).sort();
}

/** Writes the two generated modules for `entry` (freezing `modules` first) and returns the path of the one to run. */
export function frozenEntry(entry: string, modules: string[]): string {
  mkdirSync(DIR, { recursive: true });
  const name = basename(entry).replace(/\.[jt]s$/, "");
  const freeze = [
    `import { freezeModules } from ${JSON.stringify(resolve("test/support/deep-freeze.ts"))};`,
    ...modules.map((m, i) => `import * as m${i} from ${JSON.stringify(resolve(m))};`),
    `const report = freezeModules([${modules.map((m, i) => `[${JSON.stringify(m)}, m${i}]`).join(", ")}]);`,
    'print("FROZEN " + JSON.stringify(report));',
  ];
  // Imports run in order: every module is loaded and frozen before the entry's own module body runs.
  const run = [`import "./${name}.freeze.js";`, `import ${JSON.stringify(resolve(entry))};`];
  // Plain JavaScript, so the type checks (which cover hosts/xs/**/*.ts) never read these generated files.
  writeFileSync(join(DIR, `${name}.freeze.js`), `${freeze.join("\n")}\n`);
  writeFileSync(join(DIR, `${name}.js`), `${run.join("\n")}\n`);
  return join(DIR, `${name}.js`);
}
