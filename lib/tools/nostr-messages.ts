import { toJson } from "../util/json";
// nostr.dm_send (NIP-04), nostr.dm_send_nip17 (gift-wrapped), nostr.encrypt and
// nostr.decrypt (NIP-44 with the device's key), nostr.encode and nostr.decode (NIP-19).
import { sendDm } from "../nostr/dm-channel";
import { HaloError } from "../errors";
import { parsePubkey } from "../nostr/keys";
import { NOSTR_DM_MAX_CHARS } from "../nostr/limits";
import type { NostrSubsystem } from "../nostr/subsystem";
import { decode, naddrEncode, neventEncode, noteEncode, nprofileEncode, npubEncode } from "../nostr/nip19";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { published } from "./nostr";
import { HEX64, KIND, PUBKEY } from "./nostr-schemas";

const MESSAGE = { type: "string", minLength: 1, maxLength: NOSTR_DM_MAX_CHARS } as const;
const PAYLOAD = { type: "string", minLength: 1, maxLength: 96 * 1024 } as const;

/** What the message tools work on: the device's key and relays. */
export interface NostrMessageToolDeps {
  nostr: NostrSubsystem;
}

/** Sends a DM (NIP-04, or NIP-17 gift-wrapped) and reports the relays' answers. */
async function dm(nostr: NostrSubsystem, recipient: string, message: string, nip: "04" | "17", subject?: string): Promise<ToolResult> {
  if (!nostr.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
  const to = parsePubkey(recipient);
  const { event, outcomes } = await sendDm(nostr, to, message, nip, subject);
  return published(event, outcomes);
}

export const nostrDmSend = defineTool({
  name: "nostr.dm_send",
  needs: ["nostr"],
  description: "Send a NIP-04 encrypted DM from the device's key.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { recipient_pubkey: PUBKEY, message: MESSAGE },
    required: ["recipient_pubkey", "message"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrMessageToolDeps) => dm(nostr, args.recipient_pubkey, args.message, "04"),
});

export const nostrDmSendNip17 = defineTool({
  name: "nostr.dm_send_nip17",
  needs: ["nostr"],
  description: "Send a private DM (NIP-17 gift wrap, NIP-44 encrypted; hides sender and time).",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { recipient_pubkey: PUBKEY, message: MESSAGE, subject: { type: "string", maxLength: 200 } },
    required: ["recipient_pubkey", "message"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrMessageToolDeps) => dm(nostr, args.recipient_pubkey, args.message, "17", args.subject),
});

export const nostrEncrypt = defineTool({
  name: "nostr.encrypt",
  needs: ["nostr"],
  description: "Encrypt text for a recipient with NIP-44 v2 and the device's key.",
  adminOnly: true,
  effect: "read",
  inputSchema: {
    type: "object",
    properties: { recipient_pubkey: PUBKEY, plaintext: MESSAGE },
    required: ["recipient_pubkey", "plaintext"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrMessageToolDeps): ToolResult => ({
    text: nostr.identity.nip44Encrypt(parsePubkey(args.recipient_pubkey), args.plaintext),
  }),
});

export const nostrDecrypt = defineTool({
  name: "nostr.decrypt",
  needs: ["nostr"],
  description: "Decrypt a NIP-44 v2 payload from a sender with the device's key.",
  adminOnly: true,
  effect: "read",
  inputSchema: {
    type: "object",
    properties: { sender_pubkey: PUBKEY, ciphertext: PAYLOAD },
    required: ["sender_pubkey", "ciphertext"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrMessageToolDeps): ToolResult => {
    const from = parsePubkey(args.sender_pubkey);
    try {
      return { text: nostr.identity.nip44Decrypt(from, args.ciphertext) };
    } catch {
      throw new HaloError("invalid", "the payload does not decrypt (wrong key, version, MAC or padding).");
    }
  },
});

export const nostrEncode = defineTool({
  name: "nostr.encode",
  description: "Encode hex into a NIP-19 entity: npub, note, nprofile, nevent or naddr.",
  effect: "read",
  inputSchema: {
    type: "object",
    properties: {
      type: { type: "string", enum: ["npub", "note", "nprofile", "nevent", "naddr"] },
      hex: HEX64,
      relays: { type: "array", maxItems: 5, items: { type: "string", maxLength: 200 } },
      kind: KIND,
      identifier: { type: "string", maxLength: 200 },
    },
    required: ["type", "hex"],
    additionalProperties: false,
  },
  handler: (args): ToolResult => {
    const relays = args.relays ?? [];
    switch (args.type) {
      case "npub":
        return { text: `nostr:${npubEncode(args.hex)}` };
      case "note":
        return { text: `nostr:${noteEncode(args.hex)}` };
      case "nprofile":
        return { text: `nostr:${nprofileEncode({ pubkey: args.hex, relays })}` };
      case "nevent":
        return { text: `nostr:${neventEncode({ id: args.hex, relays, kind: args.kind })}` };
      default:
        if (args.kind === undefined || args.identifier === undefined)
          throw new HaloError("invalid-arguments", "naddr needs kind and identifier.");
        return { text: `nostr:${naddrEncode({ pubkey: args.hex, kind: args.kind, identifier: args.identifier, relays })}` };
    }
  },
});

export const nostrDecode = defineTool({
  name: "nostr.decode",
  description: "Decode a NIP-19 entity or nostr: URI into its parts.",
  effect: "read",
  inputSchema: {
    type: "object",
    properties: { uri: { type: "string", minLength: 1, maxLength: 2000 } },
    required: ["uri"],
    additionalProperties: false,
  },
  handler: (args): ToolResult => {
    const code = args.uri.trim().replace(/^nostr:/, "");
    if (code.startsWith("nsec1")) throw new HaloError("refused", "secret keys are not decoded here.");
    try {
      const d = decode(code);
      return { text: toJson({ type: d.type, data: d.data }) };
    } catch {
      throw new HaloError("invalid", "that is not a NIP-19 entity.");
    }
  },
});

/** The tools of this file. */
export const NOSTR_MESSAGE_TOOLS = [nostrDmSend, nostrDmSendNip17, nostrEncrypt, nostrDecrypt, nostrEncode, nostrDecode] as const;
