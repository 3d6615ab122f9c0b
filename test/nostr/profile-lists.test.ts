// Profiles, NIP-05, NIP-11, long-form posts and NIP-51 lists (with the block list
// that silences a DM sender) through the registry, against a real relay and a local web server.
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { encrypt as nip04Encrypt } from "nostr-tools/nip04";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { RELAY_INFO, startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { publishAsClient, sleep, until } from "./support.ts";

const admin = makePrincipal("owner", "admin", "mcp");

describe("nostr profiles, NIP-05, NIP-11, long-form and lists", () => {
  let relay: TestRelay;
  let web: Server;
  let core: Core;
  const bob = getPublicKey(generateSecretKey());
  const call = (name: string, args: unknown) => core.registry.dispatch(name, args, admin);

  before(async () => {
    relay = await startTestRelay();
    // Stands in for https://example.test: the resolver gives example.test a public address (the guarded client
    // pins the connection to it), and the device's HTTP port is pointed at the local server instead.
    web = createServer((req, res) => {
      if (req.url === "/.well-known/nostr.json?name=bob") {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ names: { bob }, relays: { [bob]: ["wss://relay.example"] } }));
      } else if (req.url?.startsWith("/.well-known/nostr.json?name=huge")) {
        res.writeHead(200).end("x".repeat(200_000));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((ok) => web.listen(0, "127.0.0.1", () => ok()));
    const webPort = (web.address() as AddressInfo).port;
    const http = {
      request: (req: Parameters<typeof nodeHttpClient.request>[0]) =>
        req.url.startsWith("https://example.test/")
          ? nodeHttpClient.request({
              ...req,
              address: undefined,
              url: req.url.replace("https://example.test", `http://127.0.0.1:${webPort}`),
            })
          : nodeHttpClient.request(req),
    };
    const resolver = {
      resolve: async (name: string) => (name === "example.test" ? ["93.184.216.34"] : Promise.reject(new Error("no such name"))),
    };
    core = buildCore(memoryPorts({ http, resolver }), TEST_HOST);
    core.nostr.setRelays([relay.url]);
    core.nostr.start();
    await until(() => core.nostr.pool!.connectedCount() === 1);
  });
  after(async () => {
    core.nostr.stop();
    await relay.close();
    await new Promise<void>((ok) => web.close(() => ok()));
  });

  it("sets and reads its own profile, and reads another's", async () => {
    assert.equal((await call("nostr.profile_set", { name: "halo", about: "a desk device" })).isError, undefined);
    assert.match((await call("nostr.profile_get", {})).text, /"name":"halo"/);
    const sk = generateSecretKey();
    await publishAsClient(
      relay.url,
      finalizeEvent({ kind: 0, content: '{"name":"carol"}', tags: [], created_at: Math.floor(Date.now() / 1000) }, sk),
    );
    assert.match((await call("nostr.profile_get", { pubkey: getPublicKey(sk) })).text, /carol/);
    assert.match((await call("nostr.profile_get", { pubkey: bob })).text, /^not-found/);
  });

  it("resolves NIP-05 and refuses what does not resolve", async () => {
    const r = await call("nostr.nip05_lookup", { identifier: "bob@example.test" });
    assert.match(r.text, new RegExp(`pubkey: ${bob}`));
    assert.match(r.text, /wss:\/\/relay\.example/);
    assert.match(
      (await call("nostr.nip05_lookup", { identifier: "nobody@example.test" })).text,
      /^not-found: the server answered HTTP 404/,
    );
    // Too large, no answer, a closed port: one sentence for all (lib/net/outbound.ts).
    assert.match(
      (await call("nostr.nip05_lookup", { identifier: "huge@example.test" })).text,
      /^unavailable: that address could not be reached/,
    );
    assert.match((await call("nostr.nip05_lookup", { identifier: "no at sign or dot" })).text, /^invalid/);
  });

  it("reads a relay's NIP-11 document", async () => {
    const info = JSON.parse((await call("nostr.relay_info", { relay_url: relay.url })).text);
    assert.deepEqual(info.supported_nips, RELAY_INFO.supported_nips);
    assert.equal(info.name, RELAY_INFO.name);
    assert.match((await call("nostr.relay_info", { relay_url: "http://not-a-relay" })).text, /^invalid/);
  });

  it("publishes a stored markdown file as a kind 30023 article", async () => {
    core.artifacts.saveText(admin, "blog", "Hello.md", "# Hello\n\nFrom the desk.");
    const r = await call("nostr.file_md_to_longform_post", { path: "blog/Hello.md" });
    assert.equal(r.isError, undefined, r.text);
    const article = [...relay.repository.events.values()].find((e) => e.kind === 30023)!;
    assert.equal(article.content, "# Hello\n\nFrom the desk.");
    assert.deepEqual(article.tags[0], ["d", "hello.md"], "the d tag defaults to the lower-case file name");
    assert.deepEqual(article.tags[1], ["title", "Hello"], "the title is the first heading");
    assert.match((await call("nostr.file_md_to_longform_post", { path: "blog/missing.md" })).text, /not-found/);
  });

  it("keeps NIP-51 list entries public or private (encrypted to itself) and edits the newest copy", async () => {
    const pin = "a".repeat(64);
    await call("nostr.list_manage", { list_kind: 10001, action: "add", items: [["e", pin]] });
    await sleep(1100);
    await call("nostr.list_manage", { list_kind: 10001, action: "add", items: [["e", "b".repeat(64)]], private: true });
    const list = [...relay.repository.events.values()].filter((e) => e.kind === 10001);
    assert.equal(list.length, 1);
    assert.deepEqual(list[0].tags, [["e", pin]]);
    assert.ok(!list[0].content.includes("bbbb"));
    const me = core.nostr.identity;
    assert.deepEqual(JSON.parse(me.nip44Decrypt(me.pubkey, list[0].content)), [["e", "b".repeat(64)]]);
    assert.match((await call("nostr.list_manage", { list_kind: 30000, action: "add", items: [["p", bob]] })).text, /needs its d tag/);
    assert.match((await call("nostr.list_manage", { list_kind: 1, action: "add", items: [["p", bob]] })).text, /^invalid/);
  });

  it("drops DMs from a blocked key before they reach a turn", async () => {
    const ownerSk = generateSecretKey();
    core.nostr.setOwner(getPublicKey(ownerSk));
    core.nostrChannel.start();
    await until(() => relay.received.some((f) => f.includes('"dm-inbox"')), 3000, "the inbox");
    assert.equal((await call("nostr.block_edit", { action: "add", items: [["p", getPublicKey(ownerSk)]] })).isError, undefined);
    assert.match((await call("nostr.block_list", {})).text, new RegExp(getPublicKey(ownerSk)));
    const muted = [...relay.repository.events.values()].find((e) => e.kind === 10000)!;
    assert.deepEqual(muted.tags, []);
    const device = core.nostr.identity.pubkey;
    const dm = finalizeEvent(
      {
        kind: 4,
        content: nip04Encrypt(ownerSk, device, "blocked hello"),
        tags: [["p", device]],
        created_at: Math.floor(Date.now() / 1000),
      },
      ownerSk,
    );
    await publishAsClient(relay.url, dm);
    await until(() => core.nostr.pool!.subscriptions().find((s) => s.name === "dm-inbox")!.received === 1, 3000, "the DM delivered");
    await sleep(100);
    assert.deepEqual(core.nostrChannel.stats(), { turns: 0, strangers: 0, refused: 0, dropped: 0, replayed: 0 });
    await call("nostr.block_edit", { action: "remove", items: [["p", getPublicKey(ownerSk)]] });
    assert.equal((await call("nostr.block_list", {})).text, "Nothing is blocked.");
    assert.match((await call("nostr.block_edit", { action: "add", items: [["x", "y"]] })).text, /^invalid/);
  });
});
