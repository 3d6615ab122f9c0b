// NIP-19 entities, written from the NIP: bech32 of a 32-byte value (npub,
// nsec, note) or of TLV records (nprofile, nevent, naddr). Decoding checks
// every length and refuses what the NIP does not define.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { bech32 } from "@scure/base";

/** bech32 strings longer than this are refused (the NIP's codes are far shorter). */
const BECH32_MAX_CHARS = 5000;

const TLV_SPECIAL = 0;
const TLV_RELAY = 1;
const TLV_AUTHOR = 2;
const TLV_KIND = 3;

export interface ProfilePointer {
  pubkey: string;
  relays?: string[];
}
export interface EventPointer {
  id: string;
  relays?: string[];
  author?: string;
  kind?: number;
}
export interface AddressPointer {
  identifier: string;
  pubkey: string;
  kind: number;
  relays?: string[];
}

export type DecodedEntity =
  | { type: "npub"; data: string }
  | { type: "note"; data: string }
  | { type: "nsec"; data: Uint8Array }
  | { type: "nprofile"; data: ProfilePointer }
  | { type: "nevent"; data: EventPointer }
  | { type: "naddr"; data: AddressPointer };

function encodeBytes(prefix: string, bytes: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(bytes), BECH32_MAX_CHARS);
}

function hex32(hex: string): Uint8Array {
  const bytes = hexToBytes(hex);
  if (bytes.length !== 32) throw new Error("expected 32 bytes of hex");
  return bytes;
}

export function npubEncode(pubkeyHex: string): string {
  return encodeBytes("npub", hex32(pubkeyHex));
}

export function noteEncode(idHex: string): string {
  return encodeBytes("note", hex32(idHex));
}

function tlv(records: Array<[number, Uint8Array]>): Uint8Array {
  let size = 0;
  for (const [, value] of records) {
    if (value.length > 255) throw new Error("a TLV value is at most 255 bytes");
    size += 2 + value.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const [type, value] of records) {
    out[at] = type;
    out[at + 1] = value.length;
    out.set(value, at + 2);
    at += 2 + value.length;
  }
  return out;
}

function relayRecords(relays: string[] | undefined): Array<[number, Uint8Array]> {
  return (relays ?? []).map((url): [number, Uint8Array] => [TLV_RELAY, new TextEncoder().encode(url)]);
}

function kindBytes(kind: number): Uint8Array {
  if (!Number.isInteger(kind) || kind < 0 || kind > 0xffffffff) throw new Error("a kind is a 32-bit unsigned integer");
  return Uint8Array.of(kind >>> 24, (kind >>> 16) & 0xff, (kind >>> 8) & 0xff, kind & 0xff);
}

export function nprofileEncode(profile: ProfilePointer): string {
  return encodeBytes("nprofile", tlv([[TLV_SPECIAL, hex32(profile.pubkey)], ...relayRecords(profile.relays)]));
}

export function neventEncode(event: EventPointer): string {
  const records: Array<[number, Uint8Array]> = [[TLV_SPECIAL, hex32(event.id)], ...relayRecords(event.relays)];
  if (event.author) records.push([TLV_AUTHOR, hex32(event.author)]);
  if (event.kind !== undefined) records.push([TLV_KIND, kindBytes(event.kind)]);
  return encodeBytes("nevent", tlv(records));
}

export function naddrEncode(address: AddressPointer): string {
  return encodeBytes(
    "naddr",
    tlv([
      [TLV_SPECIAL, new TextEncoder().encode(address.identifier)],
      ...relayRecords(address.relays),
      [TLV_AUTHOR, hex32(address.pubkey)],
      [TLV_KIND, kindBytes(address.kind)],
    ]),
  );
}

/** The TLV records by type, in order; throws on a truncated record. */
function parseTlv(data: Uint8Array): Map<number, Uint8Array[]> {
  const out = new Map<number, Uint8Array[]>();
  let at = 0;
  while (at < data.length) {
    if (at + 2 > data.length) throw new Error("truncated TLV record");
    const type = data[at];
    const length = data[at + 1];
    const value = data.subarray(at + 2, at + 2 + length);
    if (value.length !== length) throw new Error("truncated TLV record");
    const list = out.get(type);
    if (list) list.push(value);
    else out.set(type, [value]);
    at += 2 + length;
  }
  return out;
}

function one(records: Map<number, Uint8Array[]>, type: number, what: string, length?: number): Uint8Array {
  const value = records.get(type)?.[0];
  if (!value) throw new Error(`missing TLV ${what}`);
  if (length !== undefined && value.length !== length) throw new Error(`TLV ${what} should be ${length} bytes`);
  return value;
}

function optional(records: Map<number, Uint8Array[]>, type: number, what: string, length: number): Uint8Array | undefined {
  return records.has(type) ? one(records, type, what, length) : undefined;
}

function utf8(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

function relaysOf(records: Map<number, Uint8Array[]>): string[] {
  return (records.get(TLV_RELAY) ?? []).map(utf8);
}

function kindOf(bytes: Uint8Array): number {
  return ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
}

/** Decodes an npub, nsec, note, nprofile, nevent or naddr; throws on anything else. */
export function decode(code: string): DecodedEntity {
  const { prefix, words } = bech32.decode(code as `${string}1${string}`, BECH32_MAX_CHARS);
  const data = new Uint8Array(bech32.fromWords(words));
  switch (prefix) {
    case "npub":
    case "note":
    case "nsec":
      if (data.length !== 32) throw new Error(`${prefix} should carry 32 bytes`);
      return prefix === "nsec" ? { type: "nsec", data } : { type: prefix, data: bytesToHex(data) };
    case "nprofile": {
      const records = parseTlv(data);
      return { type: "nprofile", data: { pubkey: bytesToHex(one(records, TLV_SPECIAL, "pubkey", 32)), relays: relaysOf(records) } };
    }
    case "nevent": {
      const records = parseTlv(data);
      const author = optional(records, TLV_AUTHOR, "author", 32);
      const kind = optional(records, TLV_KIND, "kind", 4);
      return {
        type: "nevent",
        data: {
          id: bytesToHex(one(records, TLV_SPECIAL, "id", 32)),
          relays: relaysOf(records),
          author: author ? bytesToHex(author) : undefined,
          kind: kind ? kindOf(kind) : undefined,
        },
      };
    }
    case "naddr": {
      const records = parseTlv(data);
      return {
        type: "naddr",
        data: {
          identifier: utf8(one(records, TLV_SPECIAL, "identifier")),
          pubkey: bytesToHex(one(records, TLV_AUTHOR, "author", 32)),
          kind: kindOf(one(records, TLV_KIND, "kind", 4)),
          relays: relaysOf(records),
        },
      };
    }
    default:
      throw new Error(`unknown NIP-19 prefix ${prefix}`);
  }
}
