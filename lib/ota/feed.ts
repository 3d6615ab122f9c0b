// The release feed: one JSON document naming the newest release and, per
// board, its image (URL, size, SHA-256) with an Ed25519 signature over a
// domain-separated message. docs/updates.md shows the format.
import { isVersion } from "./version";

/** Largest feed document accepted. */
export const FEED_MAX_BYTES = 16 * 1024;
/** Longest release notes accepted. */
export const NOTES_MAX_CHARS = 4000;
/** Most boards one feed may list. */
export const FEED_MAX_BOARDS = 16;
/** Largest image a feed may announce: the 6 MB app slot of the partition table. */
export const OTA_IMAGE_MAX_BYTES = 6 * 1024 * 1024;
export const FEED_FORMAT = "halo-ota-feed/1";
/** First line of every signed message, so a Halo release signature cannot be replayed as anything else. */
export const SIGNED_MESSAGE_DOMAIN = "halo-ota-image/1";

const BOARD = /^[a-z0-9][a-z0-9-]{0,31}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const URL_MAX_CHARS = 512;

export interface FeedImage {
  board: string;
  /** As written in the feed: absolute, or relative to the feed's URL. */
  url: string;
  size: number;
  /** Lower-case hex. */
  sha256: string;
  /** The signer's Ed25519 public key, lower-case hex. */
  key: string;
  /** Lower-case hex, 64 bytes. */
  signature: string;
}

export interface Release {
  version: string;
  minVersion: string;
  notes: string;
  /** SHA-256 of the notes' UTF-8 bytes, lower-case hex (signed, so notes cannot be swapped). */
  notesSha256: string;
  image: FeedImage;
}

/** The message a release image's signature covers. */
export function signedMessage(r: {
  version: string;
  minVersion: string;
  notesSha256: string;
  image: { board: string; size: number; sha256: string };
}): string {
  return [
    SIGNED_MESSAGE_DOMAIN,
    `board=${r.image.board}`,
    `version=${r.version}`,
    `min-version=${r.minVersion}`,
    `size=${r.image.size}`,
    `sha256=${r.image.sha256}`,
    `notes-sha256=${r.notesSha256}`,
    "",
  ].join("\n");
}

function isObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The release for `board` from the feed's text, or one sentence on what is
 * wrong with it. `notesSha256` is filled by the caller (it needs the hasher).
 */
export function parseFeed(text: string, board: string): Omit<Release, "notesSha256"> | string {
  if (text.length > FEED_MAX_BYTES) return "the release feed is larger than 16 KB";
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return "the release feed is not JSON";
  }
  if (!isObject(doc)) return "the release feed is not a JSON object";
  if (doc.format !== FEED_FORMAT) return `the release feed's format is not ${FEED_FORMAT}`;
  const { version, minVersion, notes, images } = doc;
  if (typeof version !== "string" || !isVersion(version)) return "the release feed's version is not a version like 1.2.3";
  if (typeof minVersion !== "string" || !isVersion(minVersion)) return "the release feed's minVersion is not a version like 1.2.3";
  if (notes !== undefined && typeof notes !== "string") return "the release feed's notes are not text";
  if (typeof notes === "string" && notes.length > NOTES_MAX_CHARS) return "the release notes are longer than 4000 characters";
  if (!isObject(images)) return "the release feed has no images object";
  const boards = Object.keys(images);
  if (boards.length > FEED_MAX_BOARDS) return "the release feed lists too many boards";
  const entry = images[board];
  if (entry === undefined) return `the release feed has no image for the board ${board}`;
  if (!isObject(entry)) return `the release feed's ${board} image is not an object`;
  const { url, size, sha256, key, signature } = entry;
  if (typeof url !== "string" || url.length === 0 || url.length > URL_MAX_CHARS) return "the image URL is missing or too long";
  if (typeof size !== "number" || !Number.isInteger(size) || size <= 0 || size > OTA_IMAGE_MAX_BYTES)
    return "the image size is not a whole number of bytes that fits the app slot";
  if (typeof sha256 !== "string" || !HEX64.test(sha256)) return "the image sha256 is not 64 lower-case hex digits";
  if (typeof key !== "string" || !HEX64.test(key)) return "the image key is not an Ed25519 public key in hex";
  if (typeof signature !== "string" || !HEX128.test(signature)) return "the image signature is not 128 lower-case hex digits";
  if (!BOARD.test(board)) return "the board name is not valid";
  return {
    version,
    minVersion,
    notes: notes ?? "",
    image: { board, url, size, sha256, key, signature },
  };
}
