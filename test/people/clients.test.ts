import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cryptoRandom, memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { folderSettings } from "../../hosts/sim/ports/settings.ts";
import { ClientTokens } from "../../lib/people/clients.ts";

function tokens(dir: string, log = memoryLog()): ClientTokens {
  return new ClientTokens(folderSettings(dir), nodeDigest, cryptoRandom, log, () => 1000);
}

describe("MCP client tokens", () => {
  it("creates, verifies, persists and revokes; stores only hashes", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-clients-"));
    const a = tokens(dir);
    const t1 = a.create("laptop", "user", "alice");
    const t2 = a.create("ci-bot", "guest", "ci");
    assert.notEqual(t1, t2);
    assert.deepEqual(a.verify(t1), { name: "laptop", role: "user", ns: "alice", created: 1000, names: "dotted", sharesOwnerNs: false });
    const b = tokens(dir); // a restart
    assert.equal(b.verify(t2)?.name, "ci-bot");
    assert.equal(b.verify(t1.slice(0, -1) + (t1.endsWith("0") ? "1" : "0")), undefined);
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), "utf8");
      assert.ok(!text.includes(t1) && !text.includes(t2), "no token on disk");
    }
    assert.equal(b.revoke("laptop"), true);
    assert.equal(b.verify(t1), undefined);
    assert.equal(tokens(dir).verify(t1), undefined, "revocation survives a restart");
    assert.equal(b.revoke("laptop"), false);
  });

  it("refuses bad names, duplicates, role unknown and too many clients", () => {
    const a = tokens(mkdtempSync(join(tmpdir(), "halo-clients-")));
    for (const name of ["", "Upper", "../x", "a b", "x".repeat(33), "-lead"])
      assert.throws(() => a.create(name, "user", "n"), /client name/);
    a.create("one", "user", "n");
    assert.throws(() => a.create("one", "user", "n"), /exists/);
    assert.throws(() => a.create("two", "unknown", "n"), /role/);
    for (let i = 0; i < 31; i++) a.create(`c${i}`, "guest", "n");
    assert.throws(() => a.create("last", "guest", "n"), /at most 32/);
  });

  it("ignores tampered or torn records with a log line, keeps the good ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-clients-"));
    const good = tokens(dir).create("good", "admin", "owner");
    writeFileSync(join(dir, "client.torn"), '{"name":"torn","role":"adm');
    writeFileSync(join(dir, "client.evil"), JSON.stringify({ name: "other", role: "admin", ns: "x", hash: "0".repeat(64), created: 1 }));
    const log = memoryLog();
    const t = tokens(dir, log);
    assert.equal(t.verify(good)?.name, "good");
    assert.deepEqual(
      t.list().map((c) => c.name),
      ["good"],
    );
    assert.equal(log.lines.filter((l) => /unreadable client record/.test(l)).length, 2);
  });

  it("rejects empty and oversized presented tokens without hashing them", () => {
    const a = tokens(mkdtempSync(join(tmpdir(), "halo-clients-")));
    a.create("x", "user", "n");
    assert.equal(a.verify(""), undefined);
    assert.equal(a.verify("a".repeat(100000)), undefined);
  });
});
