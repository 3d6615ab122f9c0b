#!/usr/bin/env node
// Builds the Node addon of the secp256k1 arithmetic: modules/curve/secp256k1.c (the same source as the
// device and the XS host; not the XS binding) and curve_napi.c, compiled with the machine's C compiler
// against Node's N-API headers (found as hosts/sim/wake/build.mjs finds them), into
// hosts/sim/curve/build/halo_curve.node. A stamp of the sources, flags and compiler skips an unchanged
// build; tools/build.mjs runs this at `npm install`, and hosts/sim/curve/curve.ts on first use.
//
//   node hosts/sim/curve/build.mjs [--force]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findNodeHeaders } from "../wake/build.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../../..");
const CURVE_DIR = join(ROOT, "modules/curve");
const BUILD_DIR = join(HERE, "build");
export const CURVE_ADDON = join(BUILD_DIR, "halo_curve.node");
const STAMP = join(BUILD_DIR, "halo_curve.stamp");
const CFLAGS = ["-O2", "-fPIC", "-shared", "-std=gnu99", "-Wall", "-Wno-unused-parameter"];
const SOURCES = [join(CURVE_DIR, "secp256k1.c"), join(HERE, "curve_napi.c")];
const HEADERS = [join(CURVE_DIR, "secp256k1.h"), join(CURVE_DIR, "secp256k1_base.h")];

/** Builds the addon when its sources changed; returns its path. Throws with the compiler's output on failure. */
export function buildCurveAddon({ quiet = true, force = false } = {}) {
  if (process.platform === "win32") throw new Error("the curve addon builds with a Unix C compiler (cc); Windows is not supported");
  const headers = findNodeHeaders();
  if (!headers) throw new Error("cannot find Node's headers (node_api.h): install Node with its include/ folder or set npm_config_nodedir");
  const cc = process.env.CC || "cc";
  const args = [...CFLAGS, ...(process.platform === "darwin" ? ["-undefined", "dynamic_lookup"] : [])];
  args.push("-DNODE_GYP_MODULE_NAME=halo_curve", `-I${headers}`, `-I${CURVE_DIR}`, ...SOURCES);
  const hash = createHash("sha256").update(JSON.stringify([cc, args, process.arch, process.platform]));
  for (const f of [...SOURCES, ...HEADERS]) hash.update(readFileSync(f));
  const stamp = hash.digest("hex");
  if (!force && existsSync(CURVE_ADDON) && existsSync(STAMP) && readFileSync(STAMP, "utf8") === stamp) return CURVE_ADDON;
  mkdirSync(BUILD_DIR, { recursive: true });
  const started = Date.now();
  const temporary = `${CURVE_ADDON}.${process.pid}.tmp`;
  const r = spawnSync(cc, [...args, "-o", temporary], { encoding: "utf8", cwd: ROOT });
  if (r.error) throw new Error(`cannot run ${cc} (${r.error.code}): the curve addon needs a C compiler`);
  if (r.status !== 0) {
    rmSync(temporary, { force: true });
    throw new Error(`${cc} failed:\n${`${r.stdout}${r.stderr}`.trim().split("\n").slice(-30).join("\n")}`);
  }
  renameSync(temporary, CURVE_ADDON); // atomic: a test process loading it meanwhile sees the old or the new file
  writeFileSync(STAMP, stamp);
  if (!quiet) console.log(`halo-curve addon: ${relative(ROOT, CURVE_ADDON)} built in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return CURVE_ADDON;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildCurveAddon({ quiet: false, force: process.argv.includes("--force") });
  } catch (error) {
    console.error(`halo-curve addon: build failed: ${error.message}`);
    process.exit(1);
  }
}
