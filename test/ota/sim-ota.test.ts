// The simulator's update path over real sockets: a static release server
// with range requests, the owner API (check, approve, restart), a second
// start of the simulator booting the new slot, and hostile API input.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { nodeSha256 } from "../../hosts/sim/ports/node-basics.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { startSimulator, type RunningSim } from "../../hosts/sim/start.ts";
import { principal } from "../support/registry.ts";
import { digestWith, signedFeed, signingKey } from "../support/ota-fixtures.ts";
import { startReleaseServer, type ReleaseHttpServer } from "../support/release-http-server.ts";

describe("updates in the simulator", function () {
  this.timeout(20_000);
  const key = signingKey(9);
  let releases: ReleaseHttpServer;
  let dataDir: string;
  let sim: RunningSim;
  let token: string;
  const log = memoryLog();
  const start = async (): Promise<void> => {
    sim = await startSimulator({
      dataDir,
      host: "127.0.0.1",
      port: 0,
      portOverrides: { log },
      ota: { feedUrl: `${releases.url}/feed.json`, trustedKeys: [key.publicHex] },
    });
    token = readFileSync(sim.tokenPath, "utf8").trim();
  };
  const api = async (method: string, path: string, body?: unknown, auth = `Bearer ${token}`): Promise<{ status: number; json: any }> => {
    const res = await fetch(sim.url + path, {
      method,
      headers: { "content-type": "application/json", authorization: auth },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const publish = (version: string, payload: number): void => {
    const image = buildAppImage(version, payload);
    releases.files.set(`/halo-${version}.bin`, image);
    const feed = signedFeed({ version, url: `halo-${version}.bin`, image, key, sha256: digestWith(nodeSha256) });
    releases.files.set("/feed.json", new TextEncoder().encode(JSON.stringify(feed)));
  };

  before(async () => {
    releases = await startReleaseServer();
    dataDir = mkdtempSync(join(tmpdir(), "halo-ota-"));
    await start();
  });
  after(async () => {
    await sim.close();
    await releases.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts from a factory image in ota_0 and reports it", async () => {
    const r = await api("GET", "/api/ota");
    assert.equal(r.status, 200);
    assert.equal(r.json.state, "idle");
    assert.equal(r.json.runningVersion, "0.1.0-sim");
    assert.equal(r.json.slot, "ota_0");
    assert.equal(r.json.feedUrl, `${releases.url}/feed.json`);
  });

  it("refuses hostile owner API input and callers without the owner token", async () => {
    assert.equal((await api("POST", "/api/ota/check", {}, "Bearer nope")).status, 401);
    assert.equal((await api("POST", "/api/ota/install", { version: 5 })).status, 400);
    assert.equal((await api("POST", "/api/ota/install", { version: "x".repeat(5000) })).status, 400);
    assert.equal((await api("POST", "/api/ota/install", { version: "0.2.0", sneaky: true })).status, 400);
    assert.equal((await api("POST", "/api/ota/install", { version: "0.2.0" })).status, 409);
    assert.equal((await api("POST", "/api/ota/restart", {})).status, 409);
    assert.equal((await api("PUT", "/api/ota/feed", { url: "file:///etc/passwd" })).status, 400);
    assert.equal((await api("POST", "/api/ota/check", "{not json")).status, 400);
    assert.equal((await api("GET", "/api/ota")).json.state, "idle");
  });

  it("stops a download cut short and keeps the running slot", async () => {
    publish("0.2.0", 150_000);
    assert.equal((await api("POST", "/api/ota/check", {})).json.state, "available");
    releases.cutAfter = 70_000;
    const r = await api("POST", "/api/ota/install", { version: "0.2.0" });
    releases.cutAfter = undefined;
    assert.equal(r.status, 502);
    assert.equal(r.json.state, "error");
    assert.match(r.json.detail, /image download failed at byte 65536/);
    // Reading the status afterwards is not itself a failure: 200, with the error in it.
    const read = await api("GET", "/api/ota");
    assert.equal(read.status, 200);
    assert.equal(read.json.state, "error");
    assert.equal(JSON.parse(readFileSync(join(dataDir, "ota/otadata.json"), "utf8")).boot, 0);
  });

  it("checks, installs the approved version, and boots it on the next start", async () => {
    const checked = await api("POST", "/api/ota/check", {});
    assert.equal(checked.json.state, "available");
    assert.equal(checked.json.latest.version, "0.2.0");
    const installed = await api("POST", "/api/ota/install", { version: "0.2.0" });
    assert.equal(installed.status, 200, JSON.stringify(installed.json));
    assert.equal(installed.json.state, "restarting");
    assert.ok(log.lines.some((l) => /restart requested/.test(l)));
    assert.deepEqual(readFileSync(join(dataDir, "ota/ota_1.bin")), Buffer.from(releases.files.get("/halo-0.2.0.bin")!));
    await sim.close();
    await start();
    const after = await api("GET", "/api/ota");
    assert.equal(after.json.runningVersion, "0.2.0");
    assert.equal(after.json.slot, "ota_1");
    assert.equal(after.json.lastInstall.outcome, "ok");
    assert.match(after.json.lastInstall.detail, /passed its health check/);
    const tool = await sim.halo.core.registry.dispatch("ota.status", {}, principal("admin", "turn", "owner"));
    assert.match(tool.text, /^State: idle\nRunning: 0\.2\.0 \(ota_1\)\n/);
    assert.match(tool.text, /Last install: 0\.2\.0 ok/);
    // agent.version says what runs now, not the build's old number.
    const version = await sim.halo.core.registry.dispatch("agent.version", {}, principal("admin", "turn", "owner"));
    assert.match(version.text, /^Halo 0\.2\.0 /);
    assert.equal((await api("POST", "/api/ota/check", {})).json.state, "up-to-date");
  });
});
