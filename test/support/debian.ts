// Installs a Debian package a test needs when it is missing and the run may (root, apt-get present), saying so
// first: `npm test` prints one line naming the package and why before apt-get runs, so nobody finds a package
// installed as root without having been told.
import { spawnSync } from "node:child_process";

export interface InstallDeps {
  /** Runs a shell command; true when it exits 0. */
  run(command: string): boolean;
  /** Prints one line. */
  say(line: string): void;
}

const SYSTEM: InstallDeps = {
  run: (command) => spawnSync("sh", ["-c", command]).status === 0,
  say: (line) => console.log(line),
};

/** The line printed before `pkg` is installed. */
export function installNotice(pkg: string, why: string): string {
  return `npm test: installing the Debian package ${pkg} with apt-get (as root) for ${why}`;
}

/** Installs `pkg` with apt-get (updating the lists once if the first try fails); true when it worked. */
export function installDebianPackage(pkg: string, why: string, deps: InstallDeps = SYSTEM): boolean {
  if (!/^[a-z0-9][a-z0-9.+-]*$/.test(pkg)) throw new Error(`not a Debian package name: ${pkg}`);
  deps.say(installNotice(pkg, why));
  return deps.run(`(apt-get install -y -qq ${pkg} || (apt-get update -qq && apt-get install -y -qq ${pkg})) >/dev/null 2>&1`);
}
