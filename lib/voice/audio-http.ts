import { concatBytes } from "../util/bytes";
// HTTP with bodies in pieces, for audio: the capture goes up while it is being
// recorded (chunked transfer encoding) and speech comes down while it is being
// made. A host that has no streaming client gets `bufferedAudioHttp`, which
// sends and delivers whole bodies over the ordinary HttpClient port: correct,
// only later.
import type { HttpClient, HttpClientResponse } from "../ports";

export interface AudioHttpRequest {
  method: string;
  url: string;
  /** Header names in lower case. No content-length: the body is sent chunked. */
  headers: { [name: string]: string };
  timeoutMs: number;
  maxResponseBytes: number;
  /** A 2xx body is handed here piece by piece as it arrives instead of being collected. */
  onBody?(chunk: Uint8Array): void;
}

export interface AudioHttpExchange {
  /** Queues a piece of the request body. */
  write(chunk: Uint8Array): void;
  /** Ends the request body; resolves with the response once its body has ended (empty when streamed to onBody). */
  end(): Promise<HttpClientResponse>;
  /** Abandons the exchange; a pending `end()` rejects. */
  abort(): void;
}

export interface AudioHttp {
  open(req: AudioHttpRequest): AudioHttpExchange;
}

/** Whole bodies over the HttpClient port. */
export function bufferedAudioHttp(http: HttpClient): AudioHttp {
  return {
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
