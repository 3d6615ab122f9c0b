// Portable pieces of the update tests (Node and the XS host): slots in memory
// with the simulator's boot loader, a release server in memory that answers
// range requests (with faults to order), and a release signer.
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { signedMessage, FEED_FORMAT } from "../../lib/ota/feed.ts";
import type { HttpClient, HttpClientRequest, HttpClientResponse, Sha256Stream } from "../../lib/ports.ts";
import { toHex } from "../../lib/util/hash.ts";
import type { OtaData, SlotFlash } from "../../hosts/sim/ports/ota-bootloader.ts";

/** Flash in memory: survives "reboots" (a new bootSimSlots over the same object). */
export function memorySlotFlash(): SlotFlash & { slots: [Uint8Array, Uint8Array] } {
  let data: string | undefined;
  const flash = {
    slots: [new Uint8Array(0), new Uint8Array(0)] as [Uint8Array, Uint8Array],
    loadData: (): OtaData | undefined => (data === undefined ? undefined : (JSON.parse(data) as OtaData)),
    saveData: (d: OtaData): void => {
      data = JSON.stringify(d);
    },
    readSlot: (slot: 0 | 1): Uint8Array => flash.slots[slot],
    eraseSlot(slot: 0 | 1): { append(bytes: Uint8Array): void; close(): void } {
      flash.slots[slot] = new Uint8Array(0);
      const parts: Uint8Array[] = [];
      let length = 0;
      const flush = (): void => {
        const all = new Uint8Array(length);
        let at = 0;
        for (const p of parts) {
          all.set(p, at);
          at += p.length;
        }
        flash.slots[slot] = all;
      };
      return {
        append(bytes: Uint8Array): void {
          parts.push(bytes.slice());
          length += bytes.length;
          flush(); // every write lands at once, as on flash: a power cut keeps what was written
        },
        close: flush,
      };
    },
  };
  return flash;
}

/** Faults the release server can be told to make. */
export interface ServerFaults {
  /** Answer the image's range requests with the whole file (a server without range support). */
  noRanges?: boolean;
  /** Stop sending the image after this many bytes (a dropped connection). */
  cutAt?: number;
  /** Replace one byte of the image on the way out (a corrupted or swapped image). */
  flipByteAt?: number;
  /** Called before each image chunk is answered, with its first byte offset. */
  beforeChunk?: (from: number) => Promise<void> | void;
  /** Feed answers with this HTTP status. */
  feedStatus?: number;
}

/** An HttpClient serving `files` by URL, with HTTP range requests. */
export function memoryReleaseServer(files: Map<string, Uint8Array>, faults: ServerFaults = {}): HttpClient & { requests: number } {
  const server = {
    requests: 0,
    async request(req: HttpClientRequest): Promise<HttpClientResponse> {
      server.requests++;
      const body = files.get(req.url);
      if (!body) return { status: 404, headers: {}, body: new Uint8Array(0) };
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers?.range ?? "");
      if (!range || faults.noRanges) {
        if (faults.feedStatus !== undefined) return { status: faults.feedStatus, headers: {}, body: new Uint8Array(0) };
        if (body.length > req.maxResponseBytes) throw Object.assign(new Error("the response is too large"), { code: "too-large" });
        return { status: 200, headers: {}, body };
      }
      const from = Number(range[1]);
      const to = Math.min(Number(range[2]), body.length - 1);
      await faults.beforeChunk?.(from);
      let end = to + 1;
      if (faults.cutAt !== undefined && end > faults.cutAt) end = Math.max(from, faults.cutAt);
      const part = body.slice(from, end);
      if (faults.flipByteAt !== undefined && faults.flipByteAt >= from && faults.flipByteAt < end) part[faults.flipByteAt - from] ^= 0xff;
      return { status: 206, headers: { "content-range": `bytes ${from}-${to}/${body.length}` }, body: part };
    },
  };
  return server;
}

/** A deterministic signing key: 32 bytes of `seed`. */
export function signingKey(seed: number): { secret: Uint8Array; publicHex: string } {
  if (!ed.hashes.sha512) ed.hashes.sha512 = sha512;
  const secret = new Uint8Array(32).fill(seed);
  return { secret, publicHex: toHex(ed.getPublicKey(secret)) };
}

export interface FeedSpec {
  version: string;
  minVersion?: string;
  notes?: string;
  board?: string;
  url: string;
  image: Uint8Array;
  key: { secret: Uint8Array; publicHex: string };
  sha256: (bytes: Uint8Array) => Uint8Array;
  /** For an image that is never held whole (the bench): its size and digest. */
  whole?: { size: number; digest: Uint8Array };
}

/** The feed document for one release, signed as `npm run release` signs it. */
export function signedFeed(spec: FeedSpec): { [key: string]: unknown } {
  const notes = spec.notes ?? `Release ${spec.version}.`;
  const board = spec.board ?? "esp32s3";
  const image = spec.whole
    ? { board, size: spec.whole.size, sha256: toHex(spec.whole.digest) }
    : { board, size: spec.image.length, sha256: toHex(spec.sha256(spec.image)) };
  const minVersion = spec.minVersion ?? "0.0.0";
  const message = signedMessage({
    version: spec.version,
    minVersion,
    notesSha256: toHex(spec.sha256(new TextEncoder().encode(notes))),
    image,
  });
  const signature = toHex(ed.sign(new TextEncoder().encode(message), spec.key.secret));
  return {
    format: FEED_FORMAT,
    version: spec.version,
    minVersion,
    notes,
    images: { [board]: { url: spec.url, size: image.size, sha256: image.sha256, key: spec.key.publicHex, signature } },
  };
}

/** One-shot SHA-256 over a streaming hasher factory. */
export function digestWith(make: () => Sha256Stream): (bytes: Uint8Array) => Uint8Array {
  return (bytes) => {
    const h = make();
    h.update(bytes);
    return h.digest();
  };
}
