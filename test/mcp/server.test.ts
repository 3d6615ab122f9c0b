import assert from "node:assert/strict";
import { TOOLS_PAGE_SIZE } from "../../lib/limits.ts";
import { McpServer } from "../../lib/mcp/server.ts";
import { PLAIN_TOOL_NAME_PATTERN, plainToolName } from "../../lib/mcp/tool-names.ts";
import { deviceRegistry, principal } from "../support/registry.ts";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function server(pageSize?: number): McpServer {
  return new McpServer(deviceRegistry().registry, { info: { name: "halo", version: "t" }, pageSize });
}

async function call(s: McpServer, method: string, params?: object, era: "legacy" | "modern" = "legacy", p = principal()) {
  const reply = await s.handle({ jsonrpc: "2.0", id: 7, method, params }, p, era);
  assert.ok(reply);
  return reply;
}

describe("McpServer, initialize era", () => {
  it("negotiates the protocol version", async () => {
    const s = server();
    for (const v of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
      const { response } = await call(s, "initialize", { protocolVersion: v, capabilities: {}, clientInfo: { name: "t", version: "1" } });
      assert.equal((response as any).result.protocolVersion, v);
      assert.deepEqual((response as any).result.serverInfo, { name: "halo", version: "t" });
    }
    const { response } = await call(s, "initialize", { protocolVersion: "1999-01-01" });
    assert.equal((response as any).result.protocolVersion, "2025-11-25");
    const bad = await call(s, "initialize", {});
    assert.equal((bad.response as any).error.code, -32602);
  });

  it("answers ping, ignores notifications and client responses", async () => {
    const s = server();
    assert.deepEqual((await call(s, "ping")).response, { jsonrpc: "2.0", id: 7, result: {} });
    assert.equal(await s.handle({ jsonrpc: "2.0", method: "notifications/initialized" }, principal()), undefined);
    assert.equal(await s.handle({ jsonrpc: "2.0", id: 1, result: {} }, principal()), undefined);
  });

  it("pages tools/list with opaque cursors and refuses foreign cursors", async () => {
    const s = server(2);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { response } = await call(s, "tools/list", cursor ? { cursor } : {});
      const result = (response as any).result;
      assert.ok(result.tools.length <= 2);
      names.push(...result.tools.map((t: any) => t.name));
      cursor = result.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    assert.deepEqual(
      names,
      deviceRegistry()
        .registry.toolSpecsFor(principal())
        .map((t) => t.name),
    );
    assert.ok(pages >= 3);
    for (const bad of ["garbage", "1.00000000", 5, "zzzzzz.ffffffff"]) {
      const { response } = await call(s, "tools/list", { cursor: bad });
      assert.equal((response as any).error.code, -32602, String(bad));
    }
  });

  it("holds the whole catalog on one page by default, up to TOOLS_PAGE_SIZE (at least 64, and more than the device has)", async () => {
    assert.ok(TOOLS_PAGE_SIZE >= 64);
    const all = deviceRegistry().registry.toolSpecsFor(principal());
    assert.ok(all.length <= TOOLS_PAGE_SIZE, "the catalog fits one page");
    const { response } = await call(server(), "tools/list", {});
    const result = (response as any).result;
    assert.equal(result.tools.length, all.length);
    assert.equal(result.nextCursor, undefined);
    assert.equal((server(10_000) as any).pageSize, TOOLS_PAGE_SIZE, "a bigger page is clamped to the bound; cursors page past it");
  });

  it("lists plain names for a plain-style principal; every tool answers to its plain spelling", async () => {
    const s = server();
    const plain = { ...principal(), names: "plain" as const };
    const listed = ((await call(s, "tools/list", {}, "legacy", plain)).response as any).result.tools.map((t: any) => t.name);
    const dotted = deviceRegistry()
      .registry.toolSpecsFor(principal())
      .map((t) => t.name);
    assert.deepEqual(listed, dotted.map(plainToolName));
    assert.equal(new Set(listed).size, listed.length, "no two tools share a plain spelling");
    for (const n of listed) assert.match(n, PLAIN_TOOL_NAME_PATTERN);
    for (const p of [principal(), plain]) {
      const r = ((await call(s, "tools/call", { name: "docs_search", arguments: { query: "token" } }, "legacy", p)).response as any).result;
      assert.equal(r.isError, false);
      assert.equal(
        ((await call(s, "tools/call", { name: "docs.search", arguments: { query: "token" } }, "legacy", p)).response as any).result.isError,
        false,
      );
    }
    // A plain spelling reaches only the tool it stands for; hidden tools stay refused under either name.
    const guest = { ...principal("guest"), names: "plain" as const };
    const hidden = ((await call(s, "tools/call", { name: "tenant_list", arguments: {} }, "legacy", guest)).response as any).result;
    assert.equal(hidden.isError, true);
    assert.match(hidden.content[0].text, /^admin-only/);
    assert.equal(((await call(s, "tools/call", { name: "docs_search_", arguments: {} })).response as any).error.code, -32602);
  });

  it("calls tools: content, structuredContent, isError, unknown tool", async () => {
    const s = server();
    const ok = (await call(s, "tools/call", { name: "docs.search", arguments: { query: "token" } })).response as any;
    assert.equal(ok.result.isError, false);
    assert.equal(ok.result.content[0].type, "text");
    assert.ok(Array.isArray(ok.result.structuredContent.hits));
    const bad = (await call(s, "tools/call", { name: "docs.search", arguments: { query: 3 } })).response as any;
    assert.equal(bad.result.isError, true);
    assert.equal(bad.result.structuredContent, undefined);
    const unknown = (await call(s, "tools/call", { name: "no.such.tool" })).response as any;
    assert.equal(unknown.error.code, -32602);
    assert.match(unknown.error.message, /Unknown tool: no.such.tool/);
    for (const params of [{}, { name: 5 }, { name: "docs.list", arguments: [1] }, { name: "docs.list", arguments: "x" }]) {
      assert.equal(((await call(s, "tools/call", params)).response as any).error.code, -32602);
    }
  });

  it("refuses invalid messages and unknown methods with the right codes", async () => {
    const s = server();
    const cases: Array<[unknown, number]> = [
      [[{ jsonrpc: "2.0", id: 1, method: "ping" }], -32600],
      [{ jsonrpc: "1.0", id: 1, method: "ping" }, -32600],
      [{ jsonrpc: "2.0", id: 1 }, -32600],
      [{ jsonrpc: "2.0", id: {}, method: "ping" }, -32600],
      [{ jsonrpc: "2.0", id: 1, method: "ping", params: [1] }, -32600],
      ["just a string", -32600],
      [null, -32600],
      [{ jsonrpc: "2.0", id: 1, method: "resources/list" }, -32601],
    ];
    for (const [message, code] of cases) {
      const reply = await s.handle(message, principal());
      assert.equal((reply!.response as any).error.code, code, JSON.stringify(message));
    }
  });
});

describe("McpServer, 2026-07-28 era", () => {
  it("serves server/discover with versions, capabilities and cache hints", async () => {
    const { response, httpStatus } = await call(server(), "server/discover", { _meta: META }, "modern");
    const r = (response as any).result;
    assert.equal(httpStatus, 200);
    assert.equal(r.resultType, "complete");
    assert.deepEqual(r.supportedVersions, ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    assert.deepEqual(r.capabilities, { tools: { listChanged: false } });
    assert.equal(typeof r.ttlMs, "number");
    assert.equal(r.cacheScope, "private");
    assert.deepEqual(r._meta["io.modelcontextprotocol/serverInfo"], { name: "halo", version: "t" });
  });

  it("adds resultType and cache hints to tools/list, resultType to tools/call", async () => {
    const s = server();
    const list = (await call(s, "tools/list", { _meta: META }, "modern")).response as any;
    assert.equal(list.result.resultType, "complete");
    assert.equal(list.result.cacheScope, "private");
    assert.ok(list.result.tools.length > 0);
    const c = (await call(s, "tools/call", { _meta: META, name: "docs.list", arguments: {} }, "modern")).response as any;
    assert.equal(c.result.resultType, "complete");
    assert.equal(c.result.ttlMs, undefined);
  });

  it("refuses missing _meta, unsupported versions and removed methods", async () => {
    const s = server();
    const noMeta = await call(s, "tools/list", {}, "modern");
    assert.equal((noMeta.response as any).error.code, -32602);
    assert.equal(noMeta.httpStatus, 400);
    const noCaps = await call(s, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }, "modern");
    assert.equal((noCaps.response as any).error.code, -32602);
    const old = await call(s, "tools/list", { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" } }, "modern");
    assert.equal((old.response as any).error.code, -32022);
    assert.deepEqual((old.response as any).error.data.requested, "1900-01-01");
    assert.ok((old.response as any).error.data.supported.includes("2026-07-28"));
    for (const method of ["initialize", "ping", "resources/list"]) {
      const r = await call(s, method, { _meta: META }, "modern");
      assert.equal((r.response as any).error.code, -32601);
      assert.equal(r.httpStatus, 404);
    }
  });
});
