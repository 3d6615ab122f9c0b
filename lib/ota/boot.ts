// The first moments after a restart: how did the last install end? A new
// image (the boot loader says "pending-verify") runs the health checks and
// marks itself valid, or records the failure and rolls back. An image the
// boot loader already gave up on (it restarted before marking itself valid)
// shows up here as the old version running with a restarted install pending.
import type { OtaSlots } from "../ports";
import type { OtaRecords } from "./records";

/** One part of the health check; resolves to undefined when healthy, else one sentence. */
export interface HealthCheck {
  name: string;
  run(): Promise<string | undefined>;
}

export interface BootOutcome {
  ok: boolean;
  rollingBack: boolean;
  detail?: string;
}

async function firstFailure(checks: HealthCheck[]): Promise<string | undefined> {
  for (const check of checks) {
    let problem: string | undefined;
    try {
      problem = await check.run();
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
    }
    if (problem !== undefined) return `${check.name}: ${problem}`;
  }
  return undefined;
}

/** Settles the records of the last install; rolls back (which restarts) when a new image is unhealthy. */
export async function runBootChecks(
  slots: OtaSlots,
  records: OtaRecords,
  checks: HealthCheck[],
  running: string,
  now: () => number,
): Promise<BootOutcome> {
  const interrupted = records.writing();
  if (interrupted !== undefined) {
    records.setWriting(undefined);
    const detail = `the download of ${interrupted} was interrupted (power or network lost); version ${running} was kept`;
    records.setLast({ version: interrupted, outcome: "failed", at: now(), detail });
    return { ok: false, rollingBack: false, detail };
  }
  const pending = records.pending();
  if (slots.boot().imageState === "pending-verify") {
    const failure = await firstFailure(checks);
    const version = pending?.version ?? running;
    records.setPending(undefined);
    if (failure === undefined) {
      slots.markValid();
      const detail = `version ${version} passed its health check and is marked valid`;
      records.setLast({ version, outcome: "ok", at: now(), detail });
      return { ok: true, rollingBack: false, detail };
    }
    if (!slots.boot().canRollBack) {
      // Nothing to go back to (the other slot is empty or invalid): keep this image rather than boot nothing.
      slots.markValid();
      const detail = `version ${version} failed its health check (${failure}) but there is no previous image to go back to, so it was kept`;
      records.setLast({ version, outcome: "failed", at: now(), detail });
      return { ok: false, rollingBack: false, detail };
    }
    const detail = `version ${version} failed its health check (${failure}); rolled back${pending ? ` to ${pending.from}` : ""}`;
    records.setLast({ version, outcome: "rolled-back", at: now(), detail });
    slots.rollback();
    return { ok: false, rollingBack: true, detail };
  }
  if (!pending) return { ok: true, rollingBack: false };
  records.setPending(undefined);
  let detail: string;
  if (pending.version === running) {
    detail = `version ${running} is running (this boot loader does not ask for a health check)`;
    records.setLast({ version: running, outcome: "ok", at: now(), detail });
    return { ok: true, rollingBack: false, detail };
  }
  if (pending.restarted) {
    detail = `version ${pending.version} did not reach its health check, so the boot loader went back to ${running}`;
    records.setLast({ version: pending.version, outcome: "rolled-back", at: now(), detail });
  } else {
    detail = `the install of ${pending.version} was interrupted before the restart; version ${running} was kept`;
    records.setLast({ version: pending.version, outcome: "failed", at: now(), detail });
  }
  return { ok: false, rollingBack: false, detail };
}
