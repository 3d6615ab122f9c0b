// The AudioHttp port (lib/ports.ts) for a host whose HTTP client cannot stream: whole bodies over the
// ordinary HttpClient port. Correct, only later: the capture goes up once it has ended and speech comes
// down whole. The device binds it by name (hosts/device/ports/index.ts); the simulator streams.
import type { AudioHttp, HttpClient } from "../ports";
import { concatBytes } from "../util/bytes";

export type { AudioHttp, AudioHttpExchange, AudioHttpRequest } from "../ports";

/** Whole bodies over the HttpClient port. */
export function bufferedAudioHttp(http: HttpClient): AudioHttp {
  return {
    buffered: true,
    open(req) {
      const pieces: Uint8Array[] = [];
      let aborted = false;
      return {
        write(chunk) {
          pieces.push(chunk.slice());
        },
        async end() {
          if (aborted) throw new Error("The request was abandoned.");
          const reply = await http.request({
            method: req.method,
            url: req.url,
            headers: req.headers,
            body: concatBytes(pieces),
            timeoutMs: req.timeoutMs,
            maxResponseBytes: req.maxResponseBytes,
          });
          if (aborted) throw new Error("The request was abandoned.");
          if (req.onBody && reply.status >= 200 && reply.status <= 299) {
            req.onBody(reply.body);
            return { ...reply, body: new Uint8Array(0) };
          }
          return reply;
        },
        abort() {
          aborted = true;
        },
      };
    },
  };
}
