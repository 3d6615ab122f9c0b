// The running simulator, driven over a real socket by the official MCP client.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestSim, type TestSim } from "../support/sim.ts";

async function connect(sim: TestSim, token = sim.token): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${sim.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "halo-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("simulator /mcp with the official MCP client", () => {
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim({ toolsPageSize: 2 });
  });
  after(async () => sim.stop());

  it("writes the owner token with mode 600", () => {
    assert.match(sim.token, /^halo_[0-9a-f]{64}$/);
    assert.equal(statSync(sim.tokenPath).mode & 0o777, 0o600);
  });

  it("initializes, lists every page of tools, calls docs tools", async () => {
    const client = await connect(sim);
    assert.equal(client.getServerVersion()?.name, "halo");
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.ok(pages >= 3, `${pages} pages`);
    assert.deepEqual(
      names,
      sim.halo.core.registry
        .toolSpecsFor({ ns: "owner", role: "admin", via: "mcp", scheduled: false, quota: { vectors: 0, bytes: 0, ttlHours: 0, pins: 0 } })
        .map((t) => t.name),
    );

    const search = await client.callTool({ name: "docs.search", arguments: { query: "token" } });
    assert.equal(search.isError, false);
    const hits = (search.structuredContent as { hits: Array<{ id: string }> }).hits;
    assert.ok(hits.length > 0);
    const read = await client.callTool({ name: "docs.read", arguments: { id: hits[0].id } });
    assert.equal(read.isError, false);
    assert.match((read.content as Array<{ text: string }>)[0].text, /^# /);
    await client.close();
  });

  it("reports an unknown tool as -32602 and bad arguments as isError", async () => {
    const client = await connect(sim);
    await assert.rejects(
      client.callTool({ name: "no.such", arguments: {} }),
      (e: any) => e.code === -32602 && /Unknown tool/.test(e.message),
    );
    const bad = await client.callTool({ name: "docs.read", arguments: { id: 12 } });
    assert.equal(bad.isError, true);
    assert.match((bad.content as Array<{ text: string }>)[0].text, /^invalid arguments: 'id' must be string/);
    await client.ping();
    await client.close();
  });

  it("refuses a wrong token", async () => {
    await assert.rejects(connect(sim, "halo_" + "0".repeat(64)));
  });
});
