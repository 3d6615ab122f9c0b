// The update engine's work on a 4 MB image, shared by the Node and XS benches:
// verify (SHA-256 streamed in 32 KB chunks + the Ed25519 signature) and a whole
// install through the engine, over a server and a slot that hold no image (the
// image is a header block and one repeated 32 KB block), so the heap measured
// is the engine's own.
import { bootSimSlots } from "../../hosts/sim/ports/ota-bootloader.ts";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { OTA_CHUNK_BYTES } from "../../lib/ota/download.ts";
import { OtaEngine } from "../../lib/ota/engine.ts";
import { parseFeed, type Release } from "../../lib/ota/feed.ts";
import { verifyRelease } from "../../lib/ota/signature.ts";
import type { HttpClient, HttpClientResponse, Sha256Stream } from "../../lib/ports.ts";
import { toHex } from "../../lib/util/hash.ts";
import { sha512 } from "@noble/hashes/sha2.js";
import { signedFeed, signingKey } from "./ota-fixtures.ts";

export const IMAGE_BYTES = 4 * 1024 * 1024;
const FEED = "https://updates.example/feed.json";

/** The virtual image: chunk i of OTA_CHUNK_BYTES. */
function makeChunks(): (i: number) => Uint8Array {
  const first = new Uint8Array(OTA_CHUNK_BYTES).fill(0x5a);
  first.set(buildAppImage("9.0.0"));
  const rest = new Uint8Array(OTA_CHUNK_BYTES);
  for (let i = 0; i < rest.length; i++) rest[i] = (i * 131 + 17) & 0xff;
  return (i) => (i === 0 ? first : rest);
}

export interface OtaBenchSetup {
  release: Release;
  feed: Uint8Array;
  trusted: string;
  chunk(i: number): Uint8Array;
}

export function setUp(sha256: () => Sha256Stream): OtaBenchSetup {
  const chunk = makeChunks();
  const key = signingKey(5);
  // The feed is signed over the hash of the virtual image.
  const h = sha256();
  for (let i = 0; i < IMAGE_BYTES / OTA_CHUNK_BYTES; i++) h.update(chunk(i));
  const whole = { size: IMAGE_BYTES, digest: h.digest() };
  const feedDoc = signedFeed({
    version: "9.0.0",
    url: "image.bin",
    image: new Uint8Array(0),
    key,
    whole,
    sha256: (b) => {
      const n = sha256();
      n.update(b);
      return n.digest();
    },
  });
  const text = JSON.stringify(feedDoc);
  const parsed = parseFeed(text, "esp32s3");
  if (typeof parsed === "string") throw new Error(parsed);
  const notes = sha256();
  notes.update(new TextEncoder().encode(parsed.notes));
  return {
    release: { ...parsed, notesSha256: toHex(notes.digest()) },
    feed: new TextEncoder().encode(text),
    trusted: key.publicHex,
    chunk,
  };
}

/** Hash the image as it streams, then check hash and signature; returns whether it verified. */
export function verifyOnce(s: OtaBenchSetup, sha256: () => Sha256Stream): boolean {
  const h = sha256();
  for (let i = 0; i < IMAGE_BYTES / OTA_CHUNK_BYTES; i++) h.update(s.chunk(i));
  return toHex(h.digest()) === s.release.image.sha256 && verifyRelease(s.release, [s.trusted], sha512) === "ok";
}

/** A whole install of the 4 MB image through the engine; resolves to the final state. */
export async function installOnce(s: OtaBenchSetup, sha256: () => Sha256Stream, sample: () => void = () => {}): Promise<string> {
  const http: HttpClient = {
    async request(req): Promise<HttpClientResponse> {
      if (req.url === FEED) return { status: 200, headers: {}, body: s.feed };
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers?.range ?? "");
      if (!m) return { status: 404, headers: {}, body: new Uint8Array(0) };
      const from = Number(m[1]);
      return {
        status: 206,
        headers: { "content-range": `bytes ${from}-${m[2]}/${IMAGE_BYTES}` },
        body: s.chunk(from / OTA_CHUNK_BYTES).slice(),
      }; // a fresh buffer, as an HTTP client hands over
    },
  };
  let data: string | undefined;
  const slots = bootSimSlots(
    {
      loadData: () => (data === undefined ? undefined : JSON.parse(data)),
      saveData: (d) => {
        data = JSON.stringify(d);
      },
      readSlot: () => buildAppImage("1.0.0"), // the first bytes are all a slot is read for
      eraseSlot: () => ({ append: sample, close: () => {} }), // flash, not heap; sampled while the chunk is in hand
    },
    { factoryVersion: "1.0.0", onRestart: () => {}, sha256, sha512 },
  );
  const log = { info: () => {}, warn: () => {} };
  const engine = new OtaEngine({
    slots,
    http,
    settings: memorySettings(),
    log,
    now: () => 0,
    version: "1.0.0",
    board: "esp32s3",
    trustedKeys: [s.trusted],
    feedUrl: FEED,
  });
  await engine.check();
  return (await engine.install("9.0.0", false)).state;
}
