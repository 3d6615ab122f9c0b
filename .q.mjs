import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
const c = new Client({ name: "q", version: "1" });
await c.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8080/mcp"), { requestInit: { headers: { authorization: `Bearer ${process.argv[2]}` } } }));
const r = await c.callTool({ name: process.argv[3], arguments: JSON.parse(process.argv[4]) });
console.log(JSON.stringify(r, null, 1)); await c.close();
