import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { folderSettings } from "../../hosts/sim/ports/settings.ts";
import { ConfigStore } from "../../lib/device/config.ts";
import { KNOBS } from "../../lib/device/knobs.ts";
import { isProtectedKey, normaliseKey, scanForProtectedKeys } from "../../lib/device/protected-keys.ts";
import { ProviderPriority } from "../../lib/device/provider-priority.ts";

describe("config knobs", () => {
  it("survive a restart", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-cfg-"));
    const a = new ConfigStore(folderSettings(dir), memoryLog());
    assert.equal(
      a.apply(
        [
          ["ledBrightness", 12],
          ["theme", "ocean"],
          ["ttsOn", false],
          ["devName", "Desk"],
        ],
        "device",
      ),
      undefined,
    );
    assert.equal(a.apply([["hwTests", false]], "owner"), undefined);
    const b = new ConfigStore(folderSettings(dir), memoryLog());
    assert.equal(b.get("ledBrightness"), 12);
    assert.equal(b.get("theme"), "ocean");
    assert.equal(b.bool("ttsOn"), false);
    assert.equal(b.string("devName"), "Desk");
    assert.equal(b.bool("hwTests"), false);
    assert.equal(readFileSync(join(dir, "cfg.ledbrightness"), "utf8"), "12");
    const reading = b.all().find((k) => k.key === "sfxVol")!;
    assert.deepEqual(reading, { key: "sfxVol", value: 60, writer: "device", isDefault: true });
  });

  it("an invalid stored value falls back to its default with a log line that names the knob, not the value", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-cfg-"));
    writeFileSync(join(dir, "cfg.sfxvol"), "250");
    writeFileSync(join(dir, "cfg.theme"), '"neon-SECRETISH"');
    writeFileSync(join(dir, "cfg.ttson"), "{torn");
    writeFileSync(join(dir, "cfg.ledbrightness"), "40");
    const log = memoryLog();
    const c = new ConfigStore(folderSettings(dir), log);
    assert.equal(c.get("sfxVol"), 60);
    assert.equal(c.get("theme"), "aurora");
    assert.equal(c.get("ttsOn"), true);
    assert.equal(c.get("ledBrightness"), 40);
    assert.deepEqual(log.lines.sort(), [
      "warning: config: stored sfxVol is invalid; using the default",
      "warning: config: stored theme is invalid; using the default",
      "warning: config: stored ttsOn is invalid; using the default",
    ]);
    assert.doesNotMatch(log.lines.join("\n"), /SECRETISH|250/);
  });

  it("checks a change set as a whole: nothing is written when one entry is bad", () => {
    const c = new ConfigStore(folderSettings(mkdtempSync(join(tmpdir(), "halo-cfg-"))), memoryLog());
    assert.match(
      c.apply(
        [
          ["theme", "ember"],
          ["sfxVol", 500],
        ],
        "device",
      )!,
      /sfxVol must be an integer from 0 to 100/,
    );
    assert.equal(c.get("theme"), "aurora");
    assert.match(c.apply([["orchModel", "x"]], "device")!, /set with the orch_model action/);
    assert.equal(
      c.apply(
        [
          ["orchProvider", "mistral"],
          ["orchModel", "mistral-large"],
        ],
        "orch_model",
      ),
      undefined,
    );
    assert.match(c.apply([["theme", "ember"]], "orch_model")!, /owner only|orch_model/);
    assert.equal(c.apply([["orchModel", "m"]], "owner"), undefined, "the owner may set any knob");
    // @ts-expect-error knob keys are typed: a misspelt key does not compile
    assert.throws(() => c.get("nope"), /no knob/);
  });

  it("every knob has a sane spec and a valid default", () => {
    for (const k of KNOBS) {
      const c = new ConfigStore(folderSettings(mkdtempSync(join(tmpdir(), "halo-cfg-"))), memoryLog());
      assert.equal(c.apply([[k.key, k.default]], "owner"), undefined, k.key);
    }
  });
});

describe("protected keys", () => {
  it("blocks the documented names and their aliases, in any case or separator", () => {
    const names = [
      "oaiKey",
      "antKey",
      "mistralKey",
      "tavilyKey",
      "tgToken",
      "tgAllow",
      "providerPriority",
      "priority",
      "orchHost",
      "fabric",
      "allowlist",
      "loops",
      "budget",
      "governor",
      "OAI_KEY",
      "oai-key",
      "Oai.Key",
      "PROVIDER_PRIORITY",
      "provider-order",
      "routing",
      "fallbackOrder",
      "subagentFabric",
      "authAllow",
      "localLoops",
      "routines",
      "budgetUsd",
      "governorCap",
      "tokenCeiling",
      "rates",
      "openai_api_key",
      "ANTHROPIC_API_KEY",
      "telegram",
      "botToken",
      "chatIds",
      "baseUrl",
      "apiBase",
      "orchestrator_host",
      "spawnProviders",
      "monthlySpend",
    ];
    for (const n of names) assert.equal(isProtectedKey(n), true, n);
    assert.equal(normaliseKey("Provider_Priority-2"), "providerpriority2");
  });

  it("blocks no knob a device config action may set", () => {
    for (const k of KNOBS.filter((k) => k.writer === "device")) assert.equal(isProtectedKey(k.key), false, k.key);
  });

  it("scans nested objects and arrays iteratively, with bounds", () => {
    assert.equal(scanForProtectedKeys({ a: { b: [{ c: 1 }, { d: { tgToken: 1 } }] } }), "protected");
    assert.equal(scanForProtectedKeys({ a: { b: [{ c: 1 }] }, theme: "x" }), "clean");
    assert.equal(scanForProtectedKeys("x"), "clean");
    let deep: unknown = {};
    for (let i = 0; i < 100000; i++) deep = { a: deep };
    assert.equal(scanForProtectedKeys(deep), "too-deep");
    assert.equal(scanForProtectedKeys(Array.from({ length: 300 }, () => 1)), "too-many-keys");
  });
});

describe("provider priority", () => {
  it("validates, persists, and falls back to the default when the stored order is bad", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-prio-"));
    const p = new ProviderPriority(folderSettings(dir), memoryLog());
    assert.deepEqual(p.get(), ["openai", "anthropic", "mistral"]);
    assert.match(p.set([])!, /1-3 providers/);
    assert.match(p.set(["openai", "openai"])!, /twice/);
    assert.match(p.set(["openai", "grok"])!, /entry 2 is not a provider/);
    assert.match(p.set("openai")!, /list/);
    assert.equal(p.set(["mistral", "anthropic"]), undefined);
    assert.deepEqual(new ProviderPriority(folderSettings(dir), memoryLog()).get(), ["mistral", "anthropic"]);
    writeFileSync(join(dir, "provider.priority"), '["evil"]');
    const log = memoryLog();
    assert.deepEqual(new ProviderPriority(folderSettings(dir), log).get(), ["openai", "anthropic", "mistral"]);
    assert.match(log.lines[0], /invalid; using the default order/);
  });
});
