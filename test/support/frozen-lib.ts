// For XS runs: an entry that first loads every lib/ module and deep-freezes its exports (test/support/deep-freeze.ts),
// then runs the given XS entry. A scenario that passes this way keeps no state in what a module exports, which is
// what the device's preload needs (docs/architecture.md, "Preloadable core").
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { libModules } from "./lib-sources.ts";

const DIR = "hosts/xs/build/frozen";

/** Writes the two generated modules for `entry` and returns the path of the one to run. */
export function frozenEntry(entry: string): string {
  mkdirSync(DIR, { recursive: true });
  const name = basename(entry).replace(/\.[jt]s$/, "");
  const modules = libModules();
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
