// Renders docs/reference/tool-catalog.md from the live registry, so the catalog cannot drift.
import type { ToolDefinition } from "../../lib/registry/types.ts";
import { definedTools } from "./defined-tools.ts";

export const CATALOG_PATH = "docs/reference/tool-catalog.md";

type Prop = { [key: string]: unknown };

function describeProp(name: string, p: Prop, required: boolean): string {
  const parts: string[] = [];
  parts.push(Array.isArray(p.enum) ? `enum: ${p.enum.join(" \\| ")}` : String(p.type ?? "any"));
  if (required) parts.push("required");
  if (p.minimum !== undefined || p.maximum !== undefined) parts.push(`${p.minimum ?? ""}–${p.maximum ?? ""}`);
  if (p.maxLength !== undefined) parts.push(`at most ${p.maxLength} chars`);
  if (p.maxItems !== undefined) parts.push(`at most ${p.maxItems} items`);
  if (p.default !== undefined) parts.push(`default ${JSON.stringify(p.default)}`);
  const text = `\`${name}\` (${parts.join(", ")})`;
  return typeof p.description === "string" ? `${text} ${p.description}` : text;
}

function argumentsOf(tool: ToolDefinition): string {
  const props = (tool.inputSchema.properties || {}) as { [key: string]: Prop };
  const required = (tool.inputSchema.required || []) as string[];
  const names = Object.keys(props);
  if (names.length === 0) return "(none)";
  return names
    .map((n) => describeProp(n, props[n], required.includes(n)))
    .join("; ")
    .replace(/\n/g, " ");
}

function accessOf(tool: ToolDefinition): string {
  const marks: string[] = [];
  if (tool.adminOnly) marks.push("admin-only");
  if (tool.turnOnly) marks.push("turn-only (refused over /mcp)");
  if (tool.refuseScheduled && !tool.adminOnly) marks.push("refused in scheduled turns");
  return marks.length ? marks.join(", ") : "any approved caller";
}

export function generateCatalog(): string {
  const tools = definedTools();
  const namespaces = new Map<string, ToolDefinition[]>();
  for (const t of tools) {
    const ns = t.name.split(".")[0];
    if (!namespaces.has(ns)) namespaces.set(ns, []);
    namespaces.get(ns)!.push(t);
  }
  const out: string[] = [
    "# Tool catalog",
    "",
    "Generated from the tool registry by `npm run gen` (tools/gen/catalog.ts); a test fails when this file is stale.",
    "Every tool here is registered and runs; the same list feeds the LLM turn's CAPABILITIES and the LAN MCP server's `tools/list`.",
    "A caller sees only the tools it may call; each handler re-checks the caller as well.",
    "",
  ];
  for (const [ns, list] of namespaces) {
    out.push(`## ${ns}.*`, "", "| Tool | Description | Arguments | State | Access |", "|---|---|---|---|---|");
    for (const t of list) {
      const cells = [`\`${t.name}\``, t.description, argumentsOf(t), "live", accessOf(t)].map((c) => c.replace(/\|(?!\s*\\)/g, "\\|"));
      out.push(`| ${cells.join(" | ")} |`);
    }
    out.push("");
  }
  return out.join("\n");
}
