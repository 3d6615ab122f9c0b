// A framework nobody here wrote: the Vercel AI SDK's MCP client (@ai-sdk/mcp) against the
// running simulator, its tool set handed to a local stand-in of the OpenAI Responses API
// (POST /v1/responses) that refuses function names outside ^[a-zA-Z0-9_-]{1,64}$ as the real
// API does. The AI SDK lists tools once and never follows nextCursor.
import assert from "node:assert/strict";
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { plainToolName, PLAIN_TOOL_NAME_PATTERN } from "../../lib/mcp/tool-names.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { openAiCall, openAiResponse, openAiText } from "../scenarios/provider-fixtures.ts";
import { ownerApi } from "../support/owner-api.ts";
import { ProviderServer, type ScriptedReply, type SeenRequest } from "../support/provider-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";

/** What the Responses API answers to a tool whose name it does not accept. */
function refuseBadNames(req: SeenRequest): ScriptedReply | undefined {
  for (const [i, tool] of (req.json?.tools ?? []).entries()) {
    if (!PLAIN_TOOL_NAME_PATTERN.test(tool.name)) {
      return {
        status: 400,
        body: {
          error: {
            message: `Invalid 'tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
            type: "invalid_request_error",
            param: `tools[${i}].name`,
            code: "invalid_value",
          },
        },
      };
    }
  }
  return undefined;
}

describe("simulator: the AI SDK's MCP client and an OpenAI Responses stand-in", () => {
  let sim: TestSim;
  let provider: ProviderServer;
  const clients: MCPClient[] = [];
  const connect = async (token: string): Promise<MCPClient> => {
    const c = await createMCPClient({ transport: { type: "http", url: `${sim.url}/mcp`, headers: { Authorization: `Bearer ${token}` } } });
    clients.push(c);
    return c;
  };
  const model = () => createOpenAI({ baseURL: provider.url, apiKey: "sk-test" }).responses("gpt-test");

  before(async () => {
    sim = await startTestSim();
    provider = await ProviderServer.start();
  });
  after(async () => {
    for (const c of clients) await c.close();
    await provider.close();
    await sim.stop();
  });

  it("lists every tool on one page in the plain style and runs a whole agent step through the stand-in", async () => {
    const created = await ownerApi(sim, "POST", "/api/clients", { name: "agent", role: "user", ns: "alice", names: "plain" });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.names, "plain");
    const listed = (await ownerApi(sim, "GET", "/api/clients")).json.clients.find((c: any) => c.name === "agent");
    assert.equal(listed.names, "plain");

    const mcp = await connect(created.json.token);
    const tools = await mcp.tools();
    const expected = sim.halo.core.registry.toolSpecsFor(makePrincipal("alice", "user", "mcp")).map((s) => plainToolName(s.name));
    assert.ok(expected.length > 16, "more tools than the old page size");
    assert.deepEqual(Object.keys(tools).sort(), expected.sort(), "the client that never follows nextCursor sees every tool");
    for (const name of Object.keys(tools)) assert.match(name, PLAIN_TOOL_NAME_PATTERN);

    provider.reply(
      (req) =>
        refuseBadNames(req) ?? { body: openAiResponse([openAiCall("call_1", "docs_search", JSON.stringify({ query: "results ring" }))]) },
      (req) => refuseBadNames(req) ?? { body: openAiResponse([openAiText("The ring keeps results per namespace.")], { id: "resp_2" }) },
    );
    const result = await generateText({ model: model(), tools, prompt: "How are tool results kept?", stopWhen: stepCountIs(3) });
    assert.equal(result.text, "The ring keeps results per namespace.");
    assert.equal(provider.seen.length, 2);
    assert.equal(provider.seen[0].path, "/v1/responses");
    const sentNames = provider.seen[0].json.tools.map((t: any) => t.name);
    assert.ok(sentNames.includes("docs_search") && sentNames.length === expected.length);
    // The tool ran on the device under its plain name and its output went back to the model.
    const output = JSON.stringify(provider.seen[1].json.input);
    assert.match(output, /function_call_output/);
    assert.match(output, /results ring/i);
  });

  it("a dotted-names token shows the failure plain names fix; every tool still answers to its plain spelling", async () => {
    const dotted = await connect(sim.token);
    const tools = await dotted.tools();
    assert.ok(Object.keys(tools).includes("docs.search"));
    provider.reply((req) => refuseBadNames(req) ?? { body: openAiResponse([openAiText("unexpected")]) });
    await assert.rejects(generateText({ model: model(), tools, prompt: "hi" }), /does not match pattern/);

    const names = sim.halo.core.registry.toolSpecsFor(makePrincipal("owner", "admin", "mcp")).map((s) => s.name);
    // An argument no tool takes: the name is resolved, and validation stops the call before anything runs.
    for (const name of names) {
      const r = await dotted.callTool({ name: plainToolName(name), arguments: { zz_not_an_argument: 1 } });
      const text = JSON.stringify(r.content);
      assert.doesNotMatch(text, /Unknown tool/, name);
    }
    await assert.rejects(dotted.callTool({ name: "docs_searchx", arguments: {} }), /Unknown tool/);
  });
});
