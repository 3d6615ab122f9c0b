// Runs at `npm install` (prepare) and `npm run build`: builds the XS test host from the engine sources
// that @agoric/xsnap ships, and the Node addons of the wake-word engine and the secp256k1 curve
// (hosts/sim/wake/build.mjs, hosts/sim/curve/build.mjs; each is
// also built on first use). Generated sources (validators, docs pack, catalog) are committed; `npm run gen`
// rewrites them.
import { spawnSync } from "node:child_process";

for (const script of ["hosts/xs/build.mjs", "hosts/sim/wake/build.mjs", "hosts/sim/curve/build.mjs"]) {
  const r = spawnSync("node", [script], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
