#!/usr/bin/env node
// Bundles a TypeScript/JavaScript entry with esbuild and runs it on the XS
// host (hosts/xs/build/halo-xs), as an ES module so top-level await works.
//
//   node hosts/xs/run.mjs [--heap-limit <MB>] <entry.ts|.js> [args...]
//
// The bundle must be self-contained: importing a Node built-in fails the
// bundle. Bundles and their source maps go to hosts/xs/build/bundles/; error
// stacks and parser errors that point into a bundle are rewritten to the
// original file:line with the source map.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { constants } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { BINARY, buildXsHost } from "./build.mjs";

const HOST_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HOST_DIR, "../..");
const BUNDLE_DIR = join(HOST_DIR, "build/bundles");

const builtins = builtinModules.filter((m) => !m.startsWith("_")).map((m) => m.replace(/[/]/g, "\\/"));
const NODE_BUILTIN = new RegExp(`^(node:.*|(${builtins.join("|")})(/.*)?)$`);

/** Fails the bundle on any import of a Node built-in (nothing of Node exists on XS). */
const noNodeBuiltins = {
  name: "no-node-builtins",
  setup(build) {
    build.onResolve({ filter: NODE_BUILTIN }, (args) => ({
      errors: [{ text: `"${args.path}" is a Node built-in; code that runs on XS cannot import it` }],
    }));
  },
};

/** esbuild's options for an XS bundle of `source`. */
function bundleOptions(source) {
  return {
    entryPoints: [source],
    bundle: true,
    format: "esm",
    target: "es2022",
    // XS 13.3 cannot run a static field that news its own class when the class has instance fields
    // (@noble/curves' Point does): esbuild lowers class fields to constructor assignments.
    supported: { "class-field": false, "class-static-field": false },
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "silent",
    plugins: [noNodeBuiltins],
  };
}

function bundleError(entry, error) {
  const text = error.errors ? esbuild.formatMessagesSync(error.errors, { kind: "error" }).join("") : String(error);
  return new Error(`cannot bundle ${entry} for XS:\n${text.trimEnd()}`);
}

/** Bundles `entry` to build/bundles/<path-of-entry>.js (+ .js.map); returns the bundle's path. */
export async function bundleForXs(entry) {
  const source = resolve(entry);
  const name = relative(ROOT, source)
    .replace(/^(\.\.[/\\])+/, "")
    .replace(/[/\\]/g, "__")
    .replace(/\.[cm]?[jt]sx?$/, "");
  const outfile = join(BUNDLE_DIR, `${name}.js`);
  mkdirSync(BUNDLE_DIR, { recursive: true });
  try {
    await esbuild.build({ ...bundleOptions(source), outfile, sourcemap: "external", sourcesContent: false });
  } catch (error) {
    throw bundleError(entry, error);
  }
  return outfile;
}

/** The files an XS bundle of `entry` would hold, as paths relative to the repository's root. */
export async function bundleInputs(entry) {
  try {
    const { metafile } = await esbuild.build({ ...bundleOptions(resolve(entry)), write: false, metafile: true, absWorkingDir: ROOT });
    return Object.keys(metafile.inputs);
  } catch (error) {
    throw bundleError(entry, error);
  }
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** For each generated line of a source map, the [source, line] of its first mapped segment (0-based). */
function decodeLineStarts(mappings) {
  const lines = [];
  let source = 0;
  let line = 0;
  for (const text of mappings.split(";")) {
    let first = null;
    for (const segment of text.split(",")) {
      const values = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) * 2 ** shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value % 2 ? -Math.floor(value / 2) : value / 2);
          value = 0;
          shift = 0;
        }
      }
      if (values.length >= 4) {
        source += values[1];
        line += values[2];
        first ??= [source, line];
      }
    }
    lines.push(first);
  }
  return lines;
}

/** A function rewriting "<bundle>:<line>" to "<original file>:<line>" in one line of output. */
function stackRemapper(bundle) {
  let starts = null;
  let sources = [];
  try {
    const map = JSON.parse(readFileSync(`${bundle}.map`, "utf8"));
    starts = decodeLineStarts(map.mappings);
    sources = map.sources.map((s) => relative(process.cwd(), resolve(dirname(bundle), s)));
  } catch {
    return (line) => line;
  }
  const escaped = bundle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`${escaped}:(\\d+)`, "g");
  return (line) =>
    line.replace(pattern, (whole, n) => {
      const start = starts[Number(n) - 1];
      return start ? `${sources[start[0]]}:${start[1] + 1}` : whole;
    });
}

/** Line-by-line transform of a stream of output; drops the empty " at ()" frames of host calls. */
function lineFilter(remap, write) {
  let pending = "";
  const emit = (line) => {
    if (line !== " at ()") write(`${remap(line)}\n`);
  };
  return {
    push(chunk) {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop();
      lines.forEach(emit);
    },
    end() {
      if (pending) write(remap(pending));
      pending = "";
    },
  };
}

let hostChecked = false;

/**
 * Bundles `entry` and runs it on the XS host.
 * @param {string} entry path of a .ts/.js entry module
 * @param {{args?: string[], heapLimitMB?: number, timeoutMs?: number,
 *          onStdout?: (s: string) => void, onStderr?: (s: string) => void}} [options]
 * @returns {Promise<{code: number, stdout: string, stderr: string, bundle: string}>}
 *   code is the host's exit status (128 + n when killed by signal n, e.g. on timeout).
 */
export async function runOnXs(entry, options = {}) {
  const { args = [], heapLimitMB, timeoutMs, onStdout, onStderr } = options;
  if (!hostChecked) {
    buildXsHost({ quiet: true }); // once per process: picks up edited modules/ C (fast when up to date)
    hostChecked = true;
  }
  const bundle = await bundleForXs(entry);
  const hostArgs = heapLimitMB ? ["--heap-limit", String(heapLimitMB), bundle, ...args] : [bundle, ...args];
  const remap = stackRemapper(bundle);
  let stdout = "";
  let stderr = "";
  const out = lineFilter(remap, (s) => {
    stdout += s;
    onStdout?.(s);
  });
  const err = lineFilter(remap, (s) => {
    stderr += s;
    onStderr?.(s);
  });
  const child = spawn(BINARY, hostArgs, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.setEncoding("utf8").on("data", (chunk) => out.push(chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => err.push(chunk));
  const timer = timeoutMs ? setTimeout(() => child.kill("SIGKILL"), timeoutMs) : null;
  const code = await new Promise((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("close", (status, signal) => {
      resolvePromise(status ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
  if (timer) clearTimeout(timer);
  out.end();
  err.end();
  return { code, stdout, stderr, bundle };
}

async function main(argv) {
  let heapLimitMB;
  if (argv[0] === "--heap-limit") {
    heapLimitMB = Number(argv[1]);
    argv = argv.slice(2);
  }
  if (!argv[0]) {
    console.error("usage: node hosts/xs/run.mjs [--heap-limit <MB>] <entry.ts|.js> [args...]");
    return 2;
  }
  const { code } = await runOnXs(argv[0], {
    args: argv.slice(1),
    heapLimitMB,
    onStdout: (s) => process.stdout.write(s),
    onStderr: (s) => process.stderr.write(s),
  });
  return code;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
