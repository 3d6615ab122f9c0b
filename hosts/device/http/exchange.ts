// Turns the pieces the `http` Server hands its callback into Halo's plain
// HttpRequest, and Halo's HttpResponse into what the Server writes.
import type { ServerResponse } from "http";
import type { HttpRequest, HttpResponse } from "../../../lib/halo";

/** Header lines kept per request; later ones are dropped. */
export const MAX_REQUEST_HEADERS = 64;
/** Largest piece of a response body handed to the socket at once. */
export const MAX_RESPONSE_FRAGMENT = 2048;

/** Headers the Server writes itself. */
const SERVER_HEADERS = ["content-length", "connection", "transfer-encoding"];

export class Exchange {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string> = {};
  private headerCount = 0;
  bodyTooLarge = false;
  /** What the Server writes once Halo has answered; undefined until then. */
  prepared?: ServerResponse;
  /** Close the connection once the response is written (a body too large to read). */
  closeAfter = false;
  /** The response body still to send. */
  private pending?: Uint8Array;

  constructor(path: string, method: string) {
    this.path = path;
    this.method = method;
  }

  addHeader(name: string, value: string): void {
    if (++this.headerCount > MAX_REQUEST_HEADERS) return;
    const prior = this.headers[name];
    this.headers[name] = prior === undefined ? value : prior + ", " + value;
  }

  /** Declared body length; 0 when absent or malformed. */
  declaredLength(): number {
    const n = Number(this.headers["content-length"] ?? "0");
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  }

  /** True when the body will be read; false when it is absent or larger than the route takes (`limit`). */
  expectsBody(limit: number): boolean {
    const length = this.declaredLength();
    if (length > limit) this.bodyTooLarge = true;
    return length > 0 && !this.bodyTooLarge;
  }

  request(body: ArrayBuffer | undefined): HttpRequest {
    const req: HttpRequest = { method: this.method, path: this.path, headers: this.headers };
    if (body !== undefined) req.body = new Uint8Array(body);
    if (this.bodyTooLarge) req.bodyTooLarge = true;
    return req;
  }

  /** Prepares the status and headers; the body follows in fragments (chunked) unless empty. */
  respond(res: HttpResponse): void {
    const headers: string[] = [];
    for (const name of Object.keys(res.headers)) {
      if (SERVER_HEADERS.indexOf(name.toLowerCase()) < 0) headers.push(name, res.headers[name]);
    }
    // The Server counts a String body in UTF-16 units: send UTF-8 bytes instead.
    const body = typeof res.body === "string" ? new TextEncoder().encode(res.body) : res.body;
    const bytes = this.method === "HEAD" ? new Uint8Array(0) : body;
    this.closeAfter = res.close === true;
    this.pending = bytes;
    this.prepared = { status: res.status, headers, body: bytes.length === 0 ? "" : true };
  }

  /** The next piece of the body, at most `room` bytes (at least 1); undefined when done. */
  nextFragment(room: number): ArrayBuffer | undefined {
    const rest = this.pending;
    if (rest === undefined || rest.length === 0) return undefined;
    const n = Math.max(1, Math.min(room, rest.length, MAX_RESPONSE_FRAGMENT));
    this.pending = rest.subarray(n);
    return rest.slice(0, n).buffer as ArrayBuffer;
  }
}
