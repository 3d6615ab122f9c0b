// The Nostr owner settings over the simulator's owner API: the owner's key, the relays
// (seeded by HALO_NOSTR_RELAYS), the device key kept across restarts and never shown.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { npubEncode } from "nostr-tools/nip19";
import { generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { optionsFromEnv, startSimulator } from "../../hosts/sim/start.ts";
import { NOSTR_KEY_SETTING } from "../../lib/nostr/identity.ts";
import { ownerApi, OWNER_API_READ_PATHS } from "../support/owner-api.ts";
import type { TestSim } from "../support/sim.ts";

const log = memoryLog();

async function sim(dataDir: string, nostrRelays?: string[]): Promise<TestSim> {
  const s = await startSimulator({ dataDir, host: "127.0.0.1", port: 0, nostrRelays, portOverrides: { log } });
  const token = readFileSync(s.tokenPath, "utf8").trim();
  return { ...s, token, dataDir, stop: () => s.close() };
}

describe("nostr owner settings (simulator owner API)", () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), "halo-nostr-"))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("reads HALO_NOSTR_RELAYS, seeds the relays once, and keeps the device key across restarts", async () => {
    assert.deepEqual(optionsFromEnv({ HALO_NOSTR_RELAYS: "ws://127.0.0.1:1, wss://relay.example" }).nostrRelays, [
      "ws://127.0.0.1:1",
      "wss://relay.example",
    ]);
    let s = await sim(dataDir, ["ws://127.0.0.1:9"]);
    const first = (await ownerApi(s, "GET", "/api/nostr")).json;
    assert.deepEqual(first.relays, ["ws://127.0.0.1:9"]);
    assert.match(first.npub, /^npub1/);
    assert.equal((await ownerApi(s, "PUT", "/api/nostr/relays", { relays: ["wss://owner.example"] })).status, 200);
    await s.stop();
    s = await sim(dataDir, ["ws://127.0.0.1:9"]);
    const second = (await ownerApi(s, "GET", "/api/nostr")).json;
    assert.equal(second.pubkey, first.pubkey, "the same key after a restart");
    assert.deepEqual(second.relays, ["wss://owner.example"], "the environment never overrides the owner");
    const secret = s.halo.core.ports.settings.get(NOSTR_KEY_SETTING)!;
    assert.match(secret, /^[0-9a-f]{64}$/);
    for (const path of [...OWNER_API_READ_PATHS, "/api/nostr"]) assert.ok(!(await ownerApi(s, "GET", path)).text.includes(secret), path);
    assert.ok(!log.lines.join("\n").includes(secret));
    await s.stop();
  });

  it("sets the owner from an npub or hex and refuses bad bodies without echoing them", async () => {
    const s = await sim(dataDir);
    try {
      const owner = getPublicKey(generateSecretKey());
      const ok = await ownerApi(s, "PUT", "/api/nostr/owner", { pubkey: npubEncode(owner) });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.owner, owner);
      assert.equal((await ownerApi(s, "PUT", "/api/nostr/owner", { pubkey: owner.toUpperCase() })).json.owner, owner);
      const device = ok.json.pubkey;
      const bad: unknown[] = [
        {},
        { pubkey: 5 },
        { pubkey: "npub1notakey-SENTINEL" },
        { pubkey: owner, extra: 1 },
        { pubkey: device },
        [owner],
        "x",
      ];
      for (const body of bad) {
        const r = await ownerApi(s, "PUT", "/api/nostr/owner", body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.ok(!r.text.includes("SENTINEL"));
      }
      for (const relays of [
        "wss://a",
        ["http://not-ws"],
        Array.from({ length: 9 }, (_, i) => `wss://r${i}.example`),
        [`wss://${"a".repeat(300)}`],
        [1],
      ]) {
        assert.equal((await ownerApi(s, "PUT", "/api/nostr/relays", { relays })).status, 400, JSON.stringify(relays).slice(0, 60));
      }
      assert.equal((await ownerApi(s, "GET", "/api/nostr")).json.owner, owner, "nothing changed by the refusals");
      assert.equal((await ownerApi(s, "PUT", "/api/nostr/owner", { pubkey: owner }, { authorization: "Bearer wrong" })).status, 401);
    } finally {
      await s.stop();
    }
  });
});
