// HTTP/1.1 on the wire, for a host that serves from a raw TCP socket (the
// device): where a request's head ends, what it says, and the head of a
// response. Node's http module does this for the simulator. Only what Halo's
// routes need: bodies come with Content-Length; a chunked request body is
// refused (501), as is anything that is not HTTP/1.0 or 1.1.
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import { HttpError } from "./http-error";
import { errorAnswer } from "./pipeline";
import type { HttpResponse } from "./types";

/** The request line and headers together; a longer head gets 431. */
export const HEAD_MAX_BYTES = 8192;
/** Header lines kept per request; more get 431. */
export const MAX_REQUEST_HEADERS = 64;

/** A request head as read off the socket: header names lower-case, repeated headers joined by ", ". */
export interface RequestHead {
  method: string;
  /** The request target: path and query. */
  path: string;
  headers: { [name: string]: string };
  /** Content-Length, 0 when absent. */
  bodyLength: number;
  /** The client may send another request on this connection after the answer. */
  keepAlive: boolean;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CRLF_CRLF = [13, 10, 13, 10];

/** Index just past the blank line that ends the head, searching from `from`; -1 while it has not come. */
export function headEnd(bytes: Uint8Array, length: number, from = 0): number {
  for (let i = Math.max(0, from - 3); i + 3 < length; i++) {
    if (bytes[i] === CRLF_CRLF[0] && bytes[i + 1] === CRLF_CRLF[1] && bytes[i + 2] === CRLF_CRLF[2] && bytes[i + 3] === CRLF_CRLF[3])
      return i + 4;
  }
  return -1;
}

/** Parses a request head (up to and including its blank line); a head that cannot be served is an HttpError (status and sentence). */
export function parseRequestHead(head: Uint8Array): RequestHead | HttpError {
  if (head.length > HEAD_MAX_BYTES) return new HttpError(431, "The request head is too large.");
  // Latin-1 would be the letter of the RFC; UTF-8 keeps a UTF-8 path readable and a bad byte still fails below.
  const lines = decodeUtf8(head).split("\r\n");
  const requestLine = lines[0].split(" ");
  if (requestLine.length !== 3) return new HttpError(400, "Malformed request line.");
  const [method, path, version] = requestLine;
  if (!TOKEN.test(method)) return new HttpError(400, "Malformed request method.");
  if (path.length === 0 || (path[0] !== "/" && path !== "*") || /[\x00-\x20\x7f]/.test(path))
    return new HttpError(400, "Malformed request target.");
  if (version !== "HTTP/1.1" && version !== "HTTP/1.0") return new HttpError(505, "Only HTTP/1.0 and HTTP/1.1 are served.");
  const headers: { [name: string]: string } = {};
  let count = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") continue;
    if (++count > MAX_REQUEST_HEADERS) return new HttpError(431, "Too many request headers.");
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!TOKEN.test(name)) return new HttpError(400, "Malformed header line.");
    const value = line.slice(colon + 1).trim();
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) return new HttpError(400, "Malformed header value.");
    const key = name.toLowerCase();
    const prior = headers[key];
    headers[key] = prior === undefined ? value : `${prior}, ${value}`;
  }
  if (version === "HTTP/1.1" && headers.host === undefined) return new HttpError(400, "An HTTP/1.1 request needs a Host header.");
  if (headers["transfer-encoding"] !== undefined)
    return new HttpError(501, "Chunked request bodies are not accepted; send Content-Length.");
  let bodyLength = 0;
  const declared = headers["content-length"];
  if (declared !== undefined) {
    if (!/^[0-9]{1,15}$/.test(declared)) return new HttpError(400, "Malformed Content-Length.");
    bodyLength = Number(declared);
  }
  const connection = (headers.connection ?? "").toLowerCase();
  const keepAlive = version === "HTTP/1.1" ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
  return { method, path, headers, bodyLength, keepAlive };
}

const REASONS: { [status: number]: string } = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  206: "Partial Content",
  301: "Moved Permanently",
  302: "Found",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  411: "Length Required",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
};

/** Headers the writer sets itself; a response's own values for them are dropped. */
const FRAMING_HEADERS = ["content-length", "connection", "transfer-encoding"];

/**
 * The status line and headers of a response. `bodyLength` undefined means the
 * body runs until the connection closes (a stream), which always closes it.
 */
export function responseHead(
  status: number,
  headers: { [name: string]: string },
  bodyLength: number | undefined,
  close: boolean,
): Uint8Array {
  let text = `HTTP/1.1 ${status} ${REASONS[status] ?? "Status"}\r\n`;
  for (const name of Object.keys(headers)) {
    if (FRAMING_HEADERS.indexOf(name.toLowerCase()) >= 0) continue;
    // A value never carries a line break into the head (a handler's header cannot split the response).
    text += `${name}: ${String(headers[name]).replace(/[\r\n]+/g, " ")}\r\n`;
  }
  if (bodyLength !== undefined) text += `content-length: ${bodyLength}\r\n`;
  text += close || bodyLength === undefined ? "connection: close\r\n\r\n" : "connection: keep-alive\r\n\r\n";
  return encodeUtf8(text);
}

/** A whole response as bytes: head, then the body unless the request was a HEAD. */
export function responseBytes(res: HttpResponse, method: string, close: boolean): Uint8Array {
  const body = typeof res.body === "string" ? encodeUtf8(res.body) : res.body;
  const head = responseHead(res.status, res.headers, body.length, close);
  if (method === "HEAD" || body.length === 0) return head;
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

/** A refusal before any route ran (a bad head, a full server): the pipeline's JSON error, and the connection closes. */
export function refusalResponse(error: HttpError): Uint8Array {
  return responseBytes(errorAnswer(error, "api"), "GET", true);
}
