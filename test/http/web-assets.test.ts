// The web page as the simulator serves it (gzip, ETag, 304), within its flash
// budget, and decoded the same on XS as on Node.
import assert from "node:assert/strict";
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { WEB_ASSETS_GZIP_BYTES, webAssets } from "../../lib/generated/web-assets.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { assetLines } from "../web-ui/assets-lines.ts";

/** fetch() cannot set Host; a rebinding page's request carries its own name there. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(`${url}/`, { headers: { host } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on("error", fail);
    req.end();
  });
}

/** Every asset together, gzipped, fits in this (it ships in the device's flash). */
const WEB_ASSETS_BUDGET_BYTES = 100 * 1024;

describe("the web page's assets", () => {
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim();
  });
  after(async () => sim.stop());

  it("fit the 100 KB gzipped budget, and each gzip is its identity's bytes", () => {
    const assets = webAssets();
    assert.deepEqual(
      assets.map((a) => a.path),
      ["/", "/app.js", "/app.css"],
    );
    assert.equal(
      assets.reduce((n, a) => n + a.gzip.length, 0),
      WEB_ASSETS_GZIP_BYTES,
    );
    assert.ok(WEB_ASSETS_GZIP_BYTES <= WEB_ASSETS_BUDGET_BYTES, `${WEB_ASSETS_GZIP_BYTES} bytes`);
    for (const a of assets) assert.deepEqual(new Uint8Array(gunzipSync(a.gzip)), a.identity);
    const html = new TextDecoder().decode(assets[0].identity);
    assert.match(html, /<script src="\/app\.js" defer><\/script>/);
    assert.doesNotMatch(html + new TextDecoder().decode(assets[1].identity), /https?:\/\/(?!www\.w3\.org)/, "no CDN, no outside address");
  });

  it("are served at / gzipped with an ETag, 304 when the browser has them, plain to curl", async () => {
    const res = await fetch(`${sim.url}/`, { headers: { "accept-encoding": "gzip" } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    const etag = res.headers.get("etag")!;
    assert.match(etag, /^"[0-9a-f]{20}"$/);
    assert.match(await res.text(), /<title>Halo<\/title>/);
    assert.match(res.headers.get("content-security-policy")!, /script-src 'self';.*frame-ancestors 'none'/);
    assert.equal(res.headers.get("x-frame-options"), "DENY");
    const again = await fetch(`${sim.url}/`, { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    const js = await fetch(`${sim.url}/app.js`, { headers: { "accept-encoding": "identity" } });
    assert.equal(js.headers.get("content-encoding"), null);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.ok((await js.text()).length > 1000);
    assert.equal((await fetch(`${sim.url}/app.css`, { method: "HEAD" })).status, 200);
    const status = await fetch(`${sim.url}/status`);
    assert.match(await status.text(), /tools\./);
    assert.equal(await statusWithHost(sim.url, "evil.example"), 403, "the Host check covers the page");
    assert.equal((await fetch(`${sim.url}/`, { method: "POST" })).status, 405);
  });

  it("decode and serve the same on XS as on Node", async function () {
    this.timeout(60000);
    const r = await runOnXs("test/xs/web-assets.xs.ts");
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.pop(), "xs-web-assets: done");
    assert.deepEqual(lines, assetLines());
    assert.match(lines[0], / 200 gzip 304$/);
  });
});
