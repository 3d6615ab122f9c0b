// Tool name spellings over /mcp. The catalog's dotted names are canonical;
// agent frameworks pass MCP names on to model APIs whose function names must
// match PLAIN_TOOL_NAME_PATTERN, so every tool also answers to its plain
// spelling (dots as underscores) and a client may list in that style.
import { resolveToolName } from "../registry/seed-names";
import type { ToolSpec } from "../registry/types";

/** What OpenAI and Anthropic accept as a function name. */
export const PLAIN_TOOL_NAME_PATTERN: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

/** `docs.search` -> `docs_search`. */
export function plainToolName(name: string): string {
  return name.replace(/\./g, "_");
}

/**
 * The canonical name a tools/call name stands for: a registered name as it is, a
 * reference agent's name (lib/registry/seed-names.ts), else the one tool whose
 * plain spelling it is; undefined when none.
 */
export function canonicalToolName(
  name: string,
  registry: { has(name: string): boolean; all(): Array<{ name: string }> },
): string | undefined {
  return resolveToolName(name, registry);
}

/** The specs as a client of this style lists them. */
export function styledSpecs(specs: ToolSpec[], style: "dotted" | "plain" | undefined): ToolSpec[] {
  if (style !== "plain") return specs;
  return specs.map((s) => ({ ...s, name: plainToolName(s.name) }));
}
