// The Cashu wallet (NIP-60): balance, Lightning in (mint quotes) and out (melt quotes), tokens sent and
// received, proof checks and the mint lists. Operations run one at a time; each that spends or creates proofs
// is journaled on the card before it calls the mint (./ledger, ./recovery), and the relays follow the card
// (./sync). The caller (the tool layer) checks who may call what; this class enforces the owner's allow-list,
// the amount bounds and the card.
import { HaloError } from "../errors";
import type { Clock, Log, Random, Storage } from "../ports";
import { allowedMint, checkUnit, sum, type WalletCore, write } from "./core";
import { Ledger, type LedgerLoad } from "./ledger";
import { ownsInputs, type WalletConfig } from "./ledger-state";
import { type ClaimResult, meltPay, meltQuote, mintCheck, mintClaim, mintQuote, type PayResult } from "./lightning";
import { WALLET_CHECK_BATCH, WALLET_MINTS_MAX, WALLET_SENT_TOKENS_MAX } from "./limits";
import { type RecoveryReport, recoverAll } from "./recovery";
import { type ReceiveResult, receiveToken, type SendResult, sendToken } from "./send-receive";
import { type ReconcileReport, reconcile, type SyncReport, syncRelays, type WalletNostr } from "./sync";
import type { CashuKit, MeltQuote, MintInfo, MintQuote } from "./types";

export interface CashuWalletDeps {
  kit: CashuKit;
  storage: Storage | undefined;
  clock: Clock;
  random: Random;
  log: Log;
  /** The device's Nostr identity and the owner's relays; undefined: the wallet lives on the card only. */
  nostr?: WalletNostr;
}

export interface WalletBalance {
  unit: "sat";
  /** Spendable sats. */
  total: number;
  /** Sats reserved by operations waiting for their mint. */
  pending: number;
  /** Sats in tokens sent and not yet seen claimed. */
  outstanding: number;
  mints: Array<{ mint: string; amount: number; proofs: number }>;
}

export interface ProofCheck {
  unspent: { proofs: number; amount: number };
  pending: { proofs: number; amount: number };
  /** Proofs the mint says are spent: removed from the wallet. */
  spent: { proofs: number; amount: number };
  /** Tokens sent that the mint now shows claimed, and those still outstanding. */
  sentClaimed: number;
  sentOutstanding: number;
}

export type MintsTarget = "wallet" | "public" | "both";

export class CashuWallet {
  private readonly core: WalletCore;
  private tail: Promise<unknown> = Promise.resolve();
  private reconciled = false;

  constructor(private readonly deps: CashuWalletDeps) {
    this.core = { ledger: new Ledger(deps.storage), kit: deps.kit, clock: deps.clock, random: deps.random, log: deps.log };
  }

  /** Reads the card. (The wallet's P2PK key comes from the relays, or is made at the first sync: ./sync.) */
  open(): LedgerLoad {
    const load = this.core.ledger.load();
    if (load.torn) this.deps.log.warn("wallet: a torn record at the end of the card's wallet log was dropped");
    return load;
  }

  /** Boot: settles journaled operations with their mints, then merges the relays' state (when there are relays). */
  boot(): Promise<{ recovery: RecoveryReport; relays?: ReconcileReport }> {
    return this.exclusive(async () => {
      const recovery = await recoverAll(this.core);
      const relays = await this.reconcileNow();
      return { recovery, relays };
    });
  }

  recover(): Promise<RecoveryReport> {
    return this.exclusive(() => recoverAll(this.core));
  }

  /** Publishes what the relays lack; undefined without relays. */
  sync(): Promise<SyncReport | undefined> {
    return this.exclusive(() => this.syncNow());
  }

  balance(): WalletBalance {
    const s = this.core.ledger.state;
    const byMint = new Map<string, { mint: string; amount: number; proofs: number }>();
    for (const p of s.proofs.values()) {
      const m = byMint.get(p.mint) ?? { mint: p.mint, amount: 0, proofs: 0 };
      m.amount += p.amount;
      m.proofs++;
      byMint.set(p.mint, m);
    }
    let pending = 0;
    for (const op of s.ops.values()) if (ownsInputs(op)) pending += sum(op.inputs);
    let outstanding = 0;
    for (const t of s.sent.values()) outstanding += t.amount;
    const mints = [...byMint.values()].sort((a, b) => (a.mint < b.mint ? -1 : 1));
    return { unit: "sat", total: sum(mints), pending, outstanding, mints };
  }

  /** The mint lists; the wallet's own key is never part of it. */
  config(): { mints: string[]; publicMints: string[]; allowed: string[] } {
    const { mints, publicMints, allowed } = this.core.ledger.state.config;
    return { mints: [...mints], publicMints: [...publicMints], allowed: [...allowed] };
  }

  /** Operations waiting for their mint. */
  pendingOps(): Array<{ op: string; kind: string; mint: string; amount: number; at: number }> {
    return [...this.core.ledger.state.ops.values()].map(({ op, kind, mint, amount, at }) => ({ op, kind, mint, amount, at }));
  }

  /** A melt quote the card remembers (what a payment of it would spend), or undefined. */
  knownMeltQuote(quote: string): MeltQuote | undefined {
    const q = this.core.ledger.state.quotes.get(quote);
    return q?.kind === "melt" ? q.quote : undefined;
  }

  info(mint?: string): Promise<MintInfo> {
    return this.exclusive(() => {
      const url = mint ?? this.core.ledger.state.config.mints[0];
      if (url === undefined) throw new HaloError("not-configured", "the wallet has no mint yet (cashu_wallet_mints_set).");
      return this.core.kit.info(allowedMint(this.core, url));
    });
  }

  mintQuote(amount: unknown, unit?: unknown, mint?: string): Promise<MintQuote> {
    return this.exclusive(() => {
      checkUnit(unit);
      return mintQuote(this.core, amount, mint);
    });
  }

  mintCheck(quote: unknown): Promise<MintQuote> {
    return this.exclusive(() => mintCheck(this.core, quote));
  }

  mintClaim(quote: unknown): Promise<ClaimResult> {
    return this.exclusive(() => this.thenSync(mintClaim(this.core, quote), (r) => ({ direction: "in", amount: r.amount })));
  }

  meltQuote(request: unknown, mint?: string): Promise<MeltQuote> {
    return this.exclusive(() => meltQuote(this.core, request, mint));
  }

  meltPay(quote: unknown): Promise<PayResult> {
    return this.exclusive(() => this.thenSync(meltPay(this.core, quote), (r) => ({ direction: "out", amount: r.amount + r.fee })));
  }

  receiveToken(token: unknown): Promise<ReceiveResult> {
    return this.exclusive(() => this.thenSync(receiveToken(this.core, token), (r) => ({ direction: "in", amount: r.amount })));
  }

  sendToken(amount: unknown, options: { mint?: string; memo?: string } = {}): Promise<SendResult> {
    return this.exclusive(() =>
      this.thenSync(
        sendToken(this.core, amount, options).then((r) => {
          this.forgetOldSent();
          return r;
        }),
        (r) => ({ direction: "out", amount: r.amount + r.fee }),
      ),
    );
  }

  /** Tokens sent and not yet seen claimed (amounts only: a token is shown to no one but its recipient). */
  sentTokens(): Array<{ op: string; mint: string; amount: number; at: number }> {
    return [...this.core.ledger.state.sent.values()].map(({ op, mint, amount, at }) => ({ op, mint, amount, at }));
  }

  /**
   * Takes back a token the wallet sent that nobody claimed (say its recipient never got it, or the device
   * restarted before the token was shown): a receive of its own proofs, journaled like any other.
   */
  reclaimSent(op: unknown): Promise<ReceiveResult> {
    return this.exclusive(() => {
      const sent = typeof op === "string" ? this.core.ledger.state.sent.get(op) : undefined;
      if (!sent) throw new HaloError("not-found", "no outstanding token by that id.");
      const token = this.core.kit.encodeToken(sent.mint, sent.proofs, undefined);
      return this.thenSync(receiveToken(this.core, token), (r) => ({ direction: "in", amount: r.amount }));
    });
  }

  /** NUT-07 for every proof held (and tokens sent): spent proofs leave the wallet, claimed tokens are settled. */
  checkProofs(mint?: string): Promise<ProofCheck> {
    return this.exclusive(async () => {
      const only = mint === undefined ? undefined : this.core.kit.normalizeMintUrl(mint);
      const s = this.core.ledger.state;
      const report: ProofCheck = {
        unspent: { proofs: 0, amount: 0 },
        pending: { proofs: 0, amount: 0 },
        spent: { proofs: 0, amount: 0 },
        sentClaimed: 0,
        sentOutstanding: 0,
      };
      const mints = new Set([...s.proofs.values()].map((p) => p.mint).concat([...s.sent.values()].map((t) => t.mint)));
      for (const m of [...mints].filter((x) => only === undefined || x === only).sort()) {
        const proofs = [...s.proofs.values()].filter((p) => p.mint === m);
        const spent: string[] = [];
        for (let i = 0; i < proofs.length; i += WALLET_CHECK_BATCH) {
          const batch = proofs.slice(i, i + WALLET_CHECK_BATCH);
          const states = await this.core.kit.checkStates(m, batch);
          batch.forEach((p, j) => {
            const bucket = states[j] === "SPENT" ? report.spent : states[j] === "PENDING" ? report.pending : report.unspent;
            bucket.proofs++;
            bucket.amount += p.amount;
            if (states[j] === "SPENT") spent.push(p.secret);
          });
        }
        if (spent.length > 0) write(this.core, { t: "spent", secrets: spent });
        const settled: string[] = [];
        for (const t of [...s.sent.values()].filter((x) => x.mint === m)) {
          const states = await this.core.kit.checkStates(m, t.proofs);
          if (states.every((st) => st === "SPENT")) settled.push(t.op);
          else report.sentOutstanding++;
        }
        if (settled.length > 0) write(this.core, { t: "settled", ops: settled });
        report.sentClaimed += settled.length;
      }
      if (report.spent.proofs > 0) await this.syncNow();
      return report;
    });
  }

  /** The seed's cashu_wallet_mints_set: NIP-60 wallet mints, NIP-61 public mints, or both; each must be allowed. */
  setMints(target: MintsTarget, walletMints?: unknown, publicMints?: unknown): Promise<WalletConfig> {
    return this.exclusive(async () => {
      const config = { ...this.core.ledger.state.config };
      if (target !== "wallet" && target !== "public" && target !== "both")
        throw new HaloError("invalid-arguments", 'target is "wallet", "public" or "both".');
      if (target !== "public") config.mints = this.mintList(walletMints, true);
      if (target !== "wallet") config.publicMints = this.mintList(publicMints, true);
      write(this.core, { t: "config", config });
      await this.syncNow();
      return this.redacted();
    });
  }

  /** The owner's allow-list (an owner route, never a tool). Mints left off it keep their proofs but are not used. */
  setAllowedMints(urls: unknown): Promise<WalletConfig> {
    return this.exclusive(async () => {
      write(this.core, { t: "config", config: { ...this.core.ledger.state.config, allowed: this.mintList(urls, false) } });
      return this.redacted();
    });
  }

  private redacted(): WalletConfig {
    const { mints, publicMints, allowed } = this.core.ledger.state.config;
    return { mints: [...mints], publicMints: [...publicMints], allowed: [...allowed] };
  }

  private mintList(value: unknown, mustBeAllowed: boolean): string[] {
    if (!Array.isArray(value) || value.length > WALLET_MINTS_MAX)
      throw new HaloError("invalid-arguments", `a mint list is an array of at most ${WALLET_MINTS_MAX} URLs.`);
    const out: string[] = [];
    for (const v of value) {
      if (typeof v !== "string") throw new HaloError("invalid-arguments", "a mint is an http or https URL.");
      const url = mustBeAllowed ? allowedMint(this.core, v) : this.core.kit.normalizeMintUrl(v);
      if (!out.includes(url)) out.push(url);
    }
    return out;
  }

  /** Keeps the outstanding-token list bounded: the oldest is forgotten (its proofs stay at the mint). */
  private forgetOldSent(): void {
    const sent = [...this.core.ledger.state.sent.values()].sort((a, b) => a.at - b.at);
    if (sent.length > WALLET_SENT_TOKENS_MAX)
      write(this.core, { t: "settled", ops: sent.slice(0, sent.length - WALLET_SENT_TOKENS_MAX).map((t) => t.op) });
  }

  private async thenSync<T>(work: Promise<T>, history: (r: T) => { direction: "in" | "out"; amount: number }): Promise<T> {
    const result = await work;
    await this.syncNow(history(result));
    return result;
  }

  /** Relays read back once per process before anything is published, so a new card never replaces their key. */
  private async reconcileNow(): Promise<ReconcileReport | undefined> {
    if (!this.deps.nostr) return undefined;
    try {
      const report = await reconcile(this.core, this.deps.nostr);
      this.reconciled = true;
      return report;
    } catch (e) {
      this.deps.log.warn(`wallet: the relays could not be reconciled (${e instanceof HaloError ? e.tag : "error"})`);
      return undefined;
    }
  }

  private async syncNow(history?: { direction: "in" | "out"; amount: number }): Promise<SyncReport | undefined> {
    if (!this.deps.nostr) return undefined;
    if (!this.reconciled) return this.reconcileNow();
    try {
      return await syncRelays(this.core, this.deps.nostr, history);
    } catch (e) {
      this.deps.log.warn(`wallet: the relays were not updated (${e instanceof HaloError ? e.tag : "error"}); the next sync retries`);
      return undefined;
    }
  }

  /** Runs `work` after every earlier operation has ended. */
  private exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
