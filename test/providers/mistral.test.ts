// Mistral chat completions adapter against a local server speaking the documented wire format.
import assert from "node:assert/strict";
import { fakeClock } from "../../hosts/sim/ports/node-basics.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import type { ProviderError } from "../../lib/providers/errors";
import { mistralProvider, mistralToolId } from "../../lib/providers/mistral";
import type { ChatProvider } from "../../lib/providers/types";
import { ANSWER, mistralCompletion, simpleRequest, toolLoopRequest, TURN_SCHEMA } from "../scenarios/provider-fixtures.ts";
import { providerRejection, ProviderServer } from "../support/provider-server.ts";

const KEY = "mistral-test-SECRETKEY0123456789";

const rejection = (p: Promise<unknown>): Promise<ProviderError> => providerRejection(p, KEY);

describe("Mistral chat completions adapter", () => {
  let server: ProviderServer;
  let mistral: ChatProvider;
  beforeEach(async () => {
    server = await ProviderServer.start();
    mistral = mistralProvider({ http: nodeHttpClient, apiKey: KEY, baseUrl: server.url, clock: fakeClock() });
  });
  afterEach(() => server.close());

  it("sends the documented request: system message first, tool_calls with 9-character ids, json_schema response_format", async () => {
    server.reply({ body: mistralCompletion({ content: JSON.stringify(ANSWER) }) });
    await mistral.complete(toolLoopRequest());
    const [req] = server.seen;
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/chat/completions");
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    const b = req.json;
    assert.equal(b.model, "test-model");
    assert.equal(b.max_tokens, 1024);
    const idA = mistralToolId("call_abc123");
    const idB = mistralToolId("call_def456");
    assert.deepEqual(b.messages, [
      { role: "system", content: "You are Halo." },
      { role: "user", content: "What did I say about tea?" },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          { id: idA, type: "function", function: { name: "memory_search", arguments: '{"query":"tea"}' } },
          { id: idB, type: "function", function: { name: "device_status", arguments: "{}" } },
        ],
      },
      { role: "tool", content: "You like green tea.", tool_call_id: idA, name: "memory_search" },
      { role: "tool", content: "[error] storage absent", tool_call_id: idB, name: "device_status" },
    ]);
    assert.deepEqual(b.tools[0], {
      type: "function",
      function: { name: "memory_search", description: "Search memories.", parameters: toolLoopRequest().tools![0].inputSchema },
    });
    assert.deepEqual(b.response_format, { type: "json_schema", json_schema: { name: "turn", schema: TURN_SCHEMA, strict: true } });
  });

  it("keeps valid 9-character ids and maps others to stable, distinct, valid ones", () => {
    assert.equal(mistralToolId("D681PevKs"), "D681PevKs");
    const ids = ["call_abc123", "call_abc124", "toolu_01A09q90qw90lq917835lq9", "x", ""].map(mistralToolId);
    for (const id of ids) assert.match(id, /^[A-Za-z0-9]{9}$/);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(mistralToolId("call_abc123"), ids[0]);
  });

  it("reads a JSON answer, content chunks, usage and the response id", async () => {
    server.reply(
      { body: mistralCompletion({ content: JSON.stringify(ANSWER) }, { prompt: 77, completion: 11 }) },
      {
        body: mistralCompletion({
          content: [
            { type: "thinking", thinking: [{ type: "text", text: "hmm" }] },
            { type: "text", text: JSON.stringify(ANSWER) },
          ],
        }),
      },
    );
    const res = await mistral.complete(simpleRequest());
    assert.deepEqual(res.json, ANSWER);
    assert.deepEqual(res.usage, { inputTokens: 77, outputTokens: 11 });
    assert.equal(res.responseId, "cmpl-e5cc70bb28c444948073e77776eb30ef");
    assert.equal(res.finish, "stop");
    const chunked = await mistral.complete(simpleRequest());
    assert.equal(chunked.text, JSON.stringify(ANSWER));
    assert.deepEqual(chunked.json, ANSWER);
  });

  it("reads tool_calls (string or object arguments) back to registry names", async () => {
    server.reply({
      body: mistralCompletion(
        {
          tool_calls: [
            { id: "aB3xK9mP2", type: "function", function: { name: "memory_search", arguments: '{"query":"coffee"}' } },
            { id: "Zz9Yy8Xx7", type: "function", function: { name: "device_status", arguments: {} } },
          ],
        },
        { finish: "tool_calls" },
      ),
    });
    const res = await mistral.complete(toolLoopRequest());
    assert.equal(res.finish, "tool_calls");
    assert.deepEqual(res.toolCalls, [
      { id: "aB3xK9mP2", name: "memory.search", arguments: { query: "coffee" } },
      { id: "Zz9Yy8Xx7", name: "device.status", arguments: {} },
    ]);
  });

  it("maps finish_reason length and model_length to length; error to a server failure", async () => {
    server.reply(
      { body: mistralCompletion({ content: '{"reply":"cut' }, { finish: "length" }) },
      { body: mistralCompletion({ content: "" }, { finish: "model_length" }) },
      { body: mistralCompletion({ content: "" }, { finish: "error" }) },
    );
    const cut = await mistral.complete(simpleRequest());
    assert.equal(cut.finish, "length");
    assert.equal(cut.jsonError, "the answer was cut off at the output token limit");
    assert.equal((await mistral.complete(simpleRequest())).finish, "length");
    assert.equal((await rejection(mistral.complete(simpleRequest()))).kind, "server");
  });

  it("quotes Mistral's own error text (message or detail) and refuses bodies without choices", async () => {
    server.reply(
      {
        status: 422,
        body: {
          object: "error",
          message: "Tool call id was abc but must be a-z, A-Z, 0-9, with a length of 9.",
          type: "invalid_request_error",
        },
      },
      { status: 400, body: { detail: "Invalid model: nope" } },
      { status: 503, body: "upstream connect error" },
      { body: { id: "x", object: "chat.completion", choices: [] } },
    );
    const e422 = await rejection(mistral.complete(simpleRequest()));
    assert.equal(e422.kind, "bad-request");
    assert.match(e422.message, /Tool call id was abc/);
    assert.match((await rejection(mistral.complete(simpleRequest()))).message, /Invalid model: nope/);
    const e503 = await rejection(mistral.complete(simpleRequest()));
    assert.deepEqual([e503.kind, e503.message], ["overloaded", "Mistral is overloaded (HTTP 503)."]);
    assert.equal((await rejection(mistral.complete(simpleRequest()))).kind, "bad-response");
  });
});
