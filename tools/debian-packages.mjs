// The Debian packages some tests use (speech from espeak-ng and sox, the web page in Chromium). `npm test`
// installs the missing ones once, before its parallel processes start (two apt-get runs at once would fight
// over dpkg's lock), and says so in one line first; the tests' own checks (test/support/debian.ts) do the
// same when a file is run alone.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

/** Each package, what tells that it is there, and what needs it. */
export const TEST_PACKAGES = [
  { name: "espeak-ng", present: () => runs("espeak-ng", ["--version"]), why: "speech in the voice and wake-word tests" },
  { name: "sox", present: () => runs("sox", ["--version"]), why: "resampling in the wake-word tests" },
  { name: "chromium", present: () => existsSync("/usr/bin/chromium"), why: "the web page tests" },
];

function runs(cmd, args) {
  return spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
}

/**
 * Installs `packages` (names from TEST_PACKAGES) that are missing, printing one line first. Returns a
 * sentence naming the command to run when they could not be installed (not root, no network), else undefined.
 * @param {string[]} [names]
 * @param {(line: string) => void} [print]
 * @param {Array<{ name: string, present: () => boolean, why: string }>} [packages]
 * @param {(script: string) => unknown} [shell] runs the install script (tests pass their own)
 * @returns {string | undefined}
 */
export function installMissing(
  names = TEST_PACKAGES.map((p) => p.name),
  print = (line) => console.error(line),
  packages = TEST_PACKAGES,
  shell = (script) => spawnSync("sh", ["-c", script], { stdio: "ignore" }),
) {
  const missing = packages.filter((p) => names.includes(p.name) && !p.present());
  if (missing.length === 0) return undefined;
  const list = missing.map((p) => p.name).join(" ");
  print(`npm test: installing Debian packages for ${missing.map((p) => p.why).join(", ")}: apt-get install -y ${list}`);
  const script = `(apt-get install -y -qq ${list} || (apt-get update -qq && apt-get install -y -qq ${list})) >/dev/null 2>&1`;
  shell(script);
  const still = missing.filter((p) => !p.present());
  return still.length
    ? `These tests need Debian packages: run \`apt-get install -y ${still.map((p) => p.name).join(" ")}\` as root.`
    : undefined;
}
