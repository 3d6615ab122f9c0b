// Settling journaled operations by asking the mint: at boot for every operation the card holds open, and at
// once when a mint call ends without a readable answer. What the mint signed is asked for again (NUT-09
// restore) and unblinded with the journaled blinding factors; what it did not sign is judged from the state of
// the inputs (NUT-07) and of the quote (NUT-04/05): a receive or a paid mint quote is resumed with the same
// outputs, a send or a payment the mint never saw is rolled back. A mint that does not answer leaves the
// operation open for the next attempt; nothing is dropped on a guess.
import { errorTag } from "../errors";
import { held, sum, type WalletCore, write } from "./core";
import { isRefusal } from "./errors";
import type { PendingOp } from "./ledger-state";
import type { ProofState, StoredProof } from "./types";

/** How one operation ended: its proofs in the wallet, rolled back, or still waiting for the mint. */
export type Settlement = "committed" | "aborted" | "pending";

export interface RecoveryReport {
  committed: number;
  aborted: number;
  pending: number;
  /** Sats added to the wallet by committed operations. */
  recoveredSats: number;
}

/** The proofs of every journaled output the mint signed, in journal order (empty when it signed none). */
async function restored(core: WalletCore, op: PendingOp): Promise<StoredProof[]> {
  if (op.outputs.length === 0) return [];
  const found = await core.kit.restore(op.mint, op.outputs);
  return found.sort((a, b) => a.index - b.index).map((f) => f.proof);
}

function commit(core: WalletCore, op: PendingOp, add: StoredProof[], quoteState?: string): Settlement {
  write(core, { t: "commit", op: op.op, add: held(op.mint, add), ...(quoteState ? { quoteState } : {}) });
  return "committed";
}

function abort(core: WalletCore, op: PendingOp): Settlement {
  write(core, { t: "abort", op: op.op });
  return "aborted";
}

function all(states: ProofState[], state: ProofState): boolean {
  return states.every((s) => s === state);
}

async function settleSwap(core: WalletCore, op: PendingOp): Promise<Settlement> {
  const signed = await restored(core, op);
  // Signed: the swap happened. Every output is the wallet's, a send's too (its token was never handed out).
  if (signed.length > 0) return commit(core, op, signed);
  const states = await core.kit.checkStates(op.mint, op.inputs);
  if (states.includes("PENDING")) return "pending";
  if (all(states, "UNSPENT")) {
    if (op.kind !== "receive") return abort(core, op);
    // A receive the mint never saw: the token is still good, so the same swap is sent again.
    try {
      const r = await core.kit.swap({ mint: op.mint, keysetId: op.keysetId, inputs: op.inputs, outputs: op.outputs, fee: op.fee });
      return commit(core, op, [...r.keep, ...r.send]);
    } catch (e) {
      if (isRefusal(e)) return abort(core, op);
      throw e;
    }
  }
  // Inputs spent elsewhere and no output of ours signed: a receive's token was claimed by someone else; own
  // inputs that are still unspent come back.
  if (op.kind === "receive") return abort(core, op);
  return commit(
    core,
    op,
    op.inputs.filter((_, i) => states[i] === "UNSPENT"),
  );
}

async function settleMint(core: WalletCore, op: PendingOp): Promise<Settlement> {
  const signed = await restored(core, op);
  if (signed.length > 0) return commit(core, op, signed, "ISSUED");
  const quote = await core.kit.checkMintQuote(op.mint, op.quote ?? "");
  if (quote.state !== "PAID") {
    if (quote.state === "ISSUED") core.log.warn("wallet: a mint quote was issued to outputs this wallet did not journal");
    return abort(core, op);
  }
  // Paid and not issued: NUT-04 lets the same request be sent again.
  try {
    return commit(core, op, await core.kit.mint(op.mint, op.quote ?? "", op.outputs), "ISSUED");
  } catch (e) {
    if (isRefusal(e)) return abort(core, op);
    throw e;
  }
}

async function settleMelt(core: WalletCore, op: PendingOp): Promise<Settlement> {
  const quote = await core.kit.checkMeltQuote(op.mint, op.quote ?? "");
  if (quote.state === "PENDING") return "pending";
  if (quote.state === "PAID") return commit(core, op, await restored(core, op), "PAID");
  const states = await core.kit.checkStates(op.mint, op.inputs);
  if (states.includes("PENDING")) return "pending";
  if (all(states, "UNSPENT")) return abort(core, op);
  core.log.warn("wallet: a payment's inputs are spent but its quote is unpaid");
  return commit(
    core,
    op,
    op.inputs.filter((_, i) => states[i] === "UNSPENT"),
  );
}

/** Settles one journaled operation; rejects (and leaves it open) when the mint does not answer. */
export function settleOp(core: WalletCore, op: PendingOp): Promise<Settlement> {
  if (op.kind === "mint") return settleMint(core, op);
  if (op.kind === "melt") return settleMelt(core, op);
  return settleSwap(core, op);
}

/** Settles every open operation; one that cannot be settled now stays open and is counted as pending. */
export async function recoverAll(core: WalletCore): Promise<RecoveryReport> {
  const report: RecoveryReport = { committed: 0, aborted: 0, pending: 0, recoveredSats: 0 };
  for (const op of [...core.ledger.state.ops.values()]) {
    const before = sum([...core.ledger.state.proofs.values()]);
    let outcome: Settlement;
    try {
      outcome = await settleOp(core, op);
    } catch (e) {
      outcome = "pending";
      core.log.warn(`wallet: an operation waits for its mint (${errorTag(e) ?? "error"})`);
    }
    report[outcome]++;
    if (outcome === "committed") report.recoveredSats += sum([...core.ledger.state.proofs.values()]) - before;
  }
  return report;
}
