// The flashing page the simulator serves at /flash/: the page with the
// esp-web-tools install button, esp-web-tools itself, and only the files a
// release's manifest names; nothing else on the disk.
import assert from "node:assert/strict";
import { type IncomingHttpHeaders, request } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { startSimulator, type RunningSim } from "../../hosts/sim/start.ts";

type Answer = { status: number; type: string; headers: IncomingHttpHeaders; body: Buffer };

function get(sim: RunningSim, path: string, method = "GET", headers: { [name: string]: string } = {}): Promise<Answer> {
  const url = new URL(sim.url);
  return new Promise((ok, fail) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        ok({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", fail);
    req.end();
  });
}

describe("the flashing page in the simulator", function () {
  this.timeout(20_000);
  let dir: string;
  let sim: RunningSim;
  const image = new Uint8Array(5000).map((_, i) => i & 0xff);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "halo-flashpage-"));
    mkdirSync(join(dir, "release"));
    writeFileSync(join(dir, "release/halo-1.0.0-esp32s3-factory.bin"), image);
    writeFileSync(join(dir, "release/secret.txt"), "not for you");
    const manifest = {
      name: "Halo",
      version: "1.0.0",
      builds: [{ chipFamily: "ESP32-S3", parts: [{ path: "halo-1.0.0-esp32s3-factory.bin", offset: 0 }] }],
    };
    writeFileSync(join(dir, "release/manifest.json"), JSON.stringify(manifest));
    sim = await startSimulator({
      dataDir: join(dir, "data"),
      host: "127.0.0.1",
      port: 0,
      portOverrides: { log: memoryLog() },
      releaseDir: join(dir, "release"),
    });
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the page with the install button pointing at the release's manifest", async () => {
    const page = await get(sim, "/flash/");
    assert.equal(page.status, 200);
    assert.match(page.type, /text\/html/);
    assert.match(page.body.toString(), /<esp-web-install-button manifest="manifest\.json">/);
    assert.match(page.body.toString(), /src="esp-web-tools\/install-button\.js"/);
    const button = await get(sim, "/flash/esp-web-tools/install-button.js");
    assert.equal(button.status, 200);
    assert.match(button.body.toString(), /navigator\.serial\.requestPort/);
    const manifest = JSON.parse((await get(sim, "/flash/manifest.json")).body.toString());
    assert.equal(manifest.builds[0].parts[0].path, "halo-1.0.0-esp32s3-factory.bin");
    const part = await get(sim, "/flash/halo-1.0.0-esp32s3-factory.bin");
    assert.deepEqual(new Uint8Array(part.body), image);
  });

  it("serves nothing the manifest does not name, and no path outside", async () => {
    for (const path of ["/flash/secret.txt", "/flash/../admin-token", "/flash/esp-web-tools/../../package.json", "/flash/nope.bin"])
      assert.equal((await get(sim, path)).status, 404, path);
    // A segment that decodes to a slash is a malformed path on every route.
    assert.equal((await get(sim, "/flash/esp-web-tools/%2e%2e%2fpackage.json")).status, 400);
    assert.equal((await get(sim, "/flash/", "POST")).status, 405);
    assert.equal((await get(sim, "/api/ota")).status, 401, "the owner API is still behind its token");
  });

  it("is a route of the pipeline: a foreign Host is refused exactly like /mcp, a token in the URL too", async () => {
    const host = { host: "evil.example:8787" };
    const page = await get(sim, "/flash/", "GET", host);
    const mcp = await get(sim, "/mcp", "POST", host);
    assert.deepEqual([page.status, mcp.status], [403, 403]);
    assert.equal(JSON.parse(page.body.toString()).error, JSON.parse(mcp.body.toString()).error.message);
    assert.match(JSON.parse(page.body.toString()).error, /does not answer to that host name/);
    assert.equal((await get(sim, "/flash/manifest.json", "GET", host)).status, 403);
    const inUrl = await get(sim, "/flash/?token=abc");
    assert.deepEqual([inUrl.status, inUrl.type], [400, "application/json"]);
    const missing = await get(sim, "/flash/nope.bin");
    assert.deepEqual([missing.type, JSON.parse(missing.body.toString())], ["application/json", { error: "Not found: no such file." }]);
  });

  it("may not be framed by another site", async () => {
    const page = await get(sim, "/flash/");
    assert.equal(page.headers["x-frame-options"], "DENY");
    assert.equal(page.headers["content-security-policy"], "frame-ancestors 'none'");
    const manifest = await get(sim, "/flash/manifest.json");
    assert.equal(manifest.headers["x-frame-options"], undefined, "only pages carry the page headers");
  });
});
