// web.search against a local server speaking the Tavily Search API wire format,
// with the owner's monthly budget persisted in Settings.
import { nodeTimers } from "../../hosts/sim/ports/timers.ts";
import assert from "node:assert/strict";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import type { Settings } from "../../lib/ports.ts";
import { VALIDATORS } from "../../lib/generated/validators.js";
import { ToolRegistry } from "../../lib/registry/registry.ts";
import { ResultsRing } from "../../lib/registry/results-ring";
import { WEB_TOOLS } from "../../lib/tools/web.ts";
import { WebSearchBudget } from "../../lib/web/search-budget.ts";
import { TavilyClient, TavilyError } from "../../lib/web/tavily.ts";
import { memoryCore, type CoreRig } from "../support/memory.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { principal, withoutError } from "../support/registry.ts";

const KEY = "tvly-test-0123456789abcdef";

/** A documented Tavily answer with `n` results. */
function tavilyAnswer(n: number, answer: string | null = "Paris is the capital of France."): object {
  return {
    query: "capital of france",
    answer,
    images: [],
    results: Array.from({ length: n }, (_, i) => ({
      title: `Result ${i + 1}`,
      url: `https://example.com/${i + 1}`,
      content: `Snippet ${i + 1}\n  with   spaces`,
      score: 0.9 - i / 100,
      raw_content: null,
    })),
    response_time: 1.23,
    request_id: "abc",
  };
}

describe("web.search", () => {
  let server: ProviderServer;
  let base: string;
  beforeEach(async () => {
    server = await ProviderServer.start();
    base = server.url.replace(/\/v1$/, "");
  });
  afterEach(async () => server.close());

  /** A core whose Tavily key was set before boot (null: never set). */
  function boot(options: { key?: string | null; settings?: Settings } = {}): CoreRig {
    const settings = options.settings ?? memorySettings();
    if (options.key !== null) settings.set("secret.tavily", options.key ?? KEY);
    return memoryCore({ settings, core: { baseUrls: { tavily: base } } });
  }
  const search = (rig: CoreRig, args: unknown, as = derivePrincipal(rig.core, "web", "owner")) =>
    rig.core.registry.dispatch("web.search", args, as);

  it("is listed once the Tavily key is set, without a restart, and hidden again when it is cleared", async () => {
    const rig = boot({ key: null });
    const owner = derivePrincipal(rig.core, "web", "owner");
    const listed = (): boolean => rig.core.registry.toolSpecsFor(owner).some((t) => t.name === "web.search");
    assert.equal(listed(), false);
    const status = await rig.core.registry.dispatch("device.status", {}, owner);
    assert.match(status.text, /^Web search: not configured$/m);
    assert.equal(rig.core.secrets.set("tavily", KEY), undefined);
    assert.equal(listed(), true);
    server.reply({ body: tavilyAnswer(1) });
    assert.match((await search(rig, { query: "q" })).text, /^Answer: /);
    assert.doesNotMatch((await rig.core.registry.dispatch("device.status", {}, owner)).text, /^Web search: not configured$/m);
    rig.core.secrets.clear("tavily");
    assert.equal(listed(), false);
  });

  it("posts the documented request with a bearer key and reads the answer and results", async () => {
    const rig = boot();
    server.reply({ body: tavilyAnswer(3) });
    const r = await search(rig, { query: "  capital of france " });
    const req = server.seen[0];
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/search");
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.equal(req.headers["content-type"], "application/json");
    assert.deepEqual(req.json, {
      query: "capital of france",
      max_results: 5,
      search_depth: "basic",
      topic: "general",
      include_answer: true,
      include_raw_content: false,
      include_images: false,
    });
    assert.ok(!req.text.includes(KEY), "the key is never in the body");
    assert.equal(
      r.text,
      [
        "Answer: Paris is the capital of France.",
        "",
        "Results:",
        "1. Result 1",
        "   https://example.com/1",
        "   Snippet 1 with spaces",
        "2. Result 2",
        "   https://example.com/2",
        "   Snippet 2 with spaces",
        "3. Result 3",
        "   https://example.com/3",
        "   Snippet 3 with spaces",
        "(web searches this month: 1 of 1000)",
      ].join("\n"),
    );
    assert.deepEqual(
      r.structured!.results,
      [1, 2, 3].map((i) => ({ title: `Result ${i}`, url: `https://example.com/${i}`, snippet: `Snippet ${i} with spaces` })),
    );
  });

  it("asks for max_results and never shows more; clips long fields; copes with no answer and odd entries", async () => {
    const rig = boot();
    const long = tavilyAnswer(6, null) as { results: Array<{ [k: string]: unknown }> };
    long.results[0].content = "word ".repeat(200);
    long.results[1] = { url: 42 };
    long.results[2].title = undefined;
    server.reply({ body: long });
    const r = await search(rig, { query: "q", max_results: 3 });
    assert.equal(server.seen[0].json.max_results, 3);
    const results = r.structured!.results as Array<{ title: string; url: string; snippet: string }>;
    assert.equal(r.structured!.answer, "");
    assert.equal(results.length, 2, "the malformed entry is skipped, the rest capped at 3 asked");
    assert.equal(results[0].snippet.length, 300);
    assert.ok(results[0].snippet.endsWith("…"));
    assert.equal(results[1].title, "");
    assert.match(r.text, /^Results:\n1\. Result 1\n/);
    assert.match(r.text, /^2\. \(untitled\)$/m);
    server.reply({ body: tavilyAnswer(0, null) });
    assert.match((await search(rig, { query: "nothing" })).text, /^No results\.\n\(web searches this month: 2 of 1000\)$/);
  });

  it("refuses with a clear sentence once the month's budget is spent, and starts again next month", async () => {
    const rig = boot();
    rig.core.config.apply([["webSearchBudget", 2]], "owner");
    server.reply({ body: tavilyAnswer(1) }, { body: tavilyAnswer(1) }, { body: tavilyAnswer(1) });
    await search(rig, { query: "a" });
    await search(rig, { query: "b" });
    const spent = await search(rig, { query: "c" });
    assert.deepEqual(withoutError(spent), {
      text: "quota: this month's web-search budget (2 searches) is spent; it starts again on 2026-02-01 (UTC), or the owner can raise it.",
      isError: true,
    });
    assert.equal(server.seen.length, 2, "the refused search was not sent");
    assert.match(
      (await rig.core.registry.dispatch("device.status", {}, derivePrincipal(rig.core, "web", "owner"))).text,
      /^Web search: searches in 2026-01 2 of 2$/m,
    );
    rig.clock.set(Date.UTC(2026, 1, 1, 0, 0, 1));
    assert.match((await search(rig, { query: "c" })).text, /\(web searches this month: 1 of 2\)$/);
    rig.core.config.apply([["webSearchBudget", 0]], "owner");
    assert.equal((await search(rig, { query: "d" })).text, "quota: web search is switched off (the owner set the monthly budget to 0).");
  });

  it("persists the counter across a reboot, and survives an unreadable record", async () => {
    const settings = memorySettings();
    const rig = boot({ settings });
    server.reply({ body: tavilyAnswer(1) });
    await search(rig, { query: "a" });
    assert.deepEqual(JSON.parse(settings.get("web.usage")!), { month: "2026-01", calls: 1 });
    const again = boot({ settings });
    assert.deepEqual(again.core.webBudget.usage(), { month: "2026-01", calls: 1, budget: 1000 });
    settings.set("web.usage", "{torn");
    const log = memoryLog();
    const budget = new WebSearchBudget(settings, () => 5, rig.clock, log);
    assert.equal(budget.usage().calls, 0);
    assert.deepEqual(log.lines, ["warning: web search: web.usage is unreadable; counting this month from 0"]);
  });

  it("maps Tavily's error replies to one sentence, never the key, and counts only what may have been billed", async () => {
    const rig = boot();
    server.reply(
      { status: 401, body: { detail: { error: `Unauthorized: missing or invalid API key ${KEY}` } } },
      { status: 429, body: { detail: { error: "Your request has been blocked due to excessive requests." } } },
      { status: 432, body: { detail: { error: "This request exceeds your plan's set usage limit." } } },
      { status: 500, body: "<html>oops</html>" },
      { status: 400, body: { detail: { error: `Invalid topic; key was ${KEY}` } } },
      { status: 200, body: '{"results": [' },
      { status: 200, body: { answer: "no list" } },
    );
    const texts: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await search(rig, { query: "q" });
      assert.equal(r.isError, true);
      assert.ok(!r.text.includes(KEY) && !r.text.includes("0123456789abcdef"), r.text);
      texts.push(r.text);
    }
    assert.deepEqual(texts, [
      "provider-error: the web-search service refused the Tavily key (HTTP 401); the owner can replace it through the owner API.",
      "rate-limited: the web-search service is rate-limiting searches (HTTP 429); try again in a minute.",
      "quota: the Tavily account's usage limit is reached (HTTP 432): This request exceeds your plan's set usage limit.",
      "provider-error: the web-search service failed (HTTP 500).",
      "provider-error: the web-search service rejected the search (HTTP 400): Invalid topic; key was [key]",
      "provider-error: the web-search answer is not the documented JSON (no results list).",
      "provider-error: the web-search answer is not the documented JSON (no results list).",
    ]);
    // Refusals cost nothing; the two garbled 200s were answered, so they count.
    assert.equal(rig.core.webBudget.usage().calls, 2);
  });

  it("times out and reports a refused connection; both count, as they may have been billed", async () => {
    const clock = { now: () => Date.UTC(2026, 0, 1) };
    const log = memoryLog();
    const budget = new WebSearchBudget(memorySettings(), () => 10, clock, log);
    let url = base;
    const registry = new ToolRegistry({ validators: VALIDATORS, ring: new ResultsRing(), log, clock, timers: nodeTimers });
    registry.registerAll(WEB_TOOLS, {
      webSearch: new TavilyClient(nodeHttpClient, { apiKey: () => KEY, baseUrl: () => url }, 150),
      webBudget: budget,
      secrets: { isSet: () => true },
      clock,
    });
    const owner = principal("admin", "turn", "owner");
    server.reply({ delayMs: 2000, body: tavilyAnswer(1) });
    assert.deepEqual(withoutError(await registry.dispatch("web.search", { query: "q" }, owner)), {
      text: "provider-error: the web search gave no answer within 0.15 s.",
      isError: true,
    });
    url = "http://127.0.0.1:1";
    assert.deepEqual(withoutError(await registry.dispatch("web.search", { query: "q" }, owner)), {
      text: "provider-error: the connection to the web-search service failed.",
      isError: true,
    });
    assert.equal(budget.usage().calls, 2);
    const noKey = new TavilyClient(nodeHttpClient, { apiKey: () => undefined, baseUrl: () => base });
    await assert.rejects(
      noKey.search("q", 5),
      (e: unknown) => e instanceof TavilyError && !e.mayHaveBeenBilled && /^not-configured:/.test(e.message),
    );
    const badBase = new TavilyClient(nodeHttpClient, { apiKey: () => KEY, baseUrl: () => "not a url" });
    await assert.rejects(badBase.search("q", 5), /^HaloError: not-configured: the web-search base URL is not a valid URL\.$/);
    assert.equal(server.seen.length, 1);
  });

  it("reports not-configured when the key was cleared after boot, without counting", async () => {
    const rig = boot();
    rig.core.secrets.clear("tavily");
    assert.deepEqual(withoutError(await search(rig, { query: "q" })), {
      text: "not-configured: web.search needs a Tavily key, which the owner sets through the owner API.",
      isError: true,
    });
    assert.equal(rig.core.webBudget.usage().calls, 0);
    assert.equal(server.seen.length, 0);
  });

  it("refuses guests (it spends the owner's budget); users and MCP clients may search", async () => {
    const rig = boot();
    rig.core.chats.replace(["42", "43"]);
    rig.core.people.setRole("42", "user");
    const guest = derivePrincipal(rig.core, "chat", "43");
    assert.deepEqual(withoutError(await search(rig, { query: "q" }, guest)), {
      text: "guest-refused: guests cannot search the web (it spends the owner's search budget).",
      isError: true,
    });
    server.reply({ body: tavilyAnswer(1) }, { body: tavilyAnswer(1) });
    assert.equal((await search(rig, { query: "q" }, derivePrincipal(rig.core, "chat", "42"))).isError, undefined);
    assert.equal((await search(rig, { query: "q" }, principal("user", "mcp", "laptop"))).isError, undefined);
    assert.equal(server.seen.length, 2);
  });

  it("refuses bad input before spending anything", async () => {
    const rig = boot();
    const bad: unknown[] = [
      {},
      { query: "" },
      { query: 7 },
      { query: "x".repeat(401) },
      { query: "q", max_results: 0 },
      { query: "q", max_results: 11 },
      { query: "q", max_results: 2.5 },
      { query: "q", max_results: "5" },
      { query: "q", max_results: NaN },
      { query: "q", depth: "advanced" },
      { query: null },
      { query: ["q"] },
    ];
    for (const args of bad) {
      const r = await search(rig, args);
      assert.equal(r.isError, true, String(JSON.stringify(args)).slice(0, 60));
      assert.match(r.text, /^invalid arguments/);
    }
    assert.equal((await search(rig, { query: "   " })).text, "invalid arguments: the query is empty.");
    assert.equal(server.seen.length, 0);
    assert.equal(rig.core.webBudget.usage().calls, 0);
  });

  it("keeps the budget and the owner chat off limits to device config actions (protected-BLOCKED)", async () => {
    const rig = boot();
    const admin = derivePrincipal(rig.core, "web", "owner");
    for (const config of [{ webSearchBudget: 100000 }, { ownerChatId: "666" }, { theme: "ember", WEB_SEARCH_BUDGET: 5 }]) {
      const r = await rig.core.registry.dispatch("device.control", { action: { config } }, admin);
      assert.match(r.text, /^protected-BLOCKED: /, JSON.stringify(config));
    }
    assert.equal(rig.core.config.get("webSearchBudget"), 1000);
    assert.equal(rig.core.config.get("ownerChatId"), "");
    assert.equal(rig.core.config.get("theme"), "aurora");
  });
});
