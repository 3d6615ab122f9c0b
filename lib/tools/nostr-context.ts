// Cached context blocks (the second seed's nostr_admin_* and nostr_agent_* tools, and admin_identity):
// the owner's and the device's profile, contacts, relays and notes as short texts, kept on the device and
// fetched again from the relays once an hour (lib/nostr/context-blocks.ts). Public Nostr data, so every
// caller may read them; skills bring them into a turn with `{{nostr_admin_profile}}` and the like.
import { HaloError } from "../errors";
import type { ContextBlockKind, ContextSubject } from "../nostr/context-blocks";
import { npubEncode } from "../nostr/nip19";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";

/** What the context tools read: the device's key, the owner's key and the cached blocks. */
export interface NostrContextToolDeps {
  nostr: NostrSubsystem;
}

const NO_ARGS = { type: "object", properties: {}, additionalProperties: false } as const;

async function block(nostr: NostrSubsystem, subject: ContextSubject, kind: ContextBlockKind): Promise<ToolResult> {
  return { text: await nostr.context.read(subject, kind) };
}

export const nostrAdminIdentity = defineTool({
  name: "nostr.admin_identity",
  needs: ["nostr"],
  description: "The owner's Nostr identity as a context block: public key (hex and npub).",
  effect: "read",
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): ToolResult => {
    const owner = nostr.owner();
    if (!owner) throw new HaloError("not-configured", "the owner's Nostr key is not set (PUT /api/nostr/owner).");
    return { text: `The owner of this device on Nostr:\npubkey: ${owner}\nnpub: ${npubEncode(owner)}` };
  },
});

export const nostrAdminProfile = defineTool({
  name: "nostr.admin_profile",
  needs: ["nostr"],
  description: "The owner's profile (kind 0: name, about, NIP-05...) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "admin", "profile"),
});

export const nostrAdminContacts = defineTool({
  name: "nostr.admin_contacts",
  needs: ["nostr"],
  description: "The owner's contact list (kind 3: the keys it follows) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "admin", "contacts"),
});

export const nostrAdminRelays = defineTool({
  name: "nostr.admin_relays",
  needs: ["nostr"],
  description: "The owner's relay list (kind 10002) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "admin", "relays"),
});

export const nostrAdminNotes = defineTool({
  name: "nostr.admin_notes",
  needs: ["nostr"],
  description: "The owner's latest notes (kind 1, the newest five) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "admin", "notes"),
});

export const nostrAgentProfile = defineTool({
  name: "nostr.agent_profile",
  needs: ["nostr"],
  description: "This device's profile (kind 0: name, about, NIP-05...) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "agent", "profile"),
});

export const nostrAgentContacts = defineTool({
  name: "nostr.agent_contacts",
  needs: ["nostr"],
  description: "This device's contact list (kind 3: the keys it follows) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "agent", "contacts"),
});

export const nostrAgentRelays = defineTool({
  name: "nostr.agent_relays",
  needs: ["nostr"],
  description: "This device's relay list (kind 10002) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "agent", "relays"),
});

export const nostrAgentNotes = defineTool({
  name: "nostr.agent_notes",
  needs: ["nostr"],
  description: "This device's latest notes (kind 1, the newest five) as a context block, cached on the device and refreshed hourly.",
  effect: "read",
  openWorld: true,
  inputSchema: NO_ARGS,
  handler: (_args, _ctx, { nostr }: NostrContextToolDeps): Promise<ToolResult> => block(nostr, "agent", "notes"),
});

/** The tools of this file. */
export const NOSTR_CONTEXT_TOOLS = [
  nostrAdminIdentity,
  nostrAdminProfile,
  nostrAdminContacts,
  nostrAdminRelays,
  nostrAdminNotes,
  nostrAgentProfile,
  nostrAgentContacts,
  nostrAgentRelays,
  nostrAgentNotes,
] as const;
