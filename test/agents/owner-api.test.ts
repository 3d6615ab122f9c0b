// The owner API's routine and alert endpoints (transport-free), and the two owner knobs.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { Halo, HttpResponse } from "../../lib/app/halo.ts";
import { testHalo } from "../support/halo.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { MINUTE, owner, scriptedRunner, switchableScheduler } from "./support.ts";

describe("owner API: routines and alerts", () => {
  let halo: Halo;
  let token: string;
  let log: ReturnType<typeof memoryLog>;
  let clock: ReturnType<typeof fakeClock>;
  let scheduled: ReturnType<typeof switchableScheduler>;
  beforeEach(() => {
    log = memoryLog();
    clock = fakeClock(Date.UTC(2026, 0, 5, 9, 0));
    scheduled = switchableScheduler(scriptedRunner());
    halo = testHalo(memoryPorts({ log, clock }), {
      core: { baseUrls: {}, otaBuild: undefined, walletKit: undefined, subsystems: scheduled.subsystems },
    });
    token = halo.ensureOwnerToken()!;
  });

  async function api(method: string, path: string, body?: unknown, bearer = token): Promise<HttpResponse & { json: any }> {
    const res = await halo.handleHttp({
      method,
      path,
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: body === undefined ? undefined : encodeUtf8(JSON.stringify(body)),
    });
    assert.equal(res.headers["content-type"], "application/json");
    const text = typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body);
    return { ...res, body: text, json: JSON.parse(text) };
  }

  const create = async (name: string): Promise<string> => {
    const r = await halo.core.registry.dispatch("loop.create", { name, prompt: "p", schedule: { kind: "daily", at: "10:00" } }, owner);
    return /(r[0-9a-f]{8})/.exec(r.text)![1];
  };

  it("lists routines and wakeups, approves and rejects pending ones, deletes any", async () => {
    assert.deepEqual((await api("GET", "/api/routines")).json, { routines: [] });
    const a = await create("a");
    const b = await create("b");
    await halo.core.registry.dispatch("wakeup.set", { minutes: 30, note: "n" }, owner);
    const list = (await api("GET", "/api/routines")).json.routines;
    assert.deepEqual(
      list.map((r: any) => [r.kind, r.approved]),
      [
        ["routine", false],
        ["routine", false],
        ["wakeup", true],
      ],
    );
    assert.deepEqual(list[0].schedule, { kind: "daily", at: "10:00" });

    const approve = await api("POST", `/api/routines/${a}/approve`, {});
    assert.deepEqual([approve.status, approve.json], [200, { id: a, decision: "approved", nextRun: Date.UTC(2026, 0, 5, 10, 0) }]);
    assert.deepEqual((await api("POST", `/api/routines/${a}/approve`, {})).json, {
      error: `Not found: not-found: no routine ${a} awaits approval.`,
    });
    assert.equal((await api("POST", `/api/routines/${a}/reject`, {})).status, 404, "an approved routine is not pending");
    assert.deepEqual((await api("POST", `/api/routines/${b}/reject`, {})).json, { id: b, decision: "rejected" });
    assert.equal((await api("POST", "/api/routines/rffffffff/approve", {})).status, 404);
    assert.deepEqual((await api("DELETE", `/api/routines/${a}`)).json, { id: a, decision: "deleted" });
    const gone = await api("DELETE", `/api/routines/${a}`);
    assert.deepEqual([gone.status, gone.json], [404, { error: `Not found: not-found: no routine or wakeup ${a}.` }]);
    assert.deepEqual(
      (await api("GET", "/api/routines")).json.routines.map((r: any) => r.kind),
      ["wakeup"],
    );
    assert.equal((await api("PUT", "/api/routines")).status, 405);
    assert.ok(log.lines.includes(`owner api: routine ${a} approved`));
  });

  it("an approved routine fires; alerts from a failed wakeup are read and cleared", async () => {
    const runner = scriptedRunner([
      { ok: false, error: "no key" },
      { ok: false, error: "still no key" },
    ]);
    scheduled.use(runner);
    await halo.core.registry.dispatch("wakeup.set", { minutes: 2, note: "ping" }, owner);
    clock.advance(2 * MINUTE);
    await halo.core.scheduler.tick();
    clock.advance(MINUTE);
    await halo.core.scheduler.tick();
    const alerts = (await api("GET", "/api/alerts")).json.alerts;
    assert.equal(alerts.length, 1);
    assert.deepEqual(Object.keys(alerts[0]).sort(), ["at", "id", "message", "source"]);
    assert.equal(alerts[0].message, `The wakeup "ping" failed twice: still no key.`);
    assert.deepEqual((await api("DELETE", "/api/alerts")).json, { cleared: 1 });
    assert.deepEqual((await api("GET", "/api/alerts")).json, { alerts: [] });
  });

  it("needs an admin client's token, like every owner endpoint", async () => {
    const userToken = halo.core.clients.create("reader", "user", "reader");
    for (const [method, path] of [
      ["GET", "/api/routines"],
      ["GET", "/api/alerts"],
      ["DELETE", "/api/alerts"],
      ["POST", "/api/routines/r00000000/approve"],
    ]) {
      assert.equal((await api(method, path, method === "POST" ? {} : undefined, userToken)).status, 403, path);
      assert.equal((await api(method, path, method === "POST" ? {} : undefined, "wrong")).status, 401, path);
    }
  });

  it("sets the owner knobs utcOffsetMin and routineTurnsPerDay; a device action cannot", async () => {
    assert.deepEqual((await api("PUT", "/api/config/routineTurnsPerDay", { value: 5 })).json, { key: "routineTurnsPerDay", value: 5 });
    assert.deepEqual((await api("PUT", "/api/config/utcOffsetMin", { value: -300 })).json, { key: "utcOffsetMin", value: -300 });
    for (const [key, value] of [
      ["routineTurnsPerDay", 97],
      ["routineTurnsPerDay", -1],
      ["utcOffsetMin", 841],
      ["utcOffsetMin", 1.5],
      ["utcOffsetMin", "60"],
    ] as const) {
      assert.equal((await api("PUT", `/api/config/${key}`, { value })).status, 400, `${key}=${value}`);
    }
    const viaDevice = await halo.core.registry.dispatch("device.control", { action: { config: { routineTurnsPerDay: 96 } } }, owner);
    assert.match(viaDevice.text, /protected-BLOCKED/);
    const offset = await halo.core.registry.dispatch("device.control", { action: { config: { utcOffsetMin: 60 } } }, owner);
    assert.match(offset.text, /utcOffsetMin is set by the owner only/);
    assert.equal(halo.core.config.number("routineTurnsPerDay"), 5);
    assert.equal(halo.core.config.number("utcOffsetMin"), -300);
  });
});
