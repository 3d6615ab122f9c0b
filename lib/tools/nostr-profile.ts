import { toJson } from "../util/json";
// nostr.profile_get, nostr.profile_set, nostr.nip05_lookup, nostr.relay_info, and the seed's two
// long-form tools, nostr.post_readme and nostr.file_md_to_longform_post (a stored markdown file as a
// NIP-23 kind 30023 article).
import { HaloError } from "../errors";
import { parsePubkey } from "../nostr/keys";
import { lookupNip05, relayInfo } from "../nostr/http-docs";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "../nostr/limits";
import type { NostrSubsystem } from "../nostr/subsystem";
import type { OutboundHttp } from "../net/outbound";
import { defineTool } from "../registry/define";
import type { Principal } from "../registry/principal";
import type { ToolResult } from "../registry/types";
import type { ArtifactStore } from "../store/artifact-store";
import { publish } from "./nostr";
import { PUBKEY } from "./nostr-schemas";

const PROFILE_FIELD = { type: "string", maxLength: 500 } as const;
/** A long-form article at most (UTF-8 bytes: an event's content is at most 64 KB). */
const LONGFORM_MAX_BYTES = 60_000;
const KIND_LONGFORM = 30023;

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

/** A d tag of a long-form post (NIP-33 address part): what the seed's default, the lower-case file name, usually is. */
const D_TAG_PATTERN = /^[a-z0-9._-]{1,64}$/;
const LONGFORM_FIELD = { type: "string", maxLength: 200 } as const;
/** `<project>/<file>` in the file store. */
const FILE_PATH = { type: "string", minLength: 3, maxLength: 121, pattern: "^[^/]{1,40}/[^/]{1,80}$" } as const;

/**
 * Publishes a stored markdown file as a NIP-23 long-form article (kind 30023). The file's size is checked
 * before its bytes are read, and its text must be UTF-8; `d` is checked here because a default made from a
 * file name may not fit.
 */
function longform(
  nostr: NostrSubsystem,
  artifacts: ArtifactStore,
  principal: Principal,
  file: { project: string; name: string },
  fields: { d: string; title?: string; summary?: string },
): Promise<ToolResult> {
  const record = artifacts.stat(principal, file.project, file.name);
  if (!/\.(md|markdown)$/i.test(record.name)) throw new HaloError("invalid", "long-form posts are made from markdown files (.md).");
  if (record.size > LONGFORM_MAX_BYTES) throw new HaloError("too-large", `an article is at most ${LONGFORM_MAX_BYTES} bytes.`);
  if (!D_TAG_PATTERN.test(fields.d))
    throw new HaloError("invalid", "a d tag is 1 to 64 lower-case letters, digits, dots, dashes or underscores (give d_tag).");
  const { bytes } = artifacts.readBytes(principal, file.project, file.name);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HaloError("invalid", "that file is not UTF-8 text.");
  }
  if (bytes.length > LONGFORM_MAX_BYTES || !text.trim()) throw new HaloError("invalid", "an article has 1 to 60,000 bytes of text.");
  const now = nostr.nowSeconds();
  const tags = [
    ["d", fields.d],
    ["title", fields.title ?? titleOf(text, record.name)],
    ["published_at", String(now)],
  ];
  if (fields.summary) tags.push(["summary", fields.summary]);
  return publish(nostr, nostr.identity.sign({ kind: KIND_LONGFORM, tags, content: text, created_at: now }));
}

/** The first markdown heading, else the file name without its extension. */
function titleOf(text: string, name: string): string {
  const m = /^#{1,3}[ \t]+(.{1,200})$/m.exec(text.slice(0, 4000));
  return m ? m[1].trim() : name.replace(/\.[a-z]+$/i, "");
}

export const nostrPostReadme = defineTool({
  name: "nostr.post_readme",
  needs: ["nostr", "artifacts"],
  description: "Publish a project's README.md from the file store as a long-form article (kind 30023) with the d tag readme.md.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { project: { type: "string", minLength: 1, maxLength: 40 }, title: LONGFORM_FIELD, summary: LONGFORM_FIELD },
    required: ["project"],
    additionalProperties: false,
  },
  handler: (args, ctx, { nostr, artifacts }: Pick<NostrProfileToolDeps, "artifacts" | "nostr">): Promise<ToolResult> =>
    longform(
      nostr,
      artifacts,
      ctx.principal,
      { project: args.project, name: "README.md" },
      { d: "readme.md", title: args.title, summary: args.summary },
    ),
});

export const nostrFileMdToLongformPost = defineTool({
  name: "nostr.file_md_to_longform_post",
  needs: ["nostr", "artifacts"],
  description:
    "Publish a markdown file from the file store (path: project/file.md) as a long-form article (kind 30023); the d tag defaults to the lower-case file name.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { path: FILE_PATH, d_tag: { type: "string", minLength: 1, maxLength: 64 }, title: LONGFORM_FIELD, summary: LONGFORM_FIELD },
    required: ["path"],
    additionalProperties: false,
  },
  handler: (args, ctx, { nostr, artifacts }: Pick<NostrProfileToolDeps, "artifacts" | "nostr">): Promise<ToolResult> => {
    const slash = args.path.indexOf("/");
    const file = { project: args.path.slice(0, slash), name: args.path.slice(slash + 1) };
    return longform(nostr, artifacts, ctx.principal, file, {
      d: args.d_tag ?? file.name.toLowerCase(),
      title: args.title,
      summary: args.summary,
    });
  },
});

/** The tools of this file. */
export const NOSTR_PROFILE_TOOLS = [
  nostrProfileGet,
  nostrProfileSet,
  nostrNip05Lookup,
  nostrRelayInfo,
  nostrPostReadme,
  nostrFileMdToLongformPost,
] as const;
