// The wallet's state as the fold of its card log: every change is one record, applied here in order. A record
// is the whole of one transition (an operation begun with the proofs it reserves, or ended with the proofs it
// adds and removes), so a torn write loses a transition whole and never half of one.
import type { HeldProof, MeltQuote, MintQuote, RoleOutput, StoredProof } from "./types";

export type OpKind = "send" | "receive" | "mint" | "melt" | "split";

/**
 * An operation journaled before its mint call: what it spends and what it asked for. Own inputs leave the
 * spendable proofs while it is open; a receive's inputs are the token's proofs, not yet the wallet's.
 */
export interface PendingOp {
  op: string;
  kind: OpKind;
  mint: string;
  /** Milliseconds since the epoch (the Clock port). */
  at: number;
  /** Sats the operation is about: sent, received, minted or paid (the quote's amount). */
  amount: number;
  inputs: StoredProof[];
  outputs: RoleOutput[];
  keysetId: string;
  fee: number;
  quote?: string;
  meltQuote?: MeltQuote;
  memo?: string;
}

/** A token handed out and not yet seen spent at its mint. */
export interface SentToken {
  op: string;
  mint: string;
  amount: number;
  proofs: StoredProof[];
  at: number;
}

/** A NIP-60 token event the relays acknowledged, and the proofs it holds. */
export interface TokenEventRef {
  id: string;
  mint: string;
  secrets: string[];
}

export interface WalletConfig {
  /** NIP-60 wallet mints (the first is the default for quotes). */
  mints: string[];
  /** NIP-61 public mints (kind 10019). */
  publicMints: string[];
  /** The owner's allow-list: no mint outside it is used. */
  allowed: string[];
  /** The wallet's own P2PK key (hex), NIP-60's `privkey`; never the device's Nostr key. */
  privkey?: string;
  /** The key (./sync configKey) of the mints and privkey the relays last acknowledged in kind 17375 and 10019. */
  published?: string;
}

export type QuoteRecord = { kind: "mint"; quote: MintQuote; at: number } | { kind: "melt"; quote: MeltQuote; at: number };

export type LedgerRecord =
  | { t: "begin"; op: PendingOp }
  | { t: "commit"; op: string; add: HeldProof[]; sent?: SentToken; quoteState?: string }
  | { t: "abort"; op: string }
  | { t: "give"; sent: SentToken }
  | { t: "spent"; secrets: string[] }
  | { t: "add"; proofs: HeldProof[] }
  | { t: "settled"; ops: string[] }
  | { t: "quote"; record: QuoteRecord }
  | { t: "forget-quote"; quote: string }
  | { t: "config"; config: WalletConfig }
  | { t: "events"; add: TokenEventRef[]; del: string[] }
  | { t: "snapshot"; state: LedgerSnapshot };

export interface LedgerState {
  /** Spendable proofs, by secret. */
  proofs: Map<string, HeldProof>;
  ops: Map<string, PendingOp>;
  sent: Map<string, SentToken>;
  quotes: Map<string, QuoteRecord>;
  config: WalletConfig;
  events: Map<string, TokenEventRef>;
}

/** The state as one JSON value: the first record of a compacted log. */
export interface LedgerSnapshot {
  proofs: HeldProof[];
  ops: PendingOp[];
  sent: SentToken[];
  quotes: QuoteRecord[];
  config: WalletConfig;
  events: TokenEventRef[];
}

export function emptyState(): LedgerState {
  return {
    proofs: new Map(),
    ops: new Map(),
    sent: new Map(),
    quotes: new Map(),
    config: { mints: [], publicMints: [], allowed: [] },
    events: new Map(),
  };
}

export function snapshotOf(s: LedgerState): LedgerSnapshot {
  return {
    proofs: [...s.proofs.values()],
    ops: [...s.ops.values()],
    sent: [...s.sent.values()],
    quotes: [...s.quotes.values()],
    config: s.config,
    events: [...s.events.values()],
  };
}

function fromSnapshot(snap: LedgerSnapshot): LedgerState {
  const s = emptyState();
  for (const p of snap.proofs) s.proofs.set(p.secret, p);
  for (const o of snap.ops) s.ops.set(o.op, o);
  for (const t of snap.sent) s.sent.set(t.op, t);
  for (const q of snap.quotes) s.quotes.set(q.quote.quote, q);
  for (const e of snap.events) s.events.set(e.id, e);
  s.config = snap.config;
  return s;
}

/** Own inputs of an operation: a receive's inputs belong to the token's sender until the swap. */
export function ownsInputs(op: PendingOp): boolean {
  return op.kind !== "receive" && op.kind !== "mint";
}

/** Applies one record; returns the state (a snapshot replaces it). Unknown or stale records change nothing. */
export function applyRecord(s: LedgerState, r: LedgerRecord): LedgerState {
  switch (r.t) {
    case "snapshot":
      return fromSnapshot(r.state);
    case "begin":
      if (ownsInputs(r.op)) for (const p of r.op.inputs) s.proofs.delete(p.secret);
      s.ops.set(r.op.op, r.op);
      return s;
    case "commit": {
      const op = s.ops.get(r.op);
      if (!op) return s;
      s.ops.delete(r.op);
      for (const p of r.add) s.proofs.set(p.secret, p);
      if (r.sent) s.sent.set(r.sent.op, r.sent);
      if (op.quote && s.quotes.has(op.quote) && r.quoteState) setQuoteState(s, op.quote, r.quoteState);
      return s;
    }
    case "abort": {
      const op = s.ops.get(r.op);
      if (!op) return s;
      s.ops.delete(r.op);
      if (ownsInputs(op)) for (const p of op.inputs) s.proofs.set(p.secret, { ...p, mint: op.mint });
      return s;
    }
    case "give":
      for (const p of r.sent.proofs) s.proofs.delete(p.secret);
      s.sent.set(r.sent.op, r.sent);
      return s;
    case "spent":
      for (const secret of r.secrets) s.proofs.delete(secret);
      return s;
    case "add":
      for (const p of r.proofs) s.proofs.set(p.secret, p);
      return s;
    case "settled":
      for (const op of r.ops) s.sent.delete(op);
      return s;
    case "quote":
      s.quotes.set(r.record.quote.quote, r.record);
      return s;
    case "forget-quote":
      s.quotes.delete(r.quote);
      return s;
    case "config":
      s.config = r.config;
      return s;
    case "events":
      for (const id of r.del) s.events.delete(id);
      for (const e of r.add) s.events.set(e.id, e);
      return s;
    default:
      return s;
  }
}

function setQuoteState(s: LedgerState, quote: string, state: string): void {
  const q = s.quotes.get(quote);
  if (!q) return;
  if (q.kind === "mint") s.quotes.set(quote, { ...q, quote: { ...q.quote, state: state as MintQuote["state"] } });
  else s.quotes.set(quote, { ...q, quote: { ...q.quote, state: state as MeltQuote["state"] } });
}
