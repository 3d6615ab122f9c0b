import { DOCS_QUERY_MAX_CHARS } from "../limits";
import { HaloError } from "../errors";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { type DocsLibrary, queryTerms } from "../store/docs-pack";
import { clipForMessage } from "../util/text";

const SLUG = { type: "string", minLength: 1, maxLength: 64 } as const;

/** What the docs tools read: the device's own documentation pack. */
export interface DocsToolDeps {
  docs: DocsLibrary;
}

export const docsList = defineTool({
  name: "docs.list",
  needs: ["docs"],
  description: "Browse the documentation index - the doc files, or one file's sections.",
  effect: "read",
  inputSchema: {
    type: "object",
    properties: { file: { ...SLUG, description: "a file slug from the top-level listing" } },
    additionalProperties: false,
  },
  handler: (args, _ctx, { docs }: DocsToolDeps): ToolResult => {
    const file = args.file;
    if (file === undefined) {
      const lines = docs.files().map((f) => `- ${f.slug}: ${f.title} (${f.sections} sections)`);
      return { text: `Documentation files:\n${lines.join("\n")}` };
    }
    const sections = docs.sectionsOf(file);
    if (!sections) {
      const known = docs
        .files()
        .map((f) => f.slug)
        .join(", ");
      throw new HaloError("not-found", `no doc file '${clipForMessage(file)}'. Files: ${known}.`);
    }
    return { text: `Sections of ${file}:\n${sections.map((s) => `- ${s.id}: ${s.title}`).join("\n")}` };
  },
});

export const docsSearch = defineTool({
  name: "docs.search",
  needs: ["docs"],
  description: "Keyword AND-match over section titles + bodies; returns ids + a snippet.",
  effect: "read",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string", minLength: 1, maxLength: DOCS_QUERY_MAX_CHARS } },
    required: ["query"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      hits: {
        type: "array",
        items: {
          type: "object",
          properties: { id: { type: "string" }, title: { type: "string" }, snippet: { type: "string" } },
          required: ["id", "title", "snippet"],
        },
      },
    },
    required: ["hits"],
  },
  handler: (args, _ctx, { docs }: DocsToolDeps): ToolResult => {
    const terms = queryTerms(args.query);
    if (terms.length === 0) throw new HaloError("invalid-arguments", "the query has no words to search for.");
    const hits = docs.search(terms);
    const text =
      hits.length === 0
        ? `No section contains all of: ${terms.join(", ")}.`
        : hits.map((h) => `- ${h.id}: ${h.title}\n  ${h.snippet}`).join("\n");
    return { text, structured: { hits } };
  },
});

export const docsRead = defineTool({
  name: "docs.read",
  needs: ["docs"],
  description: "Read one section by id; an unknown id fails honestly with near-miss ids.",
  effect: "read",
  inputSchema: {
    type: "object",
    properties: { id: { type: "string", minLength: 1, maxLength: 160, description: "<file-slug>#<heading-slug>" } },
    required: ["id"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { docs }: DocsToolDeps): ToolResult => {
    const id = args.id;
    const section = docs.read(id);
    if (!section) throw new HaloError("not-found", `no section '${clipForMessage(id)}'. Nearest: ${docs.nearestIds(id).join(", ")}.`);
    return { text: `# ${section.title}\n\n${section.body}` };
  },
});

/** docs.list, docs.search, docs.read: the device's own documentation, open to everyone. */
export const DOCS_TOOLS = [docsList, docsSearch, docsRead] as const;
