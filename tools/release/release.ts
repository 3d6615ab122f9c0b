// npm run release -- --build <dir> [--key <file>] [--out <dir>] [--notes <text>] [--min-version <v>] [--base-url <url>]
//
// Takes what `mcconfig -p esp32/esp32s3` produced (bootloader.bin,
// partition-table.bin, ota_data_initial.bin and the app, xs_esp32.bin,
// searched under --build) and writes to --out (default ./release):
//   halo-<v>-esp32s3.bin          the app image devices download
//   halo-<v>-esp32s3-factory.bin  bootloader + table + otadata + app merged at their offsets
//   halo-<v>-esp32s3-<part>.bin   the boot loader, partition table and otadata, as the manifest lists them
//   feed.json                     the signed release feed (docs/updates.md)
//   manifest.json                 the esp-web-tools manifest for the flashing page
//   index.html, esp-web-tools/    the flashing page (docs/flash) with esp-web-tools beside it
import { createHash, createPrivateKey, sign } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FEED_FORMAT, OTA_IMAGE_MAX_BYTES, signedMessage } from "../../lib/ota/feed.ts";
import { isVersion } from "../../lib/ota/version.ts";
import { readAppVersion } from "../../hosts/sim/ports/ota-image.ts";
import { defaultKeyPath } from "./keygen.ts";

export const BOARD = "esp32s3";
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The browser build of esp-web-tools (its install button and the chunks it loads). */
export function espWebToolsDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve("esp-web-tools/package.json")), "dist/web");
}
/** Where each part of a build goes on the 16 MB flash (hosts/device/sdkconfig/partitions.csv). */
export const FLASH_PARTS: ReadonlyArray<{ file: string; offset: number }> = [
  { file: "bootloader.bin", offset: 0x0 },
  { file: "partition-table.bin", offset: 0x8000 },
  { file: "ota_data_initial.bin", offset: 0xd000 },
  { file: "xs_esp32.bin", offset: 0x10000 },
];

export interface ReleaseOptions {
  build: string;
  keyFile: string;
  out: string;
  notes: string;
  minVersion: string;
}

function find(dir: string, name: string): string | undefined {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === name && statSync(path).isFile()) return path;
    if (statSync(path).isDirectory()) {
      const inner = find(path, name);
      if (inner) return inner;
    }
  }
  return undefined;
}

const sha256Hex = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/** Writes the release files; returns the version. Throws one sentence when an input is missing or wrong. */
export function makeRelease(o: ReleaseOptions): string {
  const parts = FLASH_PARTS.map((p) => {
    const path = find(o.build, p.file);
    if (!path) throw new Error(`${p.file} is not under ${o.build}: point --build at the mcconfig output for esp32/esp32s3`);
    return { ...p, bytes: new Uint8Array(readFileSync(path)) };
  });
  const app = parts[parts.length - 1].bytes;
  const desc = readAppVersion(app);
  if ("problem" in desc) throw new Error(`xs_esp32.bin: ${desc.problem}`);
  const version = desc.version;
  if (!isVersion(version)) throw new Error(`the app's version "${version}" is not like 1.2.3 (set it in the manifest)`);
  if (!isVersion(o.minVersion)) throw new Error("--min-version is not like 1.2.3");
  if (app.length > OTA_IMAGE_MAX_BYTES) throw new Error("the app is larger than its 6 MB slot");
  const key = JSON.parse(readFileSync(o.keyFile, "utf8")) as { publicKey: string; privateKeyPem: string };
  const privateKey = createPrivateKey(key.privateKeyPem);
  mkdirSync(o.out, { recursive: true });
  const appName = `halo-${version}-${BOARD}.bin`;
  const factoryName = `halo-${version}-${BOARD}-factory.bin`;
  writeFileSync(join(o.out, appName), app);
  for (let i = 1; i < parts.length; i++)
    if (parts[i - 1].offset + parts[i - 1].bytes.length > parts[i].offset)
      throw new Error(`${parts[i - 1].file} overlaps ${parts[i].file}`);
  const factory = new Uint8Array(parts[parts.length - 1].offset + app.length).fill(0xff);
  for (const p of parts) factory.set(p.bytes, p.offset);
  writeFileSync(join(o.out, factoryName), factory);
  const image = { board: BOARD, size: app.length, sha256: sha256Hex(app) };
  const message = signedMessage({ version, minVersion: o.minVersion, notesSha256: sha256Hex(new TextEncoder().encode(o.notes)), image });
  const signature = sign(null, Buffer.from(message, "utf8"), privateKey).toString("hex");
  const feed = {
    format: FEED_FORMAT,
    version,
    minVersion: o.minVersion,
    notes: o.notes,
    images: { [BOARD]: { url: appName, size: image.size, sha256: image.sha256, key: key.publicKey, signature } },
  };
  writeFileSync(join(o.out, "feed.json"), JSON.stringify(feed, null, 2) + "\n");
  // The manifest lists each part at its offset (no 0xFF padding to send); the factory image is for other tools.
  const manifestParts = parts.map((p, i) => {
    const path = i === parts.length - 1 ? appName : `halo-${version}-${BOARD}-${p.file}`;
    if (i < parts.length - 1) writeFileSync(join(o.out, path), p.bytes);
    return { path, offset: p.offset };
  });
  const manifest = {
    name: "Halo",
    version,
    new_install_prompt_erase: true,
    new_install_improv_wait_time: 15,
    builds: [{ chipFamily: "ESP32-S3", parts: manifestParts }],
  };
  writeFileSync(join(o.out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  copyFileSync(join(REPO, "docs/flash/index.html"), join(o.out, "index.html"));
  cpSync(espWebToolsDir(), join(o.out, "esp-web-tools"), { recursive: true });
  return version;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string, fallback?: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  try {
    const build = arg("build");
    if (!build || !existsSync(build)) throw new Error("give --build <the mcconfig output folder>");
    const version = makeRelease({
      build,
      keyFile: arg("key", defaultKeyPath())!,
      out: arg("out", "release")!,
      notes: arg("notes", "")!,
      minVersion: arg("min-version", "0.0.0")!,
    });
    console.log(
      `release ${version} written to ${arg("out", "release")}: upload the folder to any static host and point devices at its feed.json`,
    );
  } catch (e) {
    console.error(`release: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
