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
import type { Clock, Storage } from "../ports";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { MEMORY_ID, TTL } from "./memory";
import { describeArchiveHits, describeArchiveList, describeRestore } from "./memory-text";

const HOUR_MS = 3600 * 1000;
/** memory.episodic's limit is clamped to 1..EPISODIC_PAGE_MAX; the schema only bounds it loosely. */
const LIMIT_SCHEMA_MAX = 10000;

/** What memory.episodic reads: the episodic store on the card (undefined without one) and the time. */
export interface EpisodicToolDeps {
  episodic: EpisodicStore | undefined;
  clock: Clock;
}

/** memory.episodic over the episodic store; not available on a device without one. */
export const memoryEpisodic = defineTool({
  name: "memory.episodic",
  needs: ["episodic", "clock"],
  available: ({ episodic }: EpisodicToolDeps) => (episodic ? true : "this device keeps no episodic history (it has no SD card)."),
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
  handler: (args, ctx, { episodic, clock }: EpisodicToolDeps): ToolResult => {
    const p = ctx.principal;
    if (!episodic) throw new HaloError("not-configured", "this device keeps no episodic history (it has no SD card).");
    const limit = Math.max(1, Math.min(EPISODIC_PAGE_MAX, args.limit ?? EPISODIC_PAGE_DEFAULT));
    const before = args.before === undefined ? undefined : parsePosition(args.before);
    if (args.before !== undefined && !before) throw new HaloError("invalid-arguments", "'before' is not a continue token.");
    const t = clock.now();
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
});

/** What memory.archive works on: the memory engine, and the card slot its archive needs. */
export interface ArchiveToolDeps {
  memory: MemoryEngine;
  storage: Storage | undefined;
}

/** memory.archive over the SD archive; not available on a device without an SD card slot. */
export const memoryArchive = defineTool({
  name: "memory.archive",
  needs: ["memory", "storage"],
  available: ({ storage }: ArchiveToolDeps) => (storage ? true : "this device has no SD card slot for the memory archive."),
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
  handler: async (args, ctx, { memory }: ArchiveToolDeps): Promise<ToolResult> => {
    const p = ctx.principal;
    if (args.action === "list") return { text: describeArchiveList(listArchive(memory, p, args.limit ?? 10)) };
    if (args.action === "search") {
      if (args.query === undefined) throw new HaloError("invalid-arguments", "search needs 'query'.");
      return { text: describeArchiveHits(await searchArchive(memory, p, args.query, args.n_results ?? memory.config.retrieval_count)) };
    }
    if (args.id === undefined) throw new HaloError("invalid-arguments", "restore needs 'id'.");
    return { text: describeRestore(await restoreArchived(memory, p, args.id, args.ttl)) };
  },
});

/** memory.episodic and memory.archive: the history beside live memory. */
export const MEMORY_HISTORY_TOOLS = [memoryEpisodic, memoryArchive] as const;

function formatRow(row: EpisodicRow): string {
  const text = row.text.replace(/\s*\n\s*/g, " ");
  const snippet = text.length > EPISODIC_SNIPPET_CHARS ? text.slice(0, EPISODIC_SNIPPET_CHARS) + "…" : text;
  const when = new Date(row.ts).toISOString().slice(0, 19) + "Z";
  return `- ${formatPosition(row)} ${when} [${row.session}] ${row.role} ${row.kind}: ${snippet}`;
}
