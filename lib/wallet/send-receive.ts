// Sending a token (amount -> token) and receiving one (token -> proofs), each journaled before the swap it
// asks the mint for: the begin record names the inputs and every blinded output with its blinding factor,
// the commit record the proofs that came back. A refusal by the mint rolls the operation back; a call that
// ends without a readable answer is settled at once by asking the mint (./recovery), and stays journaled
// when the mint cannot say.
import { HaloError } from "../errors";
import { allowedMint, begin, checkAmount, exactProofs, held, newOpId, spendable, sum, type WalletCore, write } from "./core";
import { isRefusal } from "./errors";
import type { PendingOp, SentToken } from "./ledger-state";
import { fromHex } from "../util/hash";
import { decodeUtf8 } from "../util/utf8";
import {
  WALLET_BALANCE_MAX_SATS,
  WALLET_MEMO_MAX_CHARS,
  WALLET_PROOFS_MAX,
  WALLET_TOKEN_MAX_CHARS,
  WALLET_TOKEN_PROOFS_MAX,
} from "./limits";
import { settleOp } from "./recovery";
import type { PreparedSwap, RoleOutput, StoredProof } from "./types";

export interface SendResult {
  token: string;
  mint: string;
  amount: number;
  /** Sats the mint charged for the swap (0 when proofs of the exact amount were at hand). */
  fee: number;
}

export interface ReceiveResult {
  mint: string;
  /** Sats added to the wallet (the token's amount less the mint's fee). */
  amount: number;
  fee: number;
}

function pendingOp(core: WalletCore, kind: PendingOp["kind"], prepared: PreparedSwap, amount: number, memo?: string): PendingOp {
  return {
    op: newOpId(core),
    kind,
    mint: prepared.mint,
    at: core.clock.now(),
    amount,
    inputs: prepared.inputs,
    outputs: prepared.outputs,
    keysetId: prepared.keysetId,
    fee: prepared.fee,
    ...(memo ? { memo } : {}),
  };
}

/** A swap's proofs by role; `settled` when recovery already committed them (the mint's answer was lost). */
export interface SwapOutcome {
  keep: StoredProof[];
  send: StoredProof[];
  settled: boolean;
}

/** The proofs of `op`'s outputs of `role` that the wallet now holds, or undefined when any is missing. */
function heldOutputs(core: WalletCore, op: PendingOp, role: RoleOutput["role"]): StoredProof[] | undefined {
  const out: StoredProof[] = [];
  for (const o of op.outputs) {
    if (o.role !== role) continue;
    const p = core.ledger.state.proofs.get(decodeUtf8(fromHex(o.secret)));
    if (!p) return undefined;
    const { mint: _m, ...proof } = p;
    out.push(proof);
  }
  return out;
}

/**
 * Sends the swap of a journaled operation. A refusal rolls it back. A call that ends without a readable answer
 * is settled at once by asking the mint (./recovery): when the mint did swap, its outputs are in the wallet and
 * come back here as `settled`, so the caller still finishes (a send still hands out its token).
 */
export async function runSwap(core: WalletCore, op: PendingOp): Promise<SwapOutcome> {
  try {
    const r = await core.kit.swap({ mint: op.mint, keysetId: op.keysetId, inputs: op.inputs, outputs: op.outputs, fee: op.fee });
    return { ...r, settled: false };
  } catch (e) {
    if (isRefusal(e)) {
      write(core, { t: "abort", op: op.op });
      throw e;
    }
    const outcome = await settleOp(core, op).catch(() => "pending" as const);
    if (outcome === "committed") {
      const keep = heldOutputs(core, op, "keep");
      const send = heldOutputs(core, op, "send");
      if (keep && send) return { keep, send, settled: true };
      throw new HaloError("unavailable", "the mint did not answer; the operation was settled from the mint's records, check the balance.");
    }
    if (outcome === "aborted")
      throw new HaloError("unavailable", "the mint did not answer and did not act on the request; nothing was spent.");
    throw new HaloError("unavailable", "the mint did not answer; the sats stay reserved until recovery settles the operation.");
  }
}

/** The mint to send from: the one asked for, or the first wallet mint (then any other) that holds enough. */
function mintFor(core: WalletCore, amount: number, asked: string | undefined): string {
  if (asked !== undefined) return allowedMint(core, asked);
  const { mints, allowed } = core.ledger.state.config;
  const candidates = [...mints, ...allowed.filter((m) => !mints.includes(m))].filter((m) => allowed.includes(m));
  for (const m of candidates) if (sum(spendable(core, m)) >= amount) return m;
  throw new HaloError("invalid-arguments", "no allowed mint holds enough sats for that amount.");
}

export async function sendToken(core: WalletCore, amountArg: unknown, options: { mint?: string; memo?: string }): Promise<SendResult> {
  const amount = checkAmount(amountArg);
  const memo = options.memo === undefined ? undefined : String(options.memo).slice(0, WALLET_MEMO_MAX_CHARS);
  const mint = mintFor(core, amount, options.mint);
  const proofs = spendable(core, mint);
  if (sum(proofs) < amount) throw new HaloError("invalid-arguments", "the balance at that mint does not cover the amount.");
  const exact = exactProofs(proofs, amount);
  if (exact && exact.length <= WALLET_TOKEN_PROOFS_MAX) {
    const sent: SentToken = { op: newOpId(core), mint, amount, proofs: exact.map(({ mint: _m, ...p }) => p), at: core.clock.now() };
    const token = core.kit.encodeToken(mint, sent.proofs, memo);
    write(core, { t: "give", sent });
    return { token, mint, amount, fee: 0 };
  }
  const prepared = await core.kit.prepareSend(
    mint,
    amount,
    proofs.map(({ mint: _m, ...p }) => p),
  );
  if (prepared.outputs.filter((o) => o.role === "send").length > WALLET_TOKEN_PROOFS_MAX) {
    throw new HaloError("limit", "that amount needs more proofs than one token carries.");
  }
  const op = pendingOp(core, "send", prepared, amount, memo);
  begin(core, op);
  const { keep, send, settled } = await runSwap(core, op);
  const sent: SentToken = { op: op.op, mint, amount: sum(send), proofs: send, at: core.clock.now() };
  const token = core.kit.encodeToken(mint, send, memo);
  // Settled by recovery: every output is already spendable, so the token's proofs leave the wallet as a give.
  write(core, settled ? { t: "give", sent } : { t: "commit", op: op.op, add: held(mint, keep), sent });
  return { token, mint, amount: sent.amount, fee: prepared.fee };
}

export async function receiveToken(core: WalletCore, tokenArg: unknown): Promise<ReceiveResult> {
  if (typeof tokenArg !== "string" || tokenArg.length > WALLET_TOKEN_MAX_CHARS || !/^cashu[AB]/.test(tokenArg.trim())) {
    throw new HaloError("invalid-arguments", `a token is a cashuA or cashuB string of at most ${WALLET_TOKEN_MAX_CHARS} characters.`);
  }
  const token = tokenArg.trim();
  const meta = core.kit.tokenMint(token);
  if (meta.unit !== "sat") throw new HaloError("invalid-arguments", "the wallet holds sats only; the token is in another unit.");
  const mint = allowedMint(core, meta.mint);
  checkAmount(meta.amount);
  const state = core.ledger.state;
  if (sum([...state.proofs.values()]) + meta.amount > WALLET_BALANCE_MAX_SATS)
    throw new HaloError("limit", "the token would take the balance past its bound.");
  const decoded = await core.kit.decodeToken(mint, token);
  if (decoded.proofs.length > WALLET_TOKEN_PROOFS_MAX)
    throw new HaloError("limit", `a token received carries at most ${WALLET_TOKEN_PROOFS_MAX} proofs.`);
  if (state.proofs.size + decoded.proofs.length > WALLET_PROOFS_MAX)
    throw new HaloError("full", "the wallet holds as many proofs as it may.");
  if (decoded.proofs.some((p) => state.proofs.has(p.secret)))
    throw new HaloError("conflict", "the wallet already holds that token's proofs.");
  const prepared = await core.kit.prepareReceive(mint, decoded.proofs);
  const op = pendingOp(core, "receive", prepared, sum(decoded.proofs));
  begin(core, op);
  const { keep, send, settled } = await runSwap(core, op);
  if (!settled) write(core, { t: "commit", op: op.op, add: held(mint, [...keep, ...send]) });
  settleOwnToken(core, decoded.proofs);
  return { mint, amount: sum(keep) + sum(send), fee: prepared.fee };
}

/** A token the wallet sent and took back itself is no longer outstanding. */
function settleOwnToken(core: WalletCore, proofs: StoredProof[]): void {
  const secrets = new Set(proofs.map((p) => p.secret));
  const ops: string[] = [];
  for (const t of core.ledger.state.sent.values()) if (t.proofs.some((p) => secrets.has(p.secret))) ops.push(t.op);
  if (ops.length > 0) write(core, { t: "settled", ops });
}
