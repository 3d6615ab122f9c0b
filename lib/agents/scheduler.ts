// Fires due routines and wakeups as scheduled turns. Driven by time only:
// the host calls tick() every SCHEDULER_TICK_MS (simulator: setInterval,
// device: Timer) and tests move a fake clock and call tick(); nothing here
// sleeps or sets a timer.
//
// Every fire is persisted before its turn starts: a routine's next run is
// advanced first (a crash mid-turn skips that run rather than repeating it),
// a wakeup's record moves to its next attempt first (a crash mid-turn counts
// as a failed attempt, so the one retry, then an owner alert, still happen).
import type { Clock, Log } from "../ports";
import type { Principal } from "../registry/principal";
import { clipForMessage } from "../util/text";
import type { OwnerAlerts } from "./alerts";
import { ROUTINE_ALERT_AFTER_FAILURES, ROUTINE_MISSED_GRACE_MS, ROUTINE_TURN_TIMEOUT_MS, WAKEUP_RETRY_DELAY_MS } from "./bounds";
import type { DailyGovernor } from "./daily-governor";
import type { RoutineRecord, Routines } from "./routines";
import { describeSchedule, formatLocalTime, localDay, nextRunAfter } from "../util/schedule";

export interface ScheduledTurnRequest {
  /** What the turn is asked: the routine's prompt or the wakeup's note, with a line saying which. */
  text: string;
  /** The allow-listed chat the routine reports to. */
  chatId?: string;
  routineId: string;
}

export type ScheduledTurnOutcome = { ok: true } | { ok: false; error: string };

/**
 * Runs one scheduled turn (the turn engine provides it: TurnEngine.runTurn
 * with the principal's `scheduled: true`). A rejection counts as a failure.
 */
export interface ScheduledTurnRunner {
  runScheduledTurn(principal: Principal, request: ScheduledTurnRequest): Promise<ScheduledTurnOutcome>;
}

export interface SchedulerDeps {
  routines: Routines;
  clock: Clock;
  log: Log;
  alerts: OwnerAlerts;
  governor: DailyGovernor;
  offsetMinutes(): number;
  /** The principal a routine's turn runs as (scheduled: true), derived now from the creator's namespace. */
  principalFor(ns: string): Principal;
  /** Runs each fired routine's turn. */
  runner: ScheduledTurnRunner;
}

const ERROR_MAX_CHARS = 120;

export class RoutineScheduler {
  /** Turns in flight by routine id; the token tells a late outcome (after a timeout or a cancel) from the current one. */
  private readonly running = new Map<string, { token: number; started: number }>();
  private nextToken = 1;
  private governorAlertDay = "";

  constructor(private readonly deps: SchedulerDeps) {}

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /**
   * Fires everything due now. Resolves when the turns it started have ended
   * (the host ignores the promise; tests await it). Never rejects.
   */
  async tick(): Promise<void> {
    const now = this.deps.clock.now();
    this.expireOverdueRuns(now);
    const due = this.deps.routines
      .list()
      .filter((r) => r.approved && r.nextRun !== undefined && r.nextRun <= now && !this.running.has(r.id))
      .sort((a, b) => a.nextRun! - b.nextRun!);
    const runs: Array<Promise<void>> = [];
    for (const r of due) {
      try {
        const run = r.kind === "wakeup" ? this.fireWakeup(r, now) : this.fireRoutine(r, now);
        if (run) runs.push(run);
      } catch (e) {
        // A flash write failed: the record is unchanged, so it is tried again next tick.
        this.deps.log.warn(`loops: could not fire ${r.id}: ${e instanceof Error ? e.message : "error"}`);
      }
    }
    await Promise.all(runs);
  }

  private fireRoutine(r: RoutineRecord, now: number): Promise<void> | undefined {
    const schedule = r.schedule!;
    const planned = r.nextRun!;
    const offset = this.deps.offsetMinutes();
    const next = nextRunAfter(schedule, schedule.kind === "interval" ? planned : now, now, offset);
    if (now - planned > ROUTINE_MISSED_GRACE_MS) {
      this.deps.routines.update({
        ...r,
        nextRun: next,
        lastResult: `missed the run of ${formatLocalTime(planned, offset)} (the device was off or busy)`,
      });
      return undefined;
    }
    if (!this.deps.governor.tryTake(now)) {
      this.deps.routines.update({ ...r, nextRun: next, lastResult: `skipped at ${formatLocalTime(now, offset)}: ${this.governorText()}` });
      this.alertGovernor(now, offset);
      return undefined;
    }
    this.deps.routines.update({ ...r, nextRun: next, lastRun: now });
    const text = `Scheduled routine ${r.id} "${r.name}" (${describeSchedule(schedule)}), running unattended:\n${r.prompt}`;
    return this.run(r, text, now);
  }

  private fireWakeup(r: RoutineRecord, now: number): Promise<void> | undefined {
    const attempt = r.attempt ?? 0;
    if (attempt >= 2) {
      // Its retry was started but never finished (the device restarted during it).
      this.deps.alerts.raise(`wakeup ${r.id}`, `The wakeup "${clipForMessage(r.prompt, 80)}" did not complete: its retry was interrupted.`);
      this.deps.routines.delete(r.id);
      return undefined;
    }
    if (!this.deps.governor.tryTake(now)) {
      this.deps.alerts.raise(`wakeup ${r.id}`, `The wakeup "${clipForMessage(r.prompt, 80)}" was not run: ${this.governorText()}`);
      this.deps.routines.delete(r.id);
      return undefined;
    }
    this.deps.routines.update({ ...r, attempt: attempt + 1, nextRun: now + WAKEUP_RETRY_DELAY_MS, lastRun: now });
    const retry = attempt === 1 ? " This is the one retry: the first attempt failed." : "";
    const text = `Wakeup ${r.id}, which you set for yourself at ${formatLocalTime(r.created, this.deps.offsetMinutes())}, is due.${retry} Your note:\n${r.prompt}`;
    return this.run(r, text, now);
  }

  private async run(r: RoutineRecord, text: string, now: number): Promise<void> {
    const token = this.nextToken++;
    this.running.set(r.id, { token, started: now });
    let outcome: ScheduledTurnOutcome;
    const principal = this.deps.principalFor(r.owner);
    if (principal.role !== "admin") {
      outcome = { ok: false, error: "its creator is no longer an admin of this device" };
    } else {
      try {
        const request: ScheduledTurnRequest = { text, routineId: r.id };
        if (r.chatId !== undefined) request.chatId = r.chatId;
        outcome = await this.deps.runner.runScheduledTurn({ ...principal, scheduled: true }, request);
      } catch (e) {
        outcome = { ok: false, error: e instanceof Error ? e.message : "the turn failed" };
      }
    }
    if (this.running.get(r.id)?.token !== token) return;
    this.running.delete(r.id);
    this.settle(r.id, outcome);
  }

  /** A turn past ROUTINE_TURN_TIMEOUT_MS counts as failed; its late outcome is ignored. */
  private expireOverdueRuns(now: number): void {
    for (const [id, run] of Array.from(this.running)) {
      if (now - run.started < ROUTINE_TURN_TIMEOUT_MS) continue;
      this.running.delete(id);
      this.settle(id, { ok: false, error: `the turn did not finish within ${ROUTINE_TURN_TIMEOUT_MS / 60000} minutes` });
    }
  }

  private settle(id: string, outcome: ScheduledTurnOutcome): void {
    const r = this.deps.routines.get(id);
    if (!r) return; // cancelled while its turn ran
    const now = this.deps.clock.now();
    const when = formatLocalTime(now, this.deps.offsetMinutes());
    const error = outcome.ok ? "" : clipForMessage(outcome.error, ERROR_MAX_CHARS);
    try {
      if (r.kind === "wakeup") {
        if (outcome.ok) {
          this.deps.routines.delete(id);
          return;
        }
        if (r.attempt === 1) {
          this.deps.routines.update({
            ...r,
            nextRun: Math.max(r.nextRun!, now + WAKEUP_RETRY_DELAY_MS),
            failures: 1,
            lastResult: `failed at ${when}: ${error}; retrying once`,
          });
          return;
        }
        this.deps.alerts.raise(`wakeup ${id}`, `The wakeup "${clipForMessage(r.prompt, 80)}" failed twice: ${error}.`);
        this.deps.routines.delete(id);
        return;
      }
      if (outcome.ok) {
        this.deps.routines.update({ ...r, failures: 0, lastResult: `ok at ${when}` });
        return;
      }
      const failures = r.failures + 1;
      this.deps.routines.update({ ...r, failures, lastResult: `failed at ${when}: ${error}` });
      if (failures === ROUTINE_ALERT_AFTER_FAILURES) {
        this.deps.alerts.raise(
          `routine ${id}`,
          `The routine "${clipForMessage(r.name, 60)}" failed ${failures} times in a row; last: ${error}.`,
        );
      }
    } catch (e) {
      this.deps.log.warn(`loops: could not record the outcome of ${id}: ${e instanceof Error ? e.message : "error"}`);
    }
  }

  private governorText(): string {
    return `the daily limit of ${this.deps.governor.limitPerDay()} scheduled turns is reached (the owner can raise routineTurnsPerDay).`;
  }

  /** One alert per day the governor first refuses. */
  private alertGovernor(now: number, offset: number): void {
    const day = localDay(now, offset);
    if (this.governorAlertDay === day) return;
    this.governorAlertDay = day;
    this.deps.alerts.raise("governor", `Scheduled turns are being skipped today: ${this.governorText()}`);
  }
}
