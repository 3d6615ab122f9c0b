// npm run flash -- --port <serial port> (--release <dir> | --image <factory.bin>)
//                  [--baud 460800] [--before default_reset|no_reset] [--ssid <name> --password <secret>]
//
// Writes a release (the parts its esp-web-tools manifest.json names) or a
// merged factory image (at 0x0) with esptool-js over the `serialport`
// package, verifies every part by MD5 in flash, restarts the board, then
// gives it the Wi-Fi network over Improv serial when --ssid is given.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ESPLoader, Transport } from "esptool-js";
import { provisionWifi, type ImprovOutcome } from "./improv-client.ts";
import { NodeSerialPort } from "./node-serial.ts";

export const ROM_BAUD = 115200;

export interface FlashOptions {
  port: string;
  /** A release folder (manifest.json) or a factory image file. */
  release?: string;
  image?: string;
  baud?: number;
  before?: "default_reset" | "no_reset";
  wifi?: { ssid: string; password: string };
  log?(line: string): void;
}

export interface FlashPart {
  offset: number;
  data: Uint8Array;
  name: string;
}

/** The parts to write, from a release's manifest or a factory image; throws one sentence when they cannot be read. */
export function partsToWrite(o: Pick<FlashOptions, "release" | "image">): FlashPart[] {
  if (o.image) {
    if (!existsSync(o.image)) throw new Error(`${o.image} does not exist`);
    return [{ offset: 0, data: new Uint8Array(readFileSync(o.image)), name: o.image }];
  }
  if (!o.release) throw new Error("give --release <folder> or --image <factory.bin>");
  const manifestPath = join(o.release, "manifest.json");
  if (!existsSync(manifestPath)) throw new Error(`${o.release} has no manifest.json: run npm run release first`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    builds?: Array<{ chipFamily?: string; parts?: Array<{ path: string; offset: number }> }>;
  };
  const build = manifest.builds?.find((b) => b.chipFamily === "ESP32-S3");
  if (!build?.parts?.length) throw new Error("the release manifest has no ESP32-S3 build");
  return build.parts.map((p) => {
    if (typeof p.path !== "string" || p.path.includes("..") || !Number.isInteger(p.offset) || p.offset < 0)
      throw new Error("the release manifest names a part it should not");
    return { offset: p.offset, data: new Uint8Array(readFileSync(join(o.release!, p.path))), name: p.path };
  });
}

function binaryString(data: Uint8Array): string {
  let s = "";
  for (let i = 0; i < data.length; i += 8192) s += String.fromCharCode(...data.subarray(i, i + 8192));
  return s;
}

/** Flashes and verifies; then provisions Wi-Fi when asked. Resolves to the Improv outcome, if any. */
export async function flash(o: FlashOptions): Promise<ImprovOutcome | undefined> {
  const log = o.log ?? ((line: string) => console.log(line));
  const parts = partsToWrite(o);
  const device = new NodeSerialPort(o.port, log);
  const transport = new Transport(device as unknown as ConstructorParameters<typeof Transport>[0], false);
  transport.trace = () => {}; // esptool-js prints some trace lines even with tracing off
  const terminal = { clean: () => {}, writeLine: (s: string) => log(s), write: (s: string) => log(s) };
  const loader = new ESPLoader({ transport, baudrate: o.baud ?? ROM_BAUD, romBaudrate: ROM_BAUD, terminal });
  try {
    const chip = await loader.main(o.before ?? "default_reset");
    if (!/ESP32-S3/.test(chip)) throw new Error(`the board is a ${chip}, not an ESP32-S3`);
    await loader.writeFlash({
      fileArray: parts.map((p) => ({ data: p.data, address: p.offset })),
      flashMode: "keep",
      flashFreq: "keep",
      flashSize: "keep",
      eraseAll: false,
      compress: true,
      // esptool-js compares this with the MD5 the board computes over what it wrote.
      calculateMD5Hash: (image: Uint8Array) =>
        createHash("md5")
          .update(Buffer.from(binaryString(image), "latin1"))
          .digest("hex"),
    });
    await loader.after("hard_reset");
  } finally {
    await transport.disconnect();
  }
  log(`flashed ${parts.map((p) => `${p.name} at 0x${p.offset.toString(16)}`).join(", ")}`);
  if (!o.wifi) return undefined;
  const outcome = await provisionWifi(o.port, o.wifi.ssid, o.wifi.password, log);
  log(outcome.url ? `Halo is on the network: ${outcome.url}` : "Halo joined the network");
  return outcome;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const port = arg("port");
  const before = arg("before");
  const ssid = arg("ssid");
  try {
    if (!port) throw new Error("give --port <serial port>, e.g. /dev/ttyACM0");
    if (before !== undefined && before !== "default_reset" && before !== "no_reset")
      throw new Error("--before is default_reset or no_reset");
    await flash({
      port,
      release: arg("release") ?? (arg("image") ? undefined : join(dirname(fileURLToPath(import.meta.url)), "../../release")),
      image: arg("image"),
      baud: arg("baud") ? Number(arg("baud")) : undefined,
      before,
      wifi: ssid ? { ssid, password: arg("password") ?? "" } : undefined,
    });
  } catch (e) {
    console.error(`flash: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
