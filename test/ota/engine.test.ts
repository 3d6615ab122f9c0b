// The update engine's states and failures on Node (the same scenario runs on XS: test/xs/ota.test.ts).
import assert from "node:assert/strict";
import { bootSimSlots } from "../../hosts/sim/ports/ota-bootloader.ts";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { nodeSha256 } from "../../hosts/sim/ports/node-basics.ts";
import { nodeSha512 } from "../../hosts/sim/ports/ota-slots.ts";
import { OtaEngine } from "../../lib/ota/engine.ts";
import { memorySlotFlash } from "../support/ota-fixtures.ts";
import { otaScenario } from "./ota-scenario.ts";

describe("the update engine", () => {
  let t: string[];
  before(async () => {
    t = await otaScenario(nodeSha256);
  });
  const line = (label: string): string => {
    const found = t.find((l) => l.startsWith(label + ":"));
    assert.ok(found, `no line ${label}\n${t.join("\n")}`);
    return found;
  };

  it("hashes with SHA-256, in pieces as whole", () => {
    assert.ok(t.includes('sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'));
    assert.match(line("sha256 in pieces = whole"), /: true [0-9a-f]{16}$/);
  });

  it("installs an approved release in range requests, restarts into it and marks it valid", () => {
    assert.match(line("check"), /^check: available running=1\.0\.0@ota_0 latest=1\.1\.0 /);
    assert.match(line("install approved, no restart yet"), /: ready running=1\.0\.0@ota_0/);
    assert.ok(t.includes("range requests: 7, restarts so far: 0"));
    assert.match(line("check while ready"), /threw conflict: a verified update waits for its restart/);
    assert.match(line("restart"), /: restarting /);
    assert.match(line("after the restart"), /: idle running=1\.1\.0@ota_1 last=1\.1\.0\/ok \| version 1\.1\.0 passed its health check/);
    assert.match(line("check again"), /: up-to-date /);
  });

  it("waits for the owner's approval of the offered version", () => {
    assert.match(line("install before any check"), /threw conflict: no update is available/);
    assert.match(line("install a version nobody offered"), /threw conflict: the available version is 1\.1\.0/);
  });

  it("refuses downgrades, a base too old, unknown keys and altered feeds before downloading", () => {
    assert.match(line("downgrade offered"), /: error .*never installs an older version/);
    assert.match(line("needs a newer base"), /: error .*installs only over 1\.2\.0 or later/);
    assert.match(line("unknown key"), /: error .*key this device does not trust/);
    assert.match(line("notes swapped"), /: error .*signature does not verify/);
    assert.match(line("size altered"), /: error .*signature does not verify/);
    for (const bad of [
      "feed not JSON",
      "feed an array",
      "feed without images",
      "feed with a bad version",
      "feed of 17 KB",
      "feed server error",
    ])
      assert.match(line(bad), /: error running=1\.1\.0@ota_1 /);
  });

  it("keeps the boot slot on a bad hash, a truncated download, a server without ranges, a non-image", () => {
    assert.match(line("bad hash"), /: error .*SHA-256 does not match the signed release/);
    assert.match(line("truncated download"), /: error .*cut short: 150000 of 204923 bytes/);
    assert.match(line("server without ranges"), /: error .*must answer HTTP range requests/);
    assert.match(line("signed, but not an app image"), /: error .*ESP image magic byte/);
    assert.equal(t.filter((l) => l === "  boot slot still: 1, restarts: 1").length, 4);
    assert.match(line("after failed installs"), /: idle running=1\.1\.0@ota_1 last=1\.2\.0\/failed/);
  });

  it("survives a power cut mid-write and says what happened", () => {
    assert.match(line("power cut while"), /: downloading /);
    assert.ok(t.includes("  bytes in the spare slot: 65536"), t.join("\n"));
    assert.match(
      line("after the power cut"),
      /: idle running=1\.1\.0@ota_1 last=1\.2\.0\/failed \| the download of 1\.2\.0 was interrupted/,
    );
  });

  it("rolls back when the health check fails, and when the new image never reaches it", () => {
    assert.match(
      line("unhealthy 1.2.0"),
      /: restarting running=1\.2\.0@ota_0 last=1\.2\.0\/rolled-back \| .*registry: the tool registry is empty/,
    );
    assert.match(line("after rollback"), /: idle running=1\.1\.0@ota_1 last=1\.2\.0\/rolled-back/);
    assert.ok(t.includes("boot: ota_0 restarted without marking itself valid: fell back to ota_1"));
    assert.match(line("after the crash loop"), /: idle running=1\.1\.0@ota_1 .*did not reach its health check/);
  });

  it("checks on its schedule, refuses overlapping work, accepts a rotated key", () => {
    assert.match(line("scheduled check"), /: available .*latest=1\.2\.1/);
    assert.ok(t.includes("tick within the hour asks nothing: true"));
    assert.match(line("check while checking"), /threw busy/);
    assert.match(line("final"), /: idle running=1\.2\.1@ota_0 last=1\.2\.1\/ok/);
  });
});

describe("the update engine at the edges", () => {
  const quiet = { info: () => {}, warn: () => {} };
  const engineOver = (flash: ReturnType<typeof memorySlotFlash>, settings = memorySettings(), failing?: string) => {
    let restarts = 0;
    const slots = bootSimSlots(flash, { factoryVersion: "1.0.0", onRestart: () => restarts++, sha256: nodeSha256, sha512: nodeSha512 });
    const engine = new OtaEngine({
      slots,
      http: { request: () => Promise.reject(new Error("offline")) },
      settings,
      log: quiet,
      now: () => 1,
      version: "1.0.0",
      board: "esp32s3",
      trustedKeys: [],
      checks: [{ name: "registry", run: async () => failing }],
    });
    return { engine, slots, restarts: () => restarts };
  };

  it("keeps an unhealthy image when there is nothing to roll back to, and says so", async () => {
    const flash = memorySlotFlash();
    flash.saveData({ boot: 1, states: ["empty", "new"], unverifiedBoots: 0 });
    const w = flash.eraseSlot(1);
    w.append(buildAppImage("2.0.0"));
    w.close();
    const { engine, restarts } = engineOver(flash, memorySettings(), "the tool registry is empty");
    await engine.boot();
    const s = engine.status();
    assert.equal(s.runningVersion, "2.0.0");
    assert.equal(s.lastInstall?.outcome, "failed");
    assert.match(engine.lastInstallDetail() ?? "", /no previous image to go back to, so it was kept/);
    assert.equal(restarts(), 0);
    assert.equal(flash.loadData()?.states[1], "valid");
  });

  it("boots once however often boot() is called", async () => {
    const flash = memorySlotFlash();
    const { engine } = engineOver(flash);
    assert.equal(engine.boot(), engine.boot());
  });

  it("reports a feed it cannot reach as an error", async () => {
    const settings = memorySettings();
    settings.set("ota.feed", "https://updates.example/feed.json");
    const { engine } = engineOver(memorySlotFlash(), settings);
    await engine.check();
    assert.equal(engine.status().state, "error");
    assert.match(engine.status().detail ?? "", /could not be fetched/);
  });
});
