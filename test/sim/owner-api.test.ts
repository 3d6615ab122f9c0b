// The owner API over a real socket against the running simulator, hostile input included.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OWNER_API_READ_PATHS, ownerApi } from "../support/owner-api.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";

const call = (name: string, args: object = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

describe("simulator owner API over a socket", () => {
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim();
  });
  after(async () => sim.stop());

  async function stillServing(): Promise<void> {
    const r = await ownerApi(sim, "GET", "/api/secrets");
    assert.equal(r.status, 200);
    assert.equal(r.json.secrets.length, 5);
  }

  const hostile: Array<{
    name: string;
    method: string;
    path: string;
    body?: unknown;
    headers?: Record<string, string | undefined>;
    status: number;
    error: RegExp;
  }> = [
    { name: "bad JSON", method: "PUT", path: "/api/secrets/openai", body: '{"value":', status: 400, error: /not valid JSON/ },
    {
      name: "invalid UTF-8",
      method: "PUT",
      path: "/api/secrets/openai",
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
      status: 400,
      error: /not valid JSON/,
    },
    { name: "an empty body", method: "POST", path: "/api/clients", body: "", status: 400, error: /not valid JSON/ },
    { name: "a JSON string body", method: "PUT", path: "/api/chats", body: '"x"', status: 400, error: /JSON object/ },
    {
      name: "a 5,000-deep nest",
      method: "PUT",
      path: "/api/chats",
      body: "[".repeat(5000) + "]".repeat(5000),
      status: 400,
      error: /nested deeper/,
    },
    {
      name: "an oversized body",
      method: "PUT",
      path: "/api/secrets/openai",
      body: JSON.stringify({ value: "x".repeat(100 * 1024) }),
      status: 413,
      error: /Payload too large/,
    },
    { name: "a wrong method", method: "PATCH", path: "/api/secrets/openai", body: "{}", status: 405, error: /use PUT, DELETE/ },
    { name: "GET on a write-only secret", method: "GET", path: "/api/secrets/openai", status: 405, error: /Method not allowed/ },
    { name: "DELETE on the list", method: "DELETE", path: "/api/clients", status: 405, error: /use GET, POST/ },
    { name: "no token", method: "GET", path: "/api/secrets", headers: { authorization: undefined }, status: 401, error: /Unauthorized/ },
    {
      name: "a wrong token",
      method: "GET",
      path: "/api/secrets",
      headers: { authorization: "Bearer halo_" + "0".repeat(64) },
      status: 401,
      error: /Unauthorized/,
    },
    {
      name: "an oversized token",
      method: "GET",
      path: "/api/secrets",
      headers: { authorization: "Bearer " + "a".repeat(5000) },
      status: 401,
      error: /Unauthorized/,
    },
    {
      name: "a foreign Origin",
      method: "GET",
      path: "/api/secrets",
      headers: { origin: "http://evil.example" },
      status: 403,
      error: /origin/,
    },
    {
      name: "a wrong Content-Type",
      method: "PUT",
      path: "/api/chats",
      body: '{"chats":[]}',
      headers: { "content-type": "text/plain" },
      status: 415,
      error: /application\/json/,
    },
    { name: "an unknown endpoint", method: "GET", path: "/api/no-such-thing", status: 404, error: /no such endpoint/ },
    { name: "the bare /api", method: "GET", path: "/api", status: 404, error: /no such endpoint/ },
    {
      name: "a traversal path",
      method: "PUT",
      path: "/api/secrets/..%2Fclient.owner",
      body: { value: "x" },
      status: 400,
      error: /malformed/,
    },
  ];
  for (const c of hostile) {
    it(`answers ${c.name} with ${c.status} and a JSON error`, async () => {
      const r = await ownerApi(sim, c.method, c.path, c.body, c.headers);
      assert.equal(r.status, c.status, r.text.slice(0, 200));
      assert.equal(r.headers.get("content-type"), "application/json");
      assert.deepEqual(Object.keys(r.json), ["error"]);
      assert.match(r.json.error, c.error);
      if (c.status === 401) assert.match(r.headers.get("www-authenticate") ?? "", /^Bearer /);
      await stillServing();
    });
  }

  it("refuses a token in the URL, in JSON, without echoing it", async () => {
    for (const q of [`?token=${sim.token}`, `?access_token=${sim.token}`, `?a=1&TOKEN=${sim.token}`]) {
      const res = await fetch(`${sim.url}/api/secrets${q}`);
      assert.equal(res.status, 400);
      const text = await res.text();
      assert.match(JSON.parse(text).error, /not accepted in a URL/);
      assert.ok(!text.includes(sim.token));
    }
  });

  it("refuses a user or guest client's token with 403, and that client reaches /mcp only as itself", async () => {
    const created = await ownerApi(sim, "POST", "/api/clients", { name: "phone", role: "user", ns: "alice" });
    assert.equal(created.status, 201);
    const userToken = created.json.token as string;
    const r = await ownerApi(sim, "PUT", "/api/secrets/openai", { value: "sk-x" }, { authorization: `Bearer ${userToken}` });
    assert.equal(r.status, 403);
    assert.equal((await ownerApi(sim, "GET", "/api/secrets")).json.secrets[0].set, false, "nothing was written");
    const list = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      authorization: `Bearer ${userToken}`,
    });
    assert.ok(!list.text.includes("tenant."), "admin-only tools are not advertised to a user over /mcp");
    const refused = await postMcp(sim, call("tenant.list"), { authorization: `Bearer ${userToken}` });
    assert.equal(refused.json.result.isError, true);
    assert.match(refused.json.result.content[0].text, /^admin-only: tenant\.list needs an admin conversation\.$/);
    const status = await postMcp(sim, call("device.status"), { authorization: `Bearer ${userToken}` });
    assert.match(status.json.result.content[0].text, /^Memory: your memories 0 of 1000/m, "the client's namespace and role quota");
  });

  it("revokes a client at once: its next /mcp call is 401", async () => {
    const created = await ownerApi(sim, "POST", "/api/clients", { name: "ci", role: "guest" });
    const t = created.json.token as string;
    assert.equal((await postMcp(sim, call("docs.list"), { authorization: `Bearer ${t}` })).status, 200);
    assert.deepEqual((await ownerApi(sim, "DELETE", "/api/clients/ci")).json, { revoked: "ci" });
    assert.equal((await postMcp(sim, call("docs.list"), { authorization: `Bearer ${t}` })).status, 401);
    assert.ok(!(await ownerApi(sim, "GET", "/api/clients")).text.includes(t));
  });

  it("sets a secret that no endpoint returns and that lands only in its own flash record", async () => {
    const canary = "sk-SOCKET-CANARY-5b1c";
    assert.equal((await ownerApi(sim, "PUT", "/api/secrets/tavily", { value: canary })).status, 200);
    for (const path of OWNER_API_READ_PATHS) {
      const r = await ownerApi(sim, "GET", path);
      assert.equal(r.status, 200, path);
      assert.ok(!r.text.includes(canary), path);
    }
    const holders = readdirSync(join(sim.dataDir, "flash")).filter((f) =>
      readFileSync(join(sim.dataDir, "flash", f), "utf8").includes(canary),
    );
    assert.deepEqual(holders, ["secret.tavily"]);
  });
});

describe("simulator secrets seeded from the environment", () => {
  it("seeds only secrets that are not set, and keeps the owner's value across restarts", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "halo-seed-"));
    try {
      let sim = await startTestSim({ dataDir, initialSecrets: { openai: "sk-from-env-1", mistral: "bad value with spaces" } });
      const first = (await ownerApi(sim, "GET", "/api/secrets")).json.secrets;
      assert.deepEqual(
        first.filter((s: any) => s.set).map((s: any) => s.name),
        ["openai"],
      );
      assert.equal(sim.halo.core.secrets.getSecret("openai"), "sk-from-env-1");
      await ownerApi(sim, "PUT", "/api/secrets/openai", { value: "sk-set-by-owner" });
      await sim.stop();
      sim = await startTestSim({ dataDir, initialSecrets: { openai: "sk-from-env-2", anthropic: "sk-ant-env" } });
      assert.equal(sim.halo.core.secrets.getSecret("openai"), "sk-set-by-owner", "env never overwrites");
      assert.equal(sim.halo.core.secrets.getSecret("anthropic"), "sk-ant-env");
      await sim.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
