import { toJson } from "../util/json";
// nostr.profile_get, nostr.profile_set, nostr.nip05_lookup, nostr.relay_info and
// nostr.longform_post (a stored markdown file as a kind 30023 article).
import { HaloError } from "../errors";
import { parsePubkey } from "../nostr/keys";
import { lookupNip05, relayInfo } from "../nostr/http-docs";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "../nostr/limits";
import type { NostrSubsystem } from "../nostr/subsystem";
import type { OutboundHttp } from "../net/outbound";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import type { ArtifactStore } from "../store/artifact-store";
import { publish } from "./nostr";
import { PUBKEY } from "./nostr-schemas";

const PROFILE_FIELD = { type: "string", maxLength: 500 } as const;
const LONGFORM_MAX_CHARS = 60_000;

/** What the profile tools use: the device's key and relays, the guarded HTTP client (NIP-05, relay info) and the file store. */
export interface NostrProfileToolDeps {
  nostr: NostrSubsystem;
  outbound: OutboundHttp;
  artifacts: ArtifactStore;
}

export const nostrProfileGet = defineTool({
  name: "nostr.profile_get",
  needs: ["nostr"],
  description: "Look up a Nostr profile (kind 0 metadata) by public key; the device's own by default.",
  effect: "read",
  openWorld: true,
  inputSchema: { type: "object", properties: { pubkey: PUBKEY }, additionalProperties: false },
  handler: async (args, _ctx, { nostr }: Pick<NostrProfileToolDeps, "nostr">): Promise<ToolResult> => {
    if (!nostr.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
    const who = args.pubkey === undefined ? nostr.identity.pubkey : parsePubkey(args.pubkey);
    const [latest] = await nostr.pool.query([{ kinds: [0], authors: [who], limit: 1 }], NOSTR_QUERY_TIMEOUT_DEFAULT_MS);
    if (!latest || latest.pubkey !== who || latest.kind !== 0) throw new HaloError("not-found", "no profile for that key on the relays.");
    let fields: unknown;
    try {
      fields = JSON.parse(latest.content);
    } catch {
      throw new HaloError("invalid", "the profile's content is not JSON.");
    }
    return { text: `profile of ${who} (updated ${latest.created_at}):\n${toJson(fields).slice(0, 2000)}` };
  },
});

export const nostrProfileSet = defineTool({
  name: "nostr.profile_set",
  needs: ["nostr"],
  description: "Publish the device's own profile (kind 0): name, about, picture, nip05, website.",
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: {
      name: PROFILE_FIELD,
      display_name: PROFILE_FIELD,
      about: { type: "string", maxLength: 2000 },
      picture: PROFILE_FIELD,
      nip05: PROFILE_FIELD,
      website: PROFILE_FIELD,
    },
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: Pick<NostrProfileToolDeps, "nostr">): Promise<ToolResult> =>
    publish(nostr, nostr.identity.sign({ kind: 0, tags: [], content: toJson(args), created_at: nostr.nowSeconds() })),
});

export const nostrNip05Lookup = defineTool({
  name: "nostr.nip05_lookup",
  needs: ["outbound"],
  description: "Resolve a NIP-05 identifier (name@domain) to a public key and its relays.",
  effect: "read",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { identifier: { type: "string", minLength: 3, maxLength: 320 } },
    required: ["identifier"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { outbound }: Pick<NostrProfileToolDeps, "outbound">): Promise<ToolResult> => {
    const found = await lookupNip05(outbound, args.identifier);
    return { text: `pubkey: ${found.pubkey}\nrelays: ${found.relays.join(", ") || "none listed"}` };
  },
});

export const nostrRelayInfo = defineTool({
  name: "nostr.relay_info",
  needs: ["outbound", "nostr"],
  description: "Fetch a relay's NIP-11 information document.",
  effect: "read",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { relay_url: { type: "string", minLength: 6, maxLength: 256 } },
    required: ["relay_url"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { outbound, nostr }: Pick<NostrProfileToolDeps, "outbound" | "nostr">): Promise<ToolResult> => ({
    text: toJson(await relayInfo(outbound, args.relay_url, nostr.relays())).slice(0, 3000),
  }),
});

export const nostrLongformPost = defineTool({
  name: "nostr.longform_post",
  needs: ["nostr", "artifacts"],
  description: "Publish a stored markdown file (files.*) as a long-form article (kind 30023); the d tag defaults to the file name.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: {
      project: { type: "string", minLength: 1, maxLength: 40 },
      name: { type: "string", minLength: 1, maxLength: 80 },
      d: { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" },
      title: { type: "string", maxLength: 200 },
    },
    required: ["project", "name"],
    additionalProperties: false,
  },
  handler: (args, ctx, { nostr, artifacts }: Pick<NostrProfileToolDeps, "artifacts" | "nostr">): Promise<ToolResult> => {
    const { record, bytes } = artifacts.readBytes(ctx.principal, args.project, args.name);
    if (!/\.(md|markdown|txt)$/i.test(record.name)) throw new HaloError("invalid", "long-form posts are made from markdown files.");
    const text = new TextDecoder().decode(bytes);
    if (text.length > LONGFORM_MAX_CHARS) throw new HaloError("too-large", `an article is at most ${LONGFORM_MAX_CHARS} characters.`);
    const tags = [
      ["d", args.d ?? record.name.toLowerCase()],
      ["title", args.title ?? record.name.replace(/\.[a-z]+$/i, "")],
      ["published_at", String(nostr.nowSeconds())],
    ];
    return publish(nostr, nostr.identity.sign({ kind: 30023, tags, content: text, created_at: nostr.nowSeconds() }));
  },
});

/** The tools of this file. */
export const NOSTR_PROFILE_TOOLS = [nostrProfileGet, nostrProfileSet, nostrNip05Lookup, nostrRelayInfo, nostrLongformPost] as const;
