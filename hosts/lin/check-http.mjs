// Checks the device's HTTP server (hosts/device/http) on a running halo-lin,
// over raw sockets, and prints one `CHECK <case> ok|FAIL <detail>` line a case:
//   node hosts/lin/check-http.mjs <owner token> [port, default 8080]
// Exits 1 when a case fails. Cases: keep-alive (two requests on one
// connection, the second pipelined with the first), a 10 MB body to /mcp
// answered 413 before it is sent and the connection closed, malformed and
// oversized heads, a chunked body, a HEAD request, the static page with gzip
// and its ETag (304), a server-sent events stream, nine connections at once
// (the ninth gets 503) and a head that stalls (closed after 10 s).
import { connect } from "node:net";

const token = process.argv[2];
const port = Number(process.argv[3] ?? 8080);
if (!token) {
  console.error("usage: node hosts/lin/check-http.mjs <owner token> [port]");
  process.exit(64);
}
let failures = 0;

function check(name, ok, detail) {
  if (!ok) failures++;
  console.log(`CHECK ${name} ${ok ? "ok" : "FAIL"} ${detail}`);
}

/** Opens a connection; `received()` is everything read so far, `closed` resolves when the server closes. */
function open() {
  const socket = connect(port, "127.0.0.1");
  let data = Buffer.alloc(0);
  const closed = new Promise((resolve) => {
    socket.on("close", () => resolve(Date.now()));
    socket.on("error", () => {});
  });
  socket.on("data", (chunk) => {
    data = Buffer.concat([data, chunk]);
  });
  const ready = new Promise((resolve) => socket.on("connect", resolve));
  return { socket, ready, closed, received: () => data.toString("latin1") };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(test, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await sleep(20);
  }
  return test();
}

const STATUS = /^HTTP\/1\.1 (\d{3}) /;
const auth = `Authorization: Bearer ${token}\r\n`;
const rpc = (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });
const mcp = (id, extra = "") => {
  const body = rpc(id);
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;
};

async function keepAlive() {
  const c = open();
  await c.ready;
  c.socket.write(mcp(1) + mcp(2));
  const both = await until(() => c.received().includes('"id":2'), 5000);
  const text = c.received();
  check(
    "keep-alive",
    both && text.includes('"id":1') && text.includes('"id":2') && !c.socket.destroyed,
    `${(text.match(/HTTP\/1\.1 200/g) ?? []).length} answers on one connection, ids ${text.includes('"id":1')} ${text.includes('"id":2')}, open ${!c.socket.destroyed}`,
  );
  c.socket.end();
}

async function tooLarge() {
  const c = open();
  await c.ready;
  const started = Date.now();
  c.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 10485760\r\n\r\n`);
  // Send the body slowly: the answer must not wait for it.
  const piece = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = setInterval(() => {
    if (c.socket.destroyed || sent >= 10485760) return clearInterval(pump);
    c.socket.write(piece, () => {});
    sent += piece.length;
  }, 50);
  const closedAt = await Promise.race([c.closed, sleep(15000).then(() => 0)]);
  clearInterval(pump);
  const status = STATUS.exec(c.received())?.[1];
  check(
    "413 at once",
    status === "413" && closedAt > 0 && sent < 10485760,
    `status ${status}, closed after ${closedAt ? closedAt - started : "never"} ms with ${sent} of 10485760 body bytes sent`,
  );
}

async function refused(name, head, expectStatus) {
  const c = open();
  await c.ready;
  c.socket.write(head);
  const closedAt = await Promise.race([c.closed, sleep(5000).then(() => 0)]);
  const text = c.received();
  const status = STATUS.exec(text)?.[1];
  const json = /\r\n\r\n\{"error":"[^"]+"\}$/.test(text);
  check(name, status === expectStatus && json && closedAt > 0, `status ${status}, JSON body ${json}, closed ${closedAt > 0}`);
}

async function headRequest() {
  const c = open();
  await c.ready;
  c.socket.write("HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  await Promise.race([c.closed, sleep(5000)]);
  const text = c.received();
  const length = /content-length: (\d+)/i.exec(text)?.[1];
  check("HEAD", STATUS.exec(text)?.[1] === "200" && Number(length) > 0 && text.endsWith("\r\n\r\n"), `content-length ${length}, no body`);
}

async function staticPage() {
  const c = open();
  await c.ready;
  c.socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n");
  await until(() => /\r\n\r\n/.test(c.received()) && c.received().length > 200, 5000);
  const text = c.received();
  const etag = /etag: ("[^"]+")/i.exec(text)?.[1];
  const gzip = /content-encoding: gzip/i.test(text);
  c.socket.end();
  const d = open();
  await d.ready;
  d.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`);
  await Promise.race([d.closed, sleep(5000)]);
  check(
    "page, gzip, ETag",
    STATUS.exec(text)?.[1] === "200" && gzip && etag !== undefined && STATUS.exec(d.received())?.[1] === "304",
    `gzip ${gzip}, etag ${etag}, revalidation ${STATUS.exec(d.received())?.[1]}`,
  );
}

async function events() {
  const c = open();
  await c.ready;
  c.socket.write(`GET /api/ring/events HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Accept: text/event-stream\r\n\r\n`);
  await until(() => /\r\n\r\n[\s\S]*\n\n/.test(c.received()), 5000);
  const text = c.received();
  const status = STATUS.exec(text)?.[1];
  const stream = /content-type: text\/event-stream/i.test(text) && !/content-length/i.test(text.split("\r\n\r\n")[0]);
  check(
    "server-sent events",
    (status === "200" && stream && /\r\n\r\n[\s\S]*\n\n/.test(text)) || status === "404",
    `status ${status}, event stream ${stream}, first event ${JSON.stringify(text.split("\r\n\r\n")[1]?.slice(0, 60))}`,
  );
  c.socket.destroy();
}

async function busy() {
  // The lin socket layer notices a hang-up when it next polls: let the last case's connection close first.
  await sleep(1000);
  const held = [];
  for (let i = 0; i < 8; i++) {
    const c = open();
    await c.ready;
    held.push(c);
  }
  await sleep(200);
  const ninth = open();
  await ninth.ready;
  const closedAt = await Promise.race([ninth.closed, sleep(5000).then(() => 0)]);
  const status = STATUS.exec(ninth.received())?.[1];
  const answered = held.filter((c) => c.received() !== "").length;
  for (const c of held) c.socket.destroy();
  check(
    "ninth connection",
    status === "503" && closedAt > 0 && answered === 0,
    `status ${status}, closed ${closedAt > 0}, ${answered} of the 8 before it answered`,
  );
  await sleep(300);
}

async function stalled() {
  const c = open();
  await c.ready;
  const started = Date.now();
  c.socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  const closedAt = await Promise.race([c.closed, sleep(15000).then(() => 0)]);
  check("stalled head", closedAt > 0 && closedAt - started >= 9000, `closed after ${closedAt ? closedAt - started : "never"} ms`);
}

await keepAlive();
await tooLarge();
await refused("malformed head", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", "400");
await refused("head too large", `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(9000)}\r\n\r\n`, "431");
await refused("chunked body", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n", "501");
await headRequest();
await staticPage();
await events();
await busy();
await stalled();
await keepAlive(); // still serving after all of the above
process.exit(failures > 0 ? 1 : 0);
