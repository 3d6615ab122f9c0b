import assert from "node:assert/strict";
import { TEST_HOST } from "../support/halo.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { roleQuota } from "../../lib/registry/principal.ts";
import { principal, callContext } from "../support/registry.ts";

describe("tenant.* tools", () => {
  let core: Core;
  const admin = principal("admin", "turn", "owner");
  const call = (name: string, args: unknown, who = admin) => core.registry.dispatch(name, args, who);
  beforeEach(() => {
    core = buildCore(memoryPorts(), TEST_HOST);
  });

  it("lists people with role and quotas", async () => {
    await call("tenant.set_role", { chat: "-100777", role: "user" });
    const r = await call("tenant.list", {});
    assert.equal(r.isError, undefined);
    assert.match(r.text, /^People \(2 of 32\):/);
    assert.match(r.text, /- owner: admin; vectors 5000, bytes 64\.0 MB, ttl no maximum, pins 200/);
    assert.match(r.text, /- -100777: user; vectors 1000, bytes 16\.0 MB, ttl 2160 h, pins 50/);
  });

  it("approves, changes and revokes; says when the chat is not allow-listed", async () => {
    const r = await call("tenant.set_role", { chat: "555", role: "guest" });
    assert.equal(r.text, "555 is now guest. It is not on the chat allow-list: only the owner can add it through the owner API.");
    core.chats.replace(["555"]);
    assert.equal((await call("tenant.set_role", { chat: "555", role: "user" })).text, "555 is now user.");
    assert.equal((await call("tenant.set_role", { chat: "555", role: "unknown" })).text, "555 is removed: access revoked.");
    assert.equal(core.people.get("555"), undefined);
    const again = await call("tenant.set_role", { chat: "555", role: "unknown" });
    assert.equal(again.isError, true);
    assert.match(again.text, /^not-found:/);
  });

  it("refuses to demote the last admin", async () => {
    const r = await call("tenant.set_role", { chat: "owner", role: "guest" });
    assert.equal(r.isError, true);
    assert.match(r.text, /^last-admin:/);
    assert.equal(core.people.get("owner")?.role, "admin");
  });

  it("refuses the 33rd person", async () => {
    for (let i = 0; i < 31; i++) assert.equal((await call("tenant.set_role", { chat: `p${i}`, role: "guest" })).isError, undefined);
    const r = await call("tenant.set_role", { chat: "late", role: "guest" });
    assert.match(r.text, /^limit: at most 32 people/);
  });

  it("sets quotas; 0 restores the default", async () => {
    await call("tenant.set_role", { chat: "alice", role: "user" });
    const r = await call("tenant.set_quota", { chat: "alice", vectors: 10, bytes: 2048, ttl_hours: 24, pins: 1 });
    assert.equal(r.text, "Quota set.\n- alice: user; vectors 10 (set), bytes 2.0 KB (set), ttl 24 h (set), pins 1 (set)");
    await call("tenant.set_quota", { chat: "alice", vectors: 0, ttl_hours: 0 });
    assert.deepEqual(core.people.get("alice")!.quota, { ...roleQuota("user"), bytes: 2048, pins: 1 });
  });

  const badCalls: Array<[string, unknown, RegExp]> = [
    ["tenant.set_role", {}, /'chat' is required/],
    ["tenant.set_role", { chat: "a" }, /'role' is required/],
    ["tenant.set_role", { chat: 5, role: "user" }, /'chat' must be string/],
    ["tenant.set_role", { chat: "", role: "user" }, /'chat'/],
    ["tenant.set_role", { chat: "x".repeat(50), role: "user" }, /'chat'/],
    ["tenant.set_role", { chat: "Upper Case", role: "user" }, /'chat' must match pattern/],
    ["tenant.set_role", { chat: "a", role: "root" }, /must be one of admin, user, guest, unknown/],
    ["tenant.set_role", { chat: "a", role: "user", extra: 1 }, /unknown argument 'extra'/],
    ["tenant.set_quota", { chat: "owner" }, /at least one of vectors, bytes, ttl_hours, pins/],
    ["tenant.set_quota", { chat: "owner", vectors: -1 }, /'vectors' must be >= 0/],
    ["tenant.set_quota", { chat: "owner", vectors: 100001 }, /'vectors' must be <= 100000/],
    ["tenant.set_quota", { chat: "owner", pins: 1.5 }, /'pins' must be integer/],
    ["tenant.set_quota", { chat: "owner", bytes: Number.NaN }, /'bytes'/],
    ["tenant.set_quota", { chat: "owner", ttl_hours: "24" }, /'ttl_hours' must be integer/],
    ["tenant.set_quota", { chat: "ghost", pins: 3 }, /^not-found: no such person\.$/],
    ["tenant.list", { all: true }, /unknown argument 'all'/],
    ["tenant.list", [], /arguments must be an object/],
  ];
  for (const [name, args, expected] of badCalls) {
    it(`refuses ${name} ${JSON.stringify(args)?.slice(0, 60)}`, async () => {
      const r = await call(name, args);
      assert.equal(r.isError, true);
      assert.match(r.text, expected);
    });
  }

  it("each handler re-checks the caller when reached without the registry", async () => {
    for (const tool of core.registry.all().filter((t) => t.name.startsWith("tenant."))) {
      assert.equal(tool.adminOnly, true, tool.name);
      for (const who of [principal("user", "turn"), principal("guest", "mcp"), principal("admin", "turn", "owner", true)]) {
        await assert.rejects(
          async () => tool.handler({ chat: "owner", role: "guest", vectors: 1 }, callContext(who), {}),
          /^HaloError: (admin-only|scheduled-refused):/,
        );
      }
    }
    assert.equal(core.people.get("owner")?.role, "admin");
  });
});
