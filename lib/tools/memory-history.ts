import { HaloError } from "../errors";
import {
  ARCHIVE_MAX_RESULTS,
  EPISODIC_FILTER_MAX_CHARS,
  EPISODIC_PAGE_DEFAULT,
  EPISODIC_PAGE_MAX,
  EPISODIC_SESSION_MAX_CHARS,
  EPISODIC_SNIPPET_CHARS,
  EPISODIC_WINDOW_MAX_HOURS,
  MEMORY_QUERY_MAX_CHARS,
  SEARCH_MAX_RESULTS,
} from "../memory/bounds";
import { listArchive, restoreArchived, searchArchive } from "../memory/forgetting/archive-ops";
import type { MemoryEngine } from "../memory/engine";
import type { EpisodicStore } from "../memory/episodic/episodic";
import { EPISODIC_KINDS, formatPosition, parsePosition, POSITION_PATTERN, type EpisodicRow } from "../memory/episodic/format";
import { SYSTEM_NS } from "../memory/episodic/device-events";
import type { Principal } from "../registry/principal";
import { defineTool } from "../registry/define";
import type { ToolRegistry } from "../registry/registry";
import type { ToolResult } from "../registry/types";
import { MEMORY_ID, requireApproved, TTL } from "./memory";

const HOUR_MS = 3600 * 1000;
/** memory.episodic's limit is clamped to 1..EPISODIC_PAGE_MAX; the schema only bounds it loosely. */
const LIMIT_SCHEMA_MAX = 10000;

/** memory.episodic over a bound episodic store (registered only when one is bound). */
export function registerEpisodicTool(registry: ToolRegistry, episodic: EpisodicStore, now: () => number): void {
  registry.register(
    defineTool({
      name: "memory.episodic",
      effect: "read",
      description: "Search your episodic history by kind, session, text, or a time window.",
      inputSchema: {
        type: "object",
        properties: {
          kind: { type: "string", enum: [...EPISODIC_KINDS] },
          session: { type: "string", minLength: 1, maxLength: EPISODIC_SESSION_MAX_CHARS },
          text: { type: "string", minLength: 1, maxLength: EPISODIC_FILTER_MAX_CHARS, description: "case-insensitive substring" },
          limit: {
            type: "integer",
            minimum: 0,
            maximum: LIMIT_SCHEMA_MAX,
            description: `rows per page, clamped to 1-${EPISODIC_PAGE_MAX}, default ${EPISODIC_PAGE_DEFAULT}`,
          },
          since_hours: { type: "integer", minimum: 1, maximum: EPISODIC_WINDOW_MAX_HOURS, description: "only rows from the last N hours" },
          before_hours: { type: "integer", minimum: 0, maximum: EPISODIC_WINDOW_MAX_HOURS, description: "only rows older than N hours" },
          before: { type: "string", pattern: POSITION_PATTERN, maxLength: 24, description: "continue token from the previous page" },
        },
        additionalProperties: false,
      },
      handler: (args, ctx): ToolResult => {
        const p = requireApproved(ctx.principal);
        const limit = Math.max(1, Math.min(EPISODIC_PAGE_MAX, args.limit ?? EPISODIC_PAGE_DEFAULT));
        const before = args.before === undefined ? undefined : parsePosition(args.before);
        if (args.before !== undefined && !before) throw new HaloError("invalid-arguments", "'before' is not a continue token.");
        const t = now();
        const page = episodic.query(
          {
            namespaces: p.role === "admin" ? [p.ns, SYSTEM_NS] : [p.ns],
            kind: args.kind,
            session: args.session,
            text: args.text,
            since: args.since_hours === undefined ? undefined : t - args.since_hours * HOUR_MS,
            until: args.before_hours === undefined ? undefined : t - args.before_hours * HOUR_MS,
          },
          limit,
          before,
        );
        if (page.rows.length === 0 && !page.next) return { text: "No episodic rows match." };
        const lines = page.rows.map(formatRow);
        if (page.next) lines.push(`[more: call memory.episodic with before "${formatPosition(page.next)}" and the same filters]`);
        return { text: lines.length > 0 ? lines.join("\n") : "No episodic rows match." };
      },
    }),
  );
}

/** memory.archive over the SD archive (registered only when the host has an SD card slot). */
export function registerArchiveTool(registry: ToolRegistry, engine: MemoryEngine): void {
  registry.register(
    defineTool({
      name: "memory.archive",
      effect: "write",
      description: "Search or restore memories that expired (reached their TTL) and were moved to the SD archive instead of being deleted.",
      inputSchema: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["search", "restore", "list"] },
          query: { type: "string", minLength: 1, maxLength: MEMORY_QUERY_MAX_CHARS },
          id: MEMORY_ID,
          n_results: { type: "integer", minimum: 1, maximum: SEARCH_MAX_RESULTS },
          limit: { type: "integer", minimum: 1, maximum: ARCHIVE_MAX_RESULTS },
          ttl: { ...TTL, description: "on restore: the TTL class it comes back with (default: its old one)" },
        },
        required: ["action"],
        additionalProperties: false,
      },
      handler: async (args, ctx): Promise<ToolResult> => {
        const p: Principal = requireApproved(ctx.principal);
        if (args.action === "list") return { text: listArchive(engine, p, args.limit ?? 10) };
        if (args.action === "search") {
          if (args.query === undefined) throw new HaloError("invalid-arguments", "search needs 'query'.");
          return {
            text: await searchArchive(engine, p, args.query, args.n_results ?? engine.config.retrieval_count),
          };
        }
        if (args.id === undefined) throw new HaloError("invalid-arguments", "restore needs 'id'.");
        return { text: await restoreArchived(engine, p, args.id, args.ttl) };
      },
    }),
  );
}

function formatRow(row: EpisodicRow): string {
  const text = row.text.replace(/\s*\n\s*/g, " ");
  const snippet = text.length > EPISODIC_SNIPPET_CHARS ? text.slice(0, EPISODIC_SNIPPET_CHARS) + "…" : text;
  const when = new Date(row.ts).toISOString().slice(0, 19) + "Z";
  return `- ${formatPosition(row)} ${when} [${row.session}] ${row.role} ${row.kind}: ${snippet}`;
}
