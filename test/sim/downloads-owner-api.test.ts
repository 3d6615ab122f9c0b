// The owner's download endpoints over a real socket against the running simulator:
// a member's files.fetch waits for the owner ("ask"), is approved or rejected over
// the API; "scan" quarantines until a verdict. The simulator's HttpClient sends the
// member's https URL to a local file server (the host name is the only change).
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { HttpClient } from "../../lib/ports.ts";
import { ownerApi } from "../support/owner-api.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";

const FILE_HOST = "https://files.example.com";

const file = (body: string) => ({
  raw: (res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/plain", "content-length": String(Buffer.byteLength(body)) });
    res.end(body);
  },
});

describe("simulator owner API: downloads (files.fetch trust policy)", () => {
  let sim: TestSim;
  let server: ProviderServer;
  let member: string;
  let guest: string;
  const log = memoryLog();

  before(async () => {
    server = await ProviderServer.start();
    const local = server.url.replace(/\/v1$/, "");
    const http: HttpClient = {
      request: (req) =>
        nodeHttpClient.request({ ...req, url: req.url.startsWith(FILE_HOST) ? local + req.url.slice(FILE_HOST.length) : req.url }),
    };
    // The file host's name resolves to a public address (it stands for a site on the internet); the request goes to the local server.
    const resolver = { resolve: async () => ["93.184.215.14"] };
    sim = await startTestSim({ portOverrides: { http, resolver, log } });
    member = (await ownerApi(sim, "POST", "/api/clients", { name: "laptop", role: "user", ns: "mia" })).json.token;
    guest = (await ownerApi(sim, "POST", "/api/clients", { name: "kiosk", role: "guest", ns: "gus" })).json.token;
  });
  after(async () => {
    await sim.stop();
    await server.close();
  });

  async function tool(token: string, name: string, args: object): Promise<string> {
    const r = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }), {
      authorization: `Bearer ${token}`,
    });
    return r.json.result.content[0].text as string;
  }

  /** The member asks for a download; returns its id. */
  async function memberFetch(name: string): Promise<string> {
    const text = await tool(member, "files.fetch", { url: `${FILE_HOST}/docs/${name}`, project: "dl", name });
    const id = /^Download (f[0-9a-f]{8}) /.exec(text)?.[1];
    assert.ok(id, text);
    return id;
  }

  const job = async (id: string): Promise<any> =>
    (await ownerApi(sim, "GET", "/api/downloads")).json.downloads.find((j: any) => j.id === id);

  it("sets and reads the policy and per-file cap", async () => {
    const empty = await ownerApi(sim, "GET", "/api/downloads");
    assert.deepEqual([empty.status, empty.json], [200, { policy: "off", max_bytes: 2 * 1024 * 1024, downloads: [] }]);
    const put = await ownerApi(sim, "PUT", "/api/downloads/policy", { policy: "ask", max_bytes: 4096 });
    assert.deepEqual([put.status, put.json], [200, { policy: "ask", max_bytes: 4096 }]);
    assert.deepEqual(
      (await ownerApi(sim, "PUT", "/api/downloads/policy", { policy: "ask" })).json,
      { policy: "ask", max_bytes: 4096 },
      "the cap stays when not given",
    );
    assert.deepEqual(sim.halo.core.downloads.policy(), { policy: "ask", maxBytes: 4096 });
  });

  it("under ask: the member's download waits, the owner approves it, the file lands", async () => {
    await ownerApi(sim, "PUT", "/api/downloads/policy", { policy: "ask" });
    const id = await memberFetch("notes.md");
    const waiting = await ownerApi(sim, "GET", "/api/downloads");
    assert.deepEqual(waiting.json.downloads[0], {
      id,
      owner: "mia",
      url: `${FILE_HOST}/docs/notes.md`,
      project: "dl",
      name: "notes.md",
      state: "awaiting-approval",
      detail: "the owner approves each link",
      created: waiting.json.downloads[0].created,
    });
    assert.equal(server.seen.length, 0, "nothing is fetched before the owner approves");

    server.reply(file("# Notes\nfetched after approval\n"));
    const approved = await ownerApi(sim, "POST", `/api/downloads/${id}/approve`, {});
    assert.equal(approved.status, 200);
    assert.deepEqual([approved.json.id, approved.json.decision, approved.json.download.state], [id, "approved", "downloading"]);
    await sim.halo.core.downloads.settled(id);
    assert.deepEqual([(await job(id)).state, (await job(id)).bytes], ["saved", 31]);
    assert.deepEqual(
      server.seen.map((s) => [s.method, s.path]),
      [["GET", "/docs/notes.md"]],
    );
    assert.ok(log.lines.includes(`owner api: download ${id} approved`));
    assert.equal(await tool(member, "files.read", { project: "dl", name: "notes.md" }), "# Notes\nfetched after approval\n");
    assert.ok(
      !(await ownerApi(sim, "GET", "/api/downloads")).text.includes("fetched after approval"),
      "the list never carries a file's contents",
    );

    const again = await ownerApi(sim, "POST", `/api/downloads/${id}/approve`, {});
    assert.deepEqual([again.status, again.json], [404, { error: "Not found: not-found: no link awaits approval under that id." }]);
  });

  it("under ask: a rejected link is never fetched and the member sees why", async () => {
    const id = await memberFetch("rejected.md");
    const rejected = await ownerApi(sim, "POST", `/api/downloads/${id}/reject`, {});
    assert.deepEqual([rejected.status, rejected.json.decision, rejected.json.download.state], [200, "rejected", "rejected"]);
    assert.equal(server.seen.filter((s) => s.path === "/docs/rejected.md").length, 0);
    assert.match(await tool(member, "files.fetch", { job: id }), new RegExp(`^${id} rejected dl/rejected\\.md`));
    assert.equal((await ownerApi(sim, "POST", `/api/downloads/${id}/approve`, {})).status, 404, "a rejected link cannot be approved");
    assert.equal((await ownerApi(sim, "POST", `/api/downloads/${id}/reject`, {})).status, 404);
  });

  it("an approval while downloads are off is a 409 and the link keeps waiting", async () => {
    const id = await memberFetch("later.md");
    await ownerApi(sim, "PUT", "/api/downloads/policy", { policy: "off" });
    const refused = await ownerApi(sim, "POST", `/api/downloads/${id}/approve`, {});
    assert.deepEqual(
      [refused.status, refused.json],
      [409, { error: "Conflict: policy-off: downloads are turned off; turn them on before approving a link." }],
    );
    assert.equal((await job(id)).state, "awaiting-approval");
    assert.match(await tool(member, "files.fetch", { url: `${FILE_HOST}/x.md`, project: "dl", name: "x.md" }), /^policy-off: /);
    await ownerApi(sim, "POST", `/api/downloads/${id}/reject`, {});
  });

  it("under scan: the file stays quarantined until a verdict; safe promotes it, unsafe deletes it", async () => {
    await ownerApi(sim, "PUT", "/api/downloads/policy", { policy: "scan" });
    server.reply(file("scanned and fine\n"), file("scanned and bad\n"));
    const good = await memberFetch("good.md");
    await sim.halo.core.downloads.settled(good);
    const bad = await memberFetch("bad.md");
    await sim.halo.core.downloads.settled(bad);
    assert.deepEqual([(await job(good)).state, (await job(bad)).state], ["quarantined", "quarantined"]);
    assert.equal(
      await tool(member, "files.read", { project: "dl", name: "good.md" }),
      "quarantined: dl/good.md awaits a safety verdict and cannot be read or sent yet.",
    );
    assert.equal(
      (await ownerApi(sim, "POST", `/api/downloads/${good}/approve`, {})).status,
      404,
      "a quarantined file is not a link awaiting approval",
    );

    const safe = await ownerApi(sim, "POST", `/api/downloads/${good}/verdict`, { verdict: "safe" });
    assert.deepEqual([safe.status, safe.json.id, safe.json.verdict, safe.json.download.state], [200, good, "safe", "saved"]);
    assert.equal(await tool(member, "files.read", { project: "dl", name: "good.md" }), "scanned and fine\n");

    const unsafe = await ownerApi(sim, "POST", `/api/downloads/${bad}/verdict`, { verdict: "unsafe" });
    assert.deepEqual([unsafe.status, unsafe.json.download.state], [200, "failed"]);
    assert.match(await tool(member, "files.read", { project: "dl", name: "bad.md" }), /^not-found: /);

    const twice = await ownerApi(sim, "POST", `/api/downloads/${good}/verdict`, { verdict: "unsafe" });
    assert.deepEqual(
      [twice.status, twice.json],
      [404, { error: "Not found: not-found: no downloaded file awaits a verdict under that id." }],
    );
    assert.equal(
      await tool(member, "files.read", { project: "dl", name: "good.md" }),
      "scanned and fine\n",
      "a settled file keeps its verdict",
    );
  });

  const bad: Array<{ name: string; method: string; path: string; body?: unknown; status: number; error: RegExp }> = [
    {
      name: "an unknown policy",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { policy: "sometimes" },
      status: 400,
      error: /'policy' must be one of off, ask, scan, full/,
    },
    {
      name: "a policy of the wrong type",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { policy: 1 },
      status: 400,
      error: /'policy' must be string/,
    },
    {
      name: "no policy",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { max_bytes: 10 },
      status: 400,
      error: /'policy' is required/,
    },
    {
      name: "a zero cap",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { policy: "full", max_bytes: 0 },
      status: 400,
      error: /'max_bytes' must be >= 1/,
    },
    {
      name: "a fractional cap",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { policy: "full", max_bytes: 1.5 },
      status: 400,
      error: /max_bytes/,
    },
    {
      name: "a cap as a string",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { policy: "full", max_bytes: "100" },
      status: 400,
      error: /max_bytes/,
    },
    {
      name: "a cap past the limit",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { policy: "full", max_bytes: 2 ** 40 },
      status: 400,
      error: /max_bytes/,
    },
    {
      name: "an unknown field",
      method: "PUT",
      path: "/api/downloads/policy",
      body: { policy: "full", url: "x" },
      status: 400,
      error: /unknown field/,
    },
    { name: "bad JSON", method: "PUT", path: "/api/downloads/policy", body: '{"policy":', status: 400, error: /not valid JSON/ },
    {
      name: "an unknown verdict",
      method: "POST",
      path: "/api/downloads/f00000000/verdict",
      body: { verdict: "maybe" },
      status: 400,
      error: /'verdict' must be one of safe, unsafe/,
    },
    {
      name: "a missing verdict",
      method: "POST",
      path: "/api/downloads/f00000000/verdict",
      body: {},
      status: 400,
      error: /'verdict' is required/,
    },
    {
      name: "a verdict with an extra field",
      method: "POST",
      path: "/api/downloads/f00000000/verdict",
      body: { verdict: "safe", why: "x" },
      status: 400,
      error: /unknown field; the fields are verdict\./,
    },
    {
      name: "a verdict for an unknown id",
      method: "POST",
      path: "/api/downloads/f00000000/verdict",
      body: { verdict: "safe" },
      status: 404,
      error: /no downloaded file awaits a verdict/,
    },
    {
      name: "an approval of an unknown id",
      method: "POST",
      path: "/api/downloads/f12345678/approve",
      body: {},
      status: 404,
      error: /no link awaits approval/,
    },
    {
      name: "an approval of a malformed id",
      method: "POST",
      path: "/api/downloads/..%2e/approve",
      body: {},
      status: 404,
      error: /no link awaits approval/,
    },
    {
      name: "a rejection of an oversized id",
      method: "POST",
      path: `/api/downloads/${"f".repeat(120)}/reject`,
      body: {},
      status: 404,
      error: /no link awaits approval/,
    },
    { name: "GET on the policy", method: "GET", path: "/api/downloads/policy", status: 405, error: /use PUT/ },
    { name: "DELETE on the list", method: "DELETE", path: "/api/downloads", status: 405, error: /use GET/ },
  ];
  for (const c of bad) {
    it(`answers ${c.name} with ${c.status} and a JSON error, changing nothing`, async () => {
      const before = sim.halo.core.downloads.policy();
      const r = await ownerApi(sim, c.method, c.path, c.body);
      assert.equal(r.status, c.status, r.text);
      assert.deepEqual(Object.keys(r.json), ["error"]);
      assert.match(r.json.error, c.error);
      assert.deepEqual(sim.halo.core.downloads.policy(), before);
    });
  }

  it("refuses a member's or guest's token with 403, no token with 401, and a foreign origin with 403", async () => {
    const id = await (async () => {
      await ownerApi(sim, "PUT", "/api/downloads/policy", { policy: "ask" });
      return memberFetch("mine.md");
    })();
    const calls: Array<[string, string, unknown]> = [
      ["GET", "/api/downloads", undefined],
      ["PUT", "/api/downloads/policy", { policy: "full" }],
      ["POST", `/api/downloads/${id}/approve`, {}],
      ["POST", `/api/downloads/${id}/reject`, {}],
      ["POST", `/api/downloads/${id}/verdict`, { verdict: "safe" }],
    ];
    for (const [method, path, body] of calls) {
      for (const token of [member, guest]) {
        const r = await ownerApi(sim, method, path, body, { authorization: `Bearer ${token}` });
        assert.deepEqual(
          [r.status, r.json],
          [403, { error: "Forbidden: the owner API needs an admin client's token." }],
          `${method} ${path}`,
        );
      }
      const anonymous = await ownerApi(sim, method, path, body, { authorization: undefined });
      assert.equal(anonymous.status, 401, `${method} ${path}`);
      assert.equal((await ownerApi(sim, method, path, body, { origin: "http://evil.example" })).status, 403, `${method} ${path}`);
    }
    assert.equal((await job(id)).state, "awaiting-approval", "the member could not approve their own link");
    assert.equal(sim.halo.core.downloads.policy().policy, "ask");
  });
});
