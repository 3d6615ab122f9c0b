// One HTTP/1.1 connection over an ECMA-419 TCP socket: reads a request head
// (lib/http/wire.ts), asks the pipeline how much body the route takes, reads
// that much, hands Halo a plain HttpRequest and writes its answer (a stream of
// server-sent events included) as the socket has room, then waits for the
// next request or closes. A body over the route's limit is never read: Halo
// answers 413 at once and the connection closes: once the refusal is written,
// what the client still sends is read and dropped for LINGER_MS (or until it
// closes), because closing a socket with unread input sends a reset that can
// reach the client before the refusal does. Deadlines close a client
// that stalls in its head or body.
import TCP from "embedded:io/socket/tcp";
import Timer, { type TimerId } from "timer";
import type { Halo } from "../../../lib/app/halo";
import { HttpError } from "../../../lib/http/http-error";
import { errorAnswer } from "../../../lib/http/pipeline";
import type { BodyStream, HttpRequest, HttpResponse } from "../../../lib/http/types";
import {
  HEAD_MAX_BYTES,
  headEnd,
  parseRequestHead,
  refusalResponse,
  type RequestHead,
  responseBytes,
  responseHead,
} from "../../../lib/http/wire";
import type { Log } from "../../../lib/ports";
import { encodeUtf8 } from "../../../lib/util/utf8";

/** A client that has not sent a whole request head by then (or the next one, on a kept-alive connection) is disconnected. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A body that has not arrived in full by then is abandoned and the connection closed. */
export const BODY_TIMEOUT_MS = 30_000;
/** After a refusal that closes the connection (413, 431, server full), input is dropped this long before closing. */
export const LINGER_MS = 2_000;
/** Largest piece handed to the socket at once. */
const WRITE_PIECE_BYTES = 2048;

type Phase = "head" | "body" | "answering" | "writing" | "closed";

function onePiece(body: Uint8Array): BodyStream {
  let given = false;
  return {
    next: (): Promise<Uint8Array | undefined> => {
      const piece = given ? undefined : body;
      given = true;
      return Promise.resolve(piece);
    },
  };
}

export class HttpConnection {
  private readonly socket: TCP;
  private phase: Phase = "head";
  /** Bytes of the head being read, and what came after the last request (pipelined). */
  private received = new Uint8Array(0);
  private head?: RequestHead;
  private body?: Uint8Array;
  private bodyFilled = 0;
  /** What is still to write, in order, and how far into the first piece. */
  private readonly output: Uint8Array[] = [];
  private outputAt = 0;
  /** Bytes the socket said it can take. */
  private room = 0;
  private closeWhenWritten = false;
  /** After a refusal that closes the connection, what the client still sends is read and dropped. */
  private discardInput = false;
  private stopStream?: () => void;
  private deadline?: TimerId;

  constructor(
    from: TCP,
    private readonly halo: Halo,
    private readonly log: Log,
    private readonly onClosed: (connection: HttpConnection) => void,
  ) {
    this.socket = new TCP({
      from,
      onReadable: (bytes: number): void => this.readable(bytes),
      onWritable: (bytes: number): void => this.writable(bytes),
      onError: (): void => this.close(),
    });
    this.expire(HEADERS_TIMEOUT_MS);
  }

  /** Answers `response` at once and closes (the server is full). */
  refuse(response: Uint8Array): void {
    this.phase = "writing";
    this.discardInput = true;
    this.closeWhenWritten = true;
    this.send(response);
  }

  close(): void {
    if (this.phase === "closed") return;
    this.phase = "closed";
    this.clearDeadline();
    const stop = this.stopStream;
    this.stopStream = undefined;
    stop?.();
    try {
      this.socket.close();
    } catch {
      // already closed underneath
    }
    this.onClosed(this);
  }

  private readable(bytes: number): void {
    if (this.phase === "closed" || bytes <= 0) return;
    let data: ArrayBuffer | undefined;
    try {
      data = this.socket.read();
    } catch {
      this.close();
      return;
    }
    if (data === undefined || data.byteLength === 0 || this.discardInput) return;
    const chunk = new Uint8Array(data);
    if (this.phase === "body") this.takeBody(chunk);
    else this.keep(chunk);
    this.advance();
  }

  /** Keeps bytes that are not body: a head being read (advance() refuses one too long), or a request sent before the last answer. */
  private keep(chunk: Uint8Array): void {
    if (this.phase !== "head" && this.received.length + chunk.length > HEAD_MAX_BYTES) {
      this.close(); // nothing this server serves sends that much ahead of its answer
      return;
    }
    const joined = new Uint8Array(this.received.length + chunk.length);
    joined.set(this.received, 0);
    joined.set(chunk, this.received.length);
    this.received = joined;
  }

  private takeBody(chunk: Uint8Array): void {
    const body = this.body!;
    const n = Math.min(chunk.length, body.length - this.bodyFilled);
    body.set(chunk.subarray(0, n), this.bodyFilled);
    this.bodyFilled += n;
    if (n < chunk.length) this.keep(chunk.subarray(n));
    if (this.bodyFilled === body.length) this.dispatch(body);
  }

  /** Starts on the next request when one is waiting and the connection is free for it. */
  private advance(): void {
    if (this.phase !== "head") return;
    const end = headEnd(this.received, this.received.length);
    if (end < 0) {
      if (this.received.length > HEAD_MAX_BYTES) this.refuseHead(new HttpError(431, "The request head is too large."));
      return;
    }
    const parsed = parseRequestHead(this.received.subarray(0, end));
    const rest = this.received.subarray(end);
    this.received = new Uint8Array(0);
    if (parsed instanceof HttpError) {
      this.refuseHead(parsed);
      return;
    }
    this.head = parsed;
    if (parsed.bodyLength > this.halo.http.bodyLimit(parsed.method, parsed.path)) {
      // Never read: the pipeline answers 413 with close, and the rest of the body dies with the connection.
      this.dispatch(undefined, true);
      return;
    }
    if (parsed.bodyLength === 0) {
      this.received = rest.slice();
      this.dispatch(undefined);
      return;
    }
    this.phase = "body";
    this.body = new Uint8Array(parsed.bodyLength);
    this.bodyFilled = 0;
    this.expire(BODY_TIMEOUT_MS);
    if (rest.length > 0) this.takeBody(rest);
  }

  private refuseHead(refusal: HttpError): void {
    this.received = new Uint8Array(0);
    this.refuse(refusalResponse(refusal));
  }

  private dispatch(body: Uint8Array | undefined, tooLarge = false): void {
    const head = this.head!;
    this.phase = "answering";
    this.body = undefined;
    this.clearDeadline();
    const request: HttpRequest = { method: head.method, path: head.path, headers: head.headers };
    // A route that takes a stream gets the body it would have had as a stream of one piece (read whole, as capped).
    if (body !== undefined && this.halo.http.routeFor(head.method, head.path)?.streamBody) request.stream = onePiece(body);
    else if (body !== undefined) request.body = body;
    if (tooLarge) {
      request.bodyTooLarge = true;
      this.discardInput = true;
    }
    this.halo
      .handleHttp(request)
      .then(undefined, (e: unknown): HttpResponse => {
        this.log.warn(`request failed: ${e instanceof Error ? e.message : String(e)}`);
        return errorAnswer(new HttpError(500, "Internal error."), "api");
      })
      .then((res: HttpResponse): void => this.answer(head, res, tooLarge));
  }

  private answer(head: RequestHead, res: HttpResponse, tooLarge: boolean): void {
    if (this.phase === "closed") return; // the client went away meanwhile
    this.phase = "writing";
    if (res.stream) {
      // A stream runs until it ends or the client leaves: no length, and the connection closes after it.
      this.send(responseHead(res.status, res.headers, undefined, true));
      this.stopStream = res.stream.start({
        write: (text: string): void => {
          if (this.phase !== "closed") this.send(encodeUtf8(text));
        },
        end: (): void => {
          this.stopStream = undefined;
          this.closeWhenWritten = true;
          this.flush();
        },
      });
      return;
    }
    this.closeWhenWritten = tooLarge || res.close === true || !head.keepAlive;
    this.send(responseBytes(res, head.method, this.closeWhenWritten));
  }

  private send(bytes: Uint8Array): void {
    this.output.push(bytes);
    this.flush();
  }

  private writable(bytes: number): void {
    this.room = bytes;
    this.flush();
  }

  private flush(): void {
    while (this.output.length > 0 && this.room > 0 && this.phase !== "closed") {
      const piece = this.output[0];
      const n = Math.min(piece.length - this.outputAt, this.room, WRITE_PIECE_BYTES);
      try {
        this.socket.write(piece.subarray(this.outputAt, this.outputAt + n));
      } catch {
        this.room = 0; // no room after all: wait for onWritable
        return;
      }
      this.room -= n;
      this.outputAt += n;
      if (this.outputAt === piece.length) {
        this.output.shift();
        this.outputAt = 0;
      }
    }
    if (this.output.length > 0 || this.phase !== "writing" || this.stopStream) return;
    if (this.closeWhenWritten && this.discardInput) {
      // The client may still be sending what was refused: drop it until it closes, or LINGER_MS.
      if (this.phase === "writing") this.phase = "answering";
      this.expire(LINGER_MS);
      return;
    }
    if (this.closeWhenWritten) {
      this.close();
      return;
    }
    // Answered in full: the connection waits for the next request (perhaps already here).
    this.phase = "head";
    this.head = undefined;
    this.expire(HEADERS_TIMEOUT_MS);
    this.advance();
  }

  private expire(ms: number): void {
    this.clearDeadline();
    this.deadline = Timer.set((): void => {
      this.deadline = undefined;
      this.close();
    }, ms);
  }

  private clearDeadline(): void {
    if (this.deadline !== undefined) Timer.clear(this.deadline);
    this.deadline = undefined;
  }
}
