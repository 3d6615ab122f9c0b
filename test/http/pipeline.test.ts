// The HTTP pipeline without a socket: the Host allow-list (DNS rebinding), JSON
// refusals on every path, token wording, static assets and server-sent events.
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import type { Halo, HttpResponse } from "../../lib/app/halo.ts";
import { testHalo } from "../support/halo.ts";
import { HostPolicy, hostName } from "../../lib/http/host-policy.ts";
import { HttpPipeline } from "../../lib/http/pipeline.ts";
import { sseResponse } from "../../lib/http/sse.ts";
import { assetRoutes, type StaticAsset } from "../../lib/http/static-assets.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";

const text = (r: HttpResponse): string => (typeof r.body === "string" ? r.body : new TextDecoder().decode(r.body));

describe("HTTP pipeline", () => {
  let halo: Halo;
  let token: string;
  beforeEach(() => {
    halo = testHalo(memoryPorts(), { addresses: () => ["192.168.1.40"], deviceName: () => "desk" });
    token = halo.ensureOwnerToken()!;
  });
  const get = (path: string, headers: { [k: string]: string } = {}) =>
    halo.handleHttp({ method: "GET", path, headers: { authorization: `Bearer ${token}`, ...headers } });

  it("answers only to the device's own names and addresses, on every route", async () => {
    for (const host of ["127.0.0.1:8787", "localhost", "[::1]:80", "192.168.1.40", "desk.local:8787"]) {
      assert.equal((await get("/api/secrets", { host })).status, 200, host);
    }
    for (const path of ["/", "/api/secrets", "/mcp", "/nowhere"]) {
      const r = await get(path, { host: "evil.example:8787" });
      assert.equal(r.status, 403, path);
      assert.match(text(r), /does not answer to that host name/);
    }
  });

  it("lets the owner add a name, and refuses a malformed one", async () => {
    assert.equal((await get("/api/secrets", { host: "halo.lan" })).status, 403);
    const put = (hosts: unknown) =>
      halo.handleHttp({
        method: "PUT",
        path: "/api/hosts",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: new TextEncoder().encode(JSON.stringify({ hosts })),
      });
    assert.equal((await put(["bad name!"])).status, 400);
    assert.equal((await put(["halo.lan"])).status, 200);
    assert.equal((await get("/api/secrets", { host: "halo.lan:8080" })).status, 200);
  });

  it("accepts an Origin only on an allowed host that is the Host itself, or loopback", () => {
    const p = new HostPolicy({ addresses: () => ["10.0.0.5"], deviceName: () => "halo", settings: memoryPorts().settings });
    assert.equal(p.allowsOrigin("http://10.0.0.5:8787", "10.0.0.5:8787"), true);
    assert.equal(p.allowsOrigin("http://localhost:3000", "10.0.0.5"), true);
    assert.equal(p.allowsOrigin("http://evil.example", "evil.example"), false, "a rebinding page's own Host is refused");
    assert.equal(p.allowsOrigin("http://halo.local", "10.0.0.5"), false, "another allowed name is not the Host");
    assert.equal(p.allowsOrigin("null", "10.0.0.5"), false);
    assert.deepEqual(["[::1]:80", "A.Example.:1", "x:y", "[::1"].map(hostName), ["::1", "a.example", undefined, undefined]);
  });

  it("answers every refusal in JSON, and says when a token is unknown or revoked", async () => {
    const none = await halo.handleHttp({ method: "GET", path: "/api/secrets", headers: {} });
    assert.deepEqual([none.status, JSON.parse(text(none)).error], [401, "Unauthorized: send Authorization: Bearer <token>."]);
    const wrong = await get("/api/secrets", { authorization: "Bearer halo_nope" });
    assert.deepEqual([wrong.status, JSON.parse(text(wrong)).error], [401, "Unauthorized: unknown or revoked token."]);
    const inUrl = await get("/mcp?token=abc");
    assert.equal(inUrl.status, 400);
    assert.match(JSON.parse(text(inUrl)).error.message, /not accepted in a URL/);
    const lost = await get("/nowhere");
    assert.equal(lost.headers["content-type"], "application/json");
    const mcpGet = await get("/mcp");
    assert.deepEqual([mcpGet.status, mcpGet.headers.allow, JSON.parse(text(mcpGet)).error.code], [405, "POST", -32600]);
  });

  it("refuses a body over the route's limit before anything else, and asks the host to close", async () => {
    assert.equal(halo.http.bodyLimit("POST", "/mcp"), 256 * 1024);
    assert.equal(halo.http.bodyLimit("PUT", "/api/secrets/openai"), 16 * 1024);
    const r = await halo.handleHttp({ method: "PUT", path: "/api/secrets/openai", headers: {}, bodyTooLarge: true });
    assert.deepEqual([r.status, r.close], [413, true]);
    const big = await halo.handleHttp({ method: "POST", path: "/mcp", headers: {}, body: new Uint8Array(300 * 1024) });
    assert.deepEqual([big.status, big.close], [413, true]);
  });

  it("serves static assets gzipped with an ETag, and 304 when the browser has them", async () => {
    const page = new TextEncoder().encode("<h1>halo</h1>");
    const asset: StaticAsset = { path: "/app", contentType: "text/html", identity: page, gzip: gzipSync(page), etag: '"abc1"' };
    const p = new HttpPipeline(assetRoutes([asset]), [], { validators: {}, log: memoryLog() });
    const zipped = await p.handle({ method: "GET", path: "/app", headers: { "accept-encoding": "gzip, br" } });
    assert.deepEqual([zipped.status, zipped.headers["content-encoding"], zipped.headers.etag], [200, "gzip", '"abc1"']);
    assert.deepEqual(zipped.body, asset.gzip);
    const plain = await p.handle({ method: "GET", path: "/app", headers: { "accept-encoding": "gzip;q=0" } });
    assert.deepEqual([plain.headers["content-encoding"], plain.body], [undefined, page]);
    const again = await p.handle({ method: "GET", path: "/app", headers: { "if-none-match": 'W/"x", "abc1"' } });
    assert.deepEqual([again.status, again.body], [304, ""]);
  });

  it("refuses framing on every HTML page, whichever route writes it", async () => {
    for (const path of ["/", "/status", "/updates"]) {
      const r = await get(path);
      assert.match(r.headers["content-type"], /^text\/html/, path);
      assert.equal(r.headers["x-frame-options"], "DENY", path);
      assert.match(r.headers["content-security-policy"], /frame-ancestors 'none'/, path);
    }
    assert.match(
      (await get("/")).headers["content-security-policy"],
      /^default-src 'none'; script-src 'self'/,
      "the page keeps its own policy",
    );
    assert.equal((await get("/api/secrets")).headers["x-frame-options"], undefined, "JSON answers need none");
  });

  it("serves a host's pages behind the same checks as every route", async () => {
    const page = { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: "<h1>flash</h1>" };
    const withPage = testHalo(memoryPorts(), {
      hostRoutes: [{ method: "GET", pattern: "/flash", maxBody: 0, errors: "api", use: [], handler: () => page }],
    });
    const ask = (headers: { [k: string]: string }) => withPage.handleHttp({ method: "GET", path: "/flash/", headers });
    const served = await ask({ host: "localhost:8787" });
    assert.deepEqual([served.status, served.body, served.headers["x-frame-options"]], [200, "<h1>flash</h1>", "DENY"]);
    const foreign = await ask({ host: "evil.example" });
    assert.deepEqual([foreign.status, foreign.headers["content-type"]], [403, "application/json"]);
    assert.match(text(foreign), /does not answer to that host name/);
  });

  it("streams server-sent events until the client leaves", () => {
    let send: ((e: string, d: unknown) => void) | undefined;
    let stopped = false;
    const r = sseResponse((s) => {
      send = s;
      return () => (stopped = true);
    });
    const written: string[] = [];
    const stop = r.stream!.start({ write: (t) => written.push(t), end: () => written.push("<end>") });
    send!("ring", { phase: "thinking", line: "a\nb" });
    stop();
    assert.equal(r.headers["content-type"], "text/event-stream");
    assert.deepEqual(written, [": halo\n\n", 'event: ring\ndata: {"phase":"thinking","line":"a\\nb"}\n\n']);
    assert.equal(stopped, true);
  });
});
