// `npm run gen` writes every generated file; `--check` fails when one is stale (used by the tests).
import { readFileSync, writeFileSync } from "node:fs";
import { CATALOG_PATH, generateCatalog } from "./catalog.ts";
import { DOCS_PACK_PATH, generateDocsPack } from "./docs-pack.ts";
import { generateNpmModules, NPM_MODULES_PATH } from "./npm-modules.ts";
import { generatePreload, PRELOAD_PATH } from "./preload.ts";
import { generateSecp256k1Base, SECP256K1_BASE_PATH } from "./secp256k1-base.ts";
import { generateValidators, VALIDATORS_PATH } from "./validators.ts";
import { generateWebAssets, WEB_ASSETS_PATH } from "./web-assets.ts";

export const GENERATORS: Array<{ path: string; generate: () => string }> = [
  { path: VALIDATORS_PATH, generate: generateValidators },
  { path: CATALOG_PATH, generate: generateCatalog },
  { path: DOCS_PACK_PATH, generate: generateDocsPack },
  { path: WEB_ASSETS_PATH, generate: generateWebAssets },
  { path: PRELOAD_PATH, generate: generatePreload },
  { path: NPM_MODULES_PATH, generate: generateNpmModules },
  { path: SECP256K1_BASE_PATH, generate: generateSecp256k1Base },
];

function current(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const g of GENERATORS) {
    const text = g.generate();
    if (current(g.path) === text) continue;
    if (check) {
      console.error(`stale: ${g.path} (run npm run gen)`);
      stale++;
    } else {
      writeFileSync(g.path, text);
      console.log(`wrote ${g.path}`);
    }
  }
  process.exit(stale ? 1 : 0);
}
