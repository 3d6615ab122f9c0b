// files.fetch never reaches the device, the LAN or link-local addresses: every spelling of
// such an address, and every name that resolves to one (the hosts file included), is refused
// with one sentence, as the first URL (through the running simulator) and as a redirect
// target from a local server (the real HTTP client and resolver). A local "secret" server
// counts every connection it gets: it must get none.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { hostname } from "node:os";
import type { AddressInfo } from "node:net";
import { BLOCKED_ADDRESS } from "../../lib/store/https-fetch.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { filesHarness } from "./support.ts";
import { ownerApi } from "../support/owner-api.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";

/** Hosts that are the device, its LAN or link-local, written every way the issue found accepted. */
const LITERAL_HOSTS = [
  "0177.0.0.1",
  "0x7f.0.0.1",
  "2130706433",
  "127.1",
  "[0:0:0:0:0:0:0:1]",
  "[0::1]",
  "[0::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "012.0.0.1",
  "0xa.0x0.0x0.0x1",
  "0254.020.0.1",
  "0xac.0x10.0.1",
  "0300.0250.0.1",
  "0xc0.0xa8.0x1.0x1",
  "0144.0100.0.1",
  "0x64.0x40.0.1",
  "0251.0376.0251.0376",
  "0xa9fea9fe",
  "[::ffff:169.254.169.254]",
  "[fe80::1]",
  "[fd00::1]",
  "[64:ff9b::7f00:1]",
  "localhost",
];

/** Names the hosts file maps to loopback (besides localhost, which is refused by name), and this machine's name. */
function hostsFileNames(): string[] {
  const names = new Set<string>([hostname()]);
  for (const line of readFileSync("/etc/hosts", "utf8").split("\n")) {
    const [address, ...rest] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (address && /^(127\.|::1$)/.test(address)) for (const n of rest) if (n && !/localhost/.test(n)) names.add(n.toLowerCase());
  }
  return [...names];
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return (server.address() as AddressInfo).port;
}

/** No refusal may tell a closed port from an open one or a TLS one: no port, no errno, no TLS wording. */
function assertGeneric(detail: string | undefined, label: string): void {
  const text = detail ?? "";
  assert.ok(text.includes(BLOCKED_ADDRESS), `${label}: ${detail}`);
  assert.doesNotMatch(text, /ECONN|EHOST|TLS|SSL|certificate|refused the connection|\d{4,5}/, label);
}

describe("files.fetch and addresses that are not the public internet", () => {
  let secret: Server;
  let secretPort: number;
  let connections = 0;
  before(async () => {
    secret = createServer((_req, res) => res.end("canary-secret-body"));
    secret.on("connection", () => connections++);
    secretPort = await listen(secret);
  });
  after(() => new Promise<void>((ok) => secret.close(() => ok())));

  describe("as the first URL, through the running simulator", () => {
    let sim: TestSim;
    before(async () => {
      sim = await startTestSim();
      assert.equal((await ownerApi(sim, "PUT", "/api/downloads/policy", { policy: "full" })).status, 200);
    });
    after(async () => sim.stop());

    const fetchTool = async (args: object): Promise<{ text: string; isError: boolean }> => {
      const r = await postMcp(
        sim,
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "files.fetch", arguments: args } }),
      );
      return { text: r.json.result.content[0].text, isError: r.json.result.isError };
    };

    it("refuses every spelling of a local address before connecting, with one sentence", async () => {
      for (const host of LITERAL_HOSTS) {
        const r = await fetchTool({ url: `https://${host}:${secretPort}/x.md`, project: "dl", name: "x.md" });
        assert.deepEqual(r, { text: `invalid url: ${BLOCKED_ADDRESS}.`, isError: true }, host);
      }
      assert.equal(connections, 0);
    });

    it("resolves names (the hosts file too) and refuses one that leads inward, before connecting", async () => {
      const names = hostsFileNames();
      assert.ok(names.length > 0);
      for (const name of names) {
        const started = await fetchTool({ url: `https://${name}:${secretPort}/x.md`, project: "dl", name: "x.md" });
        const id = /^Download (f[0-9a-f]{8}) /.exec(started.text)?.[1];
        assert.ok(id, started.text);
        let job: any;
        for (let i = 0; i < 100; i++) {
          job = (await ownerApi(sim, "GET", "/api/downloads")).json.downloads.find((j: any) => j.id === id);
          if (job.state !== "downloading") break;
          await new Promise((ok) => setTimeout(ok, 20));
        }
        assert.equal(job.state, "failed", name);
        // A name this machine cannot resolve fails as unresolvable, which says nothing about local ports either.
        if (!/could not be resolved/.test(job.detail)) assertGeneric(job.detail, name);
      }
      assert.equal(connections, 0);
    });
  });

  describe("as a redirect target from a local server (real HTTP client and resolver)", () => {
    let redirector: Server;
    let origin: string;
    before(async () => {
      redirector = createServer((req, res) => {
        const target = decodeURIComponent((req.url ?? "/").slice(1));
        if (target === "ok.md") res.writeHead(200, { "content-type": "text/markdown" }).end("# fine\n");
        else res.writeHead(302, { location: target }).end();
      });
      origin = `http://127.0.0.1:${await listen(redirector)}`;
    });
    after(() => new Promise<void>((ok) => redirector.close(() => ok())));

    it("refuses every local address and every inward name on the redirect, and connects to none", async () => {
      const h = filesHarness({ downloads: { exemptOriginsForTests: [origin], timeoutMs: 5000 } });
      h.downloads.setPolicy("full");
      const owner = makePrincipal("owner", "admin", "mcp");
      // The harness can download at all: a redirect to the exempt origin itself is followed and saved.
      const control = h.downloads.request(owner, `${origin}/${encodeURIComponent(`${origin}/ok.md`)}`, "dl", "ok.md");
      await h.downloads.settled(control.id);
      assert.equal(h.downloads.status(owner, control.id).state, "saved");
      const targets = [...LITERAL_HOSTS, ...hostsFileNames()].map((host) => `https://${host}:${secretPort}/x.md`);
      targets.push(`http://0x7f.0.0.1:${secretPort}/x.md`);
      for (const [i, target] of targets.entries()) {
        const job = h.downloads.request(owner, `${origin}/${encodeURIComponent(target)}`, "dl", `r${i}.md`);
        await h.downloads.settled(job.id);
        const seen = h.downloads.status(owner, job.id);
        assert.equal(seen.state, "failed", target);
        if (target.startsWith("http:")) assert.equal(seen.detail, "a redirect was refused: only https URLs are allowed");
        else if (!/could not be resolved/.test(seen.detail ?? "")) assertGeneric(seen.detail, target);
      }
      assert.equal(connections, 0, "the secret server was never reached");
    });
  });
});
