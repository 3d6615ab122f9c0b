// The device's HTTP/1.1 reader and writer: what it accepts, what it refuses and with which status.
import assert from "node:assert/strict";
import { runHttpWireScenario } from "../scenarios/http-wire.ts";

describe("HTTP on the wire (the device's reader and writer)", () => {
  let text = "";
  before(async () => {
    text = (await runHttpWireScenario()).join("\n");
  });

  it("reads a request head: method, target, lower-case headers joined, body length, keep-alive", () => {
    assert.match(
      text,
      /^mcp post => POST \/mcp body 42 keep-alive true \| host=192\.168\.1\.20 \| authorization=Bearer halo_x \| content-type=application\/json/m,
    );
    assert.match(
      text,
      /^get, query, repeated header => GET \/api\/tools\?x=1 body 0 keep-alive true \| host=halo\.local \| accept=text\/html, \*\/\*$/m,
    );
    assert.match(text, /^http\/1\.0 closes by default => GET \/ body 0 keep-alive false/m);
    assert.match(text, /^http\/1\.0 keep-alive => GET \/ body 0 keep-alive true/m);
    assert.match(text, /^http\/1\.1 connection close => GET \/ body 0 keep-alive false/m);
    assert.match(text, /^utf-8 path => GET \/files\/grüße /m);
    // The length is only read here; the connection compares it with the route's limit before reading a byte.
    assert.match(text, /^huge length => POST \/mcp body 10485760 /m);
  });

  it("refuses malformed and hostile heads with a status and a sentence", () => {
    const expected: Array<[string, string]> = [
      ["no host on 1.1", "400 An HTTP/1.1 request needs a Host header."],
      ["http/2 preface", "505 Only HTTP/1.0 and HTTP/1.1 are served."],
      ["two spaces", "400 Malformed request line."],
      ["bad method", "400 Malformed request method."],
      ["absolute target", "400 Malformed request target."],
      ["control in target", "400 Malformed request target."],
      ["header without colon", "400 Malformed header line."],
      ["space before colon", "400 Malformed header line."],
      ["control in value", "400 Malformed header value."],
      ["chunked body", "501 Chunked request bodies are not accepted; send Content-Length."],
      ["negative length", "400 Malformed Content-Length."],
      ["two lengths", "400 Malformed Content-Length."],
      ["length too long to be a number", "400 Malformed Content-Length."],
      ["too many headers", "431 Too many request headers."],
      ["head too large", "431 The request head is too large."],
    ];
    for (const [name, answer] of expected) assert.ok(text.includes(`\n${name} => ${answer}\n`), `${name}: ${answer}`);
  });

  it("finds the end of a head only once its blank line has arrived", () => {
    assert.match(text, /^head end by arrival => -1 -1 27 27 27$/m);
  });

  it("writes response heads: its own framing headers, no line break from a handler's header", () => {
    assert.ok(
      text.includes(
        'response => "HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\nx-evil: a set-cookie: b\\r\\ncontent-length: 2\\r\\nconnection: keep-alive\\r\\n\\r\\n"',
      ),
    );
    assert.ok(
      text.includes('stream response => "HTTP/1.1 200 OK\\r\\ncontent-type: text/event-stream\\r\\nconnection: close\\r\\n\\r\\n"'),
    );
    assert.ok(
      text.includes('closing response => "HTTP/1.1 413 Content Too Large\\r\\ncontent-length: 0\\r\\nconnection: close\\r\\n\\r\\n"'),
    );
    assert.match(
      text,
      /refusal => "HTTP\/1\.1 431 Request Header Fields Too Large\\r\\ncontent-type: application\/json\\r\\ncache-control: no-store\\r\\nx-content-type-options: nosniff\\r\\ncontent-length: 42\\r\\nconnection: close\\r\\n\\r\\n\{\\"error\\":\\"The request head is too large\.\\"\}"/,
    );
  });
});
