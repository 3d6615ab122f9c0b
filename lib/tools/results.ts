import { DOCS_SECTION_MAX_BYTES } from "../limits";
import { defineTool } from "../registry/define";
import type { ToolRegistry } from "../registry/registry";
import type { ToolResult } from "../registry/types";
import type { ResultsRing } from "../registry/results-ring";
import { truncateUtf8 } from "../util/utf8";

/** One page of results.get stays under the per-result clamp. */
const PAGE_BYTES = DOCS_SECTION_MAX_BYTES;

/** results.get and results.list over the ring of recent tool outputs (the caller's own). */
export function registerResultTools(registry: ToolRegistry, ring: ResultsRing): void {
  registry.register(
    defineTool({
      name: "results.get",
      effect: "read",
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
      handler: (args, ctx): ToolResult => {
        const entry = ring.get(ctx.principal.ns, args.tag);
        if (!entry) {
          return {
            text: "not-found: no stored result with that tag (it may have aged out of the ring; try memory.episodic with the tag as text).",
            isError: true,
          };
        }
        const offset = args.offset ?? 0;
        if (offset > entry.text.length) {
          return { text: `invalid arguments: offset is past the end (${entry.text.length} characters).`, isError: true };
        }
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
    }),
  );

  registry.register(
    defineTool({
      name: "results.list",
      effect: "read",
      description: "List the stored recent results (tag, kind, name, size).",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      handler: (_args, ctx): ToolResult => {
        const entries = ring.list(ctx.principal.ns);
        if (entries.length === 0) return { text: "No stored results." };
        return { text: entries.map((e) => `- ${e.tag}: ${e.kind} ${e.name} (${e.bytes} bytes)`).join("\n") };
      },
    }),
  );
}
