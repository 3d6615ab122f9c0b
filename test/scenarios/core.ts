// A scripted run through the registry, JSON-RPC, schema validation, the HTTP envelope
// and the docs/results tools. It returns a transcript; the Node and XS runs must match.
import { TEST_HOST } from "../support/halo.ts";
import { buildCore } from "../../lib/app/core.ts";
import { HostPolicy } from "../../lib/http/host-policy.ts";
import { hostAndOrigin, refuseTokenInUrl } from "../../lib/http/middleware.ts";
import { HttpPipeline } from "../../lib/http/pipeline.ts";
import type { HttpRequest } from "../../lib/http/types.ts";
import { mcpRoute } from "../../lib/http/mcp-route";
import { McpServer } from "../../lib/mcp/server.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import type { Ports } from "../../lib/ports.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { portablePorts } from "../support/portable-ports.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

export async function runCoreScenario(ports: Ports = portablePorts()): Promise<string[]> {
  const out: string[] = [];
  const core = buildCore(ports, TEST_HOST);
  const server = new McpServer(core.registry, { info: { name: "halo", version: "scenario" }, pageSize: 2 });
  const owner = makePrincipal("owner", "admin", "mcp");
  const guest = makePrincipal("guest", "guest", "mcp");
  let id = 0;
  const rpc = async (method: string, params?: object, who = owner, era: "legacy" | "modern" = "legacy") => {
    const reply = await server.handle({ jsonrpc: "2.0", id: ++id, method, params }, who, era);
    out.push(`${method} ${JSON.stringify(reply)}`);
    return reply?.response as any;
  };

  out.push(`manifest ${core.registry.manifest(makePrincipal("o", "admin", "turn"))}`);
  await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "s", version: "1" } });
  await rpc("ping");
  let cursor: string | undefined;
  do {
    const r = await rpc("tools/list", cursor ? { cursor } : {});
    cursor = r.result.nextCursor;
  } while (cursor);
  await rpc("tools/list", { cursor: "bogus" });
  const search = await rpc("tools/call", { name: "docs.search", arguments: { query: "token mcp" } });
  const first = search.result.structuredContent.hits[0].id;
  await rpc("tools/call", { name: "docs.read", arguments: { id: first } });
  await rpc("tools/call", { name: "docs.read", arguments: { id: first + "zz" } });
  await rpc("tools/call", { name: "docs.list", arguments: {} });
  await rpc("tools/call", { name: "docs.list", arguments: { file: "architecture" } });
  for (const args of [{}, { query: 5 }, { query: "" }, { query: "x".repeat(300) }, { query: "a", extra: true }, { query: "!!" }]) {
    await rpc("tools/call", { name: "docs.search", arguments: args }, guest);
  }
  await rpc("tools/call", { name: "results.list", arguments: {} });
  await rpc("tools/call", { name: "results.get", arguments: { tag: "r1", offset: 10 } });
  await rpc("tools/call", { name: "no.such.tool", arguments: {} });
  await rpc("tools/destroy");
  await rpc("server/discover", { _meta: META }, owner, "modern");
  await rpc(
    "tools/call",
    { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2030-01-01" }, name: "docs.list" },
    owner,
    "modern",
  );

  const ownerClient = { name: "owner", role: "admin" as const, ns: "owner", created: 0, names: "dotted" as const, sharesOwnerNs: false };
  const hosts = new HostPolicy({ addresses: () => [], deviceName: () => "halo", settings: ports.settings });
  const pipeline = new HttpPipeline(
    [mcpRoute({ server, verifyToken: (t) => (t === "good-token" ? ownerClient : undefined), principalFor: () => owner })],
    [refuseTokenInUrl, hostAndOrigin(hosts)],
    { validators: {}, log: ports.log },
  );
  const http = async (label: string, req: Partial<HttpRequest> & { text?: string }) => {
    const headers = { "content-type": "application/json", authorization: "Bearer good-token", ...(req.headers || {}) };
    const { text, ...rest } = req;
    const res = await pipeline.handle({ method: "POST", path: "/mcp", body: encodeUtf8(text ?? ""), ...rest, headers });
    out.push(`http ${label} ${res.status} ${res.body}`);
  };
  await http("ping", { text: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  await http("notification", { text: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  await http("deep", { text: "[".repeat(2000) + "]".repeat(2000) });
  await http("parse", { text: "{nope" });
  await http("batch", { text: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]' });
  await http("no-auth", { text: "{}", headers: { authorization: "" } });
  await http("origin", { text: "{}", headers: { origin: "http://evil.example" } });
  await http("type", { text: "{}", headers: { "content-type": "text/plain" } });
  await http("version", { text: "{}", headers: { "mcp-protocol-version": "2000-01-01" } });
  await http("get", { method: "GET" });
  await http("too-large", { bodyTooLarge: true });
  await http("utf8", { text: '{"jsonrpc":"2.0","id":"ü→😀","method":"ping"}' });
  return out;
}
