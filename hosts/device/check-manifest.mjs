// Checks that manifest.json (the device app) maps every source folder of
// lib/ and hosts/device/, includes every module under modules/ that has a
// manifest.json, and maps nothing under test/. Moddable manifests glob one
// folder at a time and fail on a folder that does not exist, so each folder
// is listed by hand; this keeps the list honest. It also checks the board's
// pins: no GPIO serves two parts, none is one the module reserves, the card's
// SPI defines match its config, the PDM microphone is on I2S controller 0
// (the only one with PDM receive), and every audio define is explained in
// docs/device.md (JSON has no comments). Run: node hosts/device/check-manifest.mjs
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../../", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));
// A device manifest to check instead may be named (the pin tests check altered copies).
const device = JSON.parse(readFileSync(process.argv[2] ?? join(root, "hosts/device/manifest.json"), "utf8"));
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

// The board's pins (the esp32s3 platform's config and defines).
const s3 = device.platforms?.["esp32/esp32s3"] ?? {};
const config = s3.config ?? {};
const defines = s3.defines ?? {};
/** GPIOs the N16R8 module keeps for itself: flash, octal PSRAM, USB, strapping. */
const RESERVED = new Map([
  ...[26, 27, 28, 29, 30, 31, 32].map((g) => [g, "flash"]),
  ...[33, 34, 35, 36, 37].map((g) => [g, "octal PSRAM"]),
  [19, "USB"],
  [20, "USB"],
  [3, "strapping"],
  [45, "strapping"],
  [46, "strapping"],
]);
const owners = new Map();
const use = (owner, pin) => {
  if (typeof pin !== "number" || pin < 0) return;
  if (RESERVED.has(pin)) problems.push(`GPIO ${pin} (${owner}) is reserved on the module (${RESERVED.get(pin)})`);
  const before = owners.get(pin);
  if (before) problems.push(`GPIO ${pin} is used twice: ${before} and ${owner}`);
  else owners.set(pin, owner);
};
use("ring", config.ring?.pin);
use("button", config.button?.pin);
use("Improv TX", config.improv?.transmit);
use("Improv RX", config.improv?.receive);
use("onboard LED", config.led?.pin);
for (const k of ["sck", "mosi", "miso", "cs"]) use(`microSD ${k}`, config.sd?.[k]);
const mic = defines.audioIn?.i2s ?? {};
use("microphone CLK", mic.lr_pin);
use("microphone DATA", mic.datain);
use("microphone BCK", mic.bck_pin);
use("microphone MCK", mic.mck_pin);
const spk = defines.audioOut?.i2s ?? {};
use("speaker BCLK", spk.bck_pin);
use("speaker LRC", spk.lr_pin);
use("speaker DIN", spk.dataout_pin);
use("speaker MCK", spk.mck_pin);
use("I2C SDA", defines.i2c?.sda_pin);
use("I2C SCL", defines.i2c?.scl_pin);
// The card's bus is named three times; all must agree with config.sd.
for (const [name, pins] of [
  ["defines.sd", defines.sd],
  ["defines.spi", defines.spi],
]) {
  for (const k of ["sck", "mosi", "miso", "cs"]) {
    const pin = pins?.[`${k}_pin`];
    if (pin !== undefined && pin !== config.sd?.[k]) problems.push(`${name}.${k}_pin is ${pin}, config.sd.${k} is ${config.sd?.[k]}`);
  }
}
if (mic.pdm === 1 && mic.num !== 0) problems.push("the PDM microphone must be on I2S controller 0 (defines.audioIn.i2s.num)");
if (spk.pdm_pin !== undefined)
  problems.push("defines.audioOut.i2s.pdm_pin would make the speaker PDM and take the microphone's controller");

// Every audio define, with its comment in docs/device.md.
const deviceDoc = readFileSync(join(root, "docs/device.md"), "utf8");
const leaves = (prefix, value) =>
  value && typeof value === "object" ? Object.entries(value).flatMap(([k, v]) => leaves(`${prefix}.${k}`, v)) : [prefix];
for (const key of [...leaves("audioIn", defines.audioIn), ...leaves("audioOut", defines.audioOut)]) {
  if (!deviceDoc.includes(`\`${key}\``)) problems.push(`docs/device.md does not explain the define ${key}`);
}

for (const p of problems) console.error(p);
console.log(problems.length === 0 ? "device manifest: ok" : `device manifest: ${problems.length} problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
