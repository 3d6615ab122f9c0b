// Lightning in and out: mint quotes (NUT-04: an invoice to pay, then ecash claimed for it) and melt quotes
// (NUT-05: ecash spent to pay an invoice, with NUT-08 change). Quotes are remembered on the card; claiming and
// paying are journaled before the mint is called, like every operation that spends or creates proofs.
import { HaloError } from "../errors";
import { allowedMint, begin, checkAmount, exactProofs, held, newOpId, spendable, sum, type WalletCore, write } from "./core";
import { isRefusal } from "./errors";
import type { PendingOp, QuoteRecord } from "./ledger-state";
import { WALLET_INVOICE_MAX_CHARS, WALLET_QUOTES_MAX } from "./limits";
import { settleOp } from "./recovery";
import { runSwap } from "./send-receive";
import type { CashuKit, MeltQuote, MintQuote } from "./types";

export interface ClaimResult {
  quote: string;
  mint: string;
  amount: number;
}

export interface PayResult {
  quote: string;
  mint: string;
  state: MeltQuote["state"];
  amount: number;
  /** Sats paid in Lightning fees (fee reserve less change); 0 while pending. */
  fee: number;
  preimage?: string;
}

/** The default mint for a quote: the one asked for, else the first wallet mint. */
function quoteMint(core: WalletCore, asked: string | undefined): string {
  if (asked !== undefined) return allowedMint(core, asked);
  const first = core.ledger.state.config.mints[0];
  if (first === undefined) throw new HaloError("not-configured", "the wallet has no mint yet (cashu_wallet_mints_set).");
  return allowedMint(core, first);
}

/** Remembers a quote, forgetting the oldest finished one when the card holds WALLET_QUOTES_MAX. */
function remember(core: WalletCore, record: QuoteRecord): void {
  const quotes = core.ledger.state.quotes;
  if (!quotes.has(record.quote.quote) && quotes.size >= WALLET_QUOTES_MAX) {
    const busy = new Set([...core.ledger.state.ops.values()].map((o) => o.quote));
    const done = [...quotes.values()]
      .filter((q) => !busy.has(q.quote.quote) && (q.quote.state === "ISSUED" || q.quote.state === "PAID" || q.kind === "melt"))
      .sort((a, b) => a.at - b.at)[0];
    const oldest = done ?? [...quotes.values()].filter((q) => !busy.has(q.quote.quote)).sort((a, b) => a.at - b.at)[0];
    if (!oldest) throw new HaloError("full", "too many quotes are open.");
    write(core, { t: "forget-quote", quote: oldest.quote.quote });
  }
  write(core, { t: "quote", record });
}

function known(core: WalletCore, quote: unknown, kind: QuoteRecord["kind"]): QuoteRecord {
  const q = typeof quote === "string" ? core.ledger.state.quotes.get(quote) : undefined;
  if (!q || q.kind !== kind) throw new HaloError("not-found", `no ${kind} quote by that id.`);
  return q;
}

/** Refuses a second claim or payment of a quote whose first still waits for recovery. */
function notInFlight(core: WalletCore, quote: string): void {
  for (const op of core.ledger.state.ops.values()) {
    if (op.quote === quote) throw new HaloError("busy", "that quote's operation waits for its mint; run recovery first.");
  }
}

export async function mintQuote(core: WalletCore, amountArg: unknown, mintArg: string | undefined): Promise<MintQuote> {
  const amount = checkAmount(amountArg);
  const mint = quoteMint(core, mintArg);
  const quote = await core.kit.createMintQuote(mint, amount);
  remember(core, { kind: "mint", quote, at: core.clock.now() });
  return quote;
}

export async function mintCheck(core: WalletCore, quoteArg: unknown): Promise<MintQuote> {
  const record = known(core, quoteArg, "mint");
  const quote = await core.kit.checkMintQuote(record.quote.mint, record.quote.quote);
  if (quote.state !== record.quote.state) remember(core, { kind: "mint", quote, at: record.at });
  return quote;
}

export async function mintClaim(core: WalletCore, quoteArg: unknown): Promise<ClaimResult> {
  const record = known(core, quoteArg, "mint");
  const { mint, quote: id, amount } = record.quote as MintQuote;
  allowedMint(core, mint);
  notInFlight(core, id);
  const state = await core.kit.checkMintQuote(mint, id);
  if (state.state === "UNPAID") throw new HaloError("conflict", "the quote is not paid yet.");
  if (state.state === "ISSUED") throw new HaloError("conflict", "the quote's ecash was already claimed.");
  const outputs = await core.kit.prepareMint(mint, amount);
  const op: PendingOp = {
    op: newOpId(core),
    kind: "mint",
    mint,
    at: core.clock.now(),
    amount,
    inputs: [],
    outputs,
    keysetId: outputs[0]?.blindedMessage.id ?? "",
    fee: 0,
    quote: id,
  };
  begin(core, op);
  try {
    const proofs = await core.kit.mint(mint, id, outputs);
    write(core, { t: "commit", op: op.op, add: held(mint, proofs), quoteState: "ISSUED" });
    return { quote: id, mint, amount: sum(proofs) };
  } catch (e) {
    if (isRefusal(e)) {
      write(core, { t: "abort", op: op.op });
      throw e;
    }
    const outcome = await settleOp(core, op).catch(() => "pending" as const);
    if (outcome === "committed") return { quote: id, mint, amount };
    throw new HaloError("unavailable", "the mint did not answer; the claim is settled at the next recovery.");
  }
}

export async function meltQuote(core: WalletCore, invoice: unknown, mintArg: string | undefined): Promise<MeltQuote> {
  if (typeof invoice !== "string" || invoice.length < 4 || invoice.length > WALLET_INVOICE_MAX_CHARS || !/^ln/i.test(invoice)) {
    throw new HaloError("invalid-arguments", `a payment request is a Lightning invoice of at most ${WALLET_INVOICE_MAX_CHARS} characters.`);
  }
  const mint = quoteMint(core, mintArg);
  const quote = await core.kit.createMeltQuote(mint, invoice);
  checkAmount(quote.amount);
  remember(core, { kind: "melt", quote, at: core.clock.now() });
  return quote;
}

/** Proofs of exactly `need` sats at `mint`, swapping first (a journaled split) when none add up. */
async function exactInputs(core: WalletCore, mint: string, need: number): Promise<ReturnType<typeof spendable>> {
  const proofs = spendable(core, mint);
  if (sum(proofs) < need)
    throw new HaloError("invalid-arguments", "the balance at that mint does not cover the invoice and its fee reserve.");
  const exact = exactProofs(proofs, need);
  if (exact) return exact;
  const prepared = await core.kit.prepareSend(
    mint,
    need,
    proofs.map(({ mint: _m, ...p }) => p),
  );
  const op: PendingOp = {
    op: newOpId(core),
    kind: "split",
    mint,
    at: core.clock.now(),
    amount: need,
    inputs: prepared.inputs,
    outputs: prepared.outputs,
    keysetId: prepared.keysetId,
    fee: prepared.fee,
  };
  begin(core, op);
  const { keep, send, settled } = await runSwap(core, op);
  if (!settled) write(core, { t: "commit", op: op.op, add: held(mint, [...keep, ...send]) });
  const secrets = new Set(send.map((p) => p.secret));
  return spendable(core, mint).filter((p) => secrets.has(p.secret));
}

export async function meltPay(core: WalletCore, quoteArg: unknown): Promise<PayResult> {
  const record = known(core, quoteArg, "melt");
  const quote = record.quote as MeltQuote;
  const mint = allowedMint(core, quote.mint);
  if (quote.state !== "UNPAID") throw new HaloError("conflict", "that quote is already paid or pending.");
  notInFlight(core, quote.quote);
  const inputs = (await exactInputs(core, mint, quote.amount + quote.feeReserve)).map(({ mint: _m, ...p }) => p);
  const outputs = await core.kit.prepareMelt(mint, quote, inputs);
  const op: PendingOp = {
    op: newOpId(core),
    kind: "melt",
    mint,
    at: core.clock.now(),
    amount: quote.amount,
    inputs,
    outputs,
    keysetId: outputs[0]?.blindedMessage.id ?? "",
    fee: 0,
    quote: quote.quote,
    meltQuote: quote,
  };
  begin(core, op);
  let result: Awaited<ReturnType<CashuKit["melt"]>>;
  try {
    result = await core.kit.melt(mint, quote, inputs, outputs);
  } catch (e) {
    if (isRefusal(e)) {
      write(core, { t: "abort", op: op.op });
      throw e;
    }
    const outcome = await settleOp(core, op).catch(() => "pending" as const);
    const state = outcome === "committed" ? "PAID" : outcome === "aborted" ? "UNPAID" : "PENDING";
    if (state === "UNPAID") throw new HaloError("unavailable", "the mint did not answer and did not pay; nothing was spent.");
    return { quote: quote.quote, mint, state, amount: quote.amount, fee: 0 };
  }
  const paid = result.quote.state;
  if (paid === "PAID") {
    write(core, { t: "commit", op: op.op, add: held(mint, result.change), quoteState: "PAID" });
    const fee = sum(inputs) - quote.amount - sum(result.change);
    return {
      quote: quote.quote,
      mint,
      state: paid,
      amount: quote.amount,
      fee,
      ...(result.quote.preimage ? { preimage: result.quote.preimage } : {}),
    };
  }
  if (paid === "UNPAID") {
    write(core, { t: "abort", op: op.op });
    throw new HaloError("failed", "the mint could not pay the invoice; nothing was spent.");
  }
  return { quote: quote.quote, mint, state: paid, amount: quote.amount, fee: 0 };
}
