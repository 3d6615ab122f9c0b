// Hostile input at /mcp over a real socket: each gets its status and error, and the server keeps serving.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";

const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

describe("simulator /mcp under hostile input", () => {
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim();
  });
  after(async () => sim.stop());

  async function stillServing(): Promise<void> {
    const r = await postMcp(sim, PING);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { jsonrpc: "2.0", id: 1, result: {} });
  }

  const cases: Array<{
    name: string;
    body?: string | Uint8Array;
    headers?: Record<string, string | undefined>;
    method?: string;
    status: number;
    code?: number;
  }> = [
    { name: "malformed JSON", body: '{"jsonrpc":"2.0",', status: 400, code: -32700 },
    { name: "invalid UTF-8", body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), status: 400, code: -32700 },
    { name: "wrong jsonrpc", body: '{"jsonrpc":"1.0","id":1,"method":"ping"}', status: 400, code: -32600 },
    { name: "a batch", body: `[${PING},${PING}]`, status: 400, code: -32600 },
    { name: "an empty body", body: "", status: 400, code: -32700 },
    { name: "a 10,000-deep nest", body: "[".repeat(10000) + "]".repeat(10000), status: 400, code: -32600 },
    {
      name: "a deep nest inside params",
      body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}}`,
      status: 400,
      code: -32600,
    },
    { name: "an unknown method", body: '{"jsonrpc":"2.0","id":1,"method":"tools/destroy"}', status: 200, code: -32601 },
    { name: "no token", headers: { authorization: undefined }, status: 401 },
    { name: "a wrong token", headers: { authorization: "Bearer halo_" + "1".repeat(64) }, status: 401 },
    { name: "a non-bearer scheme", headers: { authorization: "Basic dXNlcjpwYXNz" }, status: 401 },
    { name: "an oversized token", headers: { authorization: "Bearer " + "a".repeat(5000) }, status: 401 },
    { name: "a foreign Origin", headers: { origin: "http://evil.example" }, status: 403 },
    { name: "an Origin that only starts like localhost", headers: { origin: "http://localhost.evil.example" }, status: 403 },
    { name: "a wrong Content-Type", headers: { "content-type": "text/plain" }, status: 415 },
    { name: "an unsupported MCP-Protocol-Version", headers: { "mcp-protocol-version": "1999-01-01" }, status: 400 },
    { name: "GET", method: "GET", status: 405 },
    { name: "DELETE", method: "DELETE", status: 405 },
  ];

  for (const c of cases) {
    it(`answers ${c.name} with ${c.status}${c.code ? ` / ${c.code}` : ""}`, async () => {
      const r = await postMcp(sim, c.body ?? PING, c.headers, c.method);
      assert.equal(r.status, c.status, r.text.slice(0, 200));
      if (c.code !== undefined) assert.equal(r.json?.error?.code, c.code, r.text.slice(0, 200));
      if (c.status === 401) assert.match(r.headers.get("www-authenticate") ?? "", /^Bearer /);
      if (c.status === 405) assert.equal(r.headers.get("allow"), "POST");
      await stillServing();
    });
  }

  it("answers a 10 MB body with 413 and keeps serving", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "docs.search", arguments: { query: "x".repeat(10 * 1024 * 1024) } },
    });
    const r = await postMcp(sim, body);
    assert.equal(r.status, 413);
    assert.equal(r.json.error.code, -32600);
    await stillServing();
  });

  it("refuses a declared 10 MB body at once, without reading it, and closes the connection", async () => {
    const { port } = new URL(sim.url);
    const answer = await new Promise<{ head: string; closed: boolean }>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let data = "";
      socket.on("data", (d) => (data += d.toString()));
      socket.on("close", () => resolve({ head: data, closed: true }));
      socket.on("error", reject);
      // Only the headers and a few bytes are sent: the answer must not wait for the other 10 MB.
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${sim.token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{"jsonrpc"`,
      );
    });
    assert.match(answer.head, /^HTTP\/1\.1 413 /);
    assert.match(answer.head, /"code":-32600/);
    assert.equal(answer.closed, true);
    await stillServing();
  });

  it("answers a notification with 202 and no body", async () => {
    const r = await postMcp(sim, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    assert.equal(r.status, 202);
    assert.equal(r.text, "");
  });

  it("accepts a same-host or localhost Origin", async () => {
    const host = new URL(sim.url).host;
    assert.equal((await postMcp(sim, PING, { origin: `http://${host}` })).status, 200);
    assert.equal((await postMcp(sim, PING, { origin: "http://localhost:3000" })).status, 200);
  });

  it("refuses a token in the URL", async () => {
    const res = await fetch(`${sim.url}/mcp?access_token=${sim.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: PING,
    });
    assert.equal(res.status, 400);
    assert.doesNotMatch(await res.text(), new RegExp(sim.token));
  });

  it("serves the web page, the status page and 404s elsewhere", async () => {
    const page = await fetch(`${sim.url}/status`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<span id="tool-count">\d+<\/span> tools/);
    assert.match(await (await fetch(`${sim.url}/`)).text(), /<script src="\/app\.js" defer>/);
    assert.equal((await fetch(`${sim.url}/nope`)).status, 404);
  });
});

describe("simulator /mcp, 2026-07-28 requests over HTTP", () => {
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim();
  });
  after(async () => sim.stop());

  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const headers = (method: string, name?: string) => ({
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name ? { "mcp-name": name } : {}),
  });

  it("serves discover, list and call when headers match the body", async () => {
    const discover = await postMcp(
      sim,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }),
      headers("server/discover"),
    );
    assert.equal(discover.status, 200);
    assert.ok(discover.json.result.supportedVersions.includes("2026-07-28"));
    const call = await postMcp(
      sim,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { _meta: meta, name: "docs.list", arguments: {} } }),
      headers("tools/call", "docs.list"),
    );
    assert.equal(call.status, 200);
    assert.equal(call.json.result.resultType, "complete");
    const b64 = await postMcp(
      sim,
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { _meta: meta, name: "docs.list", arguments: {} } }),
      headers("tools/call", "=?base64?" + Buffer.from("docs.list").toString("base64") + "?="),
    );
    assert.equal(b64.status, 200, b64.text);
  });

  it("answers header mismatches with 400 / -32020", async () => {
    const body = (method: string, name?: string) =>
      JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { _meta: meta, ...(name ? { name, arguments: {} } : {}) } });
    const cases: Array<[string, Record<string, string | undefined>]> = [
      [body("tools/list"), { "mcp-protocol-version": "2026-07-28" }],
      [body("tools/list"), headers("tools/call")],
      [body("tools/call", "docs.list"), headers("tools/call")],
      [body("tools/call", "docs.list"), headers("tools/call", "docs.read")],
      [body("tools/list"), { ...headers("tools/list"), "mcp-protocol-version": undefined }],
    ];
    for (const [b, h] of cases) {
      const r = await postMcp(sim, b, h);
      assert.equal(r.status, 400, JSON.stringify(h));
      assert.equal(r.json.error.code, -32020, r.text);
    }
  });

  it("answers an unknown method with 404 / -32601", async () => {
    const r = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: meta } }), headers("ping"));
    assert.equal(r.status, 404);
    assert.equal(r.json.error.code, -32601);
  });
});
