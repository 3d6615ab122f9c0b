// files.fetch against local file servers: policies, redirects, lying and slow servers, caps.
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import type { HttpClient, HttpClientRequest } from "../../lib/ports.ts";
import { Downloads, FETCH_MAX_RUNNING, type FetchJobView } from "../../lib/store/downloads.ts";
import { ProviderServer, truncatedReply } from "../support/provider-server.ts";
import { principal } from "../support/registry.ts";
import { filesHarness, TINY_PNG, type FilesHarness } from "./support.ts";

const owner = principal("admin", "turn", "owner");
const member = principal("user", "mcp", "member");

const file = (body: string | Uint8Array, headers: Record<string, string> = {}) => ({
  raw: (res: ServerResponse) => {
    const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes.length), ...headers });
    res.end(bytes);
  },
});
const redirect = (location: string, status = 302) => ({ status, headers: { location }, body: "" });

/** Sends `total` bytes a few at a time; stops when the client goes away. */
const drip = (total: number) => ({
  raw: (res: ServerResponse) => {
    res.writeHead(200, { "content-length": String(total) });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write("x")), 50);
    res.on("close", () => clearInterval(timer));
  },
});

async function jobOf(h: FilesHarness, text: string): Promise<FetchJobView> {
  const id = /^Download (f[0-9a-f]{8}) /.exec(text)?.[1];
  assert.ok(id, text);
  await h.downloads.settled(id);
  return h.downloads.all().find((j) => j.id === id)!;
}

describe("files.fetch", () => {
  let server: ProviderServer;
  let h: FilesHarness;
  const url = (path: string): string => server.url.replace(/\/v1$/, "") + path;
  beforeEach(async () => {
    server = await ProviderServer.start();
    h = filesHarness({ downloads: { insecureForTests: true, timeoutMs: 400 } });
  });
  afterEach(async () => server.close());

  const fetchOk = async (p = owner, name = "a.md", path = "/a.md") => h.call("files.fetch", { url: url(path), project: "dl", name }, p);

  it("is off until the owner turns it on, and asks nothing of the network then", async () => {
    assert.equal((await fetchOk()).text, "policy-off: downloads are turned off by the owner (owner API: PUT /api/downloads/policy).");
    assert.equal(server.seen.length, 0);
  });

  it("under full trust downloads in the background; status, files.list and files.read see it", async () => {
    h.downloads.setPolicy("full");
    server.reply(file("# Fetched\nhello from the web\n"));
    const r = await fetchOk();
    assert.match(
      r.text,
      /^Download f[0-9a-f]{8} downloading: dl\/a\.md\. It runs in the background; files\.fetch with job, or files\.list, shows its state\.$/,
    );
    const job = await jobOf(h, r.text);
    assert.equal(job.state, "saved");
    assert.equal(job.bytes, 29);
    assert.equal((await h.call("files.read", { project: "dl", name: "a.md" }, owner)).text, "# Fetched\nhello from the web\n");
    assert.equal((await h.call("files.fetch", { job: job.id }, owner)).text, `${job.id} saved dl/a.md (29 bytes)`);
    assert.match((await h.call("files.list", {}, owner)).text, new RegExp(`\\nDownloads:\\n- ${job.id} saved dl/a\\.md \\(29 bytes\\)$`));
    assert.equal(server.seen[0].method, "GET");
  });

  it("follows up to five redirects (relative and absolute), re-checking each hop, and refuses a sixth", async () => {
    h.downloads.setPolicy("full");
    server.reply(
      redirect("/hop1"),
      redirect("hop2", 301),
      redirect(url("/dir/hop3"), 307),
      redirect("../hop4", 308),
      redirect("//" + url("/hop5").split("//")[1], 303),
      file("end"),
    );
    const ok = await jobOf(h, (await fetchOk()).text);
    assert.equal(ok.state, "saved", ok.detail);
    assert.deepEqual(
      server.seen.map((s) => s.path),
      ["/a.md", "/hop1", "/hop2", "/dir/hop3", "/hop4", "/hop5"],
    );
    server.reply(...Array.from({ length: 6 }, (_, i) => redirect(`/loop${i}`)));
    const loop = await jobOf(h, (await fetchOk(owner, "b.md")).text);
    assert.deepEqual([loop.state, loop.detail], ["failed", "the download was redirected more than 5 times"]);
    assert.equal(server.seen.length, 12, "the sixth redirect is not followed");
    server.reply(redirect("ftp://example.com/x"), redirect(""));
    assert.equal((await jobOf(h, (await fetchOk(owner, "c.md")).text)).detail, "a redirect was refused: only https URLs are allowed");
    assert.equal((await jobOf(h, (await fetchOk(owner, "d.md")).text)).detail, "a redirect was refused: the redirect has no location");
  });

  it("refuses a body whose Content-Length lies, a slow drip, an oversized file and an error status", async () => {
    h.downloads.setPolicy("full", 1000);
    server.reply(
      truncatedReply("x".repeat(500), 100),
      drip(300),
      file("y".repeat(1001)),
      { raw: (res) => (res.writeHead(200), res.end("z".repeat(5000))) },
      { status: 404, body: "missing" },
    );
    const details: Array<string | undefined> = [];
    for (const name of ["lie.txt", "drip.txt", "big.txt", "chunked.txt", "gone.txt"]) {
      const job = await jobOf(h, (await fetchOk(owner, name)).text);
      assert.equal(job.state, "failed", name);
      details.push(job.detail);
    }
    assert.match(details[0]!, /^the download failed: the connection failed/);
    assert.equal(details[1], "the download failed: no complete answer came in time");
    assert.equal(details[2], "the download failed: the response is larger than 1000 bytes");
    assert.equal(details[3], "the download failed: the response is larger than 1000 bytes");
    assert.equal(details[4], "the server answered HTTP 404");
    assert.equal((await h.call("files.list", {}, owner)).text.startsWith("No files."), true);
  });

  it("checks the content against the name and the person's quota at the end", async () => {
    h.downloads.setPolicy("full", 2 * 1024 * 1024);
    const guest = principal("guest", "mcp", "guest");
    server.reply(
      file("plain text, not a png"),
      file(TINY_PNG),
      file(new Uint8Array([104, 105, 0, 1])),
      file(new Uint8Array(1536 * 1024).fill(97)),
    );
    assert.equal(
      (await jobOf(h, (await fetchOk(owner, "pic.png")).text)).detail,
      "invalid: the content does not match the file type of pic.png.",
    );
    assert.equal((await jobOf(h, (await fetchOk(owner, "real.png")).text)).state, "saved");
    assert.equal(
      (await jobOf(h, (await fetchOk(owner, "bin.txt")).text)).detail,
      "invalid: the content does not match the file type of bin.txt.",
    );
    const over = await jobOf(h, (await fetchOk(guest, "huge.txt")).text);
    assert.equal(
      over.detail,
      `quota: this file (${1536 * 1024} bytes) would exceed your file storage quota (0 of ${guest.quota.bytes} bytes used).`,
    );
  });

  it("under ask waits for the owner: approve starts it, reject ends it", async () => {
    h.downloads.setPolicy("ask");
    server.reply(file("approved content"));
    const asked = await fetchOk(member);
    assert.match(
      asked.text,
      /^Download f[0-9a-f]{8} awaiting-approval: dl\/a\.md\. The owner approves each link; the download starts once they do\.$/,
    );
    const id = /(f[0-9a-f]{8})/.exec(asked.text)![1];
    assert.equal(server.seen.length, 0);
    assert.equal((await h.call("files.fetch", { job: id }, member)).text, `${id} awaiting-approval dl/a.md: the owner approves each link`);
    assert.equal(
      (await h.call("files.fetch", { job: id }, owner)).text,
      "not-found: no download with that id (finished downloads are forgotten after a restart).",
    );
    h.downloads.approveFetch(id);
    await h.downloads.settled(id);
    assert.equal((await h.call("files.read", { project: "dl", name: "a.md" }, member)).text, "approved content");
    const second = /(f[0-9a-f]{8})/.exec((await fetchOk(member, "b.md")).text)![1];
    assert.equal(h.downloads.rejectFetch(second).state, "rejected");
    assert.throws(() => h.downloads.approveFetch(second), /^HaloError: not-found: no link awaits approval under that id\.$/);
    assert.throws(() => h.downloads.approveFetch("f00000000"), /not-found/);
    assert.equal(server.seen.length, 1);
  });

  it("under scan keeps the file quarantined until a verdict, even across a restart", async () => {
    h.downloads.setPolicy("scan");
    server.reply(file("maybe dangerous"), file("surely dangerous"));
    const job = await jobOf(h, (await fetchOk(member)).text);
    assert.deepEqual([job.state, job.detail], ["quarantined", "awaiting the safety scan's verdict (the scanner is not wired yet)"]);
    assert.match((await h.call("files.list", {}, member)).text, /- dl\/a\.md \(text, 15 bytes, yours, quarantined\)/);
    assert.equal(
      (await h.call("files.read", { project: "dl", name: "a.md" }, member)).text,
      "quarantined: dl/a.md awaits a safety verdict and cannot be read or sent yet.",
    );
    assert.equal(
      (await h.call("files.share", { project: "dl", name: "a.md" }, member)).text,
      "quarantined: dl/a.md awaits a safety verdict and cannot be read or sent yet.",
    );
    assert.equal((await h.call("files.search", { query: "dangerous" }, member)).text, "No file you can read contains any of: dangerous.");
    const restarted = filesHarness({ storage: h.storage });
    restarted.downloads.setVerdict(job.id, "safe");
    assert.equal((await restarted.call("files.read", { project: "dl", name: "a.md" }, member)).text, "maybe dangerous");
    const bad = await jobOf(h, (await fetchOk(member, "b.md")).text);
    assert.equal(h.downloads.setVerdict(bad.id, "unsafe")?.state, "failed");
    assert.equal((await h.call("files.read", { project: "dl", name: "b.md" }, member)).text, "not-found: no file dl/b.md.");
    assert.throws(() => h.downloads.setVerdict(bad.id, "safe"), /not-found: no downloaded file awaits a verdict/);
  });

  it("refuses a name another person holds, at the end of the download", async () => {
    h.downloads.setPolicy("full");
    h.artifacts.saveText(owner, "dl", "taken.md", "the owner's");
    server.reply(file("member's"));
    const job = await jobOf(h, (await fetchOk(member, "taken.md")).text);
    assert.equal(job.detail, "conflict: dl/taken.md cannot be written: the name is taken; choose another name.");
    assert.equal((await h.call("files.read", { project: "dl", name: "taken.md" }, owner)).text, "the owner's");
  });

  it(`runs at most ${FETCH_MAX_RUNNING} downloads at once`, async () => {
    h.downloads.setPolicy("full");
    server.reply(drip(100), drip(100));
    await fetchOk(owner, "1.txt");
    await fetchOk(owner, "2.txt");
    assert.equal((await fetchOk(owner, "3.txt")).text, `busy: ${FETCH_MAX_RUNNING} downloads are running; try again when one finishes.`);
    await Promise.all(h.downloads.all().map((j) => h.downloads.settled(j.id)));
  });

  it("refuses bad requests clearly", async () => {
    h.downloads.setPolicy("full");
    const cases: Array<[object, string | RegExp]> = [
      [{}, "invalid arguments: url, project and name are required (or job alone for a status)."],
      [{ url: url("/a") }, "invalid arguments: url, project and name are required (or job alone for a status)."],
      [{ job: "f12345678", url: url("/a") }, "invalid arguments: give either job, or url with project and name."],
      [{ job: "nope" }, /'job' must NOT have fewer than 9 characters/],
      [{ job: "F12345678" }, /'job' must match pattern/],
      [{ job: "f12345678" }, "not-found: no download with that id (finished downloads are forgotten after a restart)."],
      [{ url: 7, project: "dl", name: "a.md" }, /'url' must be string/],
      [{ url: "https://example.com/" + "a".repeat(3000), project: "dl", name: "a.md" }, /'url' must NOT have more than 2048 characters/],
      [{ url: "notaurl", project: "dl", name: "a.md" }, "invalid url: the URL has no scheme."],
      [{ url: "file:///etc/passwd", project: "dl", name: "a.md" }, "invalid url: only https URLs are allowed."],
      [
        { url: "https://user:pw@example.com/a", project: "dl", name: "a.md" },
        "invalid url: a URL with a user name or password is not allowed.",
      ],
      [{ url: url("/a"), project: "dl", name: "a.exe" }, /^invalid name: it must end in one of \.md \.txt/],
      [{ url: url("/a"), project: "dl", name: "a.md", extra: 1 }, "invalid arguments: unknown argument 'extra'."],
    ];
    for (const [args, expected] of cases) {
      const text = (await h.call("files.fetch", args, owner)).text;
      if (typeof expected === "string") assert.equal(text, expected, JSON.stringify(args).slice(0, 80));
      else assert.match(text, expected, JSON.stringify(args).slice(0, 80));
    }
    assert.equal(server.seen.length, 0);
  });

  it("keeps the policy and cap to the owner's API", () => {
    assert.throws(() => h.downloads.setPolicy("yolo" as "full"), /unknown download policy/);
    assert.throws(() => h.downloads.setPolicy("full", 0), /per-file cap/);
    assert.throws(() => h.downloads.setPolicy("full", 17 * 1024 * 1024), /per-file cap/);
    h.ports.settings.set("files.fetch.policy", "nonsense");
    assert.deepEqual(h.downloads.policy(), { policy: "off", maxBytes: 2 * 1024 * 1024 });
    assert.ok(!h.registry.all().some((t) => JSON.stringify(t.inputSchema).includes("policy")), "no tool takes a policy argument");
  });
});

describe("files.fetch URL rules in production (no test-only http)", () => {
  /** An HttpClient port that answers from a table of URLs, recording what was asked. */
  function tableClient(
    table: Record<string, { status: number; headers?: Record<string, string>; body?: string }>,
  ): HttpClient & { asked: string[]; pinned: Array<string | undefined> } {
    const asked: string[] = [];
    const pinned: Array<string | undefined> = [];
    return {
      asked,
      pinned,
      async request(req: HttpClientRequest) {
        asked.push(req.url);
        pinned.push(req.address);
        const hit = table[req.url];
        if (!hit) throw new Error("unexpected request");
        return { status: hit.status, headers: hit.headers ?? {}, body: new TextEncoder().encode(hit.body ?? "") };
      },
    };
  }

  it("requires https and a public host on the first URL and on every redirect hop", async () => {
    const http = tableClient({
      "https://files.example/a.md": { status: 302, headers: { location: "http://files.example/b.md" } },
      "https://files.example/c.md": { status: 302, headers: { location: "https://192.168.1.1/admin" } },
      "https://files.example/d.md": { status: 301, headers: { location: "/e.md" } },
      "https://files.example/e.md": { status: 200, headers: { "content-length": "2" }, body: "ok" },
    });
    const h = filesHarness();
    // The names files.example has in this test's DNS: the download connects to the checked address.
    const resolver = { resolve: async (name: string) => (name === "files.example" ? ["93.184.215.14"] : []) };
    const downloads = new Downloads(h.artifacts, { http, resolver, settings: h.ports.settings, random: h.ports.random, clock: h.clock });
    downloads.setPolicy("full");
    for (const bad of [
      "http://files.example/a.md",
      "https://localhost/a.md",
      "https://10.0.0.1/a.md",
      "https://[::1]/a.md",
      "https://printer.local/a.md",
      "https://2130706433/a.md",
    ]) {
      assert.throws(
        () => downloads.request(owner, bad, "dl", "x.md"),
        /^HaloError: invalid url: (only https URLs are allowed|addresses on the local network or the device itself are not allowed)\.$/,
        bad,
      );
    }
    const results: Array<string | undefined> = [];
    for (const [path, name] of [
      ["a.md", "a.md"],
      ["c.md", "c.md"],
      ["d.md", "d.md"],
    ]) {
      const job = downloads.request(owner, `https://files.example/${path}`, "dl", name);
      await downloads.settled(job.id);
      results.push(downloads.status(owner, job.id).detail ?? downloads.status(owner, job.id).state);
    }
    assert.deepEqual(results, [
      "a redirect was refused: only https URLs are allowed",
      "a redirect was refused: addresses on the local network or the device itself are not allowed",
      "saved",
    ]);
    assert.deepEqual(http.asked, [
      "https://files.example/a.md",
      "https://files.example/c.md",
      "https://files.example/d.md",
      "https://files.example/e.md",
    ]);
    assert.deepEqual(new Set(http.pinned), new Set(["93.184.215.14"]));
  });
});
