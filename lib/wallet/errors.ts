// The wallet's failures. A mint that refused a request (an HTTP 400 with a NUT error code) did nothing, so the
// operation is rolled back at once; any other failure of a mint call (no answer, a timeout, a 5xx, an answer
// the wallet could not read) leaves the operation journaled for recovery to settle by asking the mint.
import { type ErrorTag, HaloError } from "../errors";

/** The mint refused the request: nothing happened there. `code` is the NUT error code (0 when none). */
export class MintRefused extends HaloError {
  readonly code: number;

  constructor(tag: ErrorTag, sentence: string, code: number) {
    super(tag, sentence);
    this.code = code;
  }
}

/** NUT error codes the wallet names. */
export const NUT_PROOF_INVALID = 10001;
export const NUT_ALREADY_SPENT = 11001;
export const NUT_TRANSACTION_UNBALANCED = 11002;
export const NUT_PROOFS_PENDING = 11004;
export const NUT_OUTPUTS_ALREADY_SIGNED = 10002;
export const NUT_KEYSET_UNKNOWN = 12001;
export const NUT_KEYSET_INACTIVE = 12002;
export const NUT_QUOTE_NOT_PAID = 20001;
export const NUT_QUOTE_ALREADY_ISSUED = 20002;
export const NUT_QUOTE_PENDING = 20005;
export const NUT_INVOICE_ALREADY_PAID = 20006;
export const NUT_QUOTE_EXPIRED = 20007;

/** True when the failure says the mint refused (nothing happened), false when the outcome is unknown. */
export function isRefusal(e: unknown): e is MintRefused {
  return e instanceof MintRefused;
}

/** The sentence a caller reads for a refusal code (never the mint's own text, which may echo what it was sent). */
export function refusalFor(code: number): { tag: ErrorTag; sentence: string } {
  switch (code) {
    case NUT_ALREADY_SPENT:
      return { tag: "conflict", sentence: "the mint says a proof was already spent." };
    case NUT_PROOF_INVALID:
      return { tag: "invalid", sentence: "the mint refused a proof as not valid." };
    case NUT_KEYSET_UNKNOWN:
      return { tag: "invalid", sentence: "the mint does not know the keyset of a proof." };
    case NUT_KEYSET_INACTIVE:
      return { tag: "invalid", sentence: "a proof's keyset is no longer active at the mint." };
    case NUT_TRANSACTION_UNBALANCED:
      return { tag: "invalid", sentence: "the mint found inputs and outputs unbalanced." };
    case NUT_OUTPUTS_ALREADY_SIGNED:
      return { tag: "conflict", sentence: "the mint already signed these outputs." };
    case NUT_PROOFS_PENDING:
      return { tag: "busy", sentence: "a proof is pending at the mint." };
    case NUT_QUOTE_NOT_PAID:
      return { tag: "conflict", sentence: "the quote is not paid yet." };
    case NUT_QUOTE_ALREADY_ISSUED:
      return { tag: "conflict", sentence: "the quote's ecash was already issued." };
    case NUT_QUOTE_PENDING:
      return { tag: "busy", sentence: "the quote is pending at the mint." };
    case NUT_INVOICE_ALREADY_PAID:
      return { tag: "conflict", sentence: "the invoice was already paid." };
    case NUT_QUOTE_EXPIRED:
      return { tag: "conflict", sentence: "the quote has expired." };
    default:
      return { tag: "refused", sentence: `the mint refused the request (code ${code}).` };
  }
}
