import assert from "node:assert/strict";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { AlertLog } from "../../lib/agents/alerts.ts";
import { OWNER_ALERTS_MAX } from "../../lib/agents/bounds.ts";

describe("owner alerts", () => {
  it("persist the newest alerts that fit one setting, and keep every alert until restart", () => {
    const settings = memorySettings(); // refuses values the device's NVS could not hold
    const log = memoryLog();
    const alerts = new AlertLog(settings, fakeClock(), log);
    for (let i = 0; i < OWNER_ALERTS_MAX; i++) alerts.raise("routine", `${i} ` + "Grüße ☕ ".repeat(40));
    assert.equal(alerts.list().length, OWNER_ALERTS_MAX);
    assert.ok(!log.lines.some((l) => /could not persist/.test(l)), "the list was written, trimmed to fit");
    const after = new AlertLog(settings, fakeClock(), memoryLog()).list();
    assert.ok(after.length > 0 && after.length < OWNER_ALERTS_MAX, `${after.length} kept`);
    assert.match(after[after.length - 1].message, new RegExp(`^${OWNER_ALERTS_MAX - 1} `));
  });
});
