import { HaloError } from "../errors";
import { DOCS_SECTION_MAX_BYTES } from "../limits";
import { defineTool } from "../registry/define";
import type { ResultsRing } from "../registry/results-ring";
import type { ToolResult } from "../registry/types";
import { truncateUtf8 } from "../util/utf8";

/** One page of results.get stays under the per-result clamp. */
const PAGE_BYTES = DOCS_SECTION_MAX_BYTES;

/** What the results tools read: the ring of recent tool outputs (each caller sees its own). */
export interface ResultToolDeps {
  ring: ResultsRing;
}

export const resultsGet = defineTool({
  name: "results.get",
  effect: "read",
  needs: ["ring"],
  description: "Fetch the full text of a stored result by tag, paged.",
  inputSchema: {
    type: "object",
    properties: {
      tag: { type: "string", minLength: 1, maxLength: 16 },
      offset: { type: "integer", minimum: 0, maximum: 1000000, description: "character offset, default 0" },
    },
    required: ["tag"],
    additionalProperties: false,
  },
  handler: (args, ctx, { ring }: ResultToolDeps): ToolResult => {
    const entry = ring.get(ctx.principal.ns, args.tag);
    if (!entry) {
      throw new HaloError(
        "not-found",
        "no stored result with that tag (it may have aged out of the ring; try memory.episodic with the tag as text).",
      );
    }
    const offset = args.offset ?? 0;
    if (offset > entry.text.length) throw new HaloError("invalid-arguments", `offset is past the end (${entry.text.length} characters).`);
    const page = truncateUtf8(entry.text.slice(offset), PAGE_BYTES);
    const next = offset + page.length;
    const tail =
      next < entry.text.length
        ? `\n[more: call results.get with offset ${next}]`
        : entry.cut
          ? "\n[end of what the ring kept: the output was larger than one ring entry]"
          : "";
    return { text: page + tail };
  },
});

export const resultsList = defineTool({
  name: "results.list",
  effect: "read",
  needs: ["ring"],
  description: "List the stored recent results (tag, kind, name, size).",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, ctx, { ring }: ResultToolDeps): ToolResult => {
    const entries = ring.list(ctx.principal.ns);
    if (entries.length === 0) return { text: "No stored results." };
    return { text: entries.map((e) => `- ${e.tag}: ${e.kind} ${e.name} (${e.bytes} bytes)`).join("\n") };
  },
});

/** results.get and results.list over the ring of recent tool outputs (the caller's own). */
export const RESULT_TOOLS = [resultsGet, resultsList] as const;
