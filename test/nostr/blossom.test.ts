// The blossom.* tools against the stand-in Blossom server on loopback (which checks every authorization event
// as a server does), through the registry: upload from the file store, head, list, download back with the hash
// checked, a corrupt blob refused and nothing kept, delete with a signed kind-24242 event, the owner's server
// list (the owner API, then BUD-03 kind 10063 from a real relay: its servers get the outbound address check, the
// owner's own do not), and hostile arguments.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { npubEncode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { Halo } from "../../lib/app/halo.ts";
import type { HttpClient } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { inProcessBlossomClient } from "../support/blossom-client.ts";
import { type LoopbackBlossom, startStandInBlossom } from "../support/blossom-server.ts";
import { StandInBlossom } from "../support/blossom-server-core.ts";
import { testHalo } from "../support/halo.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { publishAsClient, until } from "./support.ts";

const admin = makePrincipal("owner", "admin", "mcp");
const guest = makePrincipal("visitor", "guest", "mcp");
const sha = (b: Uint8Array | string): string => createHash("sha256").update(b).digest("hex");

describe("blossom tools (stand-in Blossom server on loopback)", () => {
  let blossom: LoopbackBlossom;
  let halo: Halo;
  let token: string;
  const log = memoryLog();
  const text = "# Notes\n\nA file that travels to a Blossom server and back.\n";
  const call = (name: string, args: unknown, who = admin) => halo.core.registry.dispatch(name, args, who);

  before(async () => {
    blossom = await startStandInBlossom();
    halo = testHalo(memoryPorts({ log }));
    token = halo.ensureOwnerToken()!;
    halo.core.artifacts.saveText(admin, "notes", "trip.md", text);
  });
  after(() => blossom.close());

  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await halo.handleHttp({
      method,
      path,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : encodeUtf8(JSON.stringify(body)),
    });
    return { status: res.status, json: JSON.parse(typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body)) };
  }

  it("says no server is set until the owner sets one; the owner API refuses hostile lists", async () => {
    assert.match((await call("blossom.head", { sha256: "a".repeat(64) })).text, /^not-configured: the owner has set no Blossom server/);
    for (const bad of [
      { servers: ["ftp://x.example"] },
      { servers: [`${blossom.url}?q=1`] },
      { servers: Array(9).fill(blossom.url) },
      { servers: "x" },
    ]) {
      assert.equal((await api("PUT", "/api/blossom/servers", bad)).status, 400, JSON.stringify(bad));
    }
    const set = await api("PUT", "/api/blossom/servers", { servers: [`${blossom.url}/`] });
    assert.deepEqual(set.json.servers, [blossom.url]);
    assert.deepEqual((await api("GET", "/api/blossom")).json, { servers: [blossom.url], in_use: [blossom.url] });
  });

  it("uploads a stored file with a signed authorization, then heads, lists and downloads it with the hash checked", async () => {
    const up = await call("blossom.upload", { project: "notes", name: "trip.md" });
    assert.equal(up.isError, undefined, up.text);
    const d = JSON.parse(up.text);
    assert.equal(d.sha256, sha(text));
    assert.equal(d.size, Buffer.byteLength(text));
    assert.deepEqual([...blossom.server.blobs.get(d.sha256)!.owners], [halo.core.nostr.identity.pubkey]);
    const head = JSON.parse((await call("blossom.head", { sha256: d.sha256 })).text);
    assert.deepEqual([head.size, head.type], [d.size, "text/markdown"]);
    const listed = JSON.parse((await call("blossom.list", {})).text);
    assert.deepEqual([listed.count, listed.blobs[0].sha256], [1, d.sha256]);
    assert.equal(JSON.parse((await call("blossom.list", { pubkey: npubEncode(getPublicKey(generateSecretKey())) })).text).count, 0);
    const down = await call("blossom.download", { sha256: d.sha256, project: "notes", name: "copy.md" });
    assert.match(down.text, /^Saved notes\/copy\.md \(\d+ bytes, SHA-256 checked\)/);
    assert.equal(halo.core.artifacts.readText(admin, "notes", "copy.md", 0).text, text);
  });

  it("refuses a blob whose bytes do not hash to the name asked for, and keeps nothing", async () => {
    const h = sha(text);
    blossom.server.corrupt.add(h);
    const r = await call("blossom.download", { sha256: h, project: "notes", name: "bad.md" });
    assert.match(r.text, /^invalid: the blob's SHA-256 is not the one asked for; nothing was kept\.$/);
    assert.throws(() => halo.core.artifacts.stat(admin, "notes", "bad.md"), /not-found|no file/);
    blossom.server.corrupt.delete(h);
    assert.match((await call("blossom.download", { sha256: "0".repeat(64), project: "notes", name: "none.md" })).text, /^not-found: /);
  });

  it("the stand-in server refuses authorizations that are forged, expired, for another verb or another blob", async () => {
    const sk = generateSecretKey();
    const body = encodeUtf8("hello blossom");
    const h = sha(body);
    const now = Math.floor(Date.now() / 1000);
    const auth = (tags: string[][], kind = 24242, fix?: (e: any) => void): string => {
      const e: any = finalizeEvent({ kind, created_at: now, tags, content: "x" }, sk);
      fix?.(e);
      return `Nostr ${Buffer.from(JSON.stringify(e)).toString("base64")}`;
    };
    const put = (authorization?: string) =>
      fetch(`${blossom.url}/upload`, { method: "PUT", body, headers: authorization ? { authorization } : {} }).then((r) => r.status);
    const good = [
      ["t", "upload"],
      ["expiration", String(now + 60)],
      ["x", h],
    ];
    assert.equal(await put(), 401);
    assert.equal(await put(auth(good, 1)), 401);
    assert.equal(await put(auth([["t", "delete"], good[1], good[2]])), 401);
    assert.equal(await put(auth([good[0], ["expiration", String(now - 1)], good[2]])), 401);
    assert.equal(await put(auth([good[0], good[1], ["x", "f".repeat(64)]])), 401);
    assert.equal(await put(auth(good, 24242, (e) => (e.sig = "0".repeat(128)))), 401);
    assert.equal(await put(auth(good, 24242, (e) => (e.content = "changed"))), 401);
    assert.equal(await put("Nostr !!!notbase64"), 401);
    assert.equal(await put(auth(good)), 200);
    assert.ok(blossom.server.refusals.includes("authorization expired"));
    assert.ok(blossom.server.refusals.includes("authorization event refused: bad-signature"));
    assert.ok(blossom.server.refusals.includes("authorization does not name this blob"));
  });

  it("deletes with a signed kind-24242 authorization; someone else's blob is not the device's to delete", async () => {
    const foreign = [...blossom.server.blobs.keys()].find((k) => k !== sha(text))!;
    assert.match((await call("blossom.delete", { sha256: foreign })).text, /^refused: the Blossom server answered 403/);
    assert.match((await call("blossom.delete", { sha256: sha(text) })).text, /^Deleted /);
    assert.equal(blossom.server.blobs.has(sha(text)), false);
    assert.match((await call("blossom.head", { sha256: sha(text) })).text, /^not-found: /);
  });

  it("refuses hostile arguments and callers, and keeps serving", async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ["blossom.head", { sha256: "XYZ" }, /^invalid arguments: /],
      ["blossom.head", { sha256: "a".repeat(64), server: "http://elsewhere.example" }, /^not-allowed: /],
      ["blossom.head", { sha256: "a".repeat(64), server: "file:///etc/passwd" }, /^invalid arguments: /],
      ["blossom.download", { sha256: "a".repeat(64), project: "../x", name: "a.md" }, /^invalid/],
      ["blossom.download", { sha256: "a".repeat(64), project: "notes", name: "a.exe" }, /^invalid/],
      ["blossom.upload", { project: "notes", name: "missing.md" }, /^not-found: /],
      ["blossom.list", { pubkey: "not a key" }, /^invalid/],
      ["blossom.delete", { sha256: "a".repeat(64), extra: 1 }, /^invalid arguments: /],
    ];
    for (const [name, args, expected] of cases) assert.match((await call(name, args)).text, expected, `${name} ${JSON.stringify(args)}`);
    assert.match((await call("blossom.upload", { project: "notes", name: "trip.md" }, guest)).text, /^admin-only: /);
    assert.match((await call("blossom.delete", { sha256: "a".repeat(64) }, guest)).text, /^admin-only: /);
    assert.equal(JSON.parse((await call("blossom.list", {})).text).server, blossom.url);
  });

  describe("the owner's BUD-03 server list (kind 10063 on a real relay)", () => {
    let relay: TestRelay;
    before(async () => {
      relay = await startTestRelay();
    });
    after(async () => {
      halo.core.nostr.stop();
      await relay.close();
    });

    it("reads the owner's kind 10063 servers when the owner API sets none, and checks their addresses", async () => {
      const ownerSk = generateSecretKey();
      halo.core.nostr.setOwner(getPublicKey(ownerSk));
      halo.core.nostr.setRelays([relay.url]);
      halo.core.nostr.start();
      await until(() => halo.core.nostr.pool!.connectedCount() === 1);
      const list = finalizeEvent(
        {
          kind: 10063,
          created_at: Math.floor(Date.now() / 1000),
          tags: [
            ["server", `${blossom.url}/`],
            ["server", "not a url"],
          ],
          content: "",
        },
        ownerSk,
      );
      assert.equal(await publishAsClient(relay.url, list), true);
      assert.deepEqual((await api("PUT", "/api/blossom/servers", { servers: [] })).json.servers, []);
      assert.deepEqual((await api("GET", "/api/blossom")).json.in_use, [blossom.url]);
      // A server from a relay's event is checked like any received address: this one is on loopback.
      assert.match((await call("blossom.list", {})).text, /^unavailable: the Blossom server could not be reached/);
      // The same server set by the owner is an origin the owner chose, reached as it is.
      assert.deepEqual((await api("PUT", "/api/blossom/servers", { servers: [blossom.url] })).json.servers, [blossom.url]);
      assert.equal(JSON.parse((await call("blossom.list", {})).text).server, blossom.url);
    });

    it("reaches a public server of the owner's kind 10063 list at the address it checked", async () => {
      const base = "https://blossom.example";
      const standIn = new StandInBlossom({
        now: () => Math.floor(Date.now() / 1000),
        sha256: (d) => new Uint8Array(createHash("sha256").update(d).digest()),
        base,
      });
      const inProcess = inProcessBlossomClient(standIn, base);
      const pinned: Array<string | undefined> = [];
      const http: HttpClient = {
        request: (req) => {
          pinned.push(req.address);
          return inProcess.request(req);
        },
      };
      const resolver = {
        resolve: (name: string) =>
          name === "blossom.example" ? Promise.resolve(["93.184.216.34"]) : Promise.reject(new Error("no such name")),
      };
      const other = testHalo(memoryPorts({ log: memoryLog(), http, resolver }));
      try {
        const ownerSk = generateSecretKey();
        other.core.nostr.setOwner(getPublicKey(ownerSk));
        other.core.nostr.setRelays([relay.url]);
        other.core.nostr.start();
        await until(() => other.core.nostr.pool!.connectedCount() === 1);
        const list = finalizeEvent(
          { kind: 10063, created_at: Math.floor(Date.now() / 1000), tags: [["server", `${base}/`]], content: "" },
          ownerSk,
        );
        assert.equal(await publishAsClient(relay.url, list), true);
        const listed = await other.core.registry.dispatch("blossom.list", {}, admin);
        assert.equal(JSON.parse(listed.text).server, base);
        assert.deepEqual(pinned, ["93.184.216.34"]);
      } finally {
        other.core.nostr.stop();
      }
    });
  });
});
