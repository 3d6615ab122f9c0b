import { toJson } from "../util/json";
// Owner alerts: things that went wrong while nobody was watching (a wakeup
// that failed twice, a routine that keeps failing). Kept in a bounded list in
// Settings (one key, so each change is one atomic write), read and cleared
// through the owner API, and written to the log.
import type { Clock, Log, Settings } from "../ports";
import { clipForMessage } from "../util/text";
import { OWNER_ALERT_MAX_CHARS, OWNER_ALERTS_MAX } from "./bounds";
import { SETTINGS_VALUE_MAX_BYTES } from "../limits";
import { utf8Length } from "../util/utf8";

export interface OwnerAlert {
  /** Increasing number, unique within the kept list. */
  id: number;
  at: number;
  /** What raised it, e.g. "wakeup w1a2b3c4d" or "routine r...". */
  source: string;
  message: string;
}

/** Where unattended failures are reported. */
export interface OwnerAlerts {
  raise(source: string, message: string): void;
}

const SETTINGS_KEY = "alerts.owner";
const SOURCE_MAX_CHARS = 40;

export class AlertLog implements OwnerAlerts {
  private alerts: OwnerAlert[] = [];

  constructor(
    private readonly settings: Settings,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {
    const text = settings.get(SETTINGS_KEY);
    if (text === undefined) return;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (Array.isArray(parsed)) this.alerts = parsed.filter(isAlert).slice(-OWNER_ALERTS_MAX);
    } catch {
      log.warn("alerts: the stored owner alerts are unreadable; starting empty");
    }
  }

  /** Records an alert (the oldest goes when the list is full) and logs it. Never throws. */
  raise(source: string, message: string): void {
    const alert: OwnerAlert = {
      id: (this.alerts.length ? this.alerts[this.alerts.length - 1].id : 0) + 1,
      at: this.clock.now(),
      source: clipForMessage(source, SOURCE_MAX_CHARS),
      message: clipForMessage(message, OWNER_ALERT_MAX_CHARS),
    };
    this.alerts = this.alerts.concat([alert]).slice(-OWNER_ALERTS_MAX);
    this.log.warn(`owner alert (${alert.source}): ${alert.message}`);
    try {
      this.settings.set(SETTINGS_KEY, this.persistable());
    } catch {
      this.log.warn("alerts: could not persist the owner alerts; they are kept until restart");
    }
  }

  // The newest alerts whose JSON fits one setting (NVS strings are small); all stay in RAM until restart.
  private persistable(): string {
    for (let from = 0; from < this.alerts.length; from++) {
      const text = toJson(this.alerts.slice(from));
      if (utf8Length(text) <= SETTINGS_VALUE_MAX_BYTES) return text;
    }
    return "[]";
  }

  /** Oldest first. */
  list(): OwnerAlert[] {
    return this.alerts.map((a) => ({ ...a }));
  }

  /** Removes every alert; returns how many there were. */
  clear(): number {
    const n = this.alerts.length;
    this.alerts = [];
    this.settings.remove(SETTINGS_KEY);
    return n;
  }
}

function isAlert(v: unknown): v is OwnerAlert {
  const a = v as OwnerAlert;
  return (
    !!a &&
    typeof a === "object" &&
    Number.isInteger(a.id) &&
    typeof a.at === "number" &&
    typeof a.source === "string" &&
    typeof a.message === "string"
  );
}
