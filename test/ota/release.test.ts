// npm run release and release:keygen: the files a release is made of, and a
// device's engine accepting the signed feed (and refusing it under another key).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { nodeSha256 } from "../../hosts/sim/ports/node-basics.ts";
import { nodeSha512 } from "../../hosts/sim/ports/ota-slots.ts";
import { parseFeed, type Release } from "../../lib/ota/feed.ts";
import { verifyRelease } from "../../lib/ota/signature.ts";
import { toHex } from "../../lib/util/hash.ts";
import { digestWith } from "../support/ota-fixtures.ts";
import { makeReleaseKey } from "../../tools/release/keygen.ts";
import { makeRelease } from "../../tools/release/release.ts";

describe("npm run release", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "halo-release-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keygen writes a private key file of mode 0600 outside the repository, never over an old one", () => {
    const pub = makeReleaseKey(join(dir, "keys/release-key.json"));
    assert.match(pub, /^[0-9a-f]{64}$/);
    assert.equal(statSync(join(dir, "keys/release-key.json")).mode & 0o777, 0o600);
    assert.throws(() => makeReleaseKey(join(dir, "keys/release-key.json")), /never overwritten/);
    assert.throws(() => makeReleaseKey("test/ota/key.json"), /inside the repository/);
  });

  it("writes the app, a merged factory image, a signed feed and an esp-web-tools manifest", () => {
    const build = join(dir, "build");
    mkdirSync(join(build, "bootloader"), { recursive: true });
    mkdirSync(join(build, "partition_table"), { recursive: true });
    const bootloader = new Uint8Array(0x5000).fill(0xe9);
    const table = new Uint8Array(0xc00).fill(0xaa);
    const otadata = new Uint8Array(0x2000).fill(0xff);
    const app = buildAppImage("0.3.0", 70_000);
    writeFileSync(join(build, "bootloader/bootloader.bin"), bootloader);
    writeFileSync(join(build, "partition_table/partition-table.bin"), table);
    writeFileSync(join(build, "ota_data_initial.bin"), otadata);
    writeFileSync(join(build, "xs_esp32.bin"), app);
    const out = join(dir, "out");
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "tools/release/release.ts",
        "--build",
        build,
        "--key",
        join(dir, "keys/release-key.json"),
        "--out",
        out,
        "--notes",
        "Faster.",
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /release 0\.3\.0 written/);
    assert.deepEqual(new Uint8Array(readFileSync(join(out, "halo-0.3.0-esp32s3.bin"))), app);
    const factory = new Uint8Array(readFileSync(join(out, "halo-0.3.0-esp32s3-factory.bin")));
    assert.equal(factory.length, 0x10000 + app.length);
    assert.deepEqual(factory.subarray(0, bootloader.length), bootloader);
    assert.equal(factory[bootloader.length], 0xff);
    assert.deepEqual(factory.subarray(0x8000, 0x8000 + table.length), table);
    assert.deepEqual(factory.subarray(0x10000), app);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    assert.deepEqual(manifest.builds, [
      {
        chipFamily: "ESP32-S3",
        parts: [
          { path: "halo-0.3.0-esp32s3-bootloader.bin", offset: 0 },
          { path: "halo-0.3.0-esp32s3-partition-table.bin", offset: 0x8000 },
          { path: "halo-0.3.0-esp32s3-ota_data_initial.bin", offset: 0xd000 },
          { path: "halo-0.3.0-esp32s3.bin", offset: 0x10000 },
        ],
      },
    ]);
    assert.deepEqual(new Uint8Array(readFileSync(join(out, "halo-0.3.0-esp32s3-bootloader.bin"))), bootloader);
    assert.deepEqual(new Uint8Array(readFileSync(join(out, "halo-0.3.0-esp32s3-ota_data_initial.bin"))), otadata);
    assert.equal(manifest.version, "0.3.0");
    assert.match(readFileSync(join(out, "index.html"), "utf8"), /<esp-web-install-button manifest="manifest\.json">/);
    assert.match(readFileSync(join(out, "esp-web-tools/install-button.js"), "utf8"), /requestPort/);
    const parsed = parseFeed(readFileSync(join(out, "feed.json"), "utf8"), "esp32s3");
    assert.ok(typeof parsed !== "string", String(parsed));
    const release: Release = { ...parsed, notesSha256: toHex(digestWith(nodeSha256)(new TextEncoder().encode(parsed.notes))) };
    assert.equal(release.image.sha256, toHex(digestWith(nodeSha256)(app)));
    const key = JSON.parse(readFileSync(join(dir, "keys/release-key.json"), "utf8")).publicKey;
    assert.equal(verifyRelease(release, [key], nodeSha512), "ok");
    assert.equal(verifyRelease(release, ["ab".repeat(32)], nodeSha512), "unknown-key");
    assert.equal(verifyRelease({ ...release, minVersion: "0.2.9" }, [key], nodeSha512), "bad-signature");
  });

  it("refuses a build folder without the parts, and an app that is not an image", () => {
    mkdirSync(join(dir, "empty"));
    assert.throws(
      () => makeRelease({ build: join(dir, "empty"), keyFile: "x", out: join(dir, "o"), notes: "", minVersion: "0.0.0" }),
      /bootloader\.bin is not under/,
    );
    writeFileSync(join(dir, "build/xs_esp32.bin"), new Uint8Array(400));
    assert.throws(
      () =>
        makeRelease({
          build: join(dir, "build"),
          keyFile: join(dir, "keys/release-key.json"),
          out: join(dir, "o"),
          notes: "",
          minVersion: "0.0.0",
        }),
      /xs_esp32\.bin: the image does not start/,
    );
  });
});
