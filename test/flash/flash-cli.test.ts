// npm run flash end to end: esptool-js over `serialport` on a pseudo-terminal
// whose far end is a stand-in of the ESP32-S3 ROM loader; the bytes it
// received must be the release's, then Wi-Fi goes over Improv serial.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { flash } from "../../tools/flash/flash.ts";
import { openPty, type PtyPair } from "../support/pty.ts";
import { RomLoaderStandIn } from "../support/rom-loader.ts";

describe("npm run flash", function () {
  this.timeout(60_000);
  let dir: string;
  let pty: PtyPair;
  let board: RomLoaderStandIn;
  const lines: string[] = [];
  const app = buildAppImage("0.4.0", 120_000);
  const bootloader = new Uint8Array(0x4000).map((_, i) => (i * 7) & 0xff);
  const table = new Uint8Array(0xc00).map((_, i) => (i * 13) & 0xff);
  const otadata = new Uint8Array(0x2000).fill(0xff);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "halo-flash-"));
    mkdirSync(join(dir, "release"));
    const factory = new Uint8Array(0x10000 + app.length).fill(0xff);
    factory.set(bootloader, 0);
    factory.set(table, 0x8000);
    factory.set(otadata, 0xd000);
    factory.set(app, 0x10000);
    writeFileSync(join(dir, "release/halo-0.4.0-esp32s3-factory.bin"), factory);
    const manifest = {
      name: "Halo",
      version: "0.4.0",
      builds: [{ chipFamily: "ESP32-S3", parts: [{ path: "halo-0.4.0-esp32s3-factory.bin", offset: 0 }] }],
    };
    writeFileSync(join(dir, "release/manifest.json"), JSON.stringify(manifest));
    pty = await openPty();
    board = new RomLoaderStandIn(pty, { refuseSsid: "nowhere", url: "http://halo-test.local/" });
  });
  after(() => {
    pty?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes the release, verifies it by MD5, and sets Wi-Fi over Improv", async () => {
    const outcome = await flash({
      port: pty.path,
      release: join(dir, "release"),
      before: "default_reset",
      wifi: { ssid: "HomeNet", password: "correct horse" },
      log: (l) => lines.push(l),
    });
    assert.deepEqual(board.flash.subarray(0, bootloader.length), bootloader);
    assert.deepEqual(board.flash.subarray(0x8000, 0x8000 + table.length), table);
    assert.deepEqual(board.flash.subarray(0x10000, 0x10000 + app.length), app);
    assert.ok(board.flash.subarray(0x10000 + app.length, 0x20000 + app.length).every((b) => b === 0xff));
    assert.ok(board.stubBytes > 1000, "the flasher stub was uploaded to RAM");
    assert.ok(board.ops.includes(0x13), "the flash was checked by SPI_FLASH_MD5");
    assert.ok(
      lines.some((l) => /Hash of data verified/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => /no DTR\/RTS lines/.test(l)),
      "a pty has no reset lines, and the flasher says so",
    );
    assert.deepEqual(board.wifi, { ssid: "HomeNet", password: "correct horse" });
    assert.deepEqual(outcome?.deviceInfo, ["Halo", "0.4.0", "ESP32-S3", "Halo"]);
    assert.equal(outcome?.url, "http://halo-test.local/");
    assert.equal(board.badFrames, 0);
  });
});
