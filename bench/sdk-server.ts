// The baseline for the MCP benchmark: the official SDK's McpServer, stateless Streamable HTTP with JSON
// responses (the SDK's documented pattern: a new server and transport per request), behind a bearer check,
// serving the same tools from Halo's registry.
import { TEST_HOST } from "../test/support/halo.ts";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { memoryPorts } from "../hosts/sim/ports/index.ts";
import { buildCore } from "../lib/app/core.ts";
import { makePrincipal } from "../lib/registry/principal.ts";

const TOKEN = process.env.BENCH_TOKEN ?? "bench-token";
const core = buildCore(memoryPorts(), TEST_HOST);
const owner = makePrincipal("owner", "admin", "mcp");

function sdkServer(): McpServer {
  const mcp = new McpServer({ name: "sdk-baseline", version: "1.0.0" }, { capabilities: { tools: {} } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: core.registry.toolSpecsFor(owner) as any }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const r = await core.registry.dispatch(req.params.name, req.params.arguments ?? {}, owner);
    return {
      content: [{ type: "text", text: r.text }],
      isError: r.isError === true,
      ...(r.structured ? { structuredContent: r.structured } : {}),
    };
  });
  return mcp;
}

const server = createServer(async (req, res) => {
  if (req.headers.authorization !== `Bearer ${TOKEN}`) {
    res.writeHead(401, { "www-authenticate": "Bearer" }).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: unknown;
  try {
    body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
  } catch {
    res.writeHead(400).end();
    return;
  }
  const mcp = sdkServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res, body);
});

server.listen(Number(process.env.BENCH_PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
});
