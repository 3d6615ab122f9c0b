// What every wallet operation shares: the card's ledger, the Cashu kit, the ports, the owner's allow-list
// check and the small helpers that read the ledger's state. Operations are functions over a WalletCore
// (./send-receive, ./lightning, ./recovery); CashuWallet (./wallet) runs them one at a time.
import { HaloError } from "../errors";
import type { Clock, Log, Random } from "../ports";
import { randomHexId } from "../util/id";
import type { Ledger } from "./ledger";
import type { LedgerRecord, PendingOp } from "./ledger-state";
import { WALLET_AMOUNT_MAX_SATS, WALLET_PENDING_OPS_MAX } from "./limits";
import type { CashuKit, HeldProof, StoredProof } from "./types";

export interface WalletCore {
  ledger: Ledger;
  kit: CashuKit;
  clock: Clock;
  random: Random;
  log: Log;
}

export function newOpId(core: WalletCore): string {
  return randomHexId(core.random, "op", 8);
}

export function write(core: WalletCore, record: LedgerRecord): void {
  core.ledger.append(record);
}

/** The mint's canonical URL, refused unless it is on the owner's allow-list. */
export function allowedMint(core: WalletCore, url: string): string {
  const mint = core.kit.normalizeMintUrl(url);
  if (!core.ledger.state.config.allowed.includes(mint)) throw new HaloError("not-allowed", "that mint is not on the owner's allow-list.");
  return mint;
}

/** An amount of sats an operation may move: a whole number from 1 to WALLET_AMOUNT_MAX_SATS. */
export function checkAmount(amount: unknown): number {
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1 || amount > WALLET_AMOUNT_MAX_SATS) {
    throw new HaloError("invalid-arguments", `an amount is a whole number of sats from 1 to ${WALLET_AMOUNT_MAX_SATS}.`);
  }
  return amount;
}

export function checkUnit(unit: unknown): void {
  if (unit !== undefined && unit !== "sat") throw new HaloError("invalid-arguments", 'the wallet holds sats only (unit "sat").');
}

/** Refuses a new operation while too many wait for recovery. */
export function roomForOp(core: WalletCore): void {
  if (core.ledger.state.ops.size >= WALLET_PENDING_OPS_MAX) {
    throw new HaloError("busy", "too many operations wait for their mint; run recovery first.");
  }
}

/** Spendable proofs at one mint, largest first. */
export function spendable(core: WalletCore, mint: string): HeldProof[] {
  const out: HeldProof[] = [];
  for (const p of core.ledger.state.proofs.values()) if (p.mint === mint) out.push(p);
  return out.sort((a, b) => b.amount - a.amount || (a.secret < b.secret ? -1 : 1));
}

export function sum(proofs: Array<{ amount: number }>): number {
  let n = 0;
  for (const p of proofs) n += p.amount;
  return n;
}

export function held(mint: string, proofs: StoredProof[]): HeldProof[] {
  return proofs.map((p) => ({ ...p, mint }));
}

/**
 * Proofs that add up to exactly `amount`, largest first (denominations are powers of two, so this finds one
 * whenever the wallet's proofs allow it without a swap); undefined when none do.
 */
export function exactProofs(proofs: HeldProof[], amount: number): HeldProof[] | undefined {
  const picked: HeldProof[] = [];
  let left = amount;
  for (const p of proofs) {
    if (p.amount <= left) {
      picked.push(p);
      left -= p.amount;
      if (left === 0) return picked;
    }
  }
  return undefined;
}

/** The journal entry of an operation about to call its mint. */
export function begin(core: WalletCore, op: PendingOp): void {
  roomForOp(core);
  write(core, { t: "begin", op });
}
