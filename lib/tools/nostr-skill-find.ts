// nostr.skill_search (public skills by text and author, ranked by how many
// kind 10123 adoption lists name them) and nostr.trigger_list (the approved
// triggered skills and how each ran).
import { HaloError } from "../errors";
import { tagValue, type NostrEvent } from "../nostr/event";
import { parsePubkey } from "../nostr/keys";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "../nostr/limits";
import { KIND_SKILL, KIND_SKILL_ADOPTIONS } from "../nostr/skills";
import type { NostrSubsystem } from "../nostr/subsystem";
import type { TriggerStatus } from "../nostr/triggers";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { PUBKEY } from "./nostr-schemas";

/** Skill events read per search, adoption lists read to rank them, and results shown. */
export const NOSTR_SKILL_SEARCH_EVENTS_MAX = 100;
export const NOSTR_SKILL_SEARCH_RESULTS_MAX = 20;

/** What the search reads (the relays) and what the trigger list reads (the skill triggers, which run turns). */
export interface SkillFindToolDeps {
  nostr: NostrSubsystem;
  triggers: { list(): TriggerStatus[] };
}

export const nostrSkillSearch = defineTool({
  name: "nostr.skill_search",
  needs: ["nostr"],
  description:
    "Search public skills (kind 31123) by words in their d tag, description or text and/or by author; popular: rank by how many agents adopted each (kind 10123 lists).",
  effect: "read",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { query: { type: "string", minLength: 1, maxLength: 100 }, author: PUBKEY, popular: { type: "boolean" } },
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: Pick<SkillFindToolDeps, "nostr">): Promise<ToolResult> => {
    const { pool } = nostr;
    if (!pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
    const filter: { [key: string]: unknown } = { kinds: [KIND_SKILL], limit: NOSTR_SKILL_SEARCH_EVENTS_MAX };
    if (args.author) filter.authors = [parsePubkey(args.author)];
    // Every word of the query, in any order ("webhook door" finds what "door webhook" finds).
    const words = (args.query ?? "")
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length > 0);
    const found = (await pool.query([filter], NOSTR_QUERY_TIMEOUT_DEFAULT_MS, NOSTR_SKILL_SEARCH_EVENTS_MAX)).filter(
      (e) => e.kind === KIND_SKILL && !!tagValue(e, "d") && (words.length === 0 || hasEvery(searchable(e), words)),
    );
    if (found.length === 0) return { text: "No skills found." };
    const counts = new Map<string, number>();
    if (args.popular) {
      const lists = await pool.query(
        [{ kinds: [KIND_SKILL_ADOPTIONS], "#a": found.slice(0, 20).map(addressOf), limit: NOSTR_SKILL_SEARCH_EVENTS_MAX }],
        NOSTR_QUERY_TIMEOUT_DEFAULT_MS,
        NOSTR_SKILL_SEARCH_EVENTS_MAX,
      );
      countAdoptions(lists, counts);
      found.sort((a, b) => (counts.get(addressOf(b)) ?? 0) - (counts.get(addressOf(a)) ?? 0));
    }
    const lines = found.slice(0, NOSTR_SKILL_SEARCH_RESULTS_MAX).map((e) => {
      const adopted = args.popular ? `; adopted by ${counts.get(addressOf(e)) ?? 0}` : "";
      return `- ${tagValue(e, "d")} by ${e.pubkey}: ${(tagValue(e, "description") ?? "(no description)").slice(0, 200)}; trigger ${tagValue(e, "trigger") ?? "none"}${adopted}`;
    });
    return { text: lines.join("\n") };
  },
});

export const nostrTriggerList = defineTool({
  name: "nostr.trigger_list",
  needs: ["triggers"],
  description: "The approved triggered skills and their runtime status: fires, running, next and last run, last result, dropped.",
  adminOnly: true,
  effect: "read",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, { triggers }: Pick<SkillFindToolDeps, "triggers">): ToolResult => {
    const all = triggers.list();
    if (all.length === 0) return { text: "No approved triggered skills." };
    return {
      text: all
        .map((t) => {
          const when = (ms?: number): string => (ms === undefined ? "never" : `${Math.floor(ms / 1000)}`);
          const next = t.nextRun === undefined ? "" : `; next run at ${when(t.nextRun)} s`;
          return `- ${t.id} ${t.d} (${t.trigger}): ${t.fires} fires${t.running ? ", running" : ""}; last run ${when(t.lastRun)}${next}; last result ${t.lastResult ?? "none"}; dropped ${t.dropped}`;
        })
        .join("\n"),
    };
  },
});

/** The tools of this file. */
export const NOSTR_SKILL_FIND_TOOLS = [nostrSkillSearch, nostrTriggerList] as const;

function addressOf(e: NostrEvent): string {
  return `${e.kind}:${e.pubkey}:${tagValue(e, "d")}`;
}

function searchable(e: NostrEvent): string {
  return `${tagValue(e, "d")}\n${tagValue(e, "description") ?? ""}\n${e.content}`.toLowerCase();
}

/** Distinct adopters per address: each author's newest list counts once. */
function countAdoptions(lists: NostrEvent[], counts: Map<string, number>): void {
  const newest = new Map<string, NostrEvent>();
  for (const e of lists) {
    const had = newest.get(e.pubkey);
    if (e.kind === KIND_SKILL_ADOPTIONS && (!had || had.created_at < e.created_at)) newest.set(e.pubkey, e);
  }
  for (const e of newest.values()) {
    for (const address of new Set(e.tags.filter((t) => t[0] === "a" && t[1]).map((t) => t[1])))
      counts.set(address, (counts.get(address) ?? 0) + 1);
  }
}

function hasEvery(text: string, words: readonly string[]): boolean {
  for (const w of words) if (text.indexOf(w) < 0) return false;
  return true;
}
