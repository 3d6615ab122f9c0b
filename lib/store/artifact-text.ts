import { HaloError } from "../errors";
// The text rules of the artifact store: what artifact.save accepts as text,
// and how files.read cuts a text file into pages on character boundaries.
import { ARTIFACT_TEXT_MAX_BYTES, FILES_READ_PAGE_BYTES } from "../limits";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";

/** Text that artifact.save refuses: control characters other than tab, newline, carriage return. */
const BINARY_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The UTF-8 bytes of a text artifact, or a HaloError saying why it is not acceptable text. */
export function textArtifactBytes(name: string, text: string): Uint8Array {
  if (BINARY_IN_TEXT.test(text)) {
    throw new HaloError("binary", "the text contains control characters (such as NUL); artifact.save stores text only.");
  }
  const bytes = encodeUtf8(text);
  if (bytes.length > ARTIFACT_TEXT_MAX_BYTES) {
    throw new HaloError("too-large", `the text is ${bytes.length} bytes; artifact.save takes at most ${ARTIFACT_TEXT_MAX_BYTES} per call.`);
  }
  if (name.toLowerCase().endsWith(".json") && !parsesAsJson(text)) {
    throw new HaloError("invalid", "the text is not valid JSON, and the name ends in .json.");
  }
  return bytes;
}

/**
 * The page of `bytes` from byte `offset`: at most FILES_READ_PAGE_BYTES, moved
 * forward off a continuation byte and cut back to a character boundary.
 * `label` names the file in a refusal.
 */
export function textPage(bytes: Uint8Array, offset: number, label: string): { text: string; next?: number } {
  if (offset > bytes.length) throw new HaloError("invalid-arguments", `offset is past the end (${bytes.length} bytes).`);
  let start = offset;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  let end = Math.min(bytes.length, start + FILES_READ_PAGE_BYTES);
  if (end < bytes.length) while (end > start && (bytes[end] & 0xc0) === 0x80) end--;
  const page = bytes.subarray(start, end);
  if (page.indexOf(0) >= 0) throw new HaloError("binary", `${label} holds binary data; files.read serves text only.`);
  return { text: decodeUtf8(page), next: end < bytes.length ? end : undefined };
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
