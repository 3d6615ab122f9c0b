import { concatBytes } from "./bytes";
// multipart/form-data bodies (RFC 7578) for file uploads over the HttpClient
// port. The body is built once into one Uint8Array: the file bytes are copied
// with a single native `set`, never walked in JS.
import type { Random } from "../ports";
import { toHex } from "./hash";
import { encodeUtf8 } from "./utf8";

/** A text field or a file field. */
export type MultipartPart = { name: string; value: string } | { name: string; filename: string; contentType: string; bytes: Uint8Array };

/** Random bytes in a boundary: the odds of it occurring inside a file are negligible. */
const BOUNDARY_RANDOM_BYTES = 16;

/** A fresh boundary: `halo-` and 32 hex digits. */
export function multipartBoundary(random: Random): string {
  const bytes = new Uint8Array(BOUNDARY_RANDOM_BYTES);
  random.fill(bytes);
  return `halo-${toHex(bytes)}`;
}

/** The Content-Type header value for a body built with `boundary`. */
export function multipartContentType(boundary: string): string {
  return `multipart/form-data; boundary=${boundary}`;
}

/** Encodes the parts, in order, as one multipart/form-data body. */
export function encodeMultipart(parts: MultipartPart[], boundary: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${headerSafe(part.name)}"`;
    if ("bytes" in part) {
      head += `; filename="${headerSafe(part.filename)}"\r\nContent-Type: ${headerSafe(part.contentType)}\r\n\r\n`;
      chunks.push(encodeUtf8(head), part.bytes, encodeUtf8("\r\n"));
    } else {
      chunks.push(encodeUtf8(`${head}\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(encodeUtf8(`--${boundary}--\r\n`));
  return concatBytes(chunks);
}

/** A quoted header parameter cannot hold quotes, backslashes or line breaks. */
function headerSafe(text: string): string {
  return text.replace(/["\\\r\n\u0000-\u001f\u007f]/g, "_");
}
