// Reading a public key the way people write one: 64 hex characters, an npub, or a nostr: URI.
import { HaloError } from "../errors";
import { isHex64 } from "./event";
import { decode } from "./nip19";

export function parsePubkey(input: string): string {
  const text = input.trim().replace(/^nostr:/, "");
  if (isHex64(text.toLowerCase())) return text.toLowerCase();
  if (text.startsWith("npub1") || text.startsWith("nprofile1")) {
    try {
      const d = decode(text);
      if (d.type === "npub") return d.data;
      if (d.type === "nprofile") return d.data.pubkey;
    } catch {
      // falls through to the refusal
    }
  }
  throw new HaloError("invalid", "a public key is 64 hex characters, an npub or an nprofile.");
}
