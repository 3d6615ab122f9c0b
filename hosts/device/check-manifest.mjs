// Checks that manifest.json (the device app) maps every source folder of
// lib/ and hosts/device/, includes every module under modules/ that has a
// manifest.json, and maps nothing under test/. Moddable manifests glob one
// folder at a time and fail on a folder that does not exist, so each folder
// is listed by hand; this keeps the list honest. Run: node hosts/device/check-manifest.mjs
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../../", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));
const device = JSON.parse(readFileSync(join(root, "hosts/device/manifest.json"), "utf8"));
const problems = [];

function sourceFolders(dir) {
  const out = [];
  const entries = readdirSync(join(root, dir), { withFileTypes: true });
  if (entries.some((e) => e.isFile() && /\.(ts|js|c)$/.test(e.name) && !e.name.endsWith(".d.ts"))) out.push(dir);
  for (const e of entries) if (e.isDirectory()) out.push(...sourceFolders(`${dir}/${e.name}`));
  return out;
}

const modules = manifest.modules ?? {};
for (const dir of [...sourceFolders("lib"), ...sourceFolders("hosts/device")]) {
  if (modules[`${dir}/*`] !== `./${dir}/*`) problems.push(`manifest.json modules needs "${dir}/*": "./${dir}/*"`);
}
for (const source of Object.values(modules).flat()) {
  if (source.startsWith("./") && source.endsWith("/*") && !existsSync(join(root, source.slice(2, -2)))) {
    problems.push(`manifest.json maps a missing folder: ${source}`);
  }
}

const includes = [manifest.include ?? []].flat();
if (existsSync(join(root, "modules"))) {
  for (const e of readdirSync(join(root, "modules"), { withFileTypes: true })) {
    const m = `./modules/${e.name}/manifest.json`;
    if (e.isDirectory() && existsSync(join(root, m)) && !includes.includes(m)) problems.push(`manifest.json include needs "${m}"`);
  }
}

if (/["/]test\//.test(JSON.stringify(manifest) + JSON.stringify(device))) problems.push("a manifest maps something under test/");

for (const p of problems) console.error(p);
console.log(problems.length === 0 ? "device manifest: ok" : `device manifest: ${problems.length} problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
