// ProviderRouter: priority, keys, retries with backoff, fallback, budget refusals, usage recording.
import assert from "node:assert/strict";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { BudgetGovernor } from "../../lib/providers/budget";
import { ProviderError } from "../../lib/providers/errors";
import { DEFAULT_MODELS, ProviderRouter, RouteError, type RouteRequest } from "../../lib/providers/router";
import type { ProviderId } from "../../lib/providers/types";
import { ANSWER, anthropicMessage, mistralCompletion, openAiResponse, openAiText, simpleRequest } from "../scenarios/provider-fixtures.ts";
import { ProviderServer, recordingSleep, truncatedReply } from "../support/provider-server.ts";

const KEYS: Record<ProviderId, string> = {
  openai: "sk-openai-KEY-1234567",
  anthropic: "sk-ant-KEY-1234567",
  mistral: "mistral-KEY-1234567",
};

function routeRequest(overrides: Partial<RouteRequest> = {}): RouteRequest {
  const { model: _model, ...rest } = simpleRequest();
  return { ...rest, ...overrides };
}

const OPENAI_OK = { body: openAiResponse([openAiText(JSON.stringify(ANSWER))], { input: 1000, output: 200 }) };
const ANTHROPIC_OK = {
  body: anthropicMessage([{ type: "tool_use", id: "toolu_1", name: "turn", input: ANSWER }], { input: 500, output: 100 }),
};
const MISTRAL_OK = { body: mistralCompletion({ content: JSON.stringify(ANSWER) }) };

async function routeFailure(p: Promise<unknown>): Promise<RouteError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof RouteError, String(e));
    for (const key of Object.values(KEYS)) assert.ok(!e.message.includes(key));
    return e;
  }
  assert.fail("expected a RouteError");
}

describe("ProviderRouter", () => {
  const servers = {} as Record<ProviderId, ProviderServer>;
  let keys: Partial<Record<ProviderId, string>>;
  let priority: ProviderId[];
  let settings: ReturnType<typeof memorySettings>;
  let clock: ReturnType<typeof fakeClock>;
  let governor: BudgetGovernor;
  let recorder: ReturnType<typeof recordingSleep>;
  let log: ReturnType<typeof memoryLog>;
  let router: ProviderRouter;
  const seen = (): number[] => (["openai", "anthropic", "mistral"] as const).map((id) => servers[id].seen.length);

  beforeEach(async () => {
    for (const id of ["openai", "anthropic", "mistral"] as const) servers[id] = await ProviderServer.start();
    keys = { ...KEYS };
    priority = ["openai", "anthropic", "mistral"];
    settings = memorySettings();
    clock = fakeClock(Date.UTC(2026, 0, 10));
    governor = new BudgetGovernor(settings, clock);
    recorder = recordingSleep();
    log = memoryLog();
    router = new ProviderRouter({
      http: nodeHttpClient,
      clock,
      random: { fill: (b) => b.fill(255) },
      sleep: recorder.sleep,
      getSecret: (name) => keys[name],
      priority: () => priority,
      baseUrls: { openai: servers.openai.url, anthropic: servers.anthropic.url, mistral: servers.mistral.url },
      budget: governor,
      log,
    });
  });
  afterEach(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it("serves with the first provider in the owner's order and reports it, with its default model", async () => {
    servers.openai.reply(OPENAI_OK);
    const res = await router.complete(routeRequest());
    assert.equal(res.provider, "openai");
    assert.equal(res.model, "gpt-5.4-mini-2026-03-17");
    assert.equal(servers.openai.seen[0].json.model, DEFAULT_MODELS.openai);
    assert.deepEqual(res.json, ANSWER);
    assert.deepEqual(res.attempts, [{ provider: "openai", attempt: 1 }]);
    assert.deepEqual(seen(), [1, 0, 0]);
  });

  it("skips providers without a key and ones the owner did not list", async () => {
    keys.openai = undefined;
    keys.anthropic = "   ";
    priority = ["openai", "anthropic", "mistral", "mistral"];
    servers.mistral.reply(MISTRAL_OK);
    assert.deepEqual(router.available(), ["mistral"]);
    assert.equal((await router.complete(routeRequest())).provider, "mistral");
    priority = ["anthropic"];
    const e = await routeFailure(router.complete(routeRequest()));
    assert.equal(e.kind, "unavailable");
    assert.equal(e.message, "No LLM provider has a key; the owner can add one through the owner API.");
    assert.deepEqual(seen(), [0, 0, 1]);
  });

  it("retries a 500 with exponential backoff, then falls back to the next provider, which serves", async () => {
    const fail = { status: 500, body: { error: { message: "boom" } } };
    servers.openai.reply(fail, fail, fail);
    servers.anthropic.reply(ANTHROPIC_OK);
    const res = await router.complete(routeRequest());
    assert.equal(res.provider, "anthropic");
    assert.deepEqual(res.json, ANSWER);
    assert.deepEqual(seen(), [3, 1, 0]);
    // random bytes 255: the full 25% jitter comes off 500 ms and 1000 ms
    assert.deepEqual(recorder.sleeps, [375, 750]);
    assert.deepEqual(
      res.attempts.map((a) => [a.provider, a.attempt, a.kind]),
      [
        ["openai", 1, "server"],
        ["openai", 2, "server"],
        ["openai", 3, "server"],
        ["anthropic", 1, undefined],
      ],
    );
    assert.match(log.lines.join("\n"), /provider openai failed \(server\)/);
    const snap = governor.snapshot();
    assert.equal(snap.providers.find((p) => p.provider === "anthropic")!.calls, 1);
    assert.equal(snap.providers.find((p) => p.provider === "openai")!.calls, 0);
  });

  it("honours retry-after on a 429 and on Anthropic's 529", async () => {
    priority = ["anthropic"];
    servers.anthropic.reply(
      { status: 429, headers: { "retry-after": "2" }, body: { type: "error", error: { type: "rate_limit_error", message: "slow down" } } },
      {
        status: 529,
        headers: { "retry-after-ms": "1500" },
        body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      },
      ANTHROPIC_OK,
    );
    const res = await router.complete(routeRequest());
    assert.equal(res.provider, "anthropic");
    assert.deepEqual(recorder.sleeps, [2000, 1500]);
  });

  it("does not wait out a retry-after beyond the cap: it moves on at once", async () => {
    servers.openai.reply({ status: 429, headers: { "retry-after": "120" }, body: { error: { message: "wait" } } });
    servers.anthropic.reply(ANTHROPIC_OK);
    const res = await router.complete(routeRequest());
    assert.equal(res.provider, "anthropic");
    assert.deepEqual(recorder.sleeps, []);
  });

  it("falls back without retrying on a refused key, a timeout and bad JSON", async () => {
    servers.openai.reply({ status: 401, body: { error: { message: `bad key ${KEYS.openai}` } } });
    servers.anthropic.reply({ delayMs: 3000, body: {} });
    servers.mistral.reply({ body: "{nope" });
    const e = await routeFailure(router.complete(routeRequest({ timeoutMs: 150 })));
    assert.equal(e.kind, "unavailable");
    assert.deepEqual(seen(), [1, 1, 1]);
    assert.deepEqual(recorder.sleeps, []);
    assert.deepEqual(
      e.attempts.map((a) => a.kind),
      ["auth", "timeout", "bad-response"],
    );
    assert.match(
      e.message,
      /^No provider could answer\. The OpenAI key was refused .* Anthropic gave no complete answer within 150 ms\. Mistral's answer is not valid JSON/,
    );
  });

  it("retries a connection dropped mid-body, then serves", async () => {
    priority = ["openai"];
    servers.openai.reply(truncatedReply(JSON.stringify(OPENAI_OK.body), 50), OPENAI_OK);
    const res = await router.complete(routeRequest());
    assert.equal(res.provider, "openai");
    assert.deepEqual(
      res.attempts.map((a) => a.kind),
      ["network", undefined],
    );
  });

  it("a single provider's failure keeps its own kind", async () => {
    priority = ["openai"];
    servers.openai.reply({ status: 403, body: {} });
    const e = await routeFailure(router.complete(routeRequest()));
    assert.equal(e.kind, "auth");
    assert.equal(e.provider, "openai");
  });

  it("refuses on budget before any request is sent, and does not fall back", async () => {
    governor.configure("openai", { usdCeiling: 1, usdPerMTokIn: 1000, usdPerMTokOut: 1000 });
    servers.openai.reply(OPENAI_OK);
    await router.complete(routeRequest()); // 1200 tokens at $1000/M = $1.20, over the $1 ceiling
    const e = await routeFailure(router.complete(routeRequest()));
    assert.equal(e.kind, "budget");
    assert.equal(e.message, "quota: the OpenAI budget for this period is spent ($1.20 of $1.00); it resets on 2026-02-01.");
    assert.deepEqual(seen(), [1, 0, 0]);
    assert.deepEqual(e.attempts, []);
  });

  it("a budget refusal after a failure still stops the route", async () => {
    governor.configure("anthropic", { tokenCeiling: 0 });
    servers.openai.reply({ status: 400, body: { error: { message: "bad schema" } } });
    const e = await routeFailure(router.complete(routeRequest()));
    assert.equal(e.kind, "budget");
    assert.match(e.message, /^quota: the Anthropic token budget for this period is used up \(0 of 0 tokens\)/);
    assert.deepEqual(seen(), [1, 0, 0]);
  });

  it("prefers the head's own provider and model, falling back to the owner's order", async () => {
    servers.mistral.reply({ status: 500, body: {} }, { status: 500, body: {} }, { status: 500, body: {} });
    servers.openai.reply(OPENAI_OK);
    const res = await router.complete(routeRequest({ provider: "mistral", model: "mistral-large-latest" }));
    assert.equal(servers.mistral.seen[0].json.model, "mistral-large-latest");
    assert.equal(res.provider, "openai");
    assert.equal(servers.openai.seen[0].json.model, DEFAULT_MODELS.openai);
  });

  it("uses the owner's model choice when given", async () => {
    const custom = new ProviderRouter({
      http: nodeHttpClient,
      clock,
      random: { fill: (b) => b.fill(0) },
      sleep: recorder.sleep,
      getSecret: (name) => keys[name],
      priority: () => ["anthropic"],
      model: (id) => (id === "anthropic" ? "claude-opus-4-7" : undefined),
      baseUrls: { anthropic: servers.anthropic.url },
    });
    servers.anthropic.reply(ANTHROPIC_OK);
    await custom.complete(routeRequest());
    assert.equal(servers.anthropic.seen[0].json.model, "claude-opus-4-7");
  });

  it("pins a continuation (previousResponseId) to its provider: no fallback", async () => {
    servers.openai.reply({ status: 400, body: { error: { message: "Previous response not found" } } });
    const e = await routeFailure(router.complete(routeRequest({ provider: "openai", previousResponseId: "resp_1" })));
    assert.equal(e.kind, "bad-request");
    assert.deepEqual(seen(), [1, 0, 0]);
    assert.equal(servers.openai.seen[0].json.previous_response_id, "resp_1");
    keys.openai = undefined;
    const unkeyed = await routeFailure(router.complete(routeRequest({ provider: "openai", fallback: false })));
    assert.equal(unkeyed.kind, "unavailable");
    assert.equal(unkeyed.message, "OpenAI has no key; the owner can add one through the owner API.");
  });

  it("rejects an invalid request before any provider sees it", async () => {
    for (const bad of [routeRequest({ messages: [] }), routeRequest({ maxOutputTokens: -1 }), routeRequest({ timeoutMs: 1.5 })]) {
      await assert.rejects(router.complete(bad), (e: unknown) => e instanceof ProviderError && e.kind === "bad-request");
    }
    assert.deepEqual(seen(), [0, 0, 0]);
  });

  it("refuses when the budget cannot be read, sending nothing", async () => {
    const blind = new ProviderRouter({
      http: nodeHttpClient,
      clock,
      random: { fill: (b) => b.fill(0) },
      sleep: recorder.sleep,
      getSecret: (name) => keys[name],
      priority: () => ["openai", "anthropic"],
      baseUrls: { openai: servers.openai.url, anthropic: servers.anthropic.url },
      budget: {
        check: () => {
          throw new Error("flash read error");
        },
        record: () => undefined,
      },
    });
    const e = await routeFailure(blind.complete(routeRequest()));
    assert.equal(e.kind, "budget");
    assert.equal(e.message, "quota: the budget settings could not be read, so nothing was sent.");
    assert.deepEqual(seen(), [0, 0, 0]);
  });

  it("keeps the answer when recording usage fails", async () => {
    const broken = new ProviderRouter({
      http: nodeHttpClient,
      clock,
      random: { fill: (b) => b.fill(0) },
      sleep: recorder.sleep,
      getSecret: (name) => keys[name],
      priority: () => ["openai"],
      baseUrls: { openai: servers.openai.url },
      budget: {
        check: () => ({ ok: true }),
        record: () => {
          throw new Error("flash full");
        },
      },
      log,
    });
    servers.openai.reply(OPENAI_OK);
    assert.deepEqual((await broken.complete(routeRequest())).json, ANSWER);
    assert.match(log.lines.join("\n"), /recording openai usage failed: flash full/);
  });
});
