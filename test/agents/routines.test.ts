// Routines and wakeups: the approval gate, firing on a fake clock, wakeup bounds and the
// retry-once-then-alert rule, the daily governor, refusals in scheduled turns, restarts.
import { NEVER_ABORTED } from "../../lib/util/abort.ts";
import type { ScheduledTurnRunner } from "../../lib/agents/scheduler.ts";
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { AlertLog } from "../../lib/agents/alerts.ts";
import { ROUTINE_TURN_TIMEOUT_MS, ROUTINES_MAX_PENDING, WAKEUP_RETRY_DELAY_MS, WAKEUPS_MAX_ARMED } from "../../lib/agents/bounds.ts";
import { DailyGovernor } from "../../lib/agents/daily-governor.ts";
import { Routines } from "../../lib/agents/routines.ts";
import { RoutineScheduler, type ScheduledTurnOutcome } from "../../lib/agents/scheduler.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import type { Settings } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { HOUR, MINUTE, owner, scriptedRunner, switchableScheduler } from "./support.ts";

const START = Date.UTC(2026, 0, 5, 9, 0); // a Monday

interface Rig {
  core: Core;
  clock: ReturnType<typeof fakeClock>;
  settings: Settings;
  log: ReturnType<typeof memoryLog>;
  runner: ReturnType<typeof scriptedRunner>;
  call(name: string, args: unknown, p?: typeof owner): Promise<{ text: string; isError?: boolean; structured?: any }>;
  reboot(): void;
  /** Switches what runs the fired routines' turns from now on. */
  use(runner: ScheduledTurnRunner): void;
}

function rig(): Rig {
  const clock = fakeClock(START);
  const settings = memorySettings();
  const log = memoryLog();
  const r = {} as Rig;
  Object.assign(r, {
    clock,
    settings,
    log,
    runner: scriptedRunner(),
    call: (name: string, args: unknown, p = owner) => r.core.registry.dispatch(name, args, p),
    reboot() {
      const scheduled = switchableScheduler(r.runner);
      r.use = scheduled.use;
      r.core = buildCore(memoryPorts({ clock, settings, log }), {
        baseUrls: {},
        otaBuild: undefined,
        walletKit: undefined,
        subsystems: scheduled.subsystems,
      });
    },
  });
  r.reboot();
  return r;
}

const idOf = (text: string): string => /\b([rw][0-9a-f]{8})\b/.exec(text)![1];
const daily = (at: string) => ({ name: "Morning brief", prompt: "Summarise my day.", schedule: { kind: "daily", at } });

describe("routines: the approval gate and firing", () => {
  it("saves a routine pending approval; it never fires until the owner approves it", async () => {
    const h = rig();
    const created = await h.call("loop.create", daily("09:30"));
    const id = idOf(created.text);
    assert.equal(
      created.text,
      `Routine ${id} "Morning brief" (daily at 09:30) is saved and awaits the owner's approval; it cannot fire until then.`,
    );
    assert.equal((await h.call("loop.list", {})).text, `- ${id} routine "Morning brief": daily at 09:30; awaiting the owner's approval`);
    h.clock.advance(3 * 24 * HOUR);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 0);

    h.clock.set(START);
    const approved = h.core.routines.approve(id);
    assert.equal(approved.nextRun, Date.UTC(2026, 0, 5, 9, 30));
    assert.match((await h.call("loop.list", {})).text, /; approved; next 2026-01-05 09:30 \(UTC\+00:00\)$/);
    h.clock.advance(29 * MINUTE);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 0, "not before its time");
    h.clock.advance(MINUTE);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1);
    const { principal, request } = h.runner.calls[0];
    assert.deepEqual([principal.ns, principal.role, principal.via, principal.scheduled], ["owner", "admin", "turn", true]);
    assert.equal(request.text, `Scheduled routine ${id} "Morning brief" (daily at 09:30), running unattended:\nSummarise my day.`);
    assert.equal(request.routineId, id);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1, "one fire per occurrence");
    assert.match(
      (await h.call("loop.list", {})).text,
      /; approved; next 2026-01-06 09:30 \(UTC\+00:00\); last: ok at 2026-01-05 09:30 \(UTC\+00:00\)$/,
    );
  });

  it("rejecting or cancelling removes a routine; approving twice or an unknown id is refused", async () => {
    const h = rig();
    const a = idOf((await h.call("loop.create", daily("10:00"))).text);
    const b = idOf((await h.call("loop.create", daily("11:00"))).text);
    h.core.routines.reject(a);
    assert.throws(() => h.core.routines.approve(a), /^HaloError: not-found: no routine r[0-9a-f]{8} awaits approval\.$/);
    h.core.routines.approve(b);
    assert.throws(() => h.core.routines.approve(b), /not-found/);
    assert.throws(() => h.core.routines.reject(b), /not-found/, "an approved routine is not pending");
    assert.equal((await h.call("loop.cancel", { id: b })).text, `Cancelled routine ${b}.`);
    assert.equal((await h.call("loop.cancel", { id: b })).text, `not-found: no routine or wakeup ${b}.`);
    assert.equal((await h.call("loop.list", {})).text, "No routines or wakeups.");
  });

  it("interval routines keep their phase; a run missed by more than the grace period is skipped, not run late", async () => {
    const h = rig();
    const id = idOf(
      (await h.call("loop.create", { name: "poll", prompt: "check", schedule: { kind: "interval", every_seconds: 600 } })).text,
    );
    h.core.routines.approve(id);
    h.clock.advance(10 * MINUTE + 50 * 1000); // a late tick
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1);
    assert.equal(h.core.routines.get(id)!.nextRun, START + 20 * MINUTE, "still on the 10-minute grid");
    h.clock.set(START + 20 * MINUTE);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2);
    h.clock.set(START + 3 * HOUR + 5 * MINUTE); // the device was off
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2, "a stale run is not replayed");
    const r = h.core.routines.get(id)!;
    assert.equal(r.nextRun, START + 3 * HOUR + 10 * MINUTE);
    assert.equal(r.lastResult, "missed the run of 2026-01-05 09:30 (UTC+00:00) (the device was off or busy)");
  });

  it("fires weekly routines on the owner's calendar (utcOffsetMin) and reports to an allow-listed chat", async () => {
    const h = rig();
    assert.equal(h.core.config.apply([["utcOffsetMin", 120]], "owner"), undefined);
    h.core.chats.replace(["4242"]);
    const refused = await h.call("loop.create", { ...daily("08:00"), chat_id: "999" });
    assert.deepEqual([refused.isError, refused.text], [true, "not-allowed: chat_id is not on the owner's chat allow-list."]);
    const id = idOf(
      (await h.call("loop.create", { name: "w", prompt: "p", chat_id: "4242", schedule: { kind: "weekly", at: "07:00", days: ["tue"] } }))
        .text,
    );
    h.core.routines.approve(id);
    // Tuesday 07:00 at UTC+2 is Tuesday 05:00 UTC.
    assert.equal(h.core.routines.get(id)!.nextRun, Date.UTC(2026, 0, 6, 5, 0));
    assert.match((await h.call("loop.list", {})).text, /next 2026-01-06 07:00 \(UTC\+02:00\); reports to chat 4242$/);
    h.clock.set(Date.UTC(2026, 0, 6, 5, 0));
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls[0].request.chatId, "4242");
    assert.equal(h.core.routines.get(id)!.nextRun, Date.UTC(2026, 0, 13, 5, 0));
  });

  it("alerts the owner once a routine has failed three times in a row; a success resets the count", async () => {
    const h = rig();
    const id = idOf((await h.call("loop.create", { name: "flaky", prompt: "p", schedule: { kind: "interval", every_seconds: 300 } })).text);
    h.core.routines.approve(id);
    h.runner.outcomes.push(
      { ok: false, error: "provider down" },
      new Error("boom"),
      { ok: true },
      { ok: false, error: "a" },
      { ok: false, error: "b" },
      { ok: false, error: "c" },
      { ok: false, error: "d" },
    );
    for (let i = 0; i < 7; i++) {
      h.clock.advance(5 * MINUTE);
      await h.core.scheduler.tick();
    }
    assert.equal(h.runner.calls.length, 7);
    const alerts = h.core.alerts.list();
    assert.equal(alerts.length, 1, "one alert at the third failure in a row, not at the fourth");
    assert.deepEqual([alerts[0].source, alerts[0].message], [`routine ${id}`, `The routine "flaky" failed 3 times in a row; last: c.`]);
    assert.equal(h.core.routines.get(id)!.failures, 4);
    assert.match(h.core.routines.get(id)!.lastResult!, /^failed at 2026-01-05 09:35 \(UTC\+00:00\): d$/);
    assert.ok(h.log.lines.includes(`warning: owner alert (routine ${id}): The routine "flaky" failed 3 times in a row; last: c.`));
  });

  it("does not run a routine whose creator is no longer an admin", async () => {
    const h = rig();
    h.core.people.setRole("boss", "admin");
    const boss = makePrincipal("boss", "admin", "turn");
    const id = idOf(
      (await h.call("loop.create", { name: "b", prompt: "p", schedule: { kind: "interval", every_seconds: 300 } }, boss)).text,
    );
    h.core.routines.approve(id);
    h.core.people.setRole("boss", "user");
    h.clock.advance(5 * MINUTE);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 0);
    assert.match(h.core.routines.get(id)!.lastResult!, /: its creator is no longer an admin of this device$/);
  });

  it("counts a turn that never finishes as failed after the timeout and ignores its late outcome", async () => {
    const h = rig();
    let finish!: (o: ScheduledTurnOutcome) => void;
    h.use({ runScheduledTurn: () => new Promise((ok) => (finish = ok)) });
    const id = idOf((await h.call("loop.create", { name: "slow", prompt: "p", schedule: { kind: "interval", every_seconds: 3600 } })).text);
    h.core.routines.approve(id);
    h.clock.advance(HOUR);
    const first = h.core.scheduler.tick();
    assert.match((await h.call("loop.list", {})).text, /; approved; running now$/);
    h.clock.advance(ROUTINE_TURN_TIMEOUT_MS);
    await h.core.scheduler.tick();
    assert.match(h.core.routines.get(id)!.lastResult!, /: the turn did not finish within 10 minutes$/);
    finish({ ok: true });
    await first;
    assert.match(h.core.routines.get(id)!.lastResult!, /did not finish/, "the late success is ignored");
  });
});

describe("routines: wakeups", () => {
  it("arms a wakeup for 2 minutes to 7 days that fires once with its note and then retires", async () => {
    const h = rig();
    const r = await h.call("wakeup.set", { minutes: 5, note: "Check the oven timer." });
    const id = idOf(r.text);
    assert.equal(r.text, `Wakeup ${id} armed for 2026-01-05 09:05 (UTC+00:00).`);
    assert.deepEqual(r.structured, { id, due: START + 5 * MINUTE });
    assert.equal((await h.call("loop.list", {})).text, `- ${id} wakeup: "Check the oven timer."; next 2026-01-05 09:05 (UTC+00:00)`);
    h.clock.advance(5 * MINUTE - 1);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 0);
    h.clock.advance(1);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1);
    assert.equal(
      h.runner.calls[0].request.text,
      `Wakeup ${id}, which you set for yourself at 2026-01-05 09:00 (UTC+00:00), is due. Your note:\nCheck the oven timer.`,
    );
    assert.equal(h.runner.calls[0].principal.scheduled, true);
    assert.equal((await h.call("loop.list", {})).text, "No routines or wakeups.", "retired after its turn");
    h.clock.advance(HOUR);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1);
    assert.equal(h.core.alerts.list().length, 0);

    const longest = await h.call("wakeup.set", { minutes: 7 * 24 * 60, note: "a week" });
    assert.equal(longest.isError, undefined);
    for (const minutes of [1, 7 * 24 * 60 + 1, 2.5, -5, 0]) {
      const bad = await h.call("wakeup.set", { minutes, note: "x" });
      assert.equal(bad.isError, true, String(minutes));
      assert.match(bad.text, /^invalid arguments: /);
    }
  });

  it("holds at most 4 armed wakeups; a fired one frees its place", async () => {
    const h = rig();
    for (let i = 0; i < WAKEUPS_MAX_ARMED; i++) await h.call("wakeup.set", { minutes: 2 + i, note: `n${i}` });
    const refused = await h.call("wakeup.set", { minutes: 10, note: "fifth" });
    assert.deepEqual([refused.isError, refused.text], [true, "limit: 4 wakeups are already armed; cancel one with loop.cancel first."]);
    h.clock.advance(2 * MINUTE);
    await h.core.scheduler.tick();
    assert.equal((await h.call("wakeup.set", { minutes: 10, note: "fifth" })).isError, undefined);
  });

  it("retries a failed wakeup once, a minute later, then alerts the owner and retires it", async () => {
    const h = rig();
    h.runner.outcomes.push({ ok: false, error: "No provider could answer." }, new Error("the turn engine threw"));
    const id = idOf((await h.call("wakeup.set", { minutes: 2, note: "Water the plants." })).text);
    h.clock.advance(2 * MINUTE);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1);
    assert.match(
      (await h.call("loop.list", {})).text,
      /next 2026-01-05 09:03 \(UTC\+00:00\); last: failed at 2026-01-05 09:02 \(UTC\+00:00\): No provider could answer\.; retrying once$/,
    );
    h.clock.advance(WAKEUP_RETRY_DELAY_MS - 1);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1);
    h.clock.advance(1);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2);
    assert.match(
      h.runner.calls[1].request.text,
      /is due\. This is the one retry: the first attempt failed\. Your note:\nWater the plants\.$/,
    );
    assert.deepEqual(
      h.core.alerts.list().map((a) => [a.source, a.message]),
      [[`wakeup ${id}`, `The wakeup "Water the plants." failed twice: the turn engine threw.`]],
    );
    assert.equal(h.core.routines.list().length, 0);
    h.clock.advance(HOUR);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2, "nothing more after the alert");
  });

  it("a successful retry raises no alert", async () => {
    const h = rig();
    h.runner.outcomes.push({ ok: false, error: "x" }, { ok: true });
    await h.call("wakeup.set", { minutes: 2, note: "n" });
    h.clock.advance(2 * MINUTE);
    await h.core.scheduler.tick();
    h.clock.advance(WAKEUP_RETRY_DELAY_MS);
    await h.core.scheduler.tick();
    assert.deepEqual([h.runner.calls.length, h.core.alerts.list().length, h.core.routines.list().length], [2, 0, 0]);
  });

  it("a wakeup whose every fire fails is counted, retried once and alerted", async () => {
    const clock = fakeClock(START);
    const settings = memorySettings();
    const log = memoryLog();
    const routines = new Routines({
      settings,
      clock,
      random: { fill: (b) => b.fill(7) },
      log,
      offsetMinutes: () => 0,
      chatAllowed: () => false,
    });
    const alerts = new AlertLog(settings, clock, log);
    const governor = new DailyGovernor(
      settings,
      log,
      () => 24,
      () => 0,
    );
    const scheduler = new RoutineScheduler({
      routines,
      clock,
      log,
      alerts,
      governor,
      offsetMinutes: () => 0,
      principalFor: (ns) => makePrincipal(ns, "admin", "turn", true),
      runner: scriptedRunner([
        { ok: false, error: "turn engine not available" },
        { ok: false, error: "turn engine not available" },
      ]),
    });
    routines.setWakeup("owner", 2, "remind me");
    clock.advance(2 * MINUTE);
    await scheduler.tick();
    clock.advance(WAKEUP_RETRY_DELAY_MS);
    await scheduler.tick();
    assert.deepEqual(
      alerts.list().map((a) => a.message),
      [`The wakeup "remind me" failed twice: turn engine not available.`],
    );
    assert.equal(governor.used(clock.now()), 2, "both attempts counted against the daily governor");
  });
});

describe("routines: the daily governor", () => {
  it("bounds scheduled turns per owner's day (routineTurnsPerDay), alerting once; a new day starts from zero", async () => {
    const h = rig();
    h.core.config.apply([["routineTurnsPerDay", 2]], "owner");
    const w = [];
    for (let i = 0; i < 3; i++) w.push(idOf((await h.call("wakeup.set", { minutes: 2, note: `w${i}` })).text));
    const id = idOf((await h.call("loop.create", { name: "r", prompt: "p", schedule: { kind: "interval", every_seconds: 3600 } })).text);
    h.core.routines.approve(id);
    h.clock.advance(2 * MINUTE);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2);
    const alerts = h.core.alerts.list();
    assert.equal(alerts.length, 1);
    assert.match(
      alerts[0].message,
      /^The wakeup "w\d" was not run: the daily limit of 2 scheduled turns is reached \(the owner can raise routineTurnsPerDay\)\.$/,
    );
    assert.equal(h.core.routines.count("wakeup"), 0, "the refused wakeup retired");
    h.clock.advance(HOUR);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2);
    assert.match(h.core.routines.get(id)!.lastResult!, /^skipped at 2026-01-05 10:02 \(UTC\+00:00\): the daily limit of 2/);
    h.clock.advance(HOUR);
    await h.core.scheduler.tick();
    assert.deepEqual(
      h.core.alerts.list().map((a) => a.source),
      [alerts[0].source, "governor"],
      "the governor alerts once that day",
    );
    assert.match((await h.call("device.status", {})).text, /scheduled turns today 2 of 2/);

    h.reboot();
    h.clock.set(Date.UTC(2026, 0, 5, 23, 0));
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2, "the count survives a restart");
    h.clock.set(Date.UTC(2026, 0, 6, 0, 0));
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 3, "a new day");
  });

  it("counts days on the owner's calendar, and 0 stops every scheduled turn", async () => {
    const h = rig();
    h.core.config.apply(
      [
        ["routineTurnsPerDay", 1],
        ["utcOffsetMin", 120],
      ],
      "owner",
    );
    const id = idOf((await h.call("loop.create", { name: "r", prompt: "p", schedule: { kind: "interval", every_seconds: 3600 } })).text);
    h.core.routines.approve(id);
    h.clock.set(Date.UTC(2026, 0, 5, 20, 0));
    await h.core.scheduler.tick();
    h.clock.set(Date.UTC(2026, 0, 5, 21, 0));
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1);
    h.clock.set(Date.UTC(2026, 0, 5, 22, 0)); // midnight at UTC+2
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2);
    h.core.config.apply([["routineTurnsPerDay", 0]], "owner");
    h.clock.set(Date.UTC(2026, 0, 7, 10, 0));
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 2);
  });
});

describe("routines: scheduled turns and access", () => {
  it("refuses loop.create (and every admin-only tool) in a scheduled turn; the handler re-checks too", async () => {
    const h = rig();
    const scheduledOwner = makePrincipal("owner", "admin", "turn", true);
    const create = await h.call("loop.create", daily("08:00"), scheduledOwner);
    assert.deepEqual([create.isError, create.text], [true, "scheduled-refused: loop.create is not allowed in a scheduled turn."]);
    for (const [name, args] of [
      ["wakeup.set", { minutes: 5, note: "n" }],
      ["loop.list", {}],
      ["loop.cancel", { id: "r00000000" }],
      ["tenant.set_role", { chat: "123", role: "guest" }],
    ] as const) {
      assert.equal((await h.call(name, args, scheduledOwner)).text, `scheduled-refused: ${name} is not allowed in a scheduled turn.`);
    }
    const tool = h.core.registry.all().find((t) => t.name === "loop.create")!;
    await assert.rejects(
      async () => tool.handler(daily("08:00"), { principal: scheduledOwner, deadline: START + HOUR, signal: NEVER_ABORTED }, {}),
      /^HaloError: scheduled-refused: loop\.create/,
    );
    assert.equal(h.core.routines.list().length, 0);
    assert.ok(
      !h.core.registry.toolSpecsFor(scheduledOwner).some((s) => s.name.startsWith("loop.") || s.name === "wakeup.set"),
      "not advertised either",
    );
    assert.ok(
      h.core.registry.toolSpecsFor(scheduledOwner).some((s) => s.name === "session.spawn"),
      "a routine may still fan out to sub-agents",
    );
  });

  it("a routine's own turn, running as its scheduled principal, cannot create routines", async () => {
    const h = rig();
    const answers: string[] = [];
    h.use({
      async runScheduledTurn(principal) {
        answers.push((await h.core.registry.dispatch("loop.create", daily("07:00"), principal)).text);
        return { ok: true };
      },
    });
    const id = idOf(
      (await h.call("loop.create", { name: "r", prompt: "make more routines", schedule: { kind: "interval", every_seconds: 300 } })).text,
    );
    h.core.routines.approve(id);
    h.clock.advance(5 * MINUTE);
    await h.core.scheduler.tick();
    assert.deepEqual(answers, ["scheduled-refused: loop.create is not allowed in a scheduled turn."]);
    assert.equal(h.core.routines.list().length, 1);
  });

  it("is admin-only: a member is refused and not shown the tools", async () => {
    const h = rig();
    const member = makePrincipal("alice", "user", "turn");
    for (const name of ["wakeup.set", "loop.create", "loop.list", "loop.cancel"]) {
      const r = await h.call(name, {}, member);
      assert.equal(r.text, `admin-only: ${name} needs an admin conversation.`);
      assert.ok(!h.core.registry.toolSpecsFor(member).some((s) => s.name === name));
    }
  });

  it("limits pending routines to 4 until the owner decides", async () => {
    const h = rig();
    const ids: string[] = [];
    for (let i = 0; i < ROUTINES_MAX_PENDING; i++) ids.push(idOf((await h.call("loop.create", daily("08:00"))).text));
    const refused = await h.call("loop.create", daily("08:00"));
    assert.equal(refused.text, "limit: 4 routines already await the owner's approval; wait until they decide.");
    h.core.routines.approve(ids[0]);
    assert.equal((await h.call("loop.create", daily("08:00"))).isError, undefined);
  });
});

describe("routines: persistence", () => {
  it("keeps routines, approvals and wakeups across a restart, and fires them from the new core", async () => {
    const h = rig();
    const r = idOf((await h.call("loop.create", daily("09:30"))).text);
    const pending = idOf((await h.call("loop.create", daily("10:00"))).text);
    h.core.routines.approve(r);
    const w = idOf((await h.call("wakeup.set", { minutes: 20, note: "after restart" })).text);
    const before = h.core.routines.list();
    h.reboot();
    assert.deepEqual(h.core.routines.list(), before);
    h.clock.advance(30 * MINUTE);
    await h.core.scheduler.tick();
    assert.deepEqual(h.runner.calls.map((c) => c.request.routineId).sort(), [r, w].sort());
    assert.equal(h.core.routines.get(pending)!.approved, false, "still pending after the restart");
  });

  it("a restart during a wakeup's turn counts as a failed attempt: the retry still runs, then an alert", async () => {
    const h = rig();
    h.use({ runScheduledTurn: () => new Promise(() => undefined) }); // the power goes mid-turn
    const id = idOf((await h.call("wakeup.set", { minutes: 2, note: "survive" })).text);
    h.clock.advance(2 * MINUTE);
    void h.core.scheduler.tick();
    h.reboot();
    h.clock.advance(WAKEUP_RETRY_DELAY_MS);
    await h.core.scheduler.tick();
    assert.equal(h.runner.calls.length, 1, "the retry ran after the restart");
    assert.match(h.runner.calls[0].request.text, /This is the one retry/);
    assert.equal(h.core.routines.list().length, 0);

    h.use({ runScheduledTurn: () => new Promise(() => undefined) });
    const again = idOf((await h.call("wakeup.set", { minutes: 2, note: "twice unlucky" })).text);
    h.clock.advance(2 * MINUTE);
    void h.core.scheduler.tick();
    h.reboot();
    h.clock.advance(WAKEUP_RETRY_DELAY_MS);
    void h.core.scheduler.tick(); // the retry starts, and the power goes again
    h.use({ runScheduledTurn: () => new Promise(() => undefined) });
    h.reboot();
    h.clock.advance(WAKEUP_RETRY_DELAY_MS);
    await h.core.scheduler.tick();
    assert.deepEqual(
      h.core.alerts.list().map((a) => [a.source, a.message]),
      [[`wakeup ${again}`, `The wakeup "twice unlucky" did not complete: its retry was interrupted.`]],
    );
    assert.equal(h.core.routines.list().length, 0);
    assert.ok(id !== again);
  });

  it("ignores an unreadable stored record with a log line; the others load", async () => {
    const h = rig();
    const good = idOf((await h.call("wakeup.set", { minutes: 5, note: "fine" })).text);
    h.settings.set("loop.item.rdeadbeef", "{not json");
    h.settings.set("loop.item.w12345678", JSON.stringify({ id: "w12345678", kind: "wakeup" }));
    h.reboot();
    assert.deepEqual(
      h.core.routines.list().map((r) => r.id),
      [good],
    );
    assert.ok(h.log.lines.includes("warning: loops: ignoring the unreadable stored routine rdeadbeef"));
    assert.ok(h.log.lines.includes("warning: loops: ignoring the unreadable stored routine w12345678"));
  });

  it("keeps owner alerts across a restart, bounded to the newest 16", async () => {
    const h = rig();
    for (let i = 0; i < 20; i++) h.core.alerts.raise("test", `alert ${i}`);
    h.reboot();
    const alerts = h.core.alerts.list();
    assert.equal(alerts.length, 16);
    assert.deepEqual([alerts[0].message, alerts[15].message], ["alert 4", "alert 19"]);
    assert.equal(h.core.alerts.clear(), 16);
    h.reboot();
    assert.equal(h.core.alerts.list().length, 0);
  });
});
