// The wallet's rails: who may use it, how much may leave it without the owner, and what waits for the owner.
// The owner (an admin) and the namespaces the owner lists may spend; a payment over the per-payment limit, or
// one that would pass the day's limit, waits for the owner's approval (the web page's Approvals, the owner API),
// and the caller repeats the call with the approval's id once it is approved. A token someone without the
// right hands the device (a guest, a stranger's DM) waits the same way and is redeemed only by the owner.
// The limits and the spenders are owner settings: no tool reads or writes them.
import { toJson } from "../util/json";
import { HaloError } from "../errors";
import type { Clock, Log, Random, Settings, Storage } from "../ports";
import type { Principal } from "../registry/principal";
import { randomHexId } from "../util/id";
import { loadApprovals, saveApprovals } from "./approvals-file";
import { WALLET_AMOUNT_MAX_SATS } from "./limits";

/** Payments and tokens that may wait for the owner at once; another is refused until they decide. */
export const WALLET_APPROVALS_MAX = 16;
/** Tokens held from one sender at once (so one guest or key cannot fill the owner's list). */
export const WALLET_HELD_PER_SENDER_MAX = 4;
/** How long an approval waits, and how long an approved one may be used (ms). */
export const WALLET_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
/** Namespaces the owner may allow to spend. */
export const WALLET_SPENDERS_MAX = 16;
/** The limits of a new device: small, so nothing large leaves before the owner sets them (sats). */
export const WALLET_DEFAULT_LIMITS: WalletLimits = { perPaymentSats: 1000, dailySats: 5000 };

const LIMITS_KEY = "wallet.limits";
const SPENDERS_KEY = "wallet.spenders";
const SPENT_KEY = "wallet.spent";

export interface WalletLimits {
  /** A payment above this waits for the owner (sats). */
  perPaymentSats: number;
  /** Sats that may leave in one UTC day without the owner. */
  dailySats: number;
}

export type ApprovalKind = "send" | "melt" | "receive";

/** What a payment or a held token is, as the owner sees it (never the token itself). */
export interface WalletApprovalView {
  id: string;
  kind: ApprovalKind;
  /** The namespace that asked (or "nostr" for a token in a DM). */
  by: string;
  amount: number;
  mint?: string;
  /** The melt quote a payment pays. */
  quote?: string;
  /** Where a held token came from ("a DM from npub1...", "a guest's call"). */
  source?: string;
  /** "redeeming": a held token the owner approved, being received (waits again if that fails or power is cut). */
  state: "awaiting-approval" | "approved" | "redeeming";
  created: number;
  why: string;
}

interface Approval extends WalletApprovalView {
  /** A held token (receive only): kept on the card with the approval, never shown, never logged. */
  token?: string;
}

/** What the rails keep: the owner's settings, and the card for what waits (undefined: in memory only). */
export interface WalletRailsDeps {
  settings: Settings;
  clock: Clock;
  random: Random;
  storage?: Storage;
  log?: Log;
}

/** What a payment is, for the gate. */
export interface PaymentAsk {
  kind: "send" | "melt";
  amount: number;
  mint?: string;
  quote?: string;
}

export type GateResult = { go: true } | { go: false; approval: WalletApprovalView };

function view(a: Approval): WalletApprovalView {
  const { token: _token, ...rest } = a;
  return { ...rest };
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function wholeSats(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > WALLET_AMOUNT_MAX_SATS * 10) {
    throw new HaloError("invalid-arguments", `${name} is a whole number of sats from 0 to ${WALLET_AMOUNT_MAX_SATS * 10}.`);
  }
  return value;
}

export class WalletRails {
  /** What waits, read from the card on first use; replaced whole only after the card took the change. */
  private current?: Map<string, Approval>;

  constructor(private readonly deps: WalletRailsDeps) {}

  /** The approvals, read from the card once (a restart keeps what waited: a held token is money). */
  private get approvals(): ReadonlyMap<string, Approval> {
    if (this.current) return this.current;
    const { storage } = this.deps;
    // No card yet: nothing can have waited on it; read it once one is in.
    if (!storage?.present()) return new Map();
    const list = loadApprovals<Approval>(storage, this.deps.log ?? { info: () => undefined, warn: () => undefined });
    const map = new Map<string, Approval>();
    for (const a of list) {
      if (!a || typeof a.id !== "string" || typeof a.created !== "number") continue;
      // A redemption cut short waits for the owner again (receiving it twice is refused by its mint).
      map.set(a.id, a.state === "redeeming" ? { ...a, state: "awaiting-approval" } : a);
    }
    this.current = map;
    return map;
  }

  /** Writes the changed list to the card first, then makes it current (throws and changes nothing when the card refuses). */
  private commit(change: (next: Map<string, Approval>) => void): void {
    const next = new Map(this.approvals);
    change(next);
    if (this.deps.storage) saveApprovals(this.deps.storage, [...next.values()]);
    this.current = next;
  }

  limits(): WalletLimits {
    try {
      const raw = JSON.parse(this.deps.settings.get(LIMITS_KEY) ?? "null") as WalletLimits | null;
      if (raw && typeof raw.perPaymentSats === "number" && typeof raw.dailySats === "number") return { ...raw };
    } catch {
      // A damaged setting falls back to the defaults, which are the strict ones.
    }
    return { ...WALLET_DEFAULT_LIMITS };
  }

  setLimits(perPayment: unknown, daily: unknown): WalletLimits {
    const limits = { perPaymentSats: wholeSats(perPayment, "per_payment_sats"), dailySats: wholeSats(daily, "daily_sats") };
    this.deps.settings.set(LIMITS_KEY, toJson(limits));
    return limits;
  }

  spenders(): string[] {
    try {
      const raw = JSON.parse(this.deps.settings.get(SPENDERS_KEY) ?? "[]") as unknown;
      return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : [];
    } catch {
      return [];
    }
  }

  setSpenders(list: string[]): string[] {
    if (list.length > WALLET_SPENDERS_MAX) throw new HaloError("invalid-arguments", `at most ${WALLET_SPENDERS_MAX} spenders.`);
    const out = [...new Set(list)].sort();
    this.deps.settings.set(SPENDERS_KEY, toJson(out));
    return out;
  }

  /** Sats spent today (UTC) without counting what waits. */
  spentToday(): number {
    try {
      const raw = JSON.parse(this.deps.settings.get(SPENT_KEY) ?? "null") as { day: string; sats: number } | null;
      return raw && raw.day === utcDay(this.deps.clock.now()) && typeof raw.sats === "number" ? raw.sats : 0;
    } catch {
      return 0;
    }
  }

  /** The owner, or a namespace the owner allows; never a guest. */
  maySpend(p: Principal): boolean {
    if (p.role === "guest" || p.role === "unknown") return false;
    return p.role === "admin" || this.spenders().includes(p.ns);
  }

  /** Refuses a caller who may not see the wallet (balances, quotes, tokens). */
  assertMayUse(p: Principal): void {
    if (!this.maySpend(p)) throw new HaloError("not-allowed", "only the owner and the principals the owner allows use the wallet.");
  }

  /**
   * Whether a payment may go now: with an approved approval of exactly this payment (used up here), or under
   * both limits; otherwise a new approval waits for the owner.
   */
  gate(p: Principal, ask: PaymentAsk, approvalId?: string): GateResult {
    this.assertMayUse(p);
    this.expire();
    if (approvalId !== undefined) {
      const a = this.approvals.get(approvalId);
      const same = a && a.by === p.ns && a.kind === ask.kind && a.amount === ask.amount && a.quote === ask.quote;
      if (!a || !same) throw new HaloError("not-found", "no approval of this payment by that id.");
      if (a.state !== "approved") throw new HaloError("not-approved", "the owner has not approved this payment yet.");
      this.commit((next) => next.delete(approvalId));
      return { go: true };
    }
    const { perPaymentSats, dailySats } = this.limits();
    let why: string | undefined;
    if (ask.amount > perPaymentSats) why = `above the per-payment limit of ${perPaymentSats} sats`;
    else if (this.spentToday() + ask.amount > dailySats) why = `past the daily limit of ${dailySats} sats`;
    if (why === undefined) return { go: true };
    return { go: false, approval: view(this.add({ kind: ask.kind, by: p.ns, amount: ask.amount, mint: ask.mint, quote: ask.quote, why })) };
  }

  /** Counts sats that left (a payment made, its fees included). */
  recordSpend(sats: number): void {
    const day = utcDay(this.deps.clock.now());
    this.deps.settings.set(SPENT_KEY, toJson({ day, sats: this.spentToday() + sats }));
  }

  /** A token from someone who may not use the wallet, kept for the owner to redeem or drop. */
  holdToken(token: string, amount: number, mint: string, by: string, source: string): WalletApprovalView {
    this.expire();
    let fromSender = 0;
    for (const a of this.approvals.values()) if (a.kind === "receive" && a.by === by && a.source === source) fromSender++;
    if (fromSender >= WALLET_HELD_PER_SENDER_MAX) {
      throw new HaloError("limit", `${WALLET_HELD_PER_SENDER_MAX} tokens from this sender already wait for the owner.`);
    }
    return view(this.add({ kind: "receive", by, amount, mint, source, why: "a token from someone who may not use the wallet", token }));
  }

  list(): WalletApprovalView[] {
    this.expire();
    return [...this.approvals.values()].sort((a, b) => a.created - b.created).map(view);
  }

  /** Owner: approves a payment (the caller repeats it with the id) or takes a held token (returned to redeem). */
  approve(id: string): { approval: WalletApprovalView; token?: string } {
    const a = this.waiting(id);
    if (a.kind === "receive") {
      // The token stays on the card until it is received (redeemed()), so a power cut cannot lose it.
      const redeeming: Approval = { ...a, state: "redeeming" };
      this.commit((next) => next.set(id, redeeming));
      return { approval: view(redeeming), token: a.token };
    }
    const approved: Approval = { ...a, state: "approved", created: this.deps.clock.now() };
    this.commit((next) => next.set(id, approved));
    return { approval: view(approved) };
  }

  /** A held token's redemption ended: received (dropped from the list), or failed (waits for the owner again). */
  redeemed(id: string, received: boolean): void {
    const a = this.approvals.get(id);
    if (a?.state !== "redeeming") return;
    this.commit((next) => (received ? next.delete(id) : next.set(id, { ...a, state: "awaiting-approval" })));
  }

  /** Owner: drops a payment or a held token. */
  reject(id: string): WalletApprovalView {
    const a = this.waiting(id);
    this.commit((next) => next.delete(id));
    return view(a);
  }

  private waiting(id: string): Approval {
    this.expire();
    const a = this.approvals.get(id);
    if (a?.state !== "awaiting-approval") throw new HaloError("not-found", "nothing of the wallet awaits approval under that id.");
    return a;
  }

  private add(fields: Omit<Approval, "id" | "state" | "created">): Approval {
    if (this.approvals.size >= WALLET_APPROVALS_MAX) {
      throw new HaloError("full", `${WALLET_APPROVALS_MAX} wallet approvals already wait for the owner.`);
    }
    let id = randomHexId(this.deps.random, "w", 4);
    while (this.approvals.has(id)) id = randomHexId(this.deps.random, "w", 4);
    const a: Approval = {
      ...fields,
      id,
      state: "awaiting-approval",
      created: this.deps.clock.now(),
    };
    this.commit((next) => next.set(a.id, a));
    return a;
  }

  private expire(): void {
    const now = this.deps.clock.now();
    const old: string[] = [];
    for (const [id, a] of this.approvals) if (a.state !== "redeeming" && now - a.created > WALLET_APPROVAL_TTL_MS) old.push(id);
    if (old.length === 0) return;
    try {
      this.commit((next) => {
        for (const id of old) next.delete(id);
      });
    } catch {
      // The card refused: they expire at the next change that reaches it.
    }
  }
}
