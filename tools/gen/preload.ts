// The device manifest's preload list (hosts/device/preload.json): every module of lib/, by the name the
// manifest maps it to ("lib/*": "./lib/*"). Moddable's preload wildcards match only .js sources, not the .ts
// ones mcconfig compiles, so each module is named.
import { readdirSync, statSync } from "node:fs";

export const PRELOAD_PATH = "hosts/device/preload.json";

/** Every .ts/.js module under `root` (no .d.ts), as repository-relative paths with "/" separators, sorted. */
export function libModules(root = "lib"): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root).sort()) {
    const path = `${root}/${name}`;
    if (statSync(path).isDirectory()) out.push(...libModules(path));
    else if (/\.(ts|js)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

export function generatePreload(): string {
  const preload = libModules().map((path) => path.replace(/\.(ts|js)$/, ""));
  return `${JSON.stringify({ preload }, null, 2)}\n`;
}
