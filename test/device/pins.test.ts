// The board's pin check (hosts/device/check-manifest.mjs) on the real device
// manifest and on altered copies: a GPIO used twice, a reserved pin, the PDM
// microphone off controller 0, an audio define nobody explained.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MANIFEST = "hosts/device/manifest.json";

function check(alter?: (m: any) => void): { code: number | null; out: string } {
  if (!alter) {
    const r = spawnSync("node", ["hosts/device/check-manifest.mjs"], { encoding: "utf8" });
    return { code: r.status, out: r.stdout + r.stderr };
  }
  const dir = mkdtempSync(join(tmpdir(), "halo-pins-"));
  try {
    const m = JSON.parse(readFileSync(MANIFEST, "utf8"));
    alter(m);
    const path = join(dir, "manifest.json");
    writeFileSync(path, JSON.stringify(m));
    const r = spawnSync("node", ["hosts/device/check-manifest.mjs", path], { encoding: "utf8" });
    return { code: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const s3 = (m: any): any => m.platforms["esp32/esp32s3"];

describe("the board's pins", () => {
  it("the reference manifest passes: a PDM microphone on controller 0, no GPIO twice", () => {
    const r = check();
    assert.equal(r.code, 0, r.out);
    const m = s3(JSON.parse(readFileSync(MANIFEST, "utf8")));
    assert.deepEqual(
      {
        pdm: m.defines.audioIn.i2s.pdm,
        num: m.defines.audioIn.i2s.num,
        clk: m.defines.audioIn.i2s.lr_pin,
        data: m.defines.audioIn.i2s.datain,
      },
      { pdm: 1, num: 0, clk: 5, data: 6 },
    );
    assert.equal(m.defines.audioOut.i2s.num, 1);
  });

  it("fails a GPIO used by two parts, naming both", () => {
    const r = check((m) => (s3(m).defines.audioOut.i2s.dataout_pin = 6));
    assert.equal(r.code, 1);
    assert.match(r.out, /GPIO 6 is used twice: microphone DATA and speaker DIN/);
  });

  it("fails a reserved pin, the PDM microphone off controller 0, a card bus named twice differently", () => {
    const r = check((m) => {
      s3(m).config.ring.pin = 35;
      s3(m).defines.audioIn.i2s.num = 1;
      s3(m).defines.spi.sck_pin = 14;
    });
    assert.equal(r.code, 1);
    assert.match(r.out, /GPIO 35 \(ring\) is reserved on the module \(octal PSRAM\)/);
    assert.match(r.out, /the PDM microphone must be on I2S controller 0/);
    assert.match(r.out, /defines\.spi\.sck_pin is 14, config\.sd\.sck is 12/);
  });

  it("fails an audio define that docs/device.md does not explain", () => {
    const r = check((m) => (s3(m).defines.audioIn.i2s.xgain = 4));
    assert.equal(r.code, 1);
    assert.match(r.out, /docs\/device\.md does not explain the define audioIn\.i2s\.xgain/);
  });
});
