// Provider request building, reply parsing, error reading, the router's retry/fallback
// logic and the budget governor, as a transcript. The Node and XS runs must match line for line.
// No sockets here (XS has none in the test host): the router talks to a scripted HttpClient port.
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import type { HttpClient, HttpClientResponse } from "../../lib/ports.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { billingPeriod, BudgetGovernor } from "../../lib/providers/budget";
import { anthropicToolId, buildAnthropicRequest, parseAnthropicResponse } from "../../lib/providers/anthropic";
import { ProviderError } from "../../lib/providers/errors";
import { readReply } from "../../lib/providers/exchange";
import { buildMistralRequest, mistralToolId, parseMistralResponse } from "../../lib/providers/mistral";
import { buildOpenAiRequest, parseOpenAiResponse } from "../../lib/providers/openai";
import { ProviderRouter } from "../../lib/providers/router";
import type { ProviderId } from "../../lib/providers/types";
import { toolNames } from "../../lib/providers/wire";
import {
  ANSWER,
  anthropicMessage,
  mistralCompletion,
  openAiCall,
  openAiResponse,
  openAiText,
  simpleRequest,
  toolLoopRequest,
} from "./provider-fixtures.ts";

const NOW = Date.UTC(2026, 0, 20, 12);

function describeError(e: unknown): string {
  if (e instanceof ProviderError)
    return `ERR ${JSON.stringify({ kind: e.kind, status: e.status, retryAfterMs: e.retryAfterMs, message: e.message })}`;
  return `THROW ${e instanceof Error ? e.message : String(e)}`;
}

function attempt(out: string[], label: string, fn: () => unknown): void {
  try {
    out.push(`${label} ${JSON.stringify(fn())}`);
  } catch (e) {
    out.push(`${label} ${describeError(e)}`);
  }
}

function reply(status: number, body: unknown, headers: { [name: string]: string } = {}): HttpClientResponse {
  return { status, headers, body: encodeUtf8(typeof body === "string" ? body : JSON.stringify(body)) };
}

/** An HttpClient port answering from a script per host, recording the paths it saw. */
function scriptedHttp(script: { [host: string]: HttpClientResponse[] }, seen: string[]): HttpClient {
  return {
    request(req) {
      const host = req.url.split("/")[2];
      seen.push(`${req.method} ${req.url}`);
      const next = script[host]?.shift();
      return next ? Promise.resolve(next) : Promise.reject(Object.assign(new Error("no complete answer in time"), { code: "timeout" }));
    },
  };
}

export async function runProvidersScenario(): Promise<string[]> {
  const out: string[] = [];
  const loop = toolLoopRequest({ previousResponseId: undefined });
  const simple = simpleRequest();

  // Request building.
  attempt(out, "openai.build", () => buildOpenAiRequest({ ...loop, previousResponseId: "resp_prev" }, "KEY", "https://api.openai.com/v1/"));
  attempt(out, "anthropic.build", () => buildAnthropicRequest(loop, "KEY", "https://api.anthropic.com/v1"));
  attempt(out, "anthropic.build.forced", () => buildAnthropicRequest(simple, "KEY", "https://api.anthropic.com/v1"));
  attempt(out, "anthropic.build.continuation", () => buildAnthropicRequest({ ...simple, previousResponseId: "x" }, "KEY", "u"));
  attempt(out, "mistral.build", () => buildMistralRequest(loop, "KEY", "https://api.mistral.ai/v1"));
  attempt(out, "names", () => {
    const names = toolNames(
      {
        tools: [
          { name: "a.b", description: "", inputSchema: {} },
          { name: "a_b", description: "", inputSchema: {} },
          { name: "x".repeat(80), description: "", inputSchema: {} },
        ],
        messages: [],
      },
      "a_b_2",
    );
    return ["a.b", "a_b", "x".repeat(80)].map(names.toWire);
  });
  attempt(out, "ids", () => [
    mistralToolId("call_abc123"),
    mistralToolId("D681PevKs"),
    anthropicToolId("call:1/2"),
    anthropicToolId("toolu_01"),
  ]);

  // Reply parsing.
  const parses: Array<[string, () => unknown]> = [
    ["openai.answer", () => parseOpenAiResponse(openAiResponse([openAiText(JSON.stringify(ANSWER))]), simple)],
    [
      "openai.calls",
      () =>
        parseOpenAiResponse(
          openAiResponse([openAiCall("c1", "memory_search", '{"query":"tea"}'), openAiCall("c2", "device_status", "{bad")]),
          loop,
        ),
    ],
    [
      "openai.incomplete",
      () => parseOpenAiResponse(openAiResponse([openAiText('{"re')], { status: "incomplete", reason: "max_output_tokens" }), simple),
    ],
    ["openai.failed", () => parseOpenAiResponse({ ...openAiResponse([]), status: "failed", error: { message: "boom" } }, simple)],
    ["openai.nooutput", () => parseOpenAiResponse({ id: "r" }, simple)],
    [
      "anthropic.answer",
      () =>
        parseAnthropicResponse(
          anthropicMessage([{ type: "tool_use", id: "t1", name: "turn", input: ANSWER }], { stop: "tool_use", cacheRead: 7 }),
          simple,
        ),
    ],
    [
      "anthropic.calls",
      () =>
        parseAnthropicResponse(
          anthropicMessage(
            [
              { type: "text", text: "hm" },
              { type: "tool_use", id: "t2", name: "memory_search", input: { query: "x" } },
            ],
            { stop: "tool_use" },
          ),
          loop,
        ),
    ],
    ["anthropic.cut", () => parseAnthropicResponse(anthropicMessage([{ type: "text", text: "{" }], { stop: "max_tokens" }), simple)],
    ["mistral.answer", () => parseMistralResponse(mistralCompletion({ content: JSON.stringify(ANSWER) }), simple)],
    ["mistral.notjson", () => parseMistralResponse(mistralCompletion({ content: "plain words" }), simple)],
    [
      "mistral.calls",
      () =>
        parseMistralResponse(
          mistralCompletion(
            { tool_calls: [{ id: "aB3xK9mP2", function: { name: "memory_search", arguments: { query: 1 } } }] },
            { finish: "tool_calls" },
          ),
          loop,
        ),
    ],
    ["mistral.nochoices", () => parseMistralResponse({ choices: [] }, simple)],
  ];
  for (const [label, fn] of parses) attempt(out, label, fn);

  // Error replies.
  const replies: Array<[ProviderId, HttpClientResponse]> = [
    ["openai", reply(401, { error: { message: "Incorrect API key provided: KEY-SECRET" } })],
    ["openai", reply(429, { error: { message: "Rate limit" } }, { "retry-after": "2.5" })],
    ["openai", reply(429, { error: { code: "insufficient_quota", message: "quota" } })],
    ["anthropic", reply(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })],
    ["anthropic", reply(500, "<html>oops</html>", { "retry-after": "Tue, 20 Jan 2026 12:00:30 GMT" })],
    ["mistral", reply(422, { object: "error", message: "bad KEY-SECRET thing" })],
    ["mistral", reply(200, '{"id": "cut')],
    ["mistral", reply(200, "")],
  ];
  for (const [provider, r] of replies) attempt(out, `reply.${provider}.${r.status}`, () => readReply(provider, r, "KEY-SECRET", NOW));

  // The router over a scripted port: retries, fallback, budget.
  const seen: string[] = [];
  const sleeps: number[] = [];
  const settings = memorySettings();
  const governor = new BudgetGovernor(settings, { now: () => NOW });
  governor.configure("anthropic", { usdPerMTokIn: 3, usdPerMTokOut: 15, usdCeiling: 0.001 });
  const http = scriptedHttp(
    {
      "api.openai.com": [reply(500, { error: { message: "a" } }), reply(503, {}), reply(429, {}, { "retry-after": "1" })],
      "api.anthropic.com": [
        reply(200, anthropicMessage([{ type: "tool_use", id: "t", name: "turn", input: ANSWER }], { input: 100, output: 60 })),
      ],
    },
    seen,
  );
  const router = new ProviderRouter({
    http,
    clock: { now: () => NOW },
    random: { fill: (b) => b.fill(128) },
    sleep: async (ms) => void sleeps.push(ms),
    getSecret: (name) => ({ openai: "k1", anthropic: "k2" })[name as "openai"],
    priority: () => ["openai", "anthropic", "mistral"],
    budget: governor,
  });
  const { model: _model, ...route } = simple;
  try {
    const res = await router.complete(route);
    out.push(`route ${JSON.stringify({ provider: res.provider, json: res.json, attempts: res.attempts, usage: res.usage })}`);
  } catch (e) {
    out.push(`route ${describeError(e)}`);
  }
  try {
    await router.complete(route);
    out.push("route2 served");
  } catch (e) {
    out.push(`route2 ${describeError(e)}`);
  }
  out.push(`seen ${JSON.stringify(seen)}`);
  out.push(`sleeps ${JSON.stringify(sleeps)}`);
  out.push(`budget ${JSON.stringify(governor.snapshot())}`);
  out.push(`period ${JSON.stringify([billingPeriod(NOW, 25), billingPeriod(Date.UTC(2024, 1, 29), 1, -60)])}`);
  return out;
}
