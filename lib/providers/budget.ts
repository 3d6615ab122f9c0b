import { toJson } from "../util/json";
// The budget governor: per-provider spend this billing period against the owner's ceilings.
//
// Settings keys (all under "budget.", protected owner knobs: only the owner API
// writes the limits, through configure()/setResetDay(); no tool may write any of them):
//   budget.reset_day                   day of month the period starts, 1-28 (default 1)
//   budget.<provider>.usd_ceiling      dollars per period; absent = no ceiling, 0 = blocked
//   budget.<provider>.token_ceiling    input + output tokens per period; same rules
//   budget.<provider>.usd_per_mtok_in  the owner's rate, dollars per million input tokens
//   budget.<provider>.usd_per_mtok_out dollars per million output tokens
//   budget.<provider>.usage            {"period","in","out","calls","micro_usd"}, written by record()
// Periods are computed on the owner's local calendar (utcOffsetMinutes, default UTC);
// usage from an earlier period counts as zero. Dollars are priced at record time.
import type { Clock, Log, Settings } from "../ports";
import { PROVIDER_IDS, PROVIDER_LABELS, type BudgetCheck, type BudgetGate, type ProviderId, type TokenUsage } from "./types";

export const BUDGET_SETTINGS_PREFIX = "budget.";
export const BUDGET_DEFAULT_RESET_DAY = 1;
/** Days 29-31 do not exist in every month. */
export const BUDGET_MAX_RESET_DAY = 28;
export const BUDGET_MAX_USD_CEILING = 100000;
export const BUDGET_MAX_TOKEN_CEILING = 1e12;
export const BUDGET_MAX_USD_PER_MTOK = 1000;
/** Tokens of one recorded call beyond this are clamped (a garbled usage field must not wreck the period). */
const MAX_TOKENS_PER_CALL = 1e8;

/** The owner's limits for one provider; undefined fields are unset. */
export interface BudgetLimits {
  usdCeiling?: number;
  tokenCeiling?: number;
  usdPerMTokIn?: number;
  usdPerMTokOut?: number;
}

export interface ProviderSpend {
  provider: ProviderId;
  inputTokens: number;
  outputTokens: number;
  calls: number;
  /** Estimated from the owner's rates. */
  usd: number;
  usdCeiling?: number;
  tokenCeiling?: number;
  usdPerMTokIn: number;
  usdPerMTokOut: number;
  /** check() refuses this provider. */
  over: boolean;
}

export interface BudgetSnapshot {
  resetDay: number;
  /** First day of the current period and the next reset, YYYY-MM-DD (owner's calendar). */
  periodStart: string;
  nextReset: string;
  providers: ProviderSpend[];
}

interface StoredUsage {
  period: string;
  in: number;
  out: number;
  calls: number;
  micro_usd: number;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The billing period containing `nowMs` on a calendar `offsetMinutes` from UTC. */
export function billingPeriod(nowMs: number, resetDay: number, offsetMinutes = 0): { start: string; next: string } {
  const local = new Date(nowMs + offsetMinutes * 60000);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  const startMonth = local.getUTCDate() >= resetDay ? m : m - 1;
  return { start: isoDay(Date.UTC(y, startMonth, resetDay)), next: isoDay(Date.UTC(y, startMonth + 1, resetDay)) };
}

export function isBudgetSettingKey(key: string): boolean {
  return key.startsWith(BUDGET_SETTINGS_PREFIX);
}

/** Dollars with cents, or with four decimals when cents would hide the amount. */
function usd(micro: number): string {
  const rounded = Math.round(micro);
  return `$${(rounded / 1e6).toFixed(rounded % 10000 === 0 ? 2 : 4)}`;
}

export interface BudgetGovernorOptions {
  log?: Log;
  /** The owner's offset from UTC in minutes (the device's time zone). */
  utcOffsetMinutes?(): number;
}

export class BudgetGovernor implements BudgetGate {
  private readonly settings: Settings;
  private readonly clock: Clock;
  private readonly options: BudgetGovernorOptions;

  constructor(settings: Settings, clock: Clock, options: BudgetGovernorOptions = {}) {
    this.settings = settings;
    this.clock = clock;
    this.options = options;
  }

  private number(key: string, max: number): number | undefined {
    const raw = this.settings.get(key);
    if (raw === undefined || raw.trim() === "") return undefined;
    const n = Number(raw);
    if (Number.isFinite(n) && n >= 0 && n <= max) return n;
    this.options.log?.warn(`ignoring the malformed setting ${key}`);
    return undefined;
  }

  resetDay(): number {
    const day = this.number(`${BUDGET_SETTINGS_PREFIX}reset_day`, BUDGET_MAX_RESET_DAY);
    return day !== undefined && Number.isInteger(day) && day >= 1 ? day : BUDGET_DEFAULT_RESET_DAY;
  }

  private period(): { start: string; next: string } {
    const offset = this.options.utcOffsetMinutes?.() ?? 0;
    return billingPeriod(this.clock.now(), this.resetDay(), Number.isFinite(offset) ? offset : 0);
  }

  limits(provider: ProviderId): BudgetLimits {
    const k = `${BUDGET_SETTINGS_PREFIX}${provider}.`;
    return {
      usdCeiling: this.number(`${k}usd_ceiling`, BUDGET_MAX_USD_CEILING),
      tokenCeiling: this.number(`${k}token_ceiling`, BUDGET_MAX_TOKEN_CEILING),
      usdPerMTokIn: this.number(`${k}usd_per_mtok_in`, BUDGET_MAX_USD_PER_MTOK),
      usdPerMTokOut: this.number(`${k}usd_per_mtok_out`, BUDGET_MAX_USD_PER_MTOK),
    };
  }

  /** This period's usage; anything stored for an earlier period, or unreadable, counts as zero. */
  private usage(provider: ProviderId, period: string): StoredUsage {
    const zero: StoredUsage = { period, in: 0, out: 0, calls: 0, micro_usd: 0 };
    const raw = this.settings.get(`${BUDGET_SETTINGS_PREFIX}${provider}.usage`);
    if (raw === undefined) return zero;
    try {
      const u = JSON.parse(raw) as StoredUsage;
      const counts = [u.in, u.out, u.calls, u.micro_usd];
      if (u.period !== period || !counts.every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0)) return zero;
      return { period, in: u.in, out: u.out, calls: u.calls, micro_usd: u.micro_usd };
    } catch {
      this.options.log?.warn(`ignoring the unreadable ${provider} usage record`);
      return zero;
    }
  }

  private spend(provider: ProviderId, period: string): ProviderSpend {
    const u = this.usage(provider, period);
    const l = this.limits(provider);
    const out: ProviderSpend = {
      provider,
      inputTokens: u.in,
      outputTokens: u.out,
      calls: u.calls,
      usd: Math.round(u.micro_usd) / 1e6,
      usdPerMTokIn: l.usdPerMTokIn ?? 0,
      usdPerMTokOut: l.usdPerMTokOut ?? 0,
      over: this.refusal(provider, u, l, "") !== undefined,
    };
    if (l.usdCeiling !== undefined) out.usdCeiling = l.usdCeiling;
    if (l.tokenCeiling !== undefined) out.tokenCeiling = l.tokenCeiling;
    return out;
  }

  /** The refusal sentence when a ceiling is reached, else undefined. */
  private refusal(provider: ProviderId, u: StoredUsage, l: BudgetLimits, next: string): string | undefined {
    const label = PROVIDER_LABELS[provider];
    if (l.usdCeiling !== undefined && u.micro_usd >= Math.round(l.usdCeiling * 1e6)) {
      const state = l.usdCeiling === 0 ? "is set to $0" : `is spent (${usd(u.micro_usd)} of ${usd(l.usdCeiling * 1e6)})`;
      return `quota: the ${label} budget for this period ${state}; it resets on ${next}.`;
    }
    if (l.tokenCeiling !== undefined && u.in + u.out >= l.tokenCeiling) {
      return `quota: the ${label} token budget for this period is used up (${u.in + u.out} of ${l.tokenCeiling} tokens); it resets on ${next}.`;
    }
    return undefined;
  }

  /** Before dispatch: refuses, with one sentence, a provider whose ceiling this period is reached. */
  check(provider: ProviderId): BudgetCheck {
    const { start, next } = this.period();
    const message = this.refusal(provider, this.usage(provider, start), this.limits(provider), next);
    return message === undefined ? { ok: true } : { ok: false, message };
  }

  /** After a served call: adds its tokens, one call, and its price at the owner's rates. */
  record(provider: ProviderId, usage: TokenUsage): void {
    const { start } = this.period();
    const u = this.usage(provider, start);
    const l = this.limits(provider);
    const clamp = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), MAX_TOKENS_PER_CALL) : 0);
    const input = clamp(usage.inputTokens);
    const output = clamp(usage.outputTokens);
    const micro = Math.round(input * (l.usdPerMTokIn ?? 0) + output * (l.usdPerMTokOut ?? 0));
    const next: StoredUsage = { period: start, in: u.in + input, out: u.out + output, calls: u.calls + 1, micro_usd: u.micro_usd + micro };
    this.settings.set(`${BUDGET_SETTINGS_PREFIX}${provider}.usage`, toJson(next));
  }

  /** For device.status: every provider's spend this period against its ceilings. */
  snapshot(): BudgetSnapshot {
    const { start, next } = this.period();
    return { resetDay: this.resetDay(), periodStart: start, nextReset: next, providers: PROVIDER_IDS.map((p) => this.spend(p, start)) };
  }

  /** Owner API only: sets (a number) or clears (undefined) each given limit. Throws one sentence on a bad value. */
  configure(provider: ProviderId, limits: BudgetLimits): void {
    const k = `${BUDGET_SETTINGS_PREFIX}${provider}.`;
    const fields: Array<[keyof BudgetLimits, string, number]> = [
      ["usdCeiling", "usd_ceiling", BUDGET_MAX_USD_CEILING],
      ["tokenCeiling", "token_ceiling", BUDGET_MAX_TOKEN_CEILING],
      ["usdPerMTokIn", "usd_per_mtok_in", BUDGET_MAX_USD_PER_MTOK],
      ["usdPerMTokOut", "usd_per_mtok_out", BUDGET_MAX_USD_PER_MTOK],
    ];
    for (const [field, , max] of fields) {
      const v = limits[field];
      if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= max)) {
        throw new Error(`${field} must be a number from 0 to ${max}`);
      }
      if (field === "tokenCeiling" && v !== undefined && !Number.isInteger(v)) throw new Error("tokenCeiling must be a whole number");
    }
    for (const [field, key] of fields) {
      if (!(field in limits)) continue;
      const v = limits[field];
      if (v === undefined) this.settings.remove(k + key);
      else this.settings.set(k + key, String(v));
    }
  }

  /** Owner API only. Changing the day starts a new period (usage counted so far no longer applies). */
  setResetDay(day: number): void {
    if (!Number.isInteger(day) || day < 1 || day > BUDGET_MAX_RESET_DAY)
      throw new Error(`the reset day must be a whole number from 1 to ${BUDGET_MAX_RESET_DAY}`);
    this.settings.set(`${BUDGET_SETTINGS_PREFIX}reset_day`, String(day));
  }
}
