// SSRF through the tools a guest may call (nostr.relay_info, nostr.nip05_lookup) and through the guarded
// client itself (lib/net/outbound.ts), against real loopback listeners: a closed port, an open port that
// does not speak HTTP, and an HTTP server. Every inward target is refused with the same sentence, whichever
// of the three it is and however its address is written, and no listener sees a single connection.
// Redirects are checked hop by hop: a trusted origin that redirects inward is refused too.
import assert from "node:assert/strict";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { nodeHttpClient, nodeResolver } from "../../hosts/sim/ports/http-client.ts";
import { systemClock } from "../../hosts/sim/ports/node-basics.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { OUTBOUND_REFUSED, OutboundHttp } from "../../lib/net/outbound.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { TEST_HOST } from "../support/halo.ts";

const guest = makePrincipal("guest-1", "guest", "mcp");

/** Ways to write the loopback address (and names that resolve to it) as a URL's host. */
const LOOPBACK_FORMS = [
  "127.0.0.1",
  "127.1",
  "0x7f.0.0.1",
  "2130706433",
  "0177.0.0.1",
  "[::ffff:127.0.0.1]",
  "[::1]",
  "localhost",
  "inward.example",
];
/** Other inward ranges: no listener, but they must read exactly the same. */
const INWARD_HOSTS = [
  "169.254.169.254", // cloud metadata
  "10.0.0.1",
  "172.16.0.1",
  "192.168.1.1",
  "100.64.0.1", // carrier-grade NAT
  "224.0.0.1", // multicast
  "0.0.0.0",
  "[fd00::1]", // unique local
  "[fe80::1]", // link-local
  "[::ffff:169.254.169.254]", // IPv4-mapped metadata
  "[::ffff:a9fe:a9fe]",
  "metadata.google.internal",
];

async function listening<T extends HttpServer | TcpServer>(server: T): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  return (server.address() as AddressInfo).port;
}

describe("outbound requests never reach an inward address (SSRF)", () => {
  let httpServer: HttpServer;
  let tcpServer: TcpServer;
  let httpPort: number;
  let tcpPort: number;
  let closedPort: number;
  let connections = 0;
  let core: Core;
  // inward.example resolves to loopback, as a rebinding name would.
  const resolver = {
    resolve: (name: string): Promise<string[]> => (name === "inward.example" ? Promise.resolve(["127.0.0.1"]) : nodeResolver.resolve(name)),
  };

  before(async () => {
    httpServer = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end('{"name":"inside","names":{"_":"' + "a".repeat(64) + '"}}');
    });
    httpServer.on("connection", () => connections++);
    tcpServer = createTcpServer((socket) => {
      socket.end("SSH-2.0-OpenSSH_9.6\r\n");
    });
    tcpServer.on("connection", () => connections++);
    httpPort = await listening(httpServer);
    tcpPort = await listening(tcpServer);
    const probe = createTcpServer();
    closedPort = await listening(probe);
    await new Promise<void>((ok) => probe.close(() => ok()));
    core = buildCore(memoryPorts({ resolver }), TEST_HOST);
  });
  after(async () => {
    await new Promise<void>((ok) => httpServer.close(() => ok()));
    await new Promise<void>((ok) => tcpServer.close(() => ok()));
  });

  it("nostr.relay_info gives one refusal for a closed port, an open non-HTTP port and an HTTP port, in every spelling", async () => {
    const answers = new Set<string>();
    let cases = 0;
    for (const host of LOOPBACK_FORMS) {
      for (const port of [closedPort, tcpPort, httpPort]) {
        for (const scheme of ["ws", "wss"]) {
          const r = await core.registry.dispatch("nostr.relay_info", { relay_url: `${scheme}://${host}:${port}/` }, guest);
          assert.equal(r.isError, true, `${host}:${port} ${r.text}`);
          answers.add(r.text);
          cases++;
        }
      }
    }
    for (const host of INWARD_HOSTS) {
      const r = await core.registry.dispatch("nostr.relay_info", { relay_url: `wss://${host}/` }, guest);
      answers.add(r.text);
      cases++;
    }
    assert.equal(cases, LOOPBACK_FORMS.length * 6 + INWARD_HOSTS.length);
    assert.deepEqual([...answers], [`unavailable: ${OUTBOUND_REFUSED}.`]);
    assert.equal(connections, 0, "a loopback listener was reached");
  });

  it("nostr.nip05_lookup refuses a domain that resolves inward, with the same sentence", async () => {
    const r = await core.registry.dispatch("nostr.nip05_lookup", { identifier: "_@inward.example" }, guest);
    assert.equal(r.text, `unavailable: ${OUTBOUND_REFUSED}.`);
    const local = await core.registry.dispatch("nostr.nip05_lookup", { identifier: "bob@printer.local" }, guest);
    assert.equal(local.text, `unavailable: ${OUTBOUND_REFUSED}.`);
    assert.equal(connections, 0);
  });

  it("the guarded client re-checks every redirect: a trusted origin that redirects inward is refused", async () => {
    const outbound = new OutboundHttp({ http: nodeHttpClient, resolver, clock: systemClock });
    const hops: string[] = [];
    const redirector = createHttpServer((req, res) => {
      hops.push(req.url ?? "");
      res.writeHead(302, { location: `http://127.0.0.1:${httpPort}/secret` }).end();
    });
    const port = await listening(redirector);
    try {
      const origin = `http://127.0.0.1:${port}`;
      // Trusted (the owner set it): reached. Its redirect to another loopback port is not.
      await assert.rejects(
        outbound.request({ method: "GET", url: `${origin}/feed`, timeoutMs: 2000, maxResponseBytes: 1024, trusted: [origin] }),
        (e: Error) => e.message.endsWith(OUTBOUND_REFUSED),
      );
      assert.deepEqual(hops, ["/feed"]);
      // With redirects off, the 302 itself comes back (the caller decides).
      const res = await outbound.request({
        method: "GET",
        url: `${origin}/x`,
        timeoutMs: 2000,
        maxResponseBytes: 1024,
        trusted: [origin],
        maxRedirects: 0,
      });
      assert.equal(res.status, 302);
      // Not trusted: refused before any connection.
      await assert.rejects(outbound.request({ method: "GET", url: `${origin}/y`, timeoutMs: 2000, maxResponseBytes: 1024 }), (e: Error) =>
        e.message.endsWith(OUTBOUND_REFUSED),
      );
      assert.deepEqual(hops, ["/feed", "/x"]);
      assert.equal(connections, 0);
    } finally {
      await new Promise<void>((ok) => redirector.close(() => ok()));
    }
  });

  it("a name is pinned to the address that was checked (a second lookup cannot turn it inward)", async () => {
    let lookups = 0;
    const seen: Array<string | undefined> = [];
    const flipping = {
      resolve: async (): Promise<string[]> => (lookups++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]),
    };
    const http = {
      request: async (req: { address?: string }) => {
        seen.push(req.address);
        return { status: 200, headers: {}, body: new Uint8Array() };
      },
    };
    const outbound = new OutboundHttp({ http, resolver: flipping, clock: systemClock });
    await outbound.request({ method: "GET", url: "https://rebind.example/", timeoutMs: 1000, maxResponseBytes: 10 });
    assert.deepEqual(seen, ["93.184.216.34"]);
    await assert.rejects(outbound.request({ method: "GET", url: "https://rebind.example/", timeoutMs: 1000, maxResponseBytes: 10 }));
    assert.deepEqual(seen, ["93.184.216.34"], "the second, inward answer never reached the client");
  });
});
