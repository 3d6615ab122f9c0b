#!/usr/bin/env node
// Builds the Node addon of the wake-word engine: modules/wake/*.c (the same sources as the device and the
// XS host, except the XS binding) and wake_napi.c, compiled with the machine's C compiler against the
// N-API headers that come with Node, into hosts/sim/wake/build/halo_wake.node.
//
//   node hosts/sim/wake/build.mjs [--force]
//
// No node-gyp (it needs Python) and nothing downloaded: the headers are found beside the running node
// (<prefix>/include/node, as in Node's own archives and Debian's package), in npm_config_nodedir, or in
// node-gyp's cache. A stamp of the sources, flags and compiler skips the build when nothing changed;
// tools/build.mjs runs this at `npm install`, and hosts/sim/wake/kernel.ts on first use (so `npm test` too).
// -ffp-contract=off keeps a*b+c from becoming one fused instruction, so features are the same bits as
// on the XS host (whose Makefile targets plain x86-64, which has no FMA) and on the device.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../../..");
const ENGINE_DIR = join(ROOT, "modules/wake");
const BUILD_DIR = join(HERE, "build");
export const ADDON = join(BUILD_DIR, "halo_wake.node");
const STAMP = join(BUILD_DIR, "halo_wake.stamp");
const CFLAGS = ["-O2", "-ffp-contract=off", "-fPIC", "-shared", "-std=gnu99", "-Wall", "-Wno-unused-parameter"];

/** The engine's C files (not the XS binding) and the N-API binding. */
function sources() {
  const engine = readdirSync(ENGINE_DIR)
    .filter((f) => f.endsWith(".c") && f !== "wake_xs.c")
    .sort()
    .map((f) => join(ENGINE_DIR, f));
  return [...engine, join(HERE, "wake_napi.c")];
}

/** The folder holding node_api.h for the running Node, or null. */
export function findNodeHeaders() {
  const version = process.version.slice(1);
  const candidates = [
    process.env.npm_config_nodedir && join(process.env.npm_config_nodedir, "include/node"),
    join(dirname(dirname(process.execPath)), "include/node"),
    process.config?.variables?.node_prefix && join(process.config.variables.node_prefix, "include/node"),
    join(homedir(), ".cache/node-gyp", version, "include/node"),
    join(homedir(), "Library/Caches/node-gyp", version, "include/node"),
    "/usr/include/node",
    "/usr/local/include/node",
  ].filter(Boolean);
  return candidates.find((dir) => existsSync(join(dir, "node_api.h"))) ?? null;
}

/** Builds the addon when its sources changed; returns its path. Throws with the compiler's output on failure. */
export function buildWakeAddon({ quiet = true, force = false } = {}) {
  if (process.platform === "win32") throw new Error("the wake addon builds with a Unix C compiler (cc); Windows is not supported");
  const headers = findNodeHeaders();
  if (!headers) throw new Error("cannot find Node's headers (node_api.h): install Node with its include/ folder or set npm_config_nodedir");
  const cc = process.env.CC || "cc";
  const files = sources();
  const headerFiles = readdirSync(ENGINE_DIR).filter((f) => f.endsWith(".h"));
  // HALO_WAKE_CFLAGS: extra flags, e.g. -DWAKE_NOISE_SUBTRACT=1.5 to try another value of a tuned constant
  const extra = (process.env.HALO_WAKE_CFLAGS ?? "").split(/\s+/).filter(Boolean);
  const args = [...CFLAGS, ...extra, ...(process.platform === "darwin" ? ["-undefined", "dynamic_lookup"] : [])];
  args.push("-DNODE_GYP_MODULE_NAME=halo_wake", `-I${headers}`, `-I${ENGINE_DIR}`, ...files, "-lm");
  const hash = createHash("sha256").update(JSON.stringify([cc, args, process.arch, process.platform]));
  for (const f of [...files, ...headerFiles.map((h) => join(ENGINE_DIR, h))]) hash.update(readFileSync(f));
  const stamp = hash.digest("hex");
  if (!force && existsSync(ADDON) && existsSync(STAMP) && readFileSync(STAMP, "utf8") === stamp) return ADDON;
  mkdirSync(BUILD_DIR, { recursive: true });
  const started = Date.now();
  const temporary = `${ADDON}.${process.pid}.tmp`;
  const r = spawnSync(cc, [...args, "-o", temporary], { encoding: "utf8", cwd: ROOT });
  if (r.error) throw new Error(`cannot run ${cc} (${r.error.code}): the wake addon needs a C compiler`);
  if (r.status !== 0) {
    rmSync(temporary, { force: true });
    throw new Error(`${cc} failed:\n${`${r.stdout}${r.stderr}`.trim().split("\n").slice(-30).join("\n")}`);
  }
  renameSync(temporary, ADDON); // atomic: a test process loading it meanwhile sees the old or the new file
  writeFileSync(STAMP, stamp);
  if (!quiet) console.log(`halo-wake addon: ${relative(ROOT, ADDON)} built in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return ADDON;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildWakeAddon({ quiet: false, force: process.argv.includes("--force") });
  } catch (error) {
    console.error(`halo-wake addon: build failed: ${error.message}`);
    process.exit(1);
  }
}
