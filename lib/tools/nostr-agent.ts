import { toJson } from "../util/json";
// agent.identity, agent.version, nostr.relay_status, nostr.subscription_status,
// nostr.subscription_set, config.store and config.recall (kind 30078, NIP-44 to the device itself).
import { HaloError } from "../errors";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "../nostr/limits";
import { NOSTR_MEMORY_D } from "../nostr/memory-note";
import { NOSTR_TASKS_D } from "../nostr/task-note";
import type { NostrSubsystem } from "../nostr/subsystem";
import type { System } from "../ports";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { publish } from "./nostr";
import { FILTER } from "./nostr-schemas";

const KIND_APP_DATA = 30078;
const D_TAG = { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" } as const;
/** Subscriptions the device runs itself: a tool may switch them off but not rewrite them. */
const SYSTEM_SUBSCRIPTIONS = ["dm-inbox", "owner-contacts", "block-list"];

/** What the agent tools read: the device's Nostr key and relays, and the system (its version). */
export interface NostrAgentToolDeps {
  nostr: NostrSubsystem;
  system: System | undefined;
  /** The update engine: after an update it knows the running image's version, which the build's System does not. */
  updates: { readonly runningVersion: string } | undefined;
}

export const agentIdentity = defineTool({
  name: "agent.identity",
  needs: ["nostr"],
  description: "The device's Nostr identity: public key (hex and npub), the owner's key, the relays.",
  effect: "read",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, { nostr }: Pick<NostrAgentToolDeps, "nostr">): ToolResult => {
    const owner = nostr.owner();
    const lines = [
      `pubkey: ${nostr.identity.pubkey}`,
      `npub: ${nostr.identity.npub()}`,
      `owner: ${owner ?? "not set"}`,
      `relays: ${nostr.relays().join(", ") || "none"}`,
    ];
    return { text: lines.join("\n") };
  },
});

export const agentVersion = defineTool({
  name: "agent.version",
  needs: ["system", "updates"],
  description: "The firmware's version and build.",
  effect: "read",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, { system, updates }: Pick<NostrAgentToolDeps, "system" | "updates">): ToolResult => {
    const info = system?.info();
    // The running slot's version wins: after an update the build's own number is the old one.
    const version = updates?.runningVersion ?? info?.firmwareVersion;
    return {
      text: info
        ? `Halo ${version} (${info.build})${info.simulated ? ", simulator" : ""}`
        : version
          ? `Halo ${version}`
          : "Halo (version unknown on this host)",
    };
  },
});

export const nostrRelayStatus = defineTool({
  name: "nostr.relay_status",
  needs: ["nostr"],
  description: "Connection state and counters of each relay.",
  effect: "read",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, { nostr }: Pick<NostrAgentToolDeps, "nostr">): ToolResult => {
    const rows = nostr.pool?.status() ?? [];
    if (rows.length === 0) return { text: "No relays are set." };
    return {
      text: rows
        .map(
          (r) =>
            `- ${r.url}: ${r.connected ? "connected" : "disconnected"}, connects ${r.connects}, received ${r.received}, refused ${r.refused}, dropped ${r.dropped}, sent ${r.sent}${r.lastError && !r.connected ? ` (${r.lastError})` : ""}`,
        )
        .join("\n"),
    };
  },
});

export const nostrSubscriptionStatus = defineTool({
  name: "nostr.subscription_status",
  needs: ["nostr"],
  description: "The device's managed relay subscriptions, their filters and counts.",
  effect: "read",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, { nostr }: Pick<NostrAgentToolDeps, "nostr">): ToolResult => {
    const subs = nostr.pool?.subscriptions() ?? [];
    if (subs.length === 0) return { text: "No subscriptions." };
    return {
      text: subs.map((s) => `- ${s.name}: ${s.enabled ? "on" : "off"}, ${s.received} event(s), filters ${toJson(s.filters)}`).join("\n"),
    };
  },
});

export const nostrSubscriptionSet = defineTool({
  name: "nostr.subscription_set",
  needs: ["nostr"],
  description: "Switch a managed subscription on or off, or replace its filter.",
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { name: { type: "string", minLength: 1, maxLength: 64 }, enabled: { type: "boolean" }, filter: FILTER },
    required: ["name"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: Pick<NostrAgentToolDeps, "nostr">): ToolResult => {
    if (args.filter && SYSTEM_SUBSCRIPTIONS.indexOf(args.name) >= 0)
      throw new HaloError("protected-BLOCKED", "the device's own subscriptions keep their filters.");
    const done = nostr.pool?.update(args.name, { enabled: args.enabled, filters: args.filter ? [args.filter] : undefined });
    if (!done) throw new HaloError("not-found", "no subscription by that name (see nostr.subscription_status).");
    return { text: `Subscription ${args.name} updated.` };
  },
});

export const configStore = defineTool({
  name: "config.store",
  needs: ["nostr"],
  description: "Encrypt a config note to the device's own key and publish it as kind 30078 under a d tag.",
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { d_tag: D_TAG, content: { type: "string", minLength: 1, maxLength: 16 * 1024 } },
    required: ["d_tag", "content"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: Pick<NostrAgentToolDeps, "nostr">): Promise<ToolResult> => {
    // The memory and task notes have their own tools, which keep their shape and never lose an entry.
    if (args.d_tag === NOSTR_MEMORY_D || args.d_tag === NOSTR_TASKS_D)
      throw new HaloError("reserved", "the memory and tasks notes are written by memory.nostr_save and task.manage.");
    const content = nostr.identity.nip44Encrypt(nostr.identity.pubkey, args.content);
    return publish(nostr, nostr.identity.sign({ kind: KIND_APP_DATA, tags: [["d", args.d_tag]], content, created_at: nostr.nowSeconds() }));
  },
});

export const configRecall = defineTool({
  name: "config.recall",
  needs: ["nostr"],
  description: "Fetch and decrypt the device's kind 30078 config note for a d tag.",
  adminOnly: true,
  effect: "read",
  openWorld: true,
  inputSchema: { type: "object", properties: { d_tag: D_TAG }, required: ["d_tag"], additionalProperties: false },
  handler: async (args, _ctx, { nostr }: Pick<NostrAgentToolDeps, "nostr">): Promise<ToolResult> => {
    if (!nostr.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
    const found = await nostr.pool.query(
      [{ kinds: [KIND_APP_DATA], authors: [nostr.identity.pubkey], "#d": [args.d_tag], limit: 1 }],
      NOSTR_QUERY_TIMEOUT_DEFAULT_MS,
    );
    const note = found.find((e) => e.pubkey === nostr.identity.pubkey && e.tags.some((t) => t[0] === "d" && t[1] === args.d_tag));
    if (!note) throw new HaloError("not-found", "no config note with that d tag on the relays.");
    try {
      return { text: nostr.identity.nip44Decrypt(nostr.identity.pubkey, note.content) };
    } catch {
      throw new HaloError("invalid", "the stored note does not decrypt with the device's key.");
    }
  },
});

/** The tools of this file. */
export const NOSTR_AGENT_TOOLS = [
  agentIdentity,
  agentVersion,
  nostrRelayStatus,
  nostrSubscriptionStatus,
  nostrSubscriptionSet,
  configStore,
  configRecall,
] as const;
