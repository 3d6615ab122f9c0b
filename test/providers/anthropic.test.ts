// Anthropic Messages adapter against a local server speaking the documented wire format.
import assert from "node:assert/strict";
import { fakeClock } from "../../hosts/sim/ports/node-basics.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { anthropicProvider, anthropicToolId } from "../../lib/providers/anthropic";
import type { ProviderError } from "../../lib/providers/errors";
import type { ChatProvider } from "../../lib/providers/types";
import { ANSWER, anthropicMessage, simpleRequest, toolLoopRequest, TURN_SCHEMA } from "../scenarios/provider-fixtures.ts";
import { providerRejection, ProviderServer } from "../support/provider-server.ts";

const KEY = "sk-ant-test-SECRETKEY0123456789";

const rejection = (p: Promise<unknown>): Promise<ProviderError> => providerRejection(p, KEY);

describe("Anthropic Messages adapter", () => {
  let server: ProviderServer;
  let anthropic: ChatProvider;
  beforeEach(async () => {
    server = await ProviderServer.start();
    anthropic = anthropicProvider({ http: nodeHttpClient, apiKey: KEY, baseUrl: server.url, clock: fakeClock() });
  });
  afterEach(() => server.close());

  it("sends the documented request: x-api-key, anthropic-version, content blocks, the answer as a tool, tool_choice any", async () => {
    server.reply({ body: anthropicMessage([{ type: "tool_use", id: "toolu_1", name: "turn", input: ANSWER }], { stop: "tool_use" }) });
    await anthropic.complete(toolLoopRequest({ messages: [...toolLoopRequest().messages, { role: "user", content: "And coffee?" }] }));
    const [req] = server.seen;
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/messages");
    assert.equal(req.headers["x-api-key"], KEY);
    assert.equal(req.headers["anthropic-version"], "2023-06-01");
    assert.equal(req.headers.authorization, undefined);
    const b = req.json;
    assert.equal(b.model, "test-model");
    assert.equal(b.max_tokens, 1024);
    assert.equal(b.system, "You are Halo.");
    assert.deepEqual(b.messages, [
      { role: "user", content: "What did I say about tea?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "call_abc123", name: "memory_search", input: { query: "tea" } },
          { type: "tool_use", id: "call_def456", name: "device_status", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_abc123", content: "You like green tea." },
          { type: "tool_result", tool_use_id: "call_def456", content: "storage absent", is_error: true },
          { type: "text", text: "And coffee?" },
        ],
      },
    ]);
    assert.deepEqual(
      b.tools.map((t: { name: string }) => t.name),
      ["memory_search", "device_status", "turn"],
    );
    assert.deepEqual(b.tools[2].input_schema, TURN_SCHEMA);
    assert.deepEqual(b.tools[0].input_schema, toolLoopRequest().tools![0].inputSchema);
    assert.deepEqual(b.tool_choice, { type: "any" });
  });

  it("forces the answer tool by name when there are no other tools, and sends no tools without a schema", async () => {
    server.reply({ body: anthropicMessage([{ type: "tool_use", id: "toolu_1", name: "turn", input: ANSWER }]) });
    server.reply({ body: anthropicMessage([{ type: "text", text: "Hi there" }]) });
    await anthropic.complete(simpleRequest());
    assert.deepEqual(server.seen[0].json.tool_choice, { type: "tool", name: "turn" });
    const plain = await anthropic.complete(simpleRequest({ schema: undefined, system: "" }));
    assert.deepEqual(Object.keys(server.seen[1].json).sort(), ["max_tokens", "messages", "model"]);
    assert.equal(plain.text, "Hi there");
    assert.equal(plain.json, undefined);
  });

  it("reads the forced answer tool as the structured answer, with usage including cache reads", async () => {
    server.reply({
      body: anthropicMessage([{ type: "tool_use", id: "toolu_1", name: "turn", input: ANSWER }], {
        stop: "tool_use",
        input: 150,
        cacheRead: 50,
        output: 33,
      }),
    });
    const res = await anthropic.complete(simpleRequest());
    assert.equal(res.finish, "stop");
    assert.deepEqual(res.json, ANSWER);
    assert.equal(res.text, JSON.stringify(ANSWER));
    assert.deepEqual(res.usage, { inputTokens: 200, outputTokens: 33 });
    assert.equal(res.responseId, "msg_01XYZ");
    assert.deepEqual(res.toolCalls, []);
  });

  it("reads tool_use blocks as tool calls with registry names; the answer in the same message waits", async () => {
    server.reply({
      body: anthropicMessage(
        [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "toolu_A", name: "memory_search", input: { query: "coffee" } },
          { type: "tool_use", id: "toolu_B", name: "turn", input: ANSWER },
        ],
        { stop: "tool_use" },
      ),
    });
    const res = await anthropic.complete(toolLoopRequest());
    assert.equal(res.finish, "tool_calls");
    assert.deepEqual(res.toolCalls, [{ id: "toolu_A", name: "memory.search", arguments: { query: "coffee" } }]);
    assert.equal(res.text, "Checking.");
    assert.equal(res.json, undefined);
  });

  it("maps stop_reason max_tokens to length and refusal to refusal", async () => {
    server.reply(
      { body: anthropicMessage([{ type: "tool_use", id: "toolu_1", name: "turn", input: {} }], { stop: "max_tokens" }) },
      { body: anthropicMessage([{ type: "text", text: "I can't help with that." }], { stop: "refusal" }) },
    );
    const cut = await anthropic.complete(simpleRequest());
    assert.equal(cut.finish, "length");
    assert.equal(cut.jsonError, "the answer was cut off at the output token limit");
    const refused = await anthropic.complete(simpleRequest());
    assert.equal(refused.finish, "refusal");
    assert.equal(refused.jsonError, "the model refused to answer");
  });

  it("rewrites foreign call ids into ones the API accepts, the same way for tool_use and tool_result", async () => {
    server.reply({ body: anthropicMessage([{ type: "text", text: "ok" }]) });
    const req = toolLoopRequest({ schema: undefined });
    const messages = req.messages.map((m) =>
      m.role === "assistant"
        ? { ...m, toolCalls: m.toolCalls!.map((c) => ({ ...c, id: `${c.id}:x/y` })) }
        : m.role === "tool"
          ? { ...m, toolCallId: `${m.toolCallId}:x/y` }
          : m,
    );
    await anthropic.complete({ ...req, messages });
    const sent = server.seen[0].json.messages;
    const useIds = sent[1].content.filter((b: { type: string }) => b.type === "tool_use").map((b: { id: string }) => b.id);
    const resultIds = sent[2].content.map((b: { tool_use_id: string }) => b.tool_use_id);
    assert.deepEqual(useIds, resultIds);
    for (const id of useIds) assert.match(id, /^[A-Za-z0-9_-]+$/);
    assert.notEqual(anthropicToolId("a:b"), anthropicToolId("a/b"));
  });

  it("retries nothing itself and classifies 529 overloaded, 429 rate limit and 401", async () => {
    server.reply(
      { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" }, request_id: "req_1" } },
      {
        status: 429,
        headers: { "retry-after": "3" },
        body: {
          type: "error",
          error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" },
        },
      },
      { status: 401, body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } } },
    );
    const overloaded = await rejection(anthropic.complete(simpleRequest()));
    assert.deepEqual([overloaded.kind, overloaded.status, overloaded.retryable], ["overloaded", 529, true]);
    assert.equal(overloaded.message, "Anthropic is overloaded (HTTP 529): Overloaded");
    const rate = await rejection(anthropic.complete(simpleRequest()));
    assert.deepEqual([rate.kind, rate.retryAfterMs], ["rate-limit", 3000]);
    const auth = await rejection(anthropic.complete(simpleRequest()));
    assert.equal(auth.kind, "auth");
    assert.doesNotMatch(auth.message, /x-api-key/);
    assert.equal(server.seen.length, 3);
  });

  it("refuses previousResponseId (history is the caller's) without sending, and a body without content", async () => {
    const e = await rejection(anthropic.complete(simpleRequest({ previousResponseId: "msg_1" })));
    assert.equal(e.kind, "bad-request");
    assert.equal(server.seen.length, 0);
    server.reply({ body: { type: "message", id: "msg_2" } });
    assert.equal((await rejection(anthropic.complete(simpleRequest()))).kind, "bad-response");
  });
});
