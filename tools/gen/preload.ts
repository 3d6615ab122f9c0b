// The device's preload list: every module of lib/ and of hosts/device/, by name (Moddable's
// `preload` wildcards match only .js sources, so each .ts module is named).
// Preloaded modules keep their code, functions and constants in flash. A
// module could not be preloaded if it imported, however indirectly, an npm
// module that calls a native function as it loads (the XS linker runs module
// bodies where no native function is available): generation fails then.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";

export const PRELOAD_PATH = "hosts/device/preload.json";

/**
 * npm modules that cannot be preloaded; `npm run gen` fails when a lib/ module reaches one, directly or
 * through other modules. nostr-tools and @noble/curves/secp256k1.js make a TextEncoder as they load (the XS
 * linker runs no native function); @noble/curves keeps mutable state at its top level (a WeakMap of
 * precomputed points) and builds BigInt tables in arrays as it loads, which SDK 8.2.3's xsl overruns (a crash
 * under valgrind, or BigInt math that throws at run time on the Linux target). lib/nostr has its own NIP-19,
 * NIP-44 and secp256k1. test/architecture/load-natives.test.ts checks the TextEncoder part.
 */
const NOT_PRELOADABLE = ["nostr-tools", "@noble/curves"];

/**
 * Moddable modules hosts/device/ may not import statically (`import X from "..."`): they run native code as they
 * load on some target, so a module importing them could not be preloaded. The lin `preference` reads its JSON
 * file while its class is defined; hosts/device/ports/preference.ts reaches it when first called instead.
 */
export const DEVICE_LOADED_WHEN_USED: readonly string[] = ["preference"];

/** The app's host folder: its modules are preloaded like lib/'s (main.ts exports the function the runtime calls). */
const DEVICE = "hosts/device";

/**
 * npm packages lib/ may use only from modules loaded at run time, never preloaded: the lib/ modules that
 * import one (directly or through other lib/ modules) are left off the preload list and must all sit in the
 * folder named beside it. @cashu/cashu-ts reaches @noble/curves/secp256k1 and makes a TextEncoder as it loads
 * (its hash-to-curve domain separator), and @noble/hashes' sha2 and @noble/curves write module-level buffers and
 * maps that preloading freezes; lib/wallet/cashu/ is the wallet's only door to it (docs/wallet.md).
 */
export const RUN_TIME_ONLY: { readonly [pkg: string]: string } = { "@cashu/cashu-ts": "lib/wallet/cashu/" };

const IMPORT = /^\s*(?:import|export)(?!\s+type\s)\s+(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;

function modules(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...modules(path));
    else if (/\.(ts|js)$/.test(name) && !name.endsWith(".d.ts")) out.push(path.replace(/\.(ts|js)$/, ""));
  }
  return out;
}

function importsOf(module: string): string[] {
  let text: string;
  try {
    text = readFileSync(`${module}.ts`, "utf8");
  } catch {
    text = readFileSync(`${module}.js`, "utf8");
  }
  return Array.from(text.matchAll(IMPORT), (m) =>
    m[1].startsWith(".") ? posix.join(posix.dirname(module), m[1]).replace(/\.(ts|js)$/, "") : m[1],
  );
}

/** The lib/ modules that reach one of `packages`, directly or through other modules. */
function reaching(all: string[], packages: readonly string[]): Set<string> {
  const imports = new Map(all.map((m) => [m, importsOf(m)]));
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [m, deps] of imports) {
      if (out.has(m)) continue;
      if (deps.some((d) => out.has(d) || packages.some((p) => d === p || d.startsWith(`${p}/`)))) {
        out.add(m);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * The lib/ modules loaded at run time (they reach a RUN_TIME_ONLY package); throws when one is outside its folder.
 * `all` may hold hosts/device/ modules too: those are all preloaded, so one that reaches such a package is refused
 * (hosts/device/wallet-kit.ts loads lib/wallet/cashu/ by name, with Modules.importNow, and imports only its types).
 */
export function runTimeModules(all: string[] = modules("lib")): string[] {
  const out: string[] = [];
  for (const [pkg, folder] of Object.entries(RUN_TIME_ONLY)) {
    const found = [...reaching(all, [pkg])].sort();
    const strays = found.filter((m) => !m.startsWith(folder));
    if (strays.length > 0)
      throw new Error(`these modules reach ${pkg} from outside ${folder}, so they could not be preloaded: ${strays.join(", ")}`);
    out.push(...found);
  }
  return out.sort();
}

/** The hosts/device/ modules; throws when one imports a module of DEVICE_LOADED_WHEN_USED statically. */
export function deviceModules(dir: string = DEVICE): string[] {
  const all = modules(dir);
  const strays = all.filter((m) => importsOf(m).some((d) => DEVICE_LOADED_WHEN_USED.includes(d)));
  if (strays.length > 0)
    throw new Error(
      `these ${dir}/ modules import ${DEVICE_LOADED_WHEN_USED.join(" or ")}, which cannot be preloaded on every target: ${strays.join(", ")}`,
    );
  return all;
}

export function generatePreload(): string {
  const all = modules("lib");
  const device = deviceModules();
  const excluded = reaching([...all, ...device], NOT_PRELOADABLE);
  if (excluded.size > 0) {
    throw new Error(`these modules reach ${NOT_PRELOADABLE.join(" or ")}, which cannot be preloaded: ${[...excluded].sort().join(", ")}`);
  }
  const runTime = new Set(runTimeModules([...all, ...device]));
  const manifest = {
    "//": "Generated by npm run gen (tools/gen/preload.ts): every lib/ and hosts/device/ module but those loaded at run time (RUN_TIME_ONLY), preloaded into flash.",
    preload: [...all.filter((m) => !runTime.has(m)), ...device],
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
