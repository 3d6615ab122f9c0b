// Every state and failure of the update engine, on memory flash and a memory
// release server, as transcript lines: run on Node (test/ota/engine.test.ts)
// and on the XS host (test/xs/ota.xs.ts), which must agree line for line.
import { bootSimSlots, type SimOtaSlots } from "../../hosts/sim/ports/ota-bootloader.ts";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { OtaEngine } from "../../lib/ota/engine.ts";
import type { HealthCheck } from "../../lib/ota/boot.ts";
import type { Log, OtaStatus, Sha256Stream, Settings } from "../../lib/ports.ts";
import { toHex } from "../../lib/util/hash.ts";
import { sha512 } from "@noble/hashes/sha2.js";
import { digestWith, memoryReleaseServer, memorySlotFlash, signedFeed, signingKey, type ServerFaults } from "../support/ota-fixtures.ts";

const FEED = "https://updates.example/halo/feed.json";
const IMAGE_BYTES = 200 * 1024 + 123; // seven range requests, the last one short

export async function otaScenario(sha256: () => Sha256Stream): Promise<string[]> {
  const t: string[] = [];
  const flash = memorySlotFlash();
  const settings: Settings = memorySettings();
  const log: Log = { info: () => {}, warn: () => {} };
  const files = new Map<string, Uint8Array>();
  const faults: ServerFaults = {};
  const http = memoryReleaseServer(files, faults);
  const hash = digestWith(sha256);
  const trusted = signingKey(1);
  const rotated = signingKey(2);
  const stranger = signingKey(3);
  let clock = 1_700_000_000_000;
  let restarts = 0;
  let healthy: string | undefined;
  const checks: HealthCheck[] = [
    { name: "network", run: async () => undefined },
    { name: "registry", run: async () => healthy },
  ];
  let slots!: SimOtaSlots;
  let engine!: OtaEngine;
  const boot = async (): Promise<void> => {
    slots = bootSimSlots(flash, { factoryVersion: "1.0.0", onRestart: () => restarts++, sha256, sha512 });
    engine = new OtaEngine({
      slots,
      http,
      settings,
      log,
      now: () => clock,
      version: "1.0.0",
      board: "esp32s3",
      trustedKeys: [trusted.publicHex, rotated.publicHex],
      checks,
      checkIntervalMs: 3_600_000,
    });
    t.push(`boot: ${slots.bootNote}`);
    await engine.boot();
  };
  const show = (label: string, s: OtaStatus = engine.status()): void => {
    const last = s.lastInstall ? ` last=${s.lastInstall.version}/${s.lastInstall.outcome}` : "";
    const latest = s.latest ? ` latest=${s.latest.version}` : "";
    t.push(`${label}: ${s.state} running=${s.runningVersion}@${s.slot}${latest}${last} | ${s.detail ?? ""}`);
  };
  const attempt = async (label: string, run: () => Promise<OtaStatus> | OtaStatus): Promise<void> => {
    try {
      show(label, await run());
    } catch (e) {
      t.push(`${label}: threw ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const publish = (
    version: string,
    opts: { minVersion?: string; key?: typeof trusted; notes?: string; image?: Uint8Array; tamper?: (f: any) => void } = {},
  ): Uint8Array => {
    const image = opts.image ?? buildAppImage(version, IMAGE_BYTES - 288);
    const url = `https://updates.example/halo/halo-${version}.bin`;
    files.set(url, image);
    const feed = signedFeed({
      version,
      minVersion: opts.minVersion,
      notes: opts.notes,
      url: `halo-${version}.bin`,
      image,
      key: opts.key ?? trusted,
      sha256: hash,
    });
    opts.tamper?.(feed);
    files.set(FEED, new TextEncoder().encode(JSON.stringify(feed)));
    return image;
  };
  const clearFaults = (): void => {
    for (const k of Object.keys(faults)) delete (faults as { [k: string]: unknown })[k];
  };

  // The hasher itself: a NIST vector, and an image fed in odd pieces equals it fed whole.
  t.push(`sha256("abc") = ${toHex(hash(new TextEncoder().encode("abc")))}`);
  const sample = buildAppImage("0.0.1", 100_000);
  const pieces = sha256();
  for (let at = 0, n = 1; at < sample.length; at += n, n = (n * 7 + 3) % 5000) pieces.update(sample.subarray(at, at + n));
  t.push(`sha256 in pieces = whole: ${toHex(pieces.digest()) === toHex(hash(sample))} ${toHex(hash(sample)).slice(0, 16)}`);

  await boot();
  show("factory");
  await attempt("check without a feed URL", () => engine.check());
  await attempt("a feed URL that is not http", () => (engine.setFeedUrl("ftp://x/feed.json"), engine.status()));
  engine.setFeedUrl(FEED);
  await attempt("check, nothing published", () => engine.check());
  publish("1.1.0", { notes: "Faster replies." });
  await attempt("install before any check", () => engine.install("1.1.0", true));
  await attempt("check", () => engine.check());
  await attempt("install a version nobody offered", () => engine.install("9.9.9", true));
  const before = http.requests;
  await attempt("install approved, no restart yet", () => engine.install("1.1.0", false));
  t.push(`range requests: ${http.requests - before}, restarts so far: ${restarts}`);
  await attempt("check while ready", () => engine.check());
  await attempt("restart", () => engine.restart());
  t.push(`restarts: ${restarts}`);
  await boot();
  show("after the restart");
  await attempt("check again", () => engine.check());

  // Refusals at check time: nothing is downloaded.
  publish("1.0.5");
  await attempt("downgrade offered", () => engine.check());
  publish("1.3.0", { minVersion: "1.2.0" });
  await attempt("needs a newer base", () => engine.check());
  publish("1.2.0", { key: stranger });
  await attempt("unknown key", () => engine.check());
  publish("1.2.0", { tamper: (f) => (f.notes = "Now with ads.") });
  await attempt("notes swapped", () => engine.check());
  publish("1.2.0", { tamper: (f) => (f.images.esp32s3.size += 1) });
  await attempt("size altered", () => engine.check());
  for (const [label, text] of [
    ["feed not JSON", "{nope"],
    ["feed an array", "[]"],
    ["feed without images", JSON.stringify({ format: "halo-ota-feed/1", version: "1.2.0", minVersion: "0.0.0" })],
    ["feed with a bad version", JSON.stringify({ format: "halo-ota-feed/1", version: "v1.2", minVersion: "0.0.0", images: {} })],
    ["feed of 17 KB", JSON.stringify({ pad: "x".repeat(17 * 1024) })],
  ]) {
    files.set(FEED, new TextEncoder().encode(text));
    await attempt(label, () => engine.check());
  }
  faults.feedStatus = 500;
  files.set(FEED, new TextEncoder().encode("{}"));
  await attempt("feed server error", () => engine.check());
  clearFaults();

  // Failures while installing: the boot slot never changes.
  const failInstall = async (label: string, set: () => void): Promise<void> => {
    publish("1.2.0", { key: rotated });
    await engine.check();
    set();
    await attempt(label, () => engine.install("1.2.0", true));
    clearFaults();
    t.push(`  boot slot still: ${flash.loadData()?.boot}, restarts: ${restarts}`);
  };
  await failInstall("bad hash", () => (faults.flipByteAt = 100_000));
  await failInstall("truncated download", () => (faults.cutAt = 150_000));
  await failInstall("server without ranges", () => (faults.noRanges = true));
  publish("1.2.0", { key: rotated, image: new Uint8Array(IMAGE_BYTES).fill(0x55) });
  await engine.check();
  await attempt("signed, but not an app image", () => engine.install("1.2.0", true));
  t.push(`  boot slot still: ${flash.loadData()?.boot}, restarts: ${restarts}`);
  await boot();
  show("after failed installs");

  // Power cut mid-write: the engine is gone after the 3rd chunk; the old image boots.
  publish("1.2.0");
  await engine.check();
  faults.beforeChunk = (from) => (from >= 2 * 32 * 1024 ? new Promise<void>(() => {}) : undefined); // never answers
  void engine.install("1.2.0", true);
  for (let i = 0; i < 20; i++) await Promise.resolve();
  show("power cut while");
  t.push(`  bytes in the spare slot: ${flash.slots[0].length}`);
  clearFaults();
  await boot();
  show("after the power cut");

  // Health check fails after the restart: roll back.
  healthy = "the tool registry is empty";
  await engine.check();
  await attempt("install 1.2.0", () => engine.install("1.2.0", true));
  await boot();
  show("unhealthy 1.2.0");
  await boot();
  show("after rollback");

  // The new image restarts before its health check (a crash): the boot loader goes back.
  healthy = undefined;
  await engine.check();
  await attempt("install 1.2.0 again", () => engine.install("1.2.0", true));
  slots = bootSimSlots(flash, { factoryVersion: "1.0.0", onRestart: () => restarts++, sha256, sha512 });
  t.push(`boot: ${slots.bootNote} (crashes before its health check)`);
  await boot();
  show("after the crash loop");

  // Scheduled checks.
  publish("1.2.1", { key: rotated });
  clock += 10_000_000;
  await engine.tick();
  show("scheduled check");
  const requests = http.requests;
  await engine.tick();
  t.push(`tick within the hour asks nothing: ${http.requests === requests}`);
  const a = engine.check();
  await attempt("check while checking", () => engine.check());
  await a;
  await attempt("install 1.2.1", () => engine.install("1.2.1", true));
  await boot();
  show("final");
  t.push(`restarts: ${restarts}`);
  return t;
}
