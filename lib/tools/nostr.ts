import { toJson } from "../util/json";
// nostr.post, nostr.delete, nostr.react, nostr.query, nostr.my_events: the
// seed's event tools, signing with the device's key and going through the pool.
import { HaloError } from "../errors";
import type { NostrEvent } from "../nostr/event";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "../nostr/limits";
import type { PublishOutcome } from "../nostr/pool";
import type { Filter } from "../nostr/relay";
import { matchesSearch, NOSTR_SEARCH_MAX_CHARS, searchWords } from "../nostr/search";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { CONTENT, FILTER, HEX64, KIND, TAGS, TIMEOUT_MS } from "./nostr-schemas";

/** Kinds a tool may not post directly: DMs and wraps have their own tools, and 0/3/10002 are the owner's settings. */
const RESERVED_KINDS = [4, 13, 14, 1059, 5];

export function outcomesText(event: NostrEvent, outcomes: PublishOutcome[]): string {
  const lines = outcomes.map((o) => `- ${o.relay}: ${o.result}${o.message ? ` (${o.message.slice(0, 120)})` : ""}`);
  return `event ${event.id} (kind ${event.kind})\n${lines.join("\n")}`;
}

function pool(nostr: NostrSubsystem): NonNullable<NostrSubsystem["pool"]> {
  if (!nostr.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
  return nostr.pool;
}

/** The relays' answers as a result; when none took the event, a failure with the same text. */
export function published(event: NostrEvent, outcomes: PublishOutcome[], summary?: string): ToolResult {
  const text = (summary ? `${summary}\n` : "") + outcomesText(event, outcomes);
  if (!outcomes.some((o) => o.result === "ok" || o.result === "queued")) throw new HaloError("failed", "no relay took the event.", text);
  return { text };
}

export async function publish(nostr: NostrSubsystem, event: NostrEvent): Promise<ToolResult> {
  return published(event, await pool(nostr).publish(event));
}

export function eventLine(e: NostrEvent): string {
  const d = e.tags.find((t) => t[0] === "d")?.[1];
  return `- ${e.id} kind ${e.kind} by ${e.pubkey.slice(0, 16)}... at ${e.created_at}${d ? ` d=${d}` : ""}: ${toJson(e.content.slice(0, 280))}`;
}

/** What the Nostr tools work on: the device's key, relays and pool. */
export interface NostrToolDeps {
  nostr: NostrSubsystem;
}

export const nostrPost = defineTool({
  name: "nostr.post",
  needs: ["nostr"],
  description: "Publish a Nostr event (default kind 1 note) signed by the device's key to its relays.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { kind: KIND, content: CONTENT, tags: TAGS },
    required: ["content"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: NostrToolDeps): Promise<ToolResult> => {
    const kind = args.kind ?? 1;
    if (RESERVED_KINDS.indexOf(kind) >= 0) throw new HaloError("refused", "that kind has its own tool (nostr.dm_send, nostr.delete).");
    const tags = (args.tags ?? []).map((t) => t.slice());
    return publish(nostr, nostr.identity.sign({ kind, content: args.content, tags, created_at: nostr.nowSeconds() }));
  },
});

export const nostrDelete = defineTool({
  name: "nostr.delete",
  needs: ["nostr"],
  description: "Ask relays to delete events the device published (NIP-09 kind 5).",
  adminOnly: true,
  effect: "destroy",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { event_ids: { type: "array", minItems: 1, maxItems: 20, items: HEX64 }, reason: { type: "string", maxLength: 280 } },
    required: ["event_ids"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrToolDeps): Promise<ToolResult> =>
    publish(
      nostr,
      nostr.identity.sign({
        kind: 5,
        content: args.reason ?? "",
        tags: args.event_ids.map((id) => ["e", id]),
        created_at: nostr.nowSeconds(),
      }),
    ),
});

export const nostrReact = defineTool({
  name: "nostr.react",
  needs: ["nostr"],
  description: "React to an event (NIP-25 kind 7): + like, - dislike, or an emoji.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { event_id: HEX64, event_pubkey: HEX64, reaction: { type: "string", minLength: 1, maxLength: 64 } },
    required: ["event_id", "event_pubkey"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrToolDeps): Promise<ToolResult> =>
    publish(
      nostr,
      nostr.identity.sign({
        kind: 7,
        content: args.reaction ?? "+",
        tags: [
          ["e", args.event_id],
          ["p", args.event_pubkey],
        ],
        created_at: nostr.nowSeconds(),
      }),
    ),
});

export const nostrQuery = defineTool({
  name: "nostr.query",
  needs: ["nostr"],
  description:
    "Query events from the relays with a NIP-01 filter (every event verified; newest first); search: NIP-50 full-text search on relays that support it.",
  effect: "read",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { filter: FILTER, search: { type: "string", minLength: 1, maxLength: NOSTR_SEARCH_MAX_CHARS }, timeout_ms: TIMEOUT_MS },
    required: ["filter"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: NostrToolDeps): Promise<ToolResult> => {
    const filter: Filter = { limit: 20, ...args.filter };
    if (args.search !== undefined) filter.search = args.search;
    const found = await pool(nostr).query([filter], args.timeout_ms ?? NOSTR_QUERY_TIMEOUT_DEFAULT_MS);
    // A relay without NIP-50 may ignore `search`: only events that hold every word are kept.
    const words = args.search === undefined ? [] : searchWords(args.search);
    const events = found.filter((e) => matchesSearch(e, words));
    if (events.length) return { text: `${events.length} event(s):\n${events.map(eventLine).join("\n")}` };
    return {
      text: args.search === undefined ? "No events matched." : "No events matched (only relays that support NIP-50 answer a search).",
    };
  },
});

export const nostrMyEvents = defineTool({
  name: "nostr.my_events",
  needs: ["nostr"],
  description: "Recent events the device's key published: kind, id, time and d tag.",
  effect: "read",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { kind: KIND, limit: { type: "integer", minimum: 1, maximum: 50 } },
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: NostrToolDeps): Promise<ToolResult> => {
    const filter: { [k: string]: unknown } = { authors: [nostr.identity.pubkey], limit: args.limit ?? 10 };
    if (args.kind !== undefined) filter.kinds = [args.kind];
    const events = await pool(nostr).query([filter], NOSTR_QUERY_TIMEOUT_DEFAULT_MS);
    return { text: events.length ? events.map(eventLine).join("\n") : "The device has published no such events." };
  },
});

/** nostr.post, .delete, .react, .query, .my_events. */
export const NOSTR_EVENT_TOOLS = [nostrPost, nostrDelete, nostrReact, nostrQuery, nostrMyEvents] as const;
