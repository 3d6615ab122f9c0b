// web.search: the live web through Tavily, under the owner's monthly budget.
// buildCore registers it only when the Tavily key is set at boot.
import { assertMayCall } from "../registry/policy";
import { defineTool } from "../registry/define";
import type { ToolRegistry } from "../registry/registry";
import type { ToolResult } from "../registry/types";
import type { WebSearchBudget } from "../web/search-budget";
import { TavilyError, type TavilyClient, type WebSearchOutcome } from "../web/tavily";

export const WEB_QUERY_MAX_CHARS = 400;
export const WEB_MAX_RESULTS = 10;
export const WEB_DEFAULT_RESULTS = 5;

export interface WebToolDeps {
  client: TavilyClient;
  budget: WebSearchBudget;
}

export function registerWebTools(registry: ToolRegistry, deps: WebToolDeps): void {
  const marks = { name: "web.search" };
  registry.register(
    defineTool({
      ...marks,
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
      handler: async (args, ctx): Promise<ToolResult> => {
        assertMayCall(marks, ctx.principal);
        if (ctx.principal.role === "guest") {
          return { text: "guest-refused: guests cannot search the web (it spends the owner's search budget).", isError: true };
        }
        const query = args.query.trim();
        if (!query) return { text: "invalid arguments: the query is empty.", isError: true };
        const refusal = deps.budget.reserve();
        if (refusal) return { text: refusal, isError: true };
        let outcome: WebSearchOutcome;
        try {
          outcome = await deps.client.search(query, args.max_results ?? WEB_DEFAULT_RESULTS);
        } catch (e) {
          if (!(e instanceof TavilyError) || !e.mayHaveBeenBilled) deps.budget.refund();
          throw e;
        }
        const usage = deps.budget.usage();
        return {
          text: `${formatOutcome(outcome)}\n(web searches this month: ${usage.calls} of ${usage.budget})`,
          structured: { ...outcome },
        };
      },
    }),
  );
}

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
