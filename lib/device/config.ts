import { toJson } from "../util/json";
import type { Log, Settings } from "../ports";
import { KNOBS, knobByName, knobValueProblem, type KnobKey, type KnobKeyOf, type KnobSpec, type KnobValue, type KnobWriter } from "./knobs";

const KEY_PREFIX = "cfg.";

export interface KnobReading {
  key: string;
  value: KnobValue;
  writer: KnobWriter;
  /** True when the value is the default (never set, or a stored value was invalid). */
  isDefault: boolean;
}

/**
 * The owner knobs, persisted in Settings as `cfg.<key lower-case>` (JSON).
 * Loaded once at boot: a stored value that no longer fits its knob falls back
 * to the default with a log line (naming the knob, never the value).
 */
export class ConfigStore {
  private readonly values = new Map<string, KnobValue>();

  constructor(
    private readonly settings: Settings,
    log: Log,
  ) {
    for (const spec of KNOBS) {
      const text = settings.get(settingsKey(spec));
      if (text === undefined) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      if (value === undefined || knobValueProblem(spec, value)) {
        log.warn(`config: stored ${spec.key} is invalid; using the default`);
      } else this.values.set(spec.key, value as KnobValue);
    }
  }

  get(key: KnobKey): KnobValue {
    const spec = knobByName(key);
    if (!spec) throw new Error(`no knob ${key}`);
    const value = this.values.get(spec.key);
    return value === undefined ? spec.default : value;
  }

  number(key: KnobKeyOf<"int">): number {
    return this.get(key) as number;
  }

  bool(key: KnobKeyOf<"bool">): boolean {
    return this.get(key) as boolean;
  }

  string(key: KnobKeyOf<"enum" | "string">): string {
    return this.get(key) as string;
  }

  /** Every knob's current value, in table order. */
  all(): KnobReading[] {
    return KNOBS.map((spec) => {
      const stored = this.values.get(spec.key);
      return { key: spec.key, value: stored === undefined ? spec.default : stored, writer: spec.writer, isDefault: stored === undefined };
    });
  }

  /**
   * Checks a set of changes as a whole: every key must be a knob `by` may
   * write and every value must fit. Returns the first problem (never the
   * value) or the resolved specs.
   */
  check(changes: Array<[string, unknown]>, by: KnobWriter): { problem: string } | { specs: KnobSpec[] } {
    const specs: KnobSpec[] = [];
    for (let i = 0; i < changes.length; i++) {
      const [name, value] = changes[i];
      const spec = knobByName(name);
      // The name is not repeated: whatever a caller put there stays out of replies and logs.
      if (!spec) return { problem: `config key ${i + 1} is not a knob; the knobs are ${KNOBS.map((k) => k.key).join(", ")}.` };
      if (!mayWrite(spec, by)) {
        return {
          problem:
            spec.writer === "orch_model" ? `${spec.key} is set with the orch_model action.` : `${spec.key} is set by the owner only.`,
        };
      }
      const problem = knobValueProblem(spec, value);
      if (problem) return { problem };
      specs.push(spec);
    }
    return { specs };
  }

  /** Applies changes already accepted by check(); each persists at once. */
  apply(changes: Array<[string, unknown]>, by: KnobWriter): string | undefined {
    const checked = this.check(changes, by);
    if ("problem" in checked) return checked.problem;
    checked.specs.forEach((spec, i) => {
      const value = changes[i][1] as KnobValue;
      this.settings.set(settingsKey(spec), toJson(value));
      this.values.set(spec.key, value);
    });
    return undefined;
  }
}

function mayWrite(spec: KnobSpec, by: KnobWriter): boolean {
  return by === "owner" || spec.writer === by;
}

function settingsKey(spec: KnobSpec): string {
  return KEY_PREFIX + spec.key.toLowerCase();
}
