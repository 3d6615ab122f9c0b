import { toJson } from "../util/json";
// NIP-51 lists of the device's own key: public entries in the tags, private
// ones as a NIP-44 (to itself) JSON array of tags in the content. Editing
// fetches the newest copy from the relays, changes it and republishes it.
import { HaloError } from "../errors";
import { type NostrEvent, tagValue } from "./event";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "./limits";
import type { NostrSubsystem } from "./subsystem";

/** Entries one list keeps (public and private together). */
export const NOSTR_LIST_MAX_ENTRIES = 500;
export const KIND_MUTE_LIST = 10000;

export interface ListContents {
  publicTags: string[][];
  privateTags: string[][];
}

export function isListKind(kind: number): boolean {
  return (kind >= 10000 && kind < 20000) || (kind >= 30000 && kind < 40000) || kind === 3;
}

/** Opens a list event of the device's own key; private entries that do not decrypt are left out. */
export function readList(nostr: NostrSubsystem, e: NostrEvent | undefined): ListContents {
  if (!e) return { publicTags: [], privateTags: [] };
  const publicTags = e.tags.filter((t) => t[0] !== "d");
  let privateTags: string[][] = [];
  if (e.content) {
    try {
      const parsed: unknown = JSON.parse(nostr.identity.nip44Decrypt(nostr.identity.pubkey, e.content));
      if (Array.isArray(parsed))
        privateTags = parsed.filter((t): t is string[] => Array.isArray(t) && t.length > 0 && t.every((v) => typeof v === "string"));
    } catch {
      privateTags = [];
    }
  }
  return { publicTags, privateTags };
}

const same = (a: string[], b: string[]): boolean => a.length >= 2 && b.length >= 2 && a[0] === b[0] && a[1] === b[1];

/** Adds or removes entries (matched by name and first value) and publishes the new list; returns the event and contents. */
export async function editList(
  nostr: NostrSubsystem,
  kind: number,
  d: string | undefined,
  action: "add" | "remove",
  items: string[][],
  privately: boolean,
): Promise<{ event: NostrEvent; contents: ListContents }> {
  if (!nostr.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
  if (!isListKind(kind)) throw new HaloError("invalid", "lists are kinds 3, 10000-19999 or 30000-39999.");
  if (kind >= 30000 && !d) throw new HaloError("invalid-arguments", "a list of kind 30000-39999 needs its d tag.");
  const filter: { [k: string]: unknown } = { kinds: [kind], authors: [nostr.identity.pubkey], limit: 1 };
  if (kind >= 30000) filter["#d"] = [d];
  const found = await nostr.pool.query([filter], NOSTR_QUERY_TIMEOUT_DEFAULT_MS);
  const contents = readList(
    nostr,
    found.find((e) => e.pubkey === nostr.identity.pubkey && e.kind === kind && (kind < 30000 || tagValue(e, "d") === d)),
  );
  for (const item of items) {
    contents.publicTags = contents.publicTags.filter((t) => !same(t, item));
    contents.privateTags = contents.privateTags.filter((t) => !same(t, item));
    if (action === "add") (privately ? contents.privateTags : contents.publicTags).push(item.slice());
  }
  if (contents.publicTags.length + contents.privateTags.length > NOSTR_LIST_MAX_ENTRIES)
    throw new HaloError("limit", `a list holds at most ${NOSTR_LIST_MAX_ENTRIES} entries.`);
  const tags = kind >= 30000 ? [["d", d as string], ...contents.publicTags] : contents.publicTags;
  const content = contents.privateTags.length ? nostr.identity.nip44Encrypt(nostr.identity.pubkey, toJson(contents.privateTags)) : "";
  const event = nostr.identity.sign({ kind, tags, content, created_at: nostr.nowSeconds() });
  return { event, contents };
}
