// The parts of nostr-tools lib/nostr uses, for mcconfig's TypeScript step: it
// maps each npm module to its JavaScript file (hosts/device/npm-modules.json),
// and nostr-tools keeps its declarations in another folder than its code.
// Node's checks (tsconfig*.json) read the package's own declarations.

declare module "nostr-tools/nip19" {
  export type ProfilePointer = { pubkey: string; relays?: string[] };
  export type EventPointer = { id: string; relays?: string[]; author?: string; kind?: number };
  export type AddressPointer = { identifier: string; pubkey: string; kind: number; relays?: string[] };
  export type DecodedResult =
    | { type: "nevent"; data: EventPointer }
    | { type: "nprofile"; data: ProfilePointer }
    | { type: "naddr"; data: AddressPointer }
    | { type: "nsec"; data: Uint8Array }
    | { type: "npub"; data: string }
    | { type: "note"; data: string };
  export function decode(code: string): DecodedResult;
  export function npubEncode(hex: string): `npub1${string}`;
  export function noteEncode(hex: string): `note1${string}`;
  export function nprofileEncode(profile: ProfilePointer): `nprofile1${string}`;
  export function neventEncode(event: EventPointer): `nevent1${string}`;
  export function naddrEncode(addr: AddressPointer): `naddr1${string}`;
}

declare module "nostr-tools/nip44" {
  export const v2: {
    utils: { getConversationKey(privkeyA: Uint8Array, pubkeyB: string): Uint8Array };
    encrypt(plaintext: string, conversationKey: Uint8Array, nonce?: Uint8Array): string;
    decrypt(payload: string, conversationKey: Uint8Array): string;
  };
}
