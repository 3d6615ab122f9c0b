// Owner controls over a real socket: budget ceilings, rates and the reset day set through the
// owner API actually stop the governor's provider; who may spend provider credit over
// POST /api/chat and session.spawn is an owner knob per role (guests off by default).
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { ownerApi } from "../support/owner-api.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";
import { answer, openAiAnswer } from "../turn/support.ts";

async function chat(sim: TestSim, token: string, text: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${sim.url}/api/chat`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
  return { status: res.status, json: await res.json() };
}

async function status(sim: TestSim): Promise<string> {
  const r = await postMcp(
    sim,
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "device.status", arguments: {} } }),
  );
  return r.json.result.content[0].text;
}

describe("simulator: owner controls that reach the governor and the credit knobs", () => {
  let openai: ProviderServer;
  let sim: TestSim;
  beforeEach(async () => {
    openai = await ProviderServer.start();
    sim = await startTestSim({
      baseUrls: { openai: openai.url },
      initialSecrets: { openai: "sk-test" },
      portOverrides: { log: memoryLog() },
    });
  });
  afterEach(async () => {
    await sim.stop();
    await openai.close();
  });

  it("a token ceiling set through the owner API stops the provider once reached; device.status shows it", async () => {
    const before = (await ownerApi(sim, "GET", "/api/budget")).json;
    assert.equal(before.reset_day, 1);
    assert.deepEqual(
      before.providers.map((p: any) => [p.provider, p.usd_ceiling, p.token_ceiling]),
      [
        ["openai", null, null],
        ["anthropic", null, null],
        ["mistral", null, null],
      ],
    );
    const set = await ownerApi(sim, "PUT", "/api/budget/openai", {
      token_ceiling: 100,
      usd_ceiling: 5,
      usd_per_mtok_in: 2,
      usd_per_mtok_out: 8,
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual((await ownerApi(sim, "PUT", "/api/budget", { reset_day: 5 })).json.reset_day, 5);
    for (const [path, body, code] of [
      ["/api/budget/openai", { token_ceiling: -1 }, 400],
      ["/api/budget/openai", { usd_ceiling: "5" }, 400],
      ["/api/budget/openai", { tokens: 5 }, 400],
      ["/api/budget/openai", {}, 400],
      ["/api/budget/openrouter", { usd_ceiling: 1 }, 404],
      ["/api/budget", { reset_day: 31 }, 400],
      ["/api/budget", { reset_day: 2, x: 1 }, 400],
    ] as Array<[string, object, number]>) {
      assert.equal((await ownerApi(sim, "PUT", path, body)).status, code, `${path} ${JSON.stringify(body)}`);
    }

    openai.reply(openAiAnswer(answer({ reply: "first" }), { input: 120, output: 30 }));
    const first = await chat(sim, sim.token, "hello");
    assert.equal(first.json.reply, "first");
    const spent = (await ownerApi(sim, "GET", "/api/budget")).json.providers[0];
    assert.deepEqual([spent.input_tokens, spent.output_tokens, spent.usd, spent.over], [120, 30, 0.00048, true]);
    const second = await chat(sim, sim.token, "again");
    assert.equal(second.json.ok, false);
    assert.equal(second.json.failure, "budget");
    assert.equal(openai.seen.length, 1, "the second turn never reached the provider");
    assert.match(await status(sim), /OpenAI tokens this period \(resets \d{4}-\d{2}-05\) \[budget spent\] 150 of 100/);

    // Repeated log lines are rate-limited, and device.status counts what was withheld.
    for (let i = 0; i < 10; i++) await ownerApi(sim, "PUT", "/api/budget", { reset_day: 5 });
    const withheld = Number(/^Log: (\d+) repeated lines withheld since boot$/m.exec(await status(sim))?.[1]);
    assert.ok(withheld >= 7, `${withheld} withheld`);

    // Clearing the ceiling (null) lets the provider serve again.
    await ownerApi(sim, "PUT", "/api/budget/openai", { token_ceiling: null });
    openai.reply(openAiAnswer(answer({ reply: "third" })));
    assert.equal((await chat(sim, sim.token, "once more")).json.reply, "third");
  });

  it("guests spend no provider credit until the owner allows it; users as the owner says", async () => {
    const guest = (await ownerApi(sim, "POST", "/api/clients", { name: "visitor", role: "guest" })).json.token;
    const user = (await ownerApi(sim, "POST", "/api/clients", { name: "member", role: "user", ns: "alice" })).json.token;
    const refused = await chat(sim, guest, "hello");
    assert.equal(refused.status, 403);
    assert.match(refused.json.error, /not-allowed: the owner has not allowed this role to spend provider credit/);
    const spawn = async (token: string) => {
      const r = await postMcp(
        sim,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "session.spawn", arguments: { task: "summarise" } },
        }),
        { authorization: `Bearer ${token}` },
      );
      return r.json.result;
    };
    const guestSpawn = await spawn(guest);
    assert.equal(guestSpawn.isError, true);
    assert.match(guestSpawn.content[0].text, /^not-allowed:/);
    assert.equal(openai.seen.length, 0);

    assert.equal((await ownerApi(sim, "PUT", "/api/config/userCredit", { value: false })).status, 200);
    assert.equal((await chat(sim, user, "hello")).status, 403);
    assert.match((await spawn(user)).content[0].text, /^not-allowed:/);

    assert.equal((await ownerApi(sim, "PUT", "/api/config/guestCredit", { value: true })).status, 200);
    openai.reply(openAiAnswer(answer({ reply: "welcome" })));
    const allowed = await chat(sim, guest, "hello");
    assert.equal(allowed.status, 200);
    assert.equal(allowed.json.reply, "welcome");
    assert.equal((await chat(sim, sim.token, "")).status, 400, "the owner's own turns are never gated (bad input still is)");
  });

  it("the model per provider and the orchestrator's model are owner controls; a provider's model list is read with its key", async () => {
    const initial = (await ownerApi(sim, "GET", "/api/models")).json;
    assert.deepEqual(initial.orchestrator, { provider: "openai", model: null });
    assert.equal(initial.providers[0].chosen, false);
    assert.equal((await ownerApi(sim, "PUT", "/api/models/openai", { model: "gpt-owner-pick" })).status, 200);
    openai.reply(openAiAnswer(answer({ reply: "one" })), openAiAnswer(answer({ reply: "two" })));
    await chat(sim, sim.token, "hello");
    assert.equal(openai.seen[0].json.model, "gpt-owner-pick");
    assert.match(await status(sim), /^Provider models: openai gpt-owner-pick \(owner's choice\); anthropic \S+ \(default\)/m);

    const orch = await ownerApi(sim, "PUT", "/api/models/orchestrator", { provider: "openai", model: "gpt-orch" });
    assert.deepEqual(orch.json.orchestrator, { provider: "openai", model: "gpt-orch" });
    await chat(sim, sim.token, "again");
    assert.equal(openai.seen[1].json.model, "gpt-orch", "the orchestrator's own model comes first, as the orch_model action sets it");
    assert.match(await status(sim), /^- orchModel: "gpt-orch" \[orch_model action\]$/m);

    for (const [path, body, code] of [
      ["/api/models/openai", { model: "has space" }, 400],
      ["/api/models/openai", { model: 5 }, 400],
      ["/api/models/openai", {}, 400],
      ["/api/models/openrouter", { model: "x" }, 404],
      ["/api/models/orchestrator", { provider: "cohere" }, 400],
      ["/api/models/orchestrator", { provider: "openai", model: "x", temperature: 1 }, 400],
    ] as Array<[string, object, number]>) {
      assert.equal((await ownerApi(sim, "PUT", path, body)).status, code, `${path} ${JSON.stringify(body)}`);
    }
    assert.equal((await ownerApi(sim, "PUT", "/api/models/openai", { model: null })).json.providers[0].chosen, false);

    openai.reply(
      { body: { object: "list", data: [{ id: "gpt-b" }, { id: "gpt-a" }, { id: "bad id with spaces" }, { id: 7 }] } },
      { status: 401, body: { error: {} } },
    );
    const listed = await ownerApi(sim, "GET", "/api/models/openai/available");
    assert.deepEqual(listed.json, { provider: "openai", models: ["gpt-a", "gpt-b"] });
    assert.equal(openai.seen[2].path, "/v1/models");
    assert.equal(openai.seen[2].headers.authorization, "Bearer sk-test");
    const refused = await ownerApi(sim, "GET", "/api/models/openai/available");
    assert.deepEqual([refused.status, refused.json.error], [502, "Bad gateway: openai refused the key."]);
    assert.doesNotMatch(refused.text, /sk-test/);
    // Anthropic's list is read with its own headers (x-api-key and anthropic-version, never a Bearer token).
    const anthropic = await ProviderServer.start();
    try {
      const other = await startTestSim({
        baseUrls: { anthropic: anthropic.url },
        initialSecrets: { anthropic: "sk-ant-test" },
        portOverrides: { log: memoryLog() },
      });
      try {
        anthropic.reply({ body: { data: [{ id: "claude-sonnet-4-6", type: "model" }], has_more: false } });
        assert.deepEqual((await ownerApi(other, "GET", "/api/models/anthropic/available")).json.models, ["claude-sonnet-4-6"]);
        assert.equal(anthropic.seen[0].headers["x-api-key"], "sk-ant-test");
        assert.ok(anthropic.seen[0].headers["anthropic-version"]);
        assert.equal(anthropic.seen[0].headers.authorization, undefined);
      } finally {
        await other.stop();
      }
    } finally {
      await anthropic.close();
    }
    const unkeyed = await ownerApi(sim, "GET", "/api/models/mistral/available");
    assert.deepEqual([unkeyed.status, unkeyed.json.error], [502, "Bad gateway: no mistral key is set."]);
  });
});
