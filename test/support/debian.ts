// A test's Debian package, installed when missing (with one line saying so), else the test stops with the
// one command to run. `npm test` installs them all before its processes start (tools/debian-packages.mjs).
import { installMissing } from "../../tools/debian-packages.mjs";

const ready = new Set<string>();

export function ensureDebianPackage(name: "espeak-ng" | "sox" | "chromium"): void {
  if (ready.has(name)) return;
  const problem = installMissing([name]);
  if (problem) throw new Error(problem);
  ready.add(name);
}
