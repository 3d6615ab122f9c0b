// nostr.list_manage (NIP-51 lists), nostr.block_list and nostr.block_edit (the
// kind 10000 mute list, private by default; DMs from blocked keys are dropped).
import { HaloError } from "../errors";
import { editList, KIND_MUTE_LIST } from "../nostr/lists";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { published } from "./nostr";

const ITEMS = {
  type: "array",
  minItems: 1,
  maxItems: 50,
  items: { type: "array", minItems: 2, maxItems: 4, items: { type: "string", minLength: 1, maxLength: 300 } },
} as const;

/** What the list tools work on: the device's key, relays and block list. */
export interface NostrListToolDeps {
  nostr: NostrSubsystem;
}

/** Adds or removes items of a NIP-51 list and publishes it; the mute list also becomes the block list at once. */
async function publishList(
  nostr: NostrSubsystem,
  kind: number,
  d: string | undefined,
  action: "add" | "remove",
  items: string[][],
  privately: boolean,
): Promise<ToolResult> {
  const { event, contents } = await editList(nostr, kind, d, action, items, privately);
  const outcomes = await nostr.pool!.publish(event);
  if (kind === KIND_MUTE_LIST) nostr.takeBlockList(contents);
  return published(event, outcomes, `${contents.publicTags.length} public and ${contents.privateTags.length} private entries`);
}

export const nostrListManage = defineTool({
  name: "nostr.list_manage",
  needs: ["nostr"],
  description: "Add or remove tag tuples in one of the device's NIP-51 lists (public tags or private, encrypted to itself).",
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: {
      list_kind: { type: "integer", minimum: 3, maximum: 39999 },
      action: { type: "string", enum: ["add", "remove"] },
      items: ITEMS,
      d: { type: "string", minLength: 1, maxLength: 64 },
      private: { type: "boolean" },
    },
    required: ["list_kind", "action", "items"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrListToolDeps): Promise<ToolResult> =>
    publishList(
      nostr,
      args.list_kind,
      args.d,
      args.action,
      args.items.map((t) => t.slice()),
      args.private ?? false,
    ),
});

export const nostrBlockEdit = defineTool({
  name: "nostr.block_edit",
  needs: ["nostr"],
  description: "Add or remove blocked keys (p), events (e), hashtags (t) or words in the kind 10000 block list; private by default.",
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { action: { type: "string", enum: ["add", "remove"] }, items: ITEMS, public: { type: "boolean" } },
    required: ["action", "items"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrListToolDeps): Promise<ToolResult> => {
    for (const t of args.items)
      if (["p", "e", "t", "word"].indexOf(t[0]) < 0) throw new HaloError("invalid", "block entries are p, e, t or word tuples.");
    return publishList(
      nostr,
      KIND_MUTE_LIST,
      undefined,
      args.action,
      args.items.map((t) => t.slice()),
      !(args.public ?? false),
    );
  },
});

export const nostrBlockList = defineTool({
  name: "nostr.block_list",
  needs: ["nostr"],
  description: "The blocked keys, events, hashtags or words (the device's kind 10000 list, as last loaded).",
  adminOnly: true,
  effect: "read",
  inputSchema: { type: "object", properties: { type: { type: "string", enum: ["p", "e", "t", "word"] } }, additionalProperties: false },
  handler: (args, _ctx, { nostr }: NostrListToolDeps): ToolResult => {
    const entries = nostr.blockEntries().filter((t) => args.type === undefined || t[0] === args.type);
    return { text: entries.length ? entries.map((t) => `- ${t[0]} ${t[1]}`).join("\n") : "Nothing is blocked." };
  },
});

/** The tools of this file. */
export const NOSTR_LIST_TOOLS = [nostrListManage, nostrBlockEdit, nostrBlockList] as const;
