// Streams a release image into the spare slot with HTTP range requests of
// OTA_CHUNK_BYTES, hashing each chunk as it is written: at most one chunk is
// held in memory, whatever the image size, through the guarded client (lib/net/outbound.ts): the image's URL
// comes from the feed, so only the feed's own origin is reached without the address check.
// Any static host that answers `Range:` (all common ones do) can serve it.
import type { GuardedHttp } from "../net/outbound";
import type { HttpClientResponse, OtaSlotWriter, Sha256Stream } from "../ports";

/** Bytes fetched per request (and the most the download holds in memory). */
export const OTA_CHUNK_BYTES = 32 * 1024;
/** A chunk that fails on the network is tried this many more times. */
export const OTA_CHUNK_RETRIES = 2;
export const OTA_CHUNK_TIMEOUT_MS = 30_000;

export interface ImageSink {
  writer: OtaSlotWriter;
  hash: Sha256Stream;
  onProgress(written: number): void;
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

async function fetchChunk(
  http: GuardedHttp,
  url: string,
  from: number,
  to: number,
  size: number,
  trusted: readonly string[],
): Promise<Uint8Array> {
  const want = to - from + 1;
  let lastError = "";
  for (let attempt = 0; attempt <= OTA_CHUNK_RETRIES; attempt++) {
    let res: HttpClientResponse;
    try {
      res = await http.request({
        method: "GET",
        url,
        headers: { range: `bytes=${from}-${to}` },
        timeoutMs: OTA_CHUNK_TIMEOUT_MS,
        maxResponseBytes: OTA_CHUNK_BYTES,
        maxRedirects: 0,
        trusted,
      });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "too-large") throw new Error("the image server sent the whole file: it must answer HTTP range requests");
      lastError = `the image download failed at byte ${from} (${code === "timeout" ? "timeout" : "network error"})`;
      continue;
    }
    if (res.status === 200 && from === 0 && size <= OTA_CHUNK_BYTES) {
      if (res.body.length !== size) throw new Error(`the download was cut short: ${res.body.length} of ${size} bytes arrived`);
      return res.body;
    }
    if (res.status !== 206) throw new Error(`the image server answered HTTP ${res.status} for bytes ${from}-${to}`);
    const m = CONTENT_RANGE.exec(res.headers["content-range"] ?? "");
    if (!m || Number(m[1]) !== from) throw new Error("the image server sent a range other than the one asked for");
    if (m[3] !== "*" && Number(m[3]) !== size)
      throw new Error(`the image on the server is ${m[3]} bytes, not the ${size} the release names`);
    if (res.body.length !== want || Number(m[2]) !== to)
      throw new Error(`the download was cut short: ${from + res.body.length} of ${size} bytes arrived`);
    return res.body;
  }
  throw new Error(lastError);
}

/** Writes the image at `url` (`size` bytes) into the sink; throws one sentence when the download fails. */
/** `trusted`: the origins reached without the address check (the feed's, which the owner or the build set). */
export async function streamImage(
  http: GuardedHttp,
  url: string,
  size: number,
  sink: ImageSink,
  trusted: readonly string[] = [],
): Promise<void> {
  let written = 0;
  while (written < size) {
    const to = Math.min(written + OTA_CHUNK_BYTES, size) - 1;
    const chunk = await fetchChunk(http, url, written, to, size, trusted);
    sink.hash.update(chunk);
    sink.writer.write(chunk);
    written += chunk.length;
    sink.onProgress(written);
  }
}
