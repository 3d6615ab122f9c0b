// npm run flash end to end: esptool-js over `serialport` on a pseudo-terminal
// whose far end is a stand-in of the ESP32-S3 ROM loader; the bytes it
// received must be the release's, then Wi-Fi goes over Improv serial. Then
// the failures: a bad byte in flash, another chip, boot text on the line, a refused
// network, a hostile release folder.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { flash, partsToWrite, type FlashOptions } from "../../tools/flash/flash.ts";
import { makeReleaseKey } from "../../tools/release/keygen.ts";
import { makeRelease } from "../../tools/release/release.ts";
import type { ImprovOutcome } from "../../tools/flash/improv-client.ts";
import { openPty } from "../support/pty.ts";
import { RomLoaderStandIn } from "../support/rom-loader.ts";

describe("npm run flash", function () {
  this.timeout(60_000);
  let dir: string;
  const app = buildAppImage("0.4.0", 120_000);
  const bootloader = new Uint8Array(0x4000).map((_, i) => (i * 7) & 0xff);
  const table = new Uint8Array(0xc00).map((_, i) => (i * 13) & 0xff);
  const otadata = new Uint8Array(0x2000).map((_, i) => (i % 3 === 0 ? 0xff : i & 0x7f));
  const wifi = { ssid: "HomeNet", password: "correct horse" };

  /** One flash against a fresh stand-in; resolves to the board, the flasher's lines and its outcome or error. */
  async function run(
    board: ConstructorParameters<typeof RomLoaderStandIn>[1],
    options: Partial<FlashOptions> = {},
  ): Promise<{ board: RomLoaderStandIn; lines: string[]; outcome?: ImprovOutcome; error?: string }> {
    const pty = await openPty();
    const stand = new RomLoaderStandIn(pty, board);
    const lines: string[] = [];
    try {
      const outcome = await flash({ port: pty.path, release: join(dir, "release"), wifi, log: (l) => lines.push(l), ...options });
      return { board: stand, lines, outcome };
    } catch (e) {
      return { board: stand, lines, error: e instanceof Error ? e.message : String(e) };
    } finally {
      pty.close();
    }
  }

  // The release the flasher writes is made by npm run release from a build folder, as an owner makes one.
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "halo-flash-"));
    mkdirSync(join(dir, "build"));
    writeFileSync(join(dir, "build/bootloader.bin"), bootloader);
    writeFileSync(join(dir, "build/partition-table.bin"), table);
    writeFileSync(join(dir, "build/ota_data_initial.bin"), otadata);
    writeFileSync(join(dir, "build/xs_esp32.bin"), app);
    makeReleaseKey(join(dir, "key.json"));
    makeRelease({ build: join(dir, "build"), keyFile: join(dir, "key.json"), out: join(dir, "release"), notes: "", minVersion: "0.0.0" });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the release, verifies it by MD5, and sets Wi-Fi over Improv", async () => {
    const { board, lines, outcome, error } = await run({ url: "http://halo-test.local/" });
    assert.equal(error, undefined, lines.join("\n"));
    assert.deepEqual(board.flash.subarray(0, bootloader.length), bootloader);
    assert.ok(
      board.flash.subarray(bootloader.length, 0x8000).every((b) => b === 0xff),
      "nothing between the parts",
    );
    assert.deepEqual(board.flash.subarray(0x8000, 0x8000 + table.length), table);
    assert.deepEqual(board.flash.subarray(0xd000, 0xd000 + otadata.length), otadata);
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
    assert.deepEqual(board.wifi, wifi);
    assert.deepEqual(outcome?.deviceInfo, ["Halo", "0.4.0", "ESP32-S3", "Halo"]);
    assert.equal(outcome?.url, "http://halo-test.local/");
    assert.equal(board.badFrames, 0);
  });

  it("stops when the MD5 of the flash does not match, before any Wi-Fi is sent", async () => {
    const { board, error } = await run({ corruptAt: 0x10000 + 5000 });
    assert.match(error ?? "", /MD5 of file does not match data in flash/);
    assert.equal(board.wifi, undefined);
  });

  it("refuses a board that is not an ESP32-S3", async () => {
    const { board, error } = await run({ chipId: 5 }); // an ESP32-C3
    assert.match(error ?? "", /ESP32-C3|not an ESP32-S3/);
    assert.ok(!board.ops.includes(0x02) && !board.ops.includes(0x10), "nothing was written");
  });

  it("gets through the ROM's boot text and empty frames between replies", async () => {
    const { board, error, lines } = await run({ noise: true });
    assert.equal(error, undefined, lines.join("\n"));
    assert.deepEqual(board.flash.subarray(0x10000, 0x10000 + app.length), app);
  });

  it("reports a network the board could not join, and credentials the device refuses to try", async () => {
    const { error } = await run({ refuseSsid: "nowhere" }, { wifi: { ssid: "nowhere", password: "long enough" } });
    assert.equal(error, "the board reports: unable to connect to the network");
    // Halo's Improv service (lib/net/improv.ts) refuses a WPA2 password under 8 characters before trying it.
    const short = await run({}, { wifi: { ssid: "home", password: "x" } });
    assert.equal(short.error, "the board reports: invalid RPC packet");
    assert.equal(short.board.wifi, undefined);
  });

  it("flashes a factory image alone, without Wi-Fi", async () => {
    const { board, outcome, error } = await run(
      {},
      { release: undefined, image: join(dir, "release/halo-0.4.0-esp32s3-factory.bin"), wifi: undefined },
    );
    assert.equal(error, undefined);
    assert.equal(outcome, undefined);
    assert.deepEqual(board.flash.subarray(0x10000, 0x10000 + app.length), app);
  });

  it("gives up on a board that does not answer, and on a port that does not exist", async () => {
    const started = Date.now();
    const { error, board } = await run({ silent: true });
    assert.match(error ?? "", /Failed to connect/);
    assert.equal(board.ops.length, 0);
    assert.ok(Date.now() - started < 30_000);
    await assert.rejects(flash({ port: join(dir, "no-such-port"), release: join(dir, "release"), log: () => {} }), /cannot open/);
  });

  it("refuses a release folder that is missing or names parts outside itself", () => {
    assert.throws(() => partsToWrite({ release: join(dir, "nothing") }), /has no manifest\.json/);
    mkdirSync(join(dir, "evil"));
    writeFileSync(
      join(dir, "evil/manifest.json"),
      JSON.stringify({ builds: [{ chipFamily: "ESP32-S3", parts: [{ path: "../release/x", offset: 0 }] }] }),
    );
    assert.throws(() => partsToWrite({ release: join(dir, "evil") }), /names a part it should not/);
    writeFileSync(join(dir, "evil/manifest.json"), JSON.stringify({ builds: [{ chipFamily: "ESP32", parts: [] }] }));
    assert.throws(() => partsToWrite({ release: join(dir, "evil") }), /no ESP32-S3 build/);
    writeFileSync(join(dir, "evil/manifest.json"), "{broken");
    assert.throws(() => partsToWrite({ release: join(dir, "evil") }));
  });
});
