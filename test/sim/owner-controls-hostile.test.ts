// Hostile input at the owner controls this issue added (clients, budget, models, embedder,
// deletions, approve/reject) and at tools/call's name resolution, over a real socket: every
// case gets a 4xx JSON answer, the server keeps serving, nothing stored changes, and no
// secret or token comes back. Prints the figures.
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { ownerApi } from "../support/owner-api.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";

const CANARY = "sk-CANARY-interop-7f3a";

/** Values of every JSON type and shape a careless handler trips on. */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  1e308,
  0.5,
  2 ** 53 + 1,
  "",
  "x".repeat(5000),
  "../../etc/passwd",
  "\u0000\u202e",
  [],
  [1, 2],
  {},
  { __proto__: { polluted: 1 } },
  JSON.parse('{"__proto__":{"polluted":1}}'),
  { constructor: { prototype: { polluted: 1 } } },
];

const ENDPOINTS: Array<{ method: string; path: string; fields: string[] }> = [
  { method: "POST", path: "/api/clients", fields: ["name", "role", "ns", "names", "shares_owner_ns"] },
  { method: "PUT", path: "/api/budget", fields: ["reset_day"] },
  { method: "PUT", path: "/api/budget/openai", fields: ["usd_ceiling", "token_ceiling", "usd_per_mtok_in", "usd_per_mtok_out"] },
  { method: "PUT", path: "/api/models/openai", fields: ["model"] },
  { method: "PUT", path: "/api/models/orchestrator", fields: ["provider", "model"] },
  { method: "PUT", path: "/api/embedder", fields: ["provider", "dims", "model", "base_url", "reembed"] },
  { method: "POST", path: "/api/skills/x/approve", fields: ["zzz"] },
  { method: "POST", path: "/api/routines/r00000000/reject", fields: ["zzz"] },
  { method: "POST", path: "/api/downloads/f00000000/approve", fields: ["zzz"] },
];

// (A client normalises %2e%2e segments away before sending, so those never reach /api.)
const PATHS = [
  "/api/files/owner/..%2f../x",
  "/api/files/owner/p/%2e%2e%2fsecrets",
  "/api/skills/..%2fetc",
  `/api/files/${"a".repeat(300)}/p/n`,
  "/api/models/%00/available",
  "/api/budget/__proto__",
];

describe("simulator: owner controls under hostile input", () => {
  let sim: TestSim;
  before(async () => {
    sim = await startTestSim({ initialSecrets: { openai: CANARY }, portOverrides: { log: memoryLog() } });
  });
  after(async () => sim.stop());

  it("answers every hostile body and path with a 4xx JSON error, keeps serving, and changes nothing it refused", async () => {
    const before = {
      budget: (await ownerApi(sim, "GET", "/api/budget")).text,
      models: (await ownerApi(sim, "GET", "/api/models")).text,
      embedder: (await ownerApi(sim, "GET", "/api/embedder")).text,
      clients: (await ownerApi(sim, "GET", "/api/clients")).json.clients.length,
    };
    let tried = 0;
    let crashes = 0;
    let accepted = 0;
    const leaks: string[] = [];
    const send = async (method: string, path: string, body?: unknown): Promise<void> => {
      tried++;
      const r = await ownerApi(sim, method, path, body);
      if (r.status >= 500 && r.status !== 502) crashes++;
      if (r.text.includes(CANARY) || r.text.includes(sim.token)) leaks.push(`${method} ${path}`);
      assert.equal(r.headers.get("content-type"), "application/json", `${method} ${path}`);
      if (r.status < 300) accepted++;
      else assert.ok(typeof r.json?.error === "string" && r.json.error.length < 400, `${method} ${path}: ${r.text.slice(0, 120)}`);
    };
    for (const e of ENDPOINTS) {
      for (const field of e.fields) for (const v of HOSTILE_VALUES) await send(e.method, e.path, { [field]: v });
      for (const raw of ["[]", "null", '"x"', "{", "{}".repeat(3), '{"a":'.repeat(20) + "1" + "}".repeat(20)])
        await send(e.method, e.path, raw);
      await send(e.method, e.path, { ...Object.fromEntries(e.fields.map((f) => [f, 1])), extra: 1 });
    }
    for (const p of PATHS) for (const m of ["GET", "PUT", "DELETE"]) await send(m, p, m === "PUT" ? { model: "x" } : undefined);
    // Plain tool names: hostile spellings never reach another tool, never crash.
    for (const name of [
      "docs_search_",
      "_docs_search",
      "docs__search",
      "docs_search\u0000",
      "docs.search_",
      "a".repeat(10000),
      "__proto__",
      "constructor",
      "tenant_set_role",
    ]) {
      tried++;
      const r = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }), {
        authorization: `Bearer ${(await ownerApi(sim, "POST", "/api/clients", { name: `h${tried}`, role: "guest", names: "plain" })).json.token}`,
      });
      if (r.status >= 500) crashes++;
      const text = JSON.stringify(r.json);
      if (name === "tenant_set_role") assert.match(text, /admin-only/, "a plain spelling keeps the tool's access rules");
      else assert.equal(r.json.error.code, -32602, name.slice(0, 30));
    }
    const after = {
      budget: (await ownerApi(sim, "GET", "/api/budget")).text,
      models: (await ownerApi(sim, "GET", "/api/models")).text,
      embedder: (await ownerApi(sim, "GET", "/api/embedder")).text,
    };
    console.log(`      owner-controls hostile: ${tried} cases, ${crashes} crashes, ${accepted} accepted, ${leaks.length} leaks`);
    assert.equal(crashes, 0);
    assert.deepEqual(leaks, []);
    // The only bodies accepted were well-formed values (a valid ceiling, model or name); refused ones changed nothing.
    assert.ok(accepted < tried / 4, `${accepted} of ${tried} accepted`);
    assert.equal(JSON.parse(after.embedder).setting.provider, "offline");
    assert.equal(after.embedder, before.embedder);
    const ping = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    assert.equal(ping.status, 200, "still serving");
    assert.ok(before.budget.length > 0 && before.models.length > 0 && before.clients >= 1);
    assert.equal(Object.hasOwn({}, "polluted"), false, "no prototype was polluted");
    assert.equal(({} as any).polluted, undefined);
  });
});
