// The owner API as a plain request handler (no socket): every endpoint, its errors, and the rails.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { Halo, HttpResponse } from "../../lib/app/halo.ts";
import { testHalo } from "../support/halo.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";

describe("owner API (transport-free)", () => {
  let halo: Halo;
  let token: string;
  let log: ReturnType<typeof memoryLog>;
  beforeEach(() => {
    log = memoryLog();
    halo = testHalo(memoryPorts({ log }));
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
      ["/api/secrets/openai", { value: 5 }, 400, /'value' must be string/],
      ["/api/secrets/openai", { value: "has space-BADVALUE" }, 400, /visible ASCII/],
      ["/api/secrets/openai", { value: "x".repeat(513) }, 400, /'value' must NOT have more than 512 characters/],
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

  it("clients: a name style per client, and the owner's namespace only on an explicit flag", async () => {
    const plain = await api("POST", "/api/clients", { name: "agent", role: "user", ns: "alice", names: "plain" });
    assert.equal(plain.status, 201);
    assert.equal(plain.json.names, "plain");
    assert.equal(halo.core.clients.verify(plain.json.token)?.names, "plain");
    const refused = await api("POST", "/api/clients", { name: "phone", role: "user", ns: "owner" });
    assert.equal(refused.status, 400);
    assert.match(refused.json.error, /shares_owner_ns: true/);
    for (const body of [
      { name: "x", role: "user", names: "snake" },
      { name: "x", role: "user", ns: "owner", shares_owner_ns: "yes" },
      { name: "x", role: "user", ns: "alice", shares_owner_ns: true },
      { name: "x", role: "admin", shares_owner_ns: true },
    ]) {
      assert.equal((await api("POST", "/api/clients", body)).status, 400, JSON.stringify(body));
    }
    const shared = await api("POST", "/api/clients", { name: "phone", role: "user", ns: "owner", shares_owner_ns: true });
    assert.equal(shared.status, 201);
    const list = (await api("GET", "/api/clients")).json.clients;
    assert.deepEqual(
      list.map((c: any) => [c.name, c.ns, c.names, c.shares_owner_ns]),
      [
        ["owner", "owner", "dotted", false],
        ["agent", "alice", "plain", false],
        ["phone", "owner", "dotted", true],
      ],
    );
    // The listing style reaches /mcp: the plain client lists docs_search.
    const listed = await halo.handleHttp({
      method: "POST",
      path: "/mcp",
      headers: { authorization: `Bearer ${plain.json.token}`, "content-type": "application/json" },
      body: encodeUtf8(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })),
    });
    assert.ok(JSON.parse(String(listed.body)).result.tools.some((t: any) => t.name === "docs_search"));
  });

  it("tells a wrong or revoked token apart from a missing one, on /api, /api/chat and /mcp", async () => {
    const created = await api("POST", "/api/clients", { name: "gone", role: "admin" });
    await api("DELETE", "/api/clients/gone");
    for (const path of ["/api/clients", "/api/chat", "/mcp"]) {
      for (const [authorization, expected] of [
        [undefined, /send Authorization: Bearer/],
        [`Bearer ${created.json.token}`, /unknown or revoked token/],
        ["Bearer halo_wrong", /unknown or revoked token/],
      ] as Array<[string | undefined, RegExp]>) {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (authorization) headers.authorization = authorization;
        const get = path === "/api/clients";
        const res = await halo.handleHttp({ method: get ? "GET" : "POST", path, headers, body: get ? undefined : encodeUtf8("{}") });
        assert.equal(res.status, 401, path);
        assert.equal(res.headers["content-type"], "application/json");
        const json = JSON.parse(String(res.body));
        assert.match(json.error?.message ?? json.error, expected, `${path} ${authorization}`);
        assert.doesNotMatch(String(res.body), /halo_wrong|gone/);
      }
    }
  });

  it("approve and reject take no body fields", async () => {
    const owner = {
      ns: "owner",
      role: "admin" as const,
      quota: halo.core.people.get("owner")!.quota,
      via: "turn" as const,
      scheduled: false,
    };
    await halo.core.registry.dispatch("skill.save", { id: "keep-me", md: "# keep-me\n\nSteps." }, owner);
    for (const path of [
      "/api/skills/keep-me/approve",
      "/api/skills/keep-me/reject",
      "/api/routines/r00000000/approve",
      "/api/downloads/f00000000/reject",
    ]) {
      const r = await api("POST", path, { zzz: 1 });
      assert.equal(r.status, 400, path);
      assert.match(r.json.error, /takes no body fields/);
    }
    assert.deepEqual(
      (await api("GET", "/api/skills/pending")).json.pending.map((s: any) => s.id),
      ["keep-me"],
      "nothing was decided",
    );
  });

  it("deletes any person's file and any stored skill capsule; built-ins stay", async () => {
    const alice = {
      ns: "alice",
      role: "user" as const,
      quota: halo.core.people.get("owner")!.quota,
      via: "mcp" as const,
      scheduled: false,
    };
    const saved = await halo.core.registry.dispatch("artifact.save", { project: "notes", name: "plan.md", text: "# plan" }, alice);
    assert.equal(saved.isError, undefined, saved.text);
    const del = await api("DELETE", "/api/files/alice/notes/plan.md");
    assert.deepEqual([del.status, del.json], [200, { deleted: { ns: "alice", project: "notes", name: "plan.md" } }]);
    assert.equal((await halo.core.registry.dispatch("files.stat", { project: "notes", name: "plan.md" }, alice)).isError, true);
    assert.equal((await api("DELETE", "/api/files/alice/notes/plan.md")).status, 404);
    assert.equal((await api("DELETE", "/api/files/Not%20A%20Namespace/notes/plan.md")).status, 404);

    halo.core.skills.saveByOwner("my-routine", "# My routine\n\nSteps.");
    assert.deepEqual((await api("DELETE", "/api/skills/my-routine")).json, { deleted: "my-routine" });
    assert.equal(halo.core.skills.get("my-routine"), undefined);
    assert.equal((await api("DELETE", "/api/skills/my-routine")).status, 404);
    const builtin = halo.core.skills.list().skills[0].id;
    const reserved = await api("DELETE", `/api/skills/${builtin}`);
    assert.equal(reserved.status, 409);
    assert.match(reserved.json.error, /reserved: .* is a built-in capsule/);
    assert.equal((await api("DELETE", "/api/skills/Bad%20Id")).status, 400);
    assert.ok(halo.core.skills.get(builtin));
  });

  it("embedder: locked while memories exist, switched only together with the re-embed", async () => {
    const owner = {
      ns: "owner",
      role: "admin" as const,
      quota: halo.core.people.get("owner")!.quota,
      via: "mcp" as const,
      scheduled: false,
    };
    const empty = (await api("GET", "/api/embedder")).json;
    assert.deepEqual([empty.setting, empty.vectors, empty.locked], [{ provider: "offline", dims: 256 }, 0, false]);
    // With no memories the choice is free.
    assert.equal((await api("PUT", "/api/embedder", { provider: "offline", dims: 192 })).status, 200);
    for (const content of ["The boat is moored at pier seven", "Sailing lessons start in June"]) {
      const w = await halo.core.registry.dispatch("memory.write", { content }, owner);
      assert.equal(w.isError, undefined, w.text);
    }
    const locked = await api("PUT", "/api/embedder", { provider: "offline", dims: 128 });
    assert.equal(locked.status, 409);
    assert.match(locked.json.error, /locked: 2 memories hold vectors from .*\/192; .*reembed: true/);
    assert.equal(halo.core.memory.embedder.dims, 192, "nothing changed");
    for (const body of [
      { provider: "cohere" },
      { provider: "offline", dims: 3 },
      { provider: "openai", dims: 256 },
      { provider: "offline", reembed: "yes" },
      { provider: "offline", colour: 1 },
    ]) {
      assert.equal((await api("PUT", "/api/embedder", body)).status, 400, JSON.stringify(body));
    }
    const noKey = await api("PUT", "/api/embedder", {
      provider: "openai",
      dims: 256,
      model: "m",
      base_url: "https://e.example/v1",
      reembed: true,
    });
    assert.equal(noKey.status, 409);
    assert.match(noKey.json.error, /needs the openai key/);
    const switched = await api("PUT", "/api/embedder", { provider: "offline", dims: 128, reembed: true });
    assert.equal(switched.status, 200, switched.body);
    assert.match(switched.json.result, /^Re-embedded 2 memories with .*\/128\.$/);
    assert.deepEqual([switched.json.setting, switched.json.vectors], [{ provider: "offline", dims: 128 }, 2]);
    const found = await halo.core.registry.dispatch("memory.search", { query: "where is the boat moored" }, owner);
    assert.match(found.text, /pier seven/);
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
