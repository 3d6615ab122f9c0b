// The device's HTTP/1.1 reader and writer (lib/http/wire.ts) on well-formed, malformed and hostile heads:
// one transcript line per case, the same on Node and on the XS host.
import { HttpError } from "../../lib/http/http-error.ts";
import { HEAD_MAX_BYTES, headEnd, MAX_REQUEST_HEADERS, parseRequestHead, refusalResponse, responseHead } from "../../lib/http/wire.ts";
import { decodeUtf8, encodeUtf8 } from "../../lib/util/utf8.ts";

const HEADS: Array<[string, string]> = [
  [
    "mcp post",
    "POST /mcp HTTP/1.1\r\nHost: 192.168.1.20\r\nAuthorization: Bearer halo_x\r\nContent-Type: application/json\r\nContent-Length: 42\r\n\r\n",
  ],
  ["get, query, repeated header", "GET /api/tools?x=1 HTTP/1.1\r\nHost: halo.local\r\nAccept: text/html\r\naccept: */*\r\n\r\n"],
  ["http/1.0 closes by default", "GET / HTTP/1.0\r\n\r\n"],
  ["http/1.0 keep-alive", "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"],
  ["http/1.1 connection close", "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"],
  ["utf-8 path", "GET /files/gr\u00fc\u00dfe HTTP/1.1\r\nHost: h\r\n\r\n"],
  ["no host on 1.1", "GET / HTTP/1.1\r\n\r\n"],
  ["http/2 preface", "PRI * HTTP/2.0\r\n\r\n"],
  ["two spaces", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n"],
  ["bad method", "G(T / HTTP/1.1\r\nHost: h\r\n\r\n"],
  ["absolute target", "GET http://evil/ HTTP/1.1\r\nHost: h\r\n\r\n"],
  ["control in target", "GET /a\x01b HTTP/1.1\r\nHost: h\r\n\r\n"],
  ["header without colon", "GET / HTTP/1.1\r\nHost: h\r\nJunk\r\n\r\n"],
  ["space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n"],
  ["control in value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\x00b\r\n\r\n"],
  ["chunked body", "POST /mcp HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"],
  ["negative length", "POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n"],
  ["two lengths", "POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"],
  ["huge length", "POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 10485760\r\n\r\n"],
  ["length too long to be a number", "POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n"],
  ["too many headers", `GET / HTTP/1.1\r\nHost: h\r\n${"X-A: 1\r\n".repeat(MAX_REQUEST_HEADERS)}\r\n`],
  ["head too large", `GET / HTTP/1.1\r\nHost: h\r\nX-Big: ${"a".repeat(HEAD_MAX_BYTES)}\r\n\r\n`],
];

export async function runHttpWireScenario(): Promise<string[]> {
  const lines: string[] = [];
  for (const [name, text] of HEADS) {
    const parsed = parseRequestHead(encodeUtf8(text));
    if (parsed instanceof HttpError) lines.push(`${name} => ${parsed.status} ${parsed.message}`);
    else {
      const headers = Object.keys(parsed.headers).map((k) => `${k}=${parsed.headers[k]}`);
      lines.push(
        `${name} => ${parsed.method} ${parsed.path} body ${parsed.bodyLength} keep-alive ${parsed.keepAlive} | ${headers.join(" | ")}`,
      );
    }
  }
  // Where a head ends, as it arrives in pieces: the blank line split across reads is still found.
  const bytes = encodeUtf8("GET / HTTP/1.1\r\nHost: h\r\n\r\nnext");
  const found: number[] = [];
  for (const upTo of [10, 26, 27, 28, bytes.length]) found.push(headEnd(bytes, upTo, Math.max(0, upTo - 5)));
  lines.push(`head end by arrival => ${found.join(" ")}`);
  lines.push(
    `response => ${JSON.stringify(decodeUtf8(responseHead(200, { "content-type": "application/json", "Content-Length": "9", "x-evil": "a\r\nset-cookie: b" }, 2, false)))}`,
  );
  lines.push(
    `stream response => ${JSON.stringify(decodeUtf8(responseHead(200, { "content-type": "text/event-stream" }, undefined, false)))}`,
  );
  lines.push(`closing response => ${JSON.stringify(decodeUtf8(responseHead(413, {}, 0, true)))}`);
  lines.push(`refusal => ${JSON.stringify(decodeUtf8(refusalResponse(new HttpError(431, "The request head is too large."))))}`);
  return lines;
}
