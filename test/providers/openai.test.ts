// OpenAI Responses adapter against a local server speaking the documented wire format.
import assert from "node:assert/strict";
import { fakeClock } from "../../hosts/sim/ports/node-basics.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import type { ProviderError } from "../../lib/providers/errors";
import { openAiProvider } from "../../lib/providers/openai";
import type { ChatProvider } from "../../lib/providers/types";
import { ANSWER, openAiCall, openAiResponse, openAiText, simpleRequest, toolLoopRequest } from "../scenarios/provider-fixtures.ts";
import { cutJsonReply, providerRejection, ProviderServer, truncatedReply } from "../support/provider-server.ts";

const KEY = "sk-test-SECRETKEY0123456789";

const rejection = (p: Promise<unknown>): Promise<ProviderError> => providerRejection(p, KEY);

describe("OpenAI Responses adapter", () => {
  let server: ProviderServer;
  let openai: ChatProvider;
  beforeEach(async () => {
    server = await ProviderServer.start();
    openai = openAiProvider({ http: nodeHttpClient, apiKey: KEY, baseUrl: server.url + "/", clock: fakeClock() });
  });
  afterEach(() => server.close());

  it("sends the documented request: path, headers, input items, tools, strict json_schema format", async () => {
    server.reply({ body: openAiResponse([openAiText(JSON.stringify(ANSWER))]) });
    await openai.complete(toolLoopRequest({ previousResponseId: "resp_prev" }));
    const [req] = server.seen;
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/responses");
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.equal(req.headers["content-type"], "application/json");
    const b = req.json;
    assert.equal(b.model, "test-model");
    assert.equal(b.instructions, "You are Halo.");
    assert.equal(b.max_output_tokens, 1024);
    assert.equal(b.previous_response_id, "resp_prev");
    assert.deepEqual(b.input, [
      { role: "user", content: "What did I say about tea?" },
      { role: "assistant", content: "Let me look." },
      { type: "function_call", call_id: "call_abc123", name: "memory_search", arguments: '{"query":"tea"}' },
      { type: "function_call", call_id: "call_def456", name: "device_status", arguments: "{}" },
      { type: "function_call_output", call_id: "call_abc123", output: "You like green tea." },
      { type: "function_call_output", call_id: "call_def456", output: "[error] storage absent" },
    ]);
    assert.deepEqual(b.tools[0], {
      type: "function",
      name: "memory_search",
      description: "Search memories.",
      parameters: toolLoopRequest().tools![0].inputSchema,
      strict: false,
    });
    assert.equal(b.tools[1].name, "device_status");
    assert.deepEqual(b.text, { format: { type: "json_schema", name: "turn", schema: toolLoopRequest().schema!.schema, strict: true } });
  });

  it("omits what is not asked for and raises max_output_tokens to the API floor of 16", async () => {
    server.reply({ body: openAiResponse([openAiText("hi")]) });
    await openai.complete(simpleRequest({ schema: undefined, system: "", maxOutputTokens: 5 }));
    const b = server.seen[0].json;
    assert.deepEqual(Object.keys(b).sort(), ["input", "max_output_tokens", "model"]);
    assert.equal(b.max_output_tokens, 16);
  });

  it("reads the structured answer, usage, response id and model", async () => {
    server.reply({ body: openAiResponse([openAiText(JSON.stringify(ANSWER))], { input: 321, output: 54, id: "resp_xyz" }) });
    const res = await openai.complete(simpleRequest());
    assert.deepEqual(res.json, ANSWER);
    assert.equal(res.text, JSON.stringify(ANSWER));
    assert.equal(res.finish, "stop");
    assert.deepEqual(res.usage, { inputTokens: 321, outputTokens: 54 });
    assert.equal(res.responseId, "resp_xyz");
    assert.equal(res.model, "gpt-5.4-mini-2026-03-17");
    assert.deepEqual(res.toolCalls, []);
  });

  it("reads function calls back to registry names, flagging arguments that are not a JSON object", async () => {
    server.reply({
      body: openAiResponse([
        openAiCall("call_1", "memory_search", '{"query":"tea"}'),
        openAiCall("call_2", "device_status", "{not json"),
        openAiCall("call_3", "device_status", "[1,2]"),
        openAiCall("call_4", "unknown_tool", ""),
      ]),
    });
    const res = await openai.complete(toolLoopRequest());
    assert.equal(res.finish, "tool_calls");
    assert.equal(res.json, undefined);
    assert.equal(res.jsonError, undefined);
    assert.deepEqual(res.toolCalls[0], { id: "call_1", name: "memory.search", arguments: { query: "tea" } });
    assert.equal(res.toolCalls[1].name, "device.status");
    assert.equal(res.toolCalls[1].argumentsError, "the arguments are not valid JSON");
    assert.equal(res.toolCalls[1].arguments, "{not json");
    assert.equal(res.toolCalls[2].argumentsError, "the arguments are not a JSON object");
    assert.deepEqual(res.toolCalls[3], { id: "call_4", name: "unknown_tool", arguments: {} });
  });

  it("reports status incomplete (max_output_tokens) as finish length with a cut-off answer", async () => {
    server.reply({ body: openAiResponse([openAiText('{"reply":"You like gr')], { status: "incomplete", reason: "max_output_tokens" }) });
    const res = await openai.complete(simpleRequest());
    assert.equal(res.finish, "length");
    assert.equal(res.json, undefined);
    assert.equal(res.jsonError, "the answer was cut off at the output token limit");
  });

  it("reports a refusal, and a content filter, as finish refusal", async () => {
    const refusal = {
      id: "msg_r",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "refusal", refusal: "I can't help with that." }],
    };
    server.reply({ body: openAiResponse([refusal]) }, { body: openAiResponse([], { status: "incomplete", reason: "content_filter" }) });
    const res = await openai.complete(simpleRequest());
    assert.equal(res.finish, "refusal");
    assert.equal(res.text, "I can't help with that.");
    assert.equal(res.jsonError, "the model refused to answer");
    assert.equal((await openai.complete(simpleRequest())).finish, "refusal");
  });

  it("reports model output that is not JSON instead of throwing", async () => {
    server.reply({ body: openAiResponse([openAiText("Sure! Here you go: reply=tea")]) });
    const res = await openai.complete(simpleRequest());
    assert.equal(res.finish, "stop");
    assert.equal(res.jsonError, "the answer is not valid JSON");
    assert.equal(res.text, "Sure! Here you go: reply=tea");
  });

  it("refuses a 401 with a fixed sentence that quotes neither the key nor the provider's text", async () => {
    server.reply({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", code: "invalid_api_key" } },
    });
    const e = await rejection(openai.complete(simpleRequest()));
    assert.equal(e.kind, "auth");
    assert.equal(e.status, 401);
    assert.equal(e.retryable, false);
    assert.equal(e.message, "The OpenAI key was refused (HTTP 401); the owner can replace it through the owner API.");
  });

  it("classifies 429 (with retry-after), insufficient_quota, 500 and 400", async () => {
    server.reply(
      { status: 429, headers: { "retry-after": "7" }, body: { error: { message: "Rate limit reached", code: "rate_limit_exceeded" } } },
      {
        status: 429,
        body: { error: { message: "You exceeded your current quota.", type: "insufficient_quota", code: "insufficient_quota" } },
      },
      { status: 500, body: { error: { message: "The server had an error" } } },
      { status: 400, body: { error: { message: `Invalid schema for response_format 'turn' (key ${KEY})`, param: "text.format.schema" } } },
    );
    const rate = await rejection(openai.complete(simpleRequest()));
    assert.deepEqual([rate.kind, rate.retryAfterMs, rate.retryable], ["rate-limit", 7000, true]);
    const quota = await rejection(openai.complete(simpleRequest()));
    assert.deepEqual([quota.kind, quota.retryable], ["billing", false]);
    const server500 = await rejection(openai.complete(simpleRequest()));
    assert.deepEqual([server500.kind, server500.retryable], ["server", true]);
    assert.match(server500.message, /HTTP 500: The server had an error/);
    const bad = await rejection(openai.complete(simpleRequest()));
    assert.equal(bad.kind, "bad-request");
    assert.match(bad.message, /Invalid schema for response_format 'turn' \(key \[key\]\)/);
  });

  it("does not follow a redirect: the base URL is wrong", async () => {
    server.reply({ status: 307, headers: { location: "http://evil.example/v1/responses" }, body: "" });
    const e = await rejection(openai.complete(simpleRequest()));
    assert.equal(e.kind, "bad-request");
    assert.equal(e.message, "OpenAI answered with a redirect (HTTP 307), which is not followed; check the base URL.");
    assert.equal(server.seen.length, 1);
  });

  it("reports status failed as a retryable server failure", async () => {
    server.reply({ body: { ...openAiResponse([]), status: "failed", error: { code: "server_error", message: "Something broke" } } });
    const e = await rejection(openai.complete(simpleRequest()));
    assert.deepEqual([e.kind, e.retryable], ["server", true]);
    assert.match(e.message, /Something broke/);
  });

  it("refuses non-JSON bodies, cut JSON, JSON without output, and a wrong item shape", async () => {
    const full = JSON.stringify(openAiResponse([openAiText("hi")]));
    server.reply(
      { body: "<html>Bad gateway</html>" },
      cutJsonReply(full, 40),
      { body: { id: "resp_1", status: "completed" } },
      { body: { ...openAiResponse([]), output: [42] } },
      { body: "" },
    );
    for (const pattern of [/not valid JSON/, /not valid JSON/, /has no output list/, /not an object/, /is empty/]) {
      const e = await rejection(openai.complete(simpleRequest()));
      assert.equal(e.kind, "bad-response");
      assert.equal(e.retryable, false);
      assert.match(e.message, pattern);
    }
  });

  it("reports a body cut short by a dropped connection as a retryable network failure", async () => {
    const full = JSON.stringify(openAiResponse([openAiText("hi")]));
    server.reply(truncatedReply(full, 100));
    const e = await rejection(openai.complete(simpleRequest()));
    assert.deepEqual([e.kind, e.retryable], ["network", true]);
  });

  it("refuses a 1 MB reply at the response cap", async () => {
    const huge = JSON.stringify(openAiResponse([openAiText("x".repeat(1024 * 1024))]));
    server.reply({ body: huge });
    const e = await rejection(openai.complete(simpleRequest()));
    assert.equal(e.kind, "too-large");
    assert.equal(e.message, "OpenAI's answer is larger than 524288 bytes.");
  });

  it("gives up on a slow server at the request's deadline", async () => {
    server.reply({ delayMs: 5000, body: openAiResponse([openAiText("late")]) });
    const started = Date.now();
    const e = await rejection(openai.complete(simpleRequest({ timeoutMs: 200 })));
    assert.equal(e.kind, "timeout");
    assert.equal(e.message, "OpenAI gave no complete answer within 200 ms.");
    assert.ok(Date.now() - started < 2000);
  });

  it("reports a refused connection as a network failure", async () => {
    const closed = openAiProvider({ http: nodeHttpClient, apiKey: KEY, baseUrl: "http://127.0.0.1:1/v1", clock: fakeClock() });
    const e = await rejection(closed.complete(simpleRequest()));
    assert.equal(e.kind, "network");
    assert.match(e.message, /^The connection to OpenAI failed: /);
  });

  it("rejects a malformed request before sending anything", async () => {
    const bad = [
      simpleRequest({ messages: [] }),
      simpleRequest({ maxOutputTokens: 0 }),
      simpleRequest({ maxOutputTokens: Number.NaN }),
      simpleRequest({ timeoutMs: 10 ** 9 }),
      simpleRequest({ model: "" }),
      simpleRequest({ schema: { name: "has space", schema: {} } }),
      simpleRequest({ messages: [{ role: "robot", content: "x" } as never] }),
      simpleRequest({ messages: [{ role: "tool", toolCallId: "", name: "x", content: "y" }] }),
      simpleRequest({ tools: [{ name: "", description: "", inputSchema: {} }] }),
      simpleRequest({ messages: Array.from({ length: 300 }, () => ({ role: "user" as const, content: "x" })) }),
    ];
    for (const req of bad) assert.equal((await rejection(openai.complete(req))).kind, "bad-request");
    assert.equal(server.seen.length, 0);
  });
});
