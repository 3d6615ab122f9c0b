// The routes the web page adds: GET /api/whoami, GET /api/tools and
// POST /api/secrets/:name/check, over a real socket against the simulator,
// with the key checks made against local provider stand-ins.
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { ownerApi } from "../support/owner-api.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { person } from "../turn/support.ts";

const utf8 = (s: string): number => new TextEncoder().encode(s).length;

const KEYS = { openai: "sk-openai-CHECK-KEY", anthropic: "sk-ant-CHECK-KEY", telegram: "123456:TELEGRAM-SECRET-TOKEN" };

describe("web page API routes on the simulator", () => {
  let openai: ProviderServer;
  let other: ProviderServer;
  let sim: TestSim;
  let userToken: string;
  before(async () => {
    openai = await ProviderServer.start();
    other = await ProviderServer.start();
    sim = await startTestSim({
      baseUrls: { openai: openai.url, anthropic: other.url, telegram: other.url.replace(/\/v1$/, "") },
      initialSecrets: KEYS,
      portOverrides: { log: memoryLog() },
    });
    userToken = (await ownerApi(sim, "POST", "/api/clients", { name: "phone", role: "user", ns: "alice" })).json.token;
  });
  after(async () => {
    await sim.stop();
    await openai.close();
    await other.close();
  });

  it("GET /api/whoami names the token's client to any client, and 401s a wrong one", async () => {
    assert.deepEqual((await ownerApi(sim, "GET", "/api/whoami")).json, { name: "owner", role: "admin", ns: "owner" });
    const user = await ownerApi(sim, "GET", "/api/whoami", undefined, { authorization: `Bearer ${userToken}` });
    assert.deepEqual(user.json, { name: "phone", role: "user", ns: "alice" });
    const wrong = await ownerApi(sim, "GET", "/api/whoami", undefined, { authorization: "Bearer halo_nope" });
    assert.equal(wrong.status, 401);
    assert.match(wrong.json.error, /unknown or revoked/);
  });

  it("GET /api/tools lists every registered tool with arguments, where it runs, who calls it and whether it is live", async () => {
    const r = await ownerApi(sim, "GET", "/api/tools");
    assert.equal(r.status, 200);
    const names = r.json.tools.map((t: any) => t.name);
    assert.deepEqual(
      names,
      sim.halo.core.registry
        .all()
        .map((t) => t.name)
        .sort(),
    );
    const search = r.json.tools.find((t: any) => t.name === "memory.search");
    assert.deepEqual(
      search.arguments.find((a: any) => a.name === "query"),
      { name: "query", type: "string", required: true },
    );
    assert.deepEqual(search.runs, ["turn", "mcp", "scheduled"]);
    assert.equal(search.live, true);
    const send = r.json.tools.find((t: any) => t.name === "files.send");
    assert.deepEqual(send.runs, ["turn", "scheduled"], "turn-only: never over /mcp");
    const transcribe = r.json.tools.find((t: any) => t.name === "audio.transcribe");
    assert.equal(transcribe.live, true, "the openai key is set");
    assert.ok(r.json.tools.every((t: any) => typeof t.description === "string" && Array.isArray(t.arguments)));
    const admin = r.json.tools.filter((t: any) => t.callers === "admin").map((t: any) => t.name);
    assert.ok(admin.length > 0 && admin.every((n: string) => sim.halo.core.registry.all().find((t) => t.name === n)!.adminOnly));
    const user = await ownerApi(sim, "GET", "/api/tools", undefined, { authorization: `Bearer ${userToken}` });
    assert.equal(user.status, 403);
    assert.equal((await ownerApi(sim, "POST", "/api/tools", {})).status, 405);
  });

  it("GET /api/ring/events streams the ring's patterns and frames to any client, and refuses a missing token", async () => {
    const stop = new AbortController();
    const res = await fetch(`${sim.url}/api/ring/events`, { headers: { authorization: `Bearer ${userToken}` }, signal: stop.signal });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const reader = res.body!.getReader();
    let text = "";
    const until = async (pattern: RegExp): Promise<void> => {
      while (!pattern.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    };
    await until(/event: pattern\ndata: \{"pixels":\d+,"mode":"\w+"/);
    const led = sim.halo.core.ports.led!;
    led.show({ mode: "pulse", r: 1, g: 2, b: 3, brightness: 40 });
    await until(/event: pattern\ndata: \{"pixels":\d+,"mode":"pulse","r":1,"g":2,"b":3,"brightness":40\}/);
    const rgb = new Uint8Array(led.pixels * 3);
    rgb[0] = 0xab;
    rgb[rgb.length - 1] = 0x01;
    led.frame!(rgb);
    await until(new RegExp(`event: frame\\ndata: \\{"pixels":${led.pixels},"rgb":"ab${"00".repeat(led.pixels * 3 - 2)}01"\\}`));
    stop.abort();
    assert.equal((await fetch(`${sim.url}/api/ring/events`)).status, 401);
  });

  it("DELETE /api/files/:project/:name deletes the caller's own file only", async () => {
    const { artifacts } = sim.halo.core;
    artifacts.saveText(person("admin"), "notes", "old plan.md", "owner's");
    artifacts.saveText(person("user", "alice"), "notes", "alice.md", "alice's");
    const userAuth = { authorization: `Bearer ${userToken}` };
    const theirs = await ownerApi(sim, "DELETE", "/api/files/notes/alice.md");
    assert.equal(theirs.status, 404, "the owner's token does not reach alice's file");
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/notes/old%20plan.md", undefined, userAuth)).status, 404);
    const mine = await ownerApi(sim, "DELETE", "/api/files/notes/old%20plan.md");
    assert.deepEqual([mine.status, mine.json], [200, { deleted: { ns: "owner", project: "notes", name: "old plan.md" } }]);
    assert.equal(artifacts.list(person("admin"), "notes").length, 0);
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/notes/alice.md", undefined, userAuth)).status, 200);
    assert.equal(artifacts.list(person("user", "alice")).length, 0);
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/notes/alice.md", undefined, userAuth)).status, 404, "already gone");
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/Bad..Project/x.md")).status, 400);
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/notes/a%2Fb")).status, 400);
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/notes/x.md", undefined, { authorization: undefined })).status, 401);
    assert.equal((await ownerApi(sim, "GET", "/api/files/notes/x.md")).status, 405);
  });

  it("the owner lists who has files and each person's files, deletes one of them, and a member cannot list", async () => {
    const { artifacts } = sim.halo.core;
    artifacts.saveText(person("user", "bob"), "trip", "plan.md", "# Rome");
    artifacts.saveText(person("user", "bob"), "trip", "Bags.md", "two bags");
    artifacts.saveText(person("admin"), "notes", "mine.md", "the owner's");
    const people = (await ownerApi(sim, "GET", "/api/files")).json.people;
    const bob = people.find((p: any) => p.ns === "bob");
    assert.deepEqual(bob, { ns: "bob", files: 2, bytes: utf8("# Rome") + utf8("two bags") });
    assert.ok(people.some((p: any) => p.ns === "owner"));
    const list = await ownerApi(sim, "GET", "/api/files/bob");
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.json.files.map((f: any) => [f.project, f.name, f.kind, f.shared]),
      [
        ["trip", "Bags.md", "text", false],
        ["trip", "plan.md", "text", false],
      ],
    );
    assert.ok(!list.text.includes("Rome"), "a listing carries no contents");
    assert.deepEqual((await ownerApi(sim, "GET", "/api/files/nobody")).json, { ns: "nobody", files: [] });
    assert.equal((await ownerApi(sim, "GET", "/api/files/Not%20Valid")).status, 404);
    assert.equal((await ownerApi(sim, "GET", `/api/files/${"a".repeat(200)}`)).status, 400);
    const userAuth = { authorization: `Bearer ${userToken}` };
    assert.equal((await ownerApi(sim, "GET", "/api/files", undefined, userAuth)).status, 403);
    assert.equal((await ownerApi(sim, "GET", "/api/files/bob", undefined, userAuth)).status, 403);
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/bob/trip/plan.md", undefined, userAuth)).status, 403);
    const del = await ownerApi(sim, "DELETE", "/api/files/bob/trip/plan.md");
    assert.deepEqual([del.status, del.json], [200, { deleted: { ns: "bob", project: "trip", name: "plan.md" } }]);
    assert.deepEqual((await ownerApi(sim, "GET", "/api/files/bob")).json.files.length, 1);
    assert.equal((await ownerApi(sim, "DELETE", "/api/files/bob/trip/plan.md")).status, 404);
    assert.equal((await ownerApi(sim, "POST", "/api/files/bob", {})).status, 405);
  });

  it("the owner lists every skill capsule with its source and state", async () => {
    sim.halo.core.skills.saveByAgent("tea-timer", "# Tea timer\n\nThree minutes.\n");
    const r = await ownerApi(sim, "GET", "/api/skills");
    assert.equal(r.status, 200, r.text);
    const tea = r.json.skills.find((s: any) => s.id === "tea-timer");
    assert.deepEqual([tea.title, tea.source, tea.approved], ["Tea timer", "agent", false]);
    assert.ok(r.json.skills.some((s: any) => s.source === "built-in"));
    assert.equal((await ownerApi(sim, "GET", "/api/skills", undefined, { authorization: `Bearer ${userToken}` })).status, 403);
    assert.deepEqual((await ownerApi(sim, "DELETE", "/api/skills/tea-timer")).json, { deleted: "tea-timer" });
    assert.ok(!(await ownerApi(sim, "GET", "/api/skills")).json.skills.some((s: any) => s.id === "tea-timer"));
  });

  it("a key check makes one cheap call and says ok", async () => {
    openai.reply({ body: { object: "list", data: [{ id: "gpt-x", object: "model" }] } });
    const r = await ownerApi(sim, "POST", "/api/secrets/openai/check", {});
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { name: "openai", ok: true, message: "The openai key works." });
    const seen = openai.seen.at(-1)!;
    assert.equal(seen.method, "GET");
    assert.equal(seen.path, "/v1/models");
    assert.equal(seen.headers.authorization, `Bearer ${KEYS.openai}`);
    other.reply({ body: { data: [] } });
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/anthropic/check", {})).json.ok, true);
    assert.equal(other.seen.at(-1)!.headers["x-api-key"], KEYS.anthropic);
    assert.match(other.seen.at(-1)!.path, /^\/v1\/models/);
  });

  it("reports the provider's error class, never the key", async () => {
    const cases: Array<[object, string]> = [
      [{ status: 401, body: { error: { message: `Incorrect API key provided: ${KEYS.openai}` } } }, "auth"],
      [{ status: 429, body: { error: { message: "slow down" } } }, "rate-limit"],
      [{ status: 402, body: { error: { message: "pay up", code: "insufficient_quota" } } }, "billing"],
      [{ status: 500, body: "garbage" }, "server"],
    ];
    for (const [reply, kind] of cases) {
      openai.reply(reply);
      const r = await ownerApi(sim, "POST", "/api/secrets/openai/check", {});
      assert.equal(r.status, 200);
      assert.equal(r.json.ok, false);
      assert.equal(r.json.error, kind);
      assert.ok(!r.text.includes(KEYS.openai));
    }
  });

  it("a telegram check calls getMe and never echoes the token, even when the service is gone", async () => {
    other.reply({ status: 401, body: { ok: false, description: `Unauthorized ${KEYS.telegram}` } });
    const r = await ownerApi(sim, "POST", "/api/secrets/telegram/check", {});
    assert.deepEqual([r.json.ok, r.json.error], [false, "auth"]);
    assert.equal(other.seen.at(-1)!.path, `/bot${KEYS.telegram}/getMe`);
    assert.ok(!r.text.includes("TELEGRAM-SECRET"));
    other.reply({ raw: (res) => res.destroy() });
    const gone = await ownerApi(sim, "POST", "/api/secrets/telegram/check", {});
    assert.equal(gone.json.error, "network");
    assert.ok(!gone.text.includes("TELEGRAM-SECRET"));
  });

  it("refuses an unset key, an unknown name, a body with fields, a non-admin and a foreign origin", async () => {
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/mistral/check", {})).status, 409);
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/nope/check", {})).status, 404);
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/openai/check", { value: "x" })).status, 400);
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/openai/check", "{")).status, 400);
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/openai/check", {}, { authorization: `Bearer ${userToken}` })).status, 403);
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/openai/check", {}, { origin: "https://evil.example" })).status, 403);
    assert.equal((await ownerApi(sim, "POST", "/api/secrets/openai/check", "x".repeat(20000))).status, 413);
    assert.equal((await ownerApi(sim, "GET", "/api/whoami")).status, 200, "still serving");
  });
});
