// blossom.*: the seed's five blossom_* tools (the plain spellings are the seed's names). Blobs go up from the
// file store and come down into it, hashed before anything is kept; only servers on the owner's list (or the
// owner's BUD-03 kind 10063 list) are reached; uploads and deletes are signed by the device's key with a
// kind-24242 authorization, so they are the owner's (docs/nostr.md, "Blossom").
import { toJson } from "../util/json";
import { HaloError } from "../errors";
import { BLOSSOM_SERVER_URL_MAX_CHARS, type BlossomClient } from "../nostr/blossom";
import { parsePubkey } from "../nostr/keys";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import type { ArtifactStore } from "../store/artifact-store";
import { mimeOf } from "../store/artifact-names";
import { NAME_ARG, PROJECT_ARG } from "./files";
import { HEX64, PUBKEY } from "./nostr-schemas";

export interface BlossomToolDeps {
  blossom: BlossomClient;
  artifacts: ArtifactStore;
}

export interface BlossomListDeps {
  blossom: BlossomClient;
  nostr: NostrSubsystem;
}

const SERVER = {
  type: "string",
  minLength: 8,
  maxLength: BLOSSOM_SERVER_URL_MAX_CHARS,
  description: "a server from the owner's list",
} as const;
const SHA256 = { ...HEX64, description: "the blob's SHA-256, 64 lower-case hex characters" } as const;

export const blossomUpload = defineTool({
  name: "blossom.upload",
  needs: ["blossom", "artifacts"],
  adminOnly: true,
  effect: "act",
  openWorld: true,
  description:
    "Upload a file from the file store to a Blossom server (BUD-02, signed by the device's key); returns the blob's URL, SHA-256 and size.",
  inputSchema: {
    type: "object",
    properties: { project: PROJECT_ARG, name: NAME_ARG, server: SERVER },
    required: ["project", "name"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { blossom, artifacts }: BlossomToolDeps): Promise<ToolResult> => {
    const { bytes } = artifacts.readBytes(ctx.principal, args.project, args.name);
    const d = await blossom.upload(bytes, mimeOf(args.name), ctx.signal, args.server);
    return { text: toJson(d), structured: { ...d } };
  },
});

export const blossomDownload = defineTool({
  name: "blossom.download",
  needs: ["blossom", "artifacts"],
  effect: "write",
  openWorld: true,
  description: "Download a blob by its SHA-256 from a Blossom server into the file store; the hash is checked before the file is kept.",
  inputSchema: {
    type: "object",
    properties: { sha256: SHA256, project: PROJECT_ARG, name: NAME_ARG, server: SERVER },
    required: ["sha256", "project", "name"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { blossom, artifacts }: BlossomToolDeps): Promise<ToolResult> => {
    if (!artifacts.canWrite(ctx.principal, args.project, args.name)) {
      throw new HaloError("conflict", "that file name is taken; choose another name.");
    }
    const blob = await blossom.download(args.sha256, ctx.signal, args.server);
    const saved = artifacts.save(ctx.principal, args.project, args.name, blob.bytes, { note: `blossom ${args.sha256}` });
    return {
      text: `Saved ${saved.record.project}/${saved.record.name} (${saved.record.size} bytes, SHA-256 checked) from ${blob.server}.`,
    };
  },
});

export const blossomHead = defineTool({
  name: "blossom.head",
  needs: ["blossom"],
  effect: "read",
  openWorld: true,
  description: "Whether a Blossom server has a blob, and its size and type (BUD-01 HEAD).",
  inputSchema: { type: "object", properties: { sha256: SHA256, server: SERVER }, required: ["sha256"], additionalProperties: false },
  handler: async (args, ctx, { blossom }: { blossom: BlossomClient }): Promise<ToolResult> => ({
    text: toJson({ sha256: args.sha256, ...(await blossom.head(args.sha256, ctx.signal, args.server)) }),
  }),
});

export const blossomDelete = defineTool({
  name: "blossom.delete",
  needs: ["blossom"],
  adminOnly: true,
  effect: "destroy",
  openWorld: true,
  description: "Delete a blob the device uploaded from a Blossom server (BUD-02, a signed kind-24242 authorization).",
  inputSchema: { type: "object", properties: { sha256: SHA256, server: SERVER }, required: ["sha256"], additionalProperties: false },
  handler: async (args, ctx, { blossom }: { blossom: BlossomClient }): Promise<ToolResult> => ({
    text: `Deleted ${args.sha256} from ${await blossom.remove(args.sha256, ctx.signal, args.server)}.`,
  }),
});

export const blossomList = defineTool({
  name: "blossom.list",
  needs: ["blossom", "nostr"],
  effect: "read",
  openWorld: true,
  description: "List the blobs a public key has on a Blossom server (BUD-02); the device's own key by default.",
  inputSchema: { type: "object", properties: { pubkey: PUBKEY, server: SERVER }, additionalProperties: false },
  handler: async (args, ctx, { blossom, nostr }: BlossomListDeps): Promise<ToolResult> => {
    const pubkey = args.pubkey === undefined ? nostr.identity.pubkey : parsePubkey(args.pubkey);
    const { server, blobs } = await blossom.list(pubkey, ctx.signal, args.server);
    return { text: toJson({ server, count: blobs.length, blobs }) };
  },
});

/** The seed's five blossom_* tools. */
export const BLOSSOM_TOOLS = [blossomUpload, blossomDownload, blossomHead, blossomDelete, blossomList] as const;
