// The wallet as the device offers it: the CashuWallet built on first use from the host's Cashu kit (loaded at
// run time), booted once (journaled operations settled with their mints, the relays reconciled), and the
// rails (./rails) in front of every spend. The tools (lib/tools/wallet*.ts) and the owner routes
// (lib/http/owner-wallet.ts) call this; the tools check their caller here, the owner routes are the owner's.
import { HaloError } from "../errors";
import { type GuardedHttp, originOfText } from "../net/outbound";
import type { Clock, Log, Random, Settings, Storage } from "../ports";
import type { Principal } from "../registry/principal";
import type { CallSignal } from "../util/abort";
import { findCashuTokens, redactCashuTokens } from "../util/cashu-token";
import type { PayResult } from "./lightning";
import { type GateResult, type PaymentAsk, WalletRails, type WalletApprovalView } from "./rails";
import type { ReceiveResult, SendResult } from "./send-receive";
import type { WalletNostr } from "./sync";
import type { CashuKit, WalletKitFactory } from "./types";
import { CashuWallet } from "./wallet";

export interface WalletServiceDeps {
  /** Undefined: this host has no Cashu library, and the tools say so. */
  kit: WalletKitFactory | undefined;
  /** The guarded client (lib/net/outbound.ts): the owner's allowed mints are its trusted origins. */
  http: GuardedHttp;
  random: Random;
  clock: Clock;
  log: Log;
  settings: Settings;
  storage: Storage | undefined;
  /** The device's key and the owner's relays (NIP-60); undefined without a relay client. */
  nostr: WalletNostr | undefined;
}

/** A payment made, or one waiting for the owner. */
export type Gated<T> = { done: T } | { waiting: WalletApprovalView };

/** Rejects when `signal` aborts: the caller stops waiting; the journaled operation still ends (or is recovered). */
export function untilAborted<T>(work: Promise<T>, signal: CallSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new HaloError("timeout", "the call was cancelled before it started."));
  return new Promise<T>((resolve, reject) => {
    const off = signal.onAbort(() =>
      reject(new HaloError("timeout", "the call was cancelled; the wallet finishes or recovers the operation on its own.")),
    );
    work.then(
      (v) => {
        off();
        resolve(v);
      },
      (e) => {
        off();
        reject(e);
      },
    );
  });
}

export class WalletService {
  readonly rails: WalletRails;
  private kitMade?: CashuKit;
  private wallet?: CashuWallet;
  /** The wallet while it boots (its recovery already calls the mints). */
  private opened?: CashuWallet;
  private booting?: Promise<CashuWallet>;

  constructor(private readonly deps: WalletServiceDeps) {
    this.rails = new WalletRails({ settings: deps.settings, clock: deps.clock, random: deps.random, storage: deps.storage, log: deps.log });
  }

  /** True, or why the wallet cannot run on this device. */
  available(): true | string {
    if (!this.deps.kit) return "this device has no Cashu library.";
    if (!this.deps.storage) return "the wallet keeps its proofs on the SD card, and there is none.";
    return true;
  }

  /** The wallet, read from the card and booted once (recovery, then the relays); failures of the boot are logged. */
  ready(): Promise<CashuWallet> {
    if (this.wallet) return Promise.resolve(this.wallet);
    if (!this.booting) {
      this.booting = this.boot().finally(() => {
        this.booting = undefined;
      });
    }
    return this.booting;
  }

  private async boot(): Promise<CashuWallet> {
    const why = this.available();
    if (why !== true) throw new HaloError("not-configured", why);
    const wallet = new CashuWallet({
      kit: this.kit(),
      storage: this.deps.storage,
      clock: this.deps.clock,
      random: this.deps.random,
      log: this.deps.log,
      nostr: this.deps.nostr,
    });
    wallet.open();
    this.opened = wallet;
    try {
      const { recovery } = await wallet.boot();
      if (recovery.committed + recovery.aborted + recovery.pending > 0) {
        this.deps.log.info(`wallet: boot settled ${recovery.committed + recovery.aborted} operations, ${recovery.pending} wait`);
      }
    } catch (e) {
      this.deps.log.warn(`wallet: boot recovery did not finish (${e instanceof HaloError ? e.tag : "error"}); it runs again later`);
    }
    this.wallet = wallet;
    return wallet;
  }

  private kit(): CashuKit {
    if (!this.kitMade) {
      if (!this.deps.kit) throw new HaloError("not-configured", "this device has no Cashu library.");
      // A mint on the owner's allow-list is an origin the owner set: reached as it is (it may be on the LAN);
      // anything else, and every redirect away from it, gets the address check.
      const http: GuardedHttp = { request: (req) => this.deps.http.request({ ...req, trusted: this.trustedMints() }) };
      this.kitMade = this.deps.kit({ http, random: this.deps.random });
    }
    return this.kitMade;
  }

  private trustedMints(): string[] {
    const out: string[] = [];
    for (const url of (this.wallet ?? this.opened)?.config().allowed ?? []) {
      const origin = originOfText(url);
      if (origin !== undefined) out.push(origin);
    }
    return out;
  }

  /** Sends a token, or leaves the payment waiting for the owner. */
  async send(p: Principal, amount: number, options: { mint?: string; memo?: string; approval?: string }): Promise<Gated<SendResult>> {
    this.rails.assertMayUse(p);
    const wallet = await this.ready();
    // Nothing the wallet cannot cover waits for the owner.
    if (wallet.balance().total < amount) throw new HaloError("invalid-arguments", "the balance does not cover the amount.");
    const ask: PaymentAsk = { kind: "send", amount, mint: options.mint };
    return this.gated(this.rails.gate(p, ask, options.approval), async () => {
      const r = await wallet.sendToken(amount, { mint: options.mint, memo: options.memo });
      this.rails.recordSpend(r.amount + r.fee);
      return r;
    });
  }

  /** Pays a melt quote, or leaves the payment waiting for the owner. */
  async pay(p: Principal, quote: string, approval?: string): Promise<Gated<PayResult>> {
    this.rails.assertMayUse(p);
    const wallet = await this.ready();
    const q = wallet.knownMeltQuote(quote);
    if (!q) throw new HaloError("not-found", "no melt quote by that id.");
    const ask: PaymentAsk = { kind: "melt", amount: q.amount + q.feeReserve, mint: q.mint, quote };
    return this.gated(this.rails.gate(p, ask, approval), async () => {
      const r = await wallet.meltPay(quote);
      if (r.state !== "UNPAID") this.rails.recordSpend(r.state === "PAID" ? r.amount + r.fee : q.amount + q.feeReserve);
      return r;
    });
  }

  /**
   * Receives a token: at once for someone who may use the wallet; otherwise (a guest, a DM) it is held for the
   * owner, and nothing is redeemed until they approve.
   */
  async receive(p: Principal, token: string, source = "a call by someone who may not use the wallet"): Promise<Gated<ReceiveResult>> {
    const wallet = await this.ready();
    if (this.rails.maySpend(p)) return { done: await wallet.receiveToken(token) };
    // Only a token the owner could redeem waits for them: from a mint on the allow-list.
    if (!wallet.config().allowed.includes(this.kit().tokenMint(token).mint)) {
      throw new HaloError("not-allowed", "that mint is not on the owner's allow-list.");
    }
    return { waiting: this.hold(token, p.ns, source) };
  }

  /** The tokens in a DM from someone who may not use the wallet, held for the owner; the text without them. */
  screenMessage(text: string, from: string): { text: string; held: number } {
    const tokens = findCashuTokens(text);
    if (tokens.length === 0) return { text, held: 0 };
    let held = 0;
    for (const t of tokens) {
      try {
        this.hold(t, "nostr", from);
        held++;
      } catch (e) {
        this.deps.log.warn(`wallet: a token in a message was not kept (${e instanceof HaloError ? e.tag : "error"})`);
      }
    }
    return { text: redactCashuTokens(text, "[a Cashu token, held for the owner]"), held };
  }

  /** Owner: approves a payment, or redeems a held token. */
  async approve(id: string): Promise<{ approval: WalletApprovalView; received?: ReceiveResult }> {
    const { approval, token } = this.rails.approve(id);
    if (token === undefined) return { approval };
    let received: ReceiveResult;
    try {
      const wallet = await this.ready();
      received = await wallet.receiveToken(token);
    } catch (e) {
      this.rails.redeemed(id, false);
      throw e;
    }
    this.rails.redeemed(id, true);
    return { approval, received };
  }

  /** Owner: what the wallet holds and how it is set (never a token, never the wallet's key). */
  async ownerView(): Promise<{ [key: string]: unknown }> {
    const rails = this.rails;
    const out: { [key: string]: unknown } = {
      available: this.available() === true,
      limits: { per_payment_sats: rails.limits().perPaymentSats, daily_sats: rails.limits().dailySats },
      spent_today_sats: rails.spentToday(),
      spenders: rails.spenders(),
      approvals: rails.list(),
    };
    if (this.available() !== true) return out;
    const wallet = await this.ready();
    const c = wallet.config();
    return {
      ...out,
      allowed_mints: c.allowed,
      mints: c.mints,
      public_mints: c.publicMints,
      balance: wallet.balance(),
      pending_ops: wallet.pendingOps(),
    };
  }

  /** Owner: the allow-list of mints. */
  async setAllowedMints(urls: string[]): Promise<string[]> {
    const wallet = await this.ready();
    return (await wallet.setAllowedMints(urls)).allowed;
  }

  private hold(token: string, by: string, source: string): WalletApprovalView {
    if (this.available() !== true) throw new HaloError("not-configured", "this device has no wallet.");
    const meta = this.kit().tokenMint(token);
    return this.rails.holdToken(token, meta.amount, meta.mint, by, source);
  }

  private async gated<T>(gate: GateResult, work: () => Promise<T>): Promise<Gated<T>> {
    if (!gate.go) return { waiting: gate.approval };
    return { done: await work() };
  }
}
