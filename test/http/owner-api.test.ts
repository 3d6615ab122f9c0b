// The owner API as a plain request handler (no socket): every endpoint, its errors, and the rails.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { createHalo, type Halo, type HttpResponse } from "../../lib/halo.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";

describe("owner API (transport-free)", () => {
  let halo: Halo;
  let token: string;
  let log: ReturnType<typeof memoryLog>;
  beforeEach(() => {
    log = memoryLog();
    halo = createHalo({ ports: memoryPorts({ log }), firmwareVersion: "t" });
    token = halo.ensureOwnerToken()!;
  });

  async function api(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResponse & { body: string; json: any }> {
    const res = await halo.handleHttp({
      method,
      path,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : encodeUtf8(typeof body === "string" ? body : JSON.stringify(body)),
    });
    assert.equal(res.headers["content-type"], "application/json");
    assert.equal(res.headers["cache-control"], "no-store");
    const text = typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body);
    return { ...res, body: text, json: JSON.parse(text) };
  }

  it("secrets: write-only; each key reads as set or not set", async () => {
    assert.deepEqual(
      (await api("GET", "/api/secrets")).json.secrets.map((s: any) => s.set),
      [false, false, false, false, false],
    );
    const put = await api("PUT", "/api/secrets/openai", { value: "sk-test-SECRET-VALUE" });
    assert.deepEqual([put.status, put.json], [200, { name: "openai", set: true }]);
    const list = await api("GET", "/api/secrets");
    assert.deepEqual(list.json.secrets[0], { name: "openai", set: true });
    assert.doesNotMatch(list.body, /SECRET-VALUE/);
    assert.equal(halo.core.secrets.getSecret("openai"), "sk-test-SECRET-VALUE");
    assert.deepEqual((await api("DELETE", "/api/secrets/openai")).json, { name: "openai", set: false });
    assert.equal(halo.core.secrets.getSecret("openai"), undefined);
    assert.equal((await api("GET", "/api/secrets/openai")).status, 405, "no endpoint reads a secret");
    assert.deepEqual(
      log.lines.filter((l) => /secrets:/.test(l)),
      ["secrets: openai set", "secrets: openai cleared"],
    );
  });

  it("secrets: refuses unknown names, bad values and extra fields, naming no value", async () => {
    const cases: Array<[string, unknown, number, RegExp]> = [
      ["/api/secrets/openrouter", { value: "x" }, 404, /the secrets are openai, anthropic, mistral, tavily, telegram/],
      ["/api/secrets/openai", {}, 400, /'value' is required/],
      ["/api/secrets/openai", { value: 5 }, 400, /1-512 visible ASCII/],
      ["/api/secrets/openai", { value: "has space-BADVALUE" }, 400, /visible ASCII/],
      ["/api/secrets/openai", { value: "x".repeat(513) }, 400, /1-512/],
      ["/api/secrets/openai", { value: "ok", note: "BADVALUE" }, 400, /unknown field/],
    ];
    for (const [path, body, status, expected] of cases) {
      const r = await api("PUT", path, body);
      assert.equal(r.status, status, `${path} ${JSON.stringify(body).slice(0, 40)}`);
      assert.match(r.json.error, expected);
      assert.doesNotMatch(r.body, /BADVALUE/);
    }
  });

  it("clients: create returns the token once; list never shows it; revoke works at once", async () => {
    const created = await api("POST", "/api/clients", { name: "laptop", role: "user", ns: "alice" });
    assert.equal(created.status, 201);
    assert.match(created.json.token, /^halo_[0-9a-f]{64}$/);
    assert.equal(halo.core.clients.verify(created.json.token)?.name, "laptop");
    const list = await api("GET", "/api/clients");
    assert.deepEqual(
      list.json.clients.map((c: any) => [c.name, c.role, c.ns]),
      [
        ["owner", "admin", "owner"],
        ["laptop", "user", "alice"],
      ],
    );
    assert.ok(!list.body.includes(created.json.token));
    assert.equal((await api("POST", "/api/clients", { name: "laptop", role: "user" })).status, 409);
    assert.equal((await api("POST", "/api/clients", { name: "ci", role: "guest" })).json.ns, "ci", "ns defaults to the name");
    assert.deepEqual((await api("DELETE", "/api/clients/laptop")).json, { revoked: "laptop" });
    assert.equal(halo.core.clients.verify(created.json.token), undefined);
    assert.equal((await api("DELETE", "/api/clients/laptop")).status, 404);
  });

  it("clients: refuses bad input and the last admin's revocation", async () => {
    for (const body of [
      { name: "Bad Name", role: "user" },
      { name: "x", role: "root" },
      { name: "x", role: "unknown" },
      { name: "x" },
      { name: "x", role: "user", ns: "../etc" },
      { name: "x", role: "user", token: "t" },
    ]) {
      assert.equal((await api("POST", "/api/clients", body)).status, 400, JSON.stringify(body));
    }
    const last = await api("DELETE", "/api/clients/owner");
    assert.equal(last.status, 409);
    assert.match(last.json.error, /last admin client/);
    await api("POST", "/api/clients", { name: "backup", role: "admin" });
    assert.equal((await api("DELETE", "/api/clients/owner")).status, 200, "revoking your own token takes effect at once");
    assert.equal((await api("GET", "/api/clients")).status, 401);
  });

  it("provider priority and the chat allow-list", async () => {
    assert.deepEqual((await api("GET", "/api/providers/priority")).json, { priority: ["openai", "anthropic", "mistral"] });
    assert.deepEqual((await api("PUT", "/api/providers/priority", { priority: ["anthropic"] })).json, { priority: ["anthropic"] });
    assert.equal((await api("PUT", "/api/providers/priority", { priority: ["anthropic", "anthropic"] })).status, 400);
    assert.equal((await api("PUT", "/api/providers/priority", { order: ["anthropic"] })).status, 400);
    assert.deepEqual((await api("PUT", "/api/chats", { chats: ["-1001", "42"] })).json, { chats: ["-1001", "42"] });
    assert.deepEqual((await api("GET", "/api/chats")).json, { chats: ["-1001", "42"] });
    assert.equal((await api("PUT", "/api/chats", { chats: ["no spaces"] })).status, 400);
    assert.deepEqual(halo.core.chats.list(), ["-1001", "42"]);
  });

  it("people: roles and quotas, with the last-admin rule", async () => {
    const set = await api("PUT", "/api/people/42", { role: "user", quota: { vectors: 9 } });
    assert.equal(set.status, 200);
    assert.deepEqual([set.json.person.role, set.json.person.quota.vectors, set.json.person.overridden], ["user", 9, ["vectors"]]);
    assert.deepEqual(
      (await api("GET", "/api/people")).json.people.map((p: any) => p.id),
      ["owner", "42"],
    );
    assert.equal((await api("PUT", "/api/people/owner", { role: "guest" })).status, 409);
    assert.equal((await api("PUT", "/api/people/ghost", { quota: { pins: 1 } })).status, 404);
    assert.equal((await api("PUT", "/api/people/42", { quota: { pins: -1 } })).status, 400);
    assert.equal((await api("PUT", "/api/people/42", { quota: { stars: 1 } })).status, 400);
    assert.equal((await api("PUT", "/api/people/42", {})).status, 400);
    const half = await api("PUT", "/api/people/42", { role: "guest", quota: { pins: 1e12 } });
    assert.equal(half.status, 400);
    assert.equal(halo.core.people.get("42")?.role, "user", "a bad quota leaves the role unchanged too");
    assert.equal((await api("PUT", "/api/people/42", { role: "unknown", quota: { pins: 1 } })).status, 400);
    assert.equal(halo.core.people.get("42")?.role, "user");
    assert.deepEqual((await api("PUT", "/api/people/42", { role: "unknown" })).json, { removed: "42" });
  });

  it("config: every knob readable; the owner writes any knob within its range", async () => {
    const knobs = (await api("GET", "/api/config")).json.knobs;
    assert.ok(knobs.some((k: any) => k.key === "hwTests" && k.writer === "owner" && k.spec.type === "bool"));
    assert.deepEqual((await api("PUT", "/api/config/hwTests", { value: false })).json, { key: "hwTests", value: false });
    assert.equal(halo.core.config.get("hwTests"), false);
    assert.equal((await api("PUT", "/api/config/sfxVol", { value: 101 })).status, 400);
    assert.equal((await api("PUT", "/api/config/oaiKey", { value: "x" })).status, 404);
  });

  it("pending skills: listed, approved and rejected through the skills store", async () => {
    assert.deepEqual((await api("GET", "/api/skills/pending")).json, { pending: [] });
    const owner = {
      ns: "owner",
      role: "admin" as const,
      quota: halo.core.people.get("owner")!.quota,
      via: "turn" as const,
      scheduled: false,
    };
    for (const id of ["keep-me", "drop-me"]) {
      const saved = await halo.core.registry.dispatch("skill.save", { id, md: `# ${id}\n\nSteps.` }, owner);
      assert.equal(saved.isError, undefined, saved.text);
    }
    assert.deepEqual((await api("GET", "/api/skills/pending")).json.pending.map((s: any) => s.id).sort(), ["drop-me", "keep-me"]);
    assert.deepEqual((await api("POST", "/api/skills/keep-me/approve", {})).json, { id: "keep-me", decision: "approved" });
    assert.deepEqual((await api("POST", "/api/skills/drop-me/reject", {})).json, { id: "drop-me", decision: "rejected" });
    assert.deepEqual((await api("GET", "/api/skills/pending")).json, { pending: [] });
    assert.equal((await api("POST", "/api/skills/keep-me/approve", {})).status, 404, "no longer pending");
    assert.equal((await api("POST", "/api/skills/nope/reject", {})).status, 404);
    assert.equal((await api("GET", "/api/skills/keep-me/approve")).status, 405);
  });

  it("answers protocol faults with clear JSON errors", async () => {
    const cases: Array<[string, string, unknown, Record<string, string>, number, RegExp]> = [
      ["PUT", "/api/secrets/openai", "{not json", {}, 400, /not valid JSON/],
      ["PUT", "/api/secrets/openai", "[1,2]", {}, 400, /must be a JSON object/],
      ["PUT", "/api/secrets/openai", "[".repeat(50) + "]".repeat(50), {}, 400, /nested deeper than 8/],
      ["PUT", "/api/secrets/openai", { value: "x".repeat(20000) }, {}, 413, /at most 16384 bytes/],
      ["PUT", "/api/secrets/openai", { value: "x" }, { "content-type": "text/plain" }, 415, /application\/json/],
      ["POST", "/api/secrets", { value: "x" }, {}, 405, /use GET/],
      ["GET", "/api/nothing-here", undefined, {}, 404, /no such endpoint/],
      ["GET", "/api/secrets/%E0%A4%A", undefined, {}, 400, /malformed/],
      ["GET", "/api/secrets?token=abc", undefined, {}, 400, /not accepted in a URL/],
      ["GET", "/api/secrets", undefined, { origin: "http://evil.example" }, 403, /origin/],
      ["GET", "/api/secrets", undefined, { authorization: "Basic abc" }, 401, /Bearer/],
    ];
    for (const [method, path, body, headers, status, expected] of cases) {
      const r = await api(method, path, body, headers);
      assert.equal(r.status, status, `${method} ${path}`);
      assert.match(r.json.error, expected);
      if (status === 405) assert.equal(r.headers.allow, "GET");
      if (status === 401) assert.match(r.headers["www-authenticate"], /^Bearer /);
    }
  });

  it("refuses a non-admin client's token with 403", async () => {
    const user = halo.core.clients.create("phone", "user", "alice");
    const r = await api("GET", "/api/secrets", undefined, { authorization: `Bearer ${user}` });
    assert.equal(r.status, 403);
    assert.match(r.json.error, /admin client's token/);
  });
});
