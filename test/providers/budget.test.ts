// The budget governor: pricing, ceilings, refusals, persistence and period rollover on a fake clock.
import assert from "node:assert/strict";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { billingPeriod, BudgetGovernor, isBudgetSettingKey } from "../../lib/providers/budget";

const DAY = 24 * 3600 * 1000;

describe("BudgetGovernor", () => {
  let settings: ReturnType<typeof memorySettings>;
  let clock: ReturnType<typeof fakeClock>;
  let governor: BudgetGovernor;
  beforeEach(() => {
    settings = memorySettings();
    clock = fakeClock(Date.UTC(2026, 0, 20, 12));
    governor = new BudgetGovernor(settings, clock);
  });

  it("prices usage at the owner's rates per million tokens and counts calls", () => {
    governor.configure("openai", { usdPerMTokIn: 2.5, usdPerMTokOut: 10 });
    governor.record("openai", { inputTokens: 1_000_000, outputTokens: 100_000 });
    governor.record("openai", { inputTokens: 2000, outputTokens: 500 });
    const s = governor.snapshot().providers.find((p) => p.provider === "openai")!;
    assert.deepEqual(
      { in: s.inputTokens, out: s.outputTokens, calls: s.calls, usd: s.usd, over: s.over },
      { in: 1_002_000, out: 100_500, calls: 2, usd: 3.51, over: false },
    );
    assert.deepEqual([s.usdPerMTokIn, s.usdPerMTokOut, s.usdCeiling, s.tokenCeiling], [2.5, 10, undefined, undefined]);
  });

  it("refuses at the dollar ceiling with a quota sentence naming the spend and the reset date", () => {
    governor.configure("anthropic", { usdCeiling: 5, usdPerMTokIn: 3, usdPerMTokOut: 15 });
    governor.record("anthropic", { inputTokens: 1_000_000, outputTokens: 100_000 }); // $4.50
    assert.deepEqual(governor.check("anthropic"), { ok: true });
    governor.record("anthropic", { inputTokens: 100_000, outputTokens: 20_000 }); // +$0.60
    assert.deepEqual(governor.check("anthropic"), {
      ok: false,
      message: "quota: the Anthropic budget for this period is spent ($5.10 of $5.00); it resets on 2026-02-01.",
    });
    assert.deepEqual(governor.check("openai"), { ok: true });
    assert.equal(governor.snapshot().providers.find((p) => p.provider === "anthropic")!.over, true);
  });

  it("refuses at the token ceiling, and a zero ceiling blocks the provider outright", () => {
    governor.configure("mistral", { tokenCeiling: 1000 });
    governor.record("mistral", { inputTokens: 900, outputTokens: 99 });
    assert.equal(governor.check("mistral").ok, true);
    governor.record("mistral", { inputTokens: 1, outputTokens: 0 });
    const verdict = governor.check("mistral");
    assert.equal(verdict.ok, false);
    assert.match(
      (verdict as { message: string }).message,
      /^quota: the Mistral token budget for this period is used up \(1000 of 1000 tokens\)/,
    );
    governor.configure("openai", { usdCeiling: 0 });
    assert.deepEqual(governor.check("openai"), {
      ok: false,
      message: "quota: the OpenAI budget for this period is set to $0; it resets on 2026-02-01.",
    });
  });

  it("rolls over on the reset day: last period's usage no longer counts", () => {
    governor.configure("openai", { tokenCeiling: 100 });
    governor.record("openai", { inputTokens: 150, outputTokens: 0 });
    assert.equal(governor.check("openai").ok, false);
    clock.set(Date.UTC(2026, 0, 31, 23, 59));
    assert.equal(governor.check("openai").ok, false);
    clock.set(Date.UTC(2026, 1, 1, 0, 0));
    assert.deepEqual(governor.check("openai"), { ok: true });
    const snap = governor.snapshot();
    assert.deepEqual([snap.periodStart, snap.nextReset, snap.resetDay], ["2026-02-01", "2026-03-01", 1]);
    assert.equal(snap.providers[0].inputTokens, 0);
    governor.record("openai", { inputTokens: 10, outputTokens: 5 });
    assert.equal(governor.snapshot().providers[0].inputTokens, 10);
  });

  it("follows the owner's reset day and time zone", () => {
    governor.setResetDay(15);
    clock.set(Date.UTC(2026, 0, 14, 23));
    assert.deepEqual(governor.snapshot().periodStart, "2025-12-15");
    clock.set(Date.UTC(2026, 0, 15, 0));
    assert.deepEqual([governor.snapshot().periodStart, governor.snapshot().nextReset], ["2026-01-15", "2026-02-15"]);
    const east = new BudgetGovernor(settings, fakeClock(Date.UTC(2026, 0, 14, 23)), { utcOffsetMinutes: () => 120 });
    assert.equal(east.snapshot().periodStart, "2026-01-15");
    assert.deepEqual(billingPeriod(Date.UTC(2026, 11, 31), 1), { start: "2026-12-01", next: "2027-01-01" });
    assert.deepEqual(billingPeriod(Date.UTC(2026, 0, 3), 28), { start: "2025-12-28", next: "2026-01-28" });
  });

  it("persists usage in settings: a new governor (after a restart) sees it", () => {
    governor.record("openai", { inputTokens: 42, outputTokens: 8 });
    const again = new BudgetGovernor(settings, clock);
    assert.equal(again.snapshot().providers[0].calls, 1);
    assert.deepEqual(JSON.parse(settings.get("budget.openai.usage")!), { period: "2026-01-01", in: 42, out: 8, calls: 1, micro_usd: 0 });
    assert.ok(settings.keys("").every(isBudgetSettingKey));
  });

  it("validates the owner's limits and clears one given as undefined", () => {
    for (const bad of [
      { usdCeiling: -1 },
      { usdCeiling: Number.NaN },
      { usdCeiling: 1e9 },
      { tokenCeiling: 1.5 },
      { usdPerMTokIn: Infinity },
      { usdPerMTokOut: "3" as never },
    ]) {
      assert.throws(() => governor.configure("openai", bad), /must be/);
    }
    assert.deepEqual(settings.keys("budget."), []);
    governor.configure("openai", { usdCeiling: 10, tokenCeiling: 5000 });
    governor.configure("openai", { usdCeiling: undefined });
    assert.deepEqual(governor.limits("openai"), {
      usdCeiling: undefined,
      tokenCeiling: 5000,
      usdPerMTokIn: undefined,
      usdPerMTokOut: undefined,
    });
    for (const day of [0, 29, 1.5, Number.NaN]) assert.throws(() => governor.setResetDay(day), /reset day/);
  });

  it("ignores malformed settings and a garbled usage record instead of crashing", () => {
    const log = memoryLog();
    const g = new BudgetGovernor(settings, clock, { log });
    settings.set("budget.openai.usd_ceiling", "lots");
    settings.set("budget.openai.usd_per_mtok_in", "-4");
    settings.set("budget.reset_day", "31");
    settings.set("budget.openai.usage", "{torn");
    assert.deepEqual(g.check("openai"), { ok: true });
    assert.equal(g.resetDay(), 1);
    assert.match(log.lines.join("\n"), /malformed setting budget\.openai\.usd_ceiling/);
    assert.match(log.lines.join("\n"), /unreadable openai usage record/);
    g.record("openai", { inputTokens: Number.NaN, outputTokens: -5 });
    assert.deepEqual(JSON.parse(settings.get("budget.openai.usage")!), { period: "2026-01-01", in: 0, out: 0, calls: 1, micro_usd: 0 });
  });

  it("a month-long fake-clock run: daily spend, refusal mid-month, fresh budget next period", () => {
    governor.configure("openai", { usdCeiling: 1, usdPerMTokIn: 1, usdPerMTokOut: 4 });
    clock.set(Date.UTC(2026, 2, 1));
    let refusedOn = "";
    for (let day = 0; day < 31; day++) {
      if (governor.check("openai").ok)
        governor.record("openai", { inputTokens: 50_000, outputTokens: 5_000 }); // $0.07 a day
      else if (!refusedOn) refusedOn = new Date(clock.now()).toISOString().slice(0, 10);
      clock.advance(DAY);
    }
    assert.equal(refusedOn, "2026-03-16"); // 15 days of $0.07 reach $1.05
    assert.equal(new Date(clock.now()).toISOString().slice(0, 10), "2026-04-01");
    assert.equal(governor.check("openai").ok, true);
  });
});
