// Runs at `npm install` (prepare) and `npm run build`: builds the XS test host from the engine sources
// that @agoric/xsnap ships. Generated sources (validators, docs pack, catalog) are committed; `npm run gen`
// rewrites them.
import { spawnSync } from "node:child_process";

const r = spawnSync("node", ["hosts/xs/build.mjs"], { stdio: "inherit" });
process.exit(r.status ?? 1);
