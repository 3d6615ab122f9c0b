import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { cryptoRandom, memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { folderSettings } from "../../hosts/sim/ports/settings.ts";
import { ChatAllowList } from "../../lib/people/chat-allowlist.ts";
import { ClientTokens } from "../../lib/people/clients.ts";
import { MAX_PEOPLE, PeopleStore, QUOTA_MAXIMUM } from "../../lib/people/people.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import { roleQuota } from "../../lib/registry/principal.ts";
import type { Settings } from "../../lib/ports.ts";

function store(settings: Settings = memorySettings(), log = memoryLog()): PeopleStore {
  const people = new PeopleStore(settings, log, () => 1000);
  people.ensureAdmin();
  return people;
}

describe("people store", () => {
  it("makes the owner the admin on first boot, once", () => {
    const settings = memorySettings();
    const log = memoryLog();
    const people = store(settings, log);
    assert.deepEqual(
      people.list().map((p) => [p.id, p.role]),
      [["owner", "admin"]],
    );
    store(settings, log);
    assert.equal(log.lines.filter((l) => /is the admin/.test(l)).length, 1);
  });

  it("sets roles, lists admins first, revokes with unknown, and persists across a restart", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-people-"));
    const people = store(folderSettings(dir));
    assert.equal(people.setRole("-100123", "guest").ok, true);
    assert.equal(people.setRole("alice", "user").ok, true);
    assert.equal(people.setRole("bob", "admin").ok, true);
    assert.deepEqual(
      people.list().map((p) => p.id),
      ["bob", "owner", "alice", "-100123"],
    );
    const again = store(folderSettings(dir));
    assert.equal(again.get("alice")?.role, "user");
    assert.equal(again.setRole("alice", "unknown").ok, true);
    assert.equal(store(folderSettings(dir)).get("alice"), undefined, "revocation survives a restart");
    assert.deepEqual(again.setRole("nobody", "unknown"), { ok: false, tag: "not-found", message: "no such person." });
  });

  it("never demotes or removes the last admin, whatever the order", () => {
    const people = store();
    for (const role of ["user", "guest", "unknown"] as const) {
      const r = people.setRole("owner", role);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.tag, "last-admin");
    }
    people.setRole("bob", "admin");
    assert.equal(people.setRole("owner", "user").ok, true, "another admin exists");
    const last = people.setRole("bob", "guest");
    assert.equal(!last.ok && last.tag, "last-admin");
    assert.equal(people.setRole("bob", "admin").ok, true, "an admin may be set to admin again");
    assert.equal(people.list().filter((p) => p.role === "admin").length, 1);
  });

  it("holds at most 32 people; changing an existing person still works when full", () => {
    const people = store();
    for (let i = 1; i < MAX_PEOPLE; i++) assert.equal(people.setRole(`p${i}`, "guest").ok, true);
    const full = people.setRole("one-more", "guest");
    assert.equal(!full.ok && full.tag, "limit");
    assert.equal(people.setRole("p1", "user").ok, true);
    assert.equal(people.setRole("p2", "unknown").ok, true);
    assert.equal(people.setRole("one-more", "guest").ok, true, "a freed slot is usable");
  });

  it("refuses malformed ids", () => {
    const people = store();
    for (const id of ["", "UPPER", "a b", "../x", "x".repeat(50), ".dot", "--x", "a/b"]) {
      const r = people.setRole(id, "user");
      assert.equal(!r.ok && r.tag, "invalid", id);
    }
  });

  it("overrides quotas per field; 0 restores the role default; bounds are enforced", () => {
    const people = store();
    people.setRole("alice", "user");
    const set = people.setQuota("alice", { vectors: 42, pins: 7 });
    assert.ok(set.ok);
    assert.deepEqual(people.get("alice")!.quota, { ...roleQuota("user"), vectors: 42, pins: 7 });
    assert.deepEqual(people.get("alice")!.overridden, ["vectors", "pins"]);
    people.setQuota("alice", { vectors: 0 });
    assert.equal(people.get("alice")!.quota.vectors, roleQuota("user").vectors);
    people.setRole("alice", "guest");
    assert.equal(people.get("alice")!.quota.pins, 7, "an override survives a role change");
    assert.equal(people.get("alice")!.quota.vectors, roleQuota("guest").vectors);
    for (const bad of [{ vectors: -1 }, { bytes: QUOTA_MAXIMUM.bytes + 1 }, { ttlHours: 1.5 }, { pins: Number.NaN }]) {
      const r = people.setQuota("alice", bad);
      assert.equal(!r.ok && r.tag, "invalid", JSON.stringify(bad));
    }
    const missing = people.setQuota("ghost", { vectors: 1 });
    assert.equal(!missing.ok && missing.tag, "not-found");
  });

  it("ignores tampered records with a log line and keeps the good ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-people-"));
    store(folderSettings(dir)).setRole("alice", "user");
    writeFileSync(join(dir, "person.torn"), '{"id":"torn","role":"ad');
    writeFileSync(join(dir, "person.mallory"), JSON.stringify({ id: "other", role: "admin", quota: {}, added: 1 }));
    writeFileSync(join(dir, "person.eve"), JSON.stringify({ id: "eve", role: "root", quota: {}, added: 1 }));
    writeFileSync(join(dir, "person.neg"), JSON.stringify({ id: "neg", role: "user", quota: { vectors: -5 }, added: 1 }));
    const log = memoryLog();
    const people = new PeopleStore(folderSettings(dir), log, () => 1);
    assert.deepEqual(
      people
        .list()
        .map((p) => p.id)
        .sort(),
      ["alice", "owner"],
    );
    assert.equal(log.lines.filter((l) => /unreadable record/.test(l)).length, 4);
  });
});

describe("principal derivation", () => {
  function deps() {
    const settings = memorySettings();
    const log = memoryLog();
    const people = store(settings, log);
    const clients = new ClientTokens(settings, nodeDigest, cryptoRandom, log, () => 1);
    const chats = new ChatAllowList(settings, log);
    return { people, clients, chats };
  }

  it("web: the owner's session is the owner person", () => {
    const d = deps();
    const p = derivePrincipal(d, "web", "owner");
    assert.deepEqual(p, { ns: "owner", role: "admin", quota: roleQuota("admin"), via: "turn", scheduled: false });
    assert.equal(derivePrincipal(d, "web", "stranger").role, "unknown");
  });

  it("chat: off the allow-list is unknown whatever the role; on it without a record is a guest", () => {
    const d = deps();
    d.people.setRole("555", "admin");
    assert.equal(derivePrincipal(d, "chat", "555").role, "unknown", "the allow-list gates, the role does not");
    assert.equal(d.chats.replace(["555", "777"]), undefined);
    assert.equal(derivePrincipal(d, "chat", "555").role, "admin");
    const guest = derivePrincipal(d, "chat", "777", true);
    assert.deepEqual(guest, { ns: "777", role: "guest", quota: roleQuota("guest"), via: "turn", scheduled: true });
    d.people.setQuota("555", { vectors: 9 });
    assert.equal(derivePrincipal(d, "chat", "555").quota.vectors, 9);
  });

  it("mcp: the client's role and namespace, with that namespace's quota overrides", () => {
    const d = deps();
    d.clients.create("laptop", "user", "alice");
    d.people.setRole("alice", "admin");
    d.people.setQuota("alice", { pins: 3 });
    const p = derivePrincipal(d, "mcp", "laptop");
    assert.equal(p.role, "user", "the client's role, not the person's");
    assert.equal(p.ns, "alice");
    assert.equal(p.via, "mcp");
    assert.deepEqual(p.quota, { ...roleQuota("user"), pins: 3 });
    assert.equal(derivePrincipal(d, "mcp", "revoked-or-never").role, "unknown");
  });

  it("the chat allow-list refuses bad lists whole and survives a restart", () => {
    const settings = memorySettings();
    const chats = new ChatAllowList(settings, memoryLog());
    assert.match(chats.replace("555") ?? "", /array/);
    assert.match(chats.replace(["ok", "NOT OK"]) ?? "", /chat id/);
    assert.match(chats.replace(Array.from({ length: 33 }, (_, i) => `c${i}`)) ?? "", /at most 32/);
    assert.deepEqual(chats.list(), []);
    assert.equal(chats.replace(["a", "b", "a"]), undefined);
    assert.deepEqual(new ChatAllowList(settings, memoryLog()).list(), ["a", "b"]);
    settings.set("chat.allow", "{torn");
    const log = memoryLog();
    assert.deepEqual(new ChatAllowList(settings, log).list(), []);
    assert.match(log.lines.join("\n"), /unreadable/);
  });
});
