// web.search: the live web through Tavily, under the owner's monthly budget. It is available once the
// owner has set the Tavily key, whenever that is: the listing asks at every call.
import { HaloError } from "../errors";
import type { Clock } from "../ports";
import type { SecretStore } from "../device/secrets";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { boundedBy } from "../util/abort";
import type { WebSearchBudget } from "../web/search-budget";
import { TAVILY_TIMEOUT_MS, TavilyError, type TavilyClient, type WebSearchOutcome } from "../web/tavily";

export const WEB_QUERY_MAX_CHARS = 400;
export const WEB_MAX_RESULTS = 10;
export const WEB_DEFAULT_RESULTS = 5;

/** What web.search uses: the Tavily client, the monthly budget, whether the key is set, and the time. */
export interface WebToolDeps {
  webSearch: TavilyClient;
  webBudget: WebSearchBudget;
  secrets: Pick<SecretStore, "isSet">;
  clock: Clock;
}

export const webSearch = defineTool({
  name: "web.search",
  needs: ["webSearch", "webBudget", "secrets", "clock"],
  available: ({ secrets }: WebToolDeps) =>
    secrets.isSet("tavily") ? true : "web.search needs a Tavily key, which the owner sets through the owner API.",
  effect: "read",
  openWorld: true,
  description: "Search the live web; returns an answer plus top results (title, url, snippet).",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, maxLength: WEB_QUERY_MAX_CHARS },
      max_results: { type: "integer", minimum: 1, maximum: WEB_MAX_RESULTS, description: `default ${WEB_DEFAULT_RESULTS}` },
    },
    required: ["query"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      answer: { type: "string" },
      results: {
        type: "array",
        items: {
          type: "object",
          properties: { title: { type: "string" }, url: { type: "string" }, snippet: { type: "string" } },
          required: ["title", "url", "snippet"],
        },
      },
    },
    required: ["answer", "results"],
  },
  handler: async (args, ctx, deps: WebToolDeps): Promise<ToolResult> => {
    if (ctx.principal.role === "guest") {
      throw new HaloError("guest-refused", "guests cannot search the web (it spends the owner's search budget).");
    }
    const query = args.query.trim();
    if (!query) throw new HaloError("invalid-arguments", "the query is empty.");
    deps.webBudget.reserve();
    let outcome: WebSearchOutcome;
    try {
      const limits = boundedBy(TAVILY_TIMEOUT_MS, ctx, deps.clock.now());
      outcome = await deps.webSearch.search(query, args.max_results ?? WEB_DEFAULT_RESULTS, limits);
    } catch (e) {
      if (!(e instanceof TavilyError) || !e.mayHaveBeenBilled) deps.webBudget.refund();
      throw e;
    }
    const usage = deps.webBudget.usage();
    return {
      text: `${formatOutcome(outcome)}\n(web searches this month: ${usage.calls} of ${usage.budget})`,
      structured: { ...outcome },
    };
  },
});

/** web.search. */
export const WEB_TOOLS = [webSearch] as const;

function formatOutcome(outcome: WebSearchOutcome): string {
  const lines: string[] = [];
  if (outcome.answer) lines.push(`Answer: ${outcome.answer}`, "");
  if (outcome.results.length === 0) lines.push("No results.");
  else {
    lines.push("Results:");
    outcome.results.forEach((r, i) => {
      lines.push(`${i + 1}. ${r.title || "(untitled)"}`, `   ${r.url}`, ...(r.snippet ? [`   ${r.snippet}`] : []));
    });
  }
  return lines.join("\n");
}
