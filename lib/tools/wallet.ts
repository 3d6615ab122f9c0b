// wallet.*: the Cashu wallet (NIP-60), the seed's eleven cashu_wallet_* tools under Halo's names (the seed's
// spellings answer too: lib/registry/seed-names.ts). Only the owner and the principals the owner allows may
// use it; a payment over the owner's limits waits for their approval and is repeated with the approval's id;
// a token from anyone else waits for the owner (lib/wallet/rails.ts). Long calls stop waiting when the call is
// aborted; the journaled operation still ends or is recovered (docs/wallet.md).
import { toJson } from "../util/json";
import { defineTool } from "../registry/define";
import type { ToolContext, ToolResult } from "../registry/types";
import {
  WALLET_AMOUNT_MAX_SATS,
  WALLET_INVOICE_MAX_CHARS,
  WALLET_MEMO_MAX_CHARS,
  WALLET_MINT_URL_MAX_CHARS,
  WALLET_MINTS_MAX,
  WALLET_TOKEN_MAX_CHARS,
} from "../wallet/limits";
import type { WalletApprovalView } from "../wallet/rails";
import { type Gated, untilAborted, type WalletService } from "../wallet/service";
import type { CashuWallet } from "../wallet/wallet";

/** What the wallet tools work on. */
export interface WalletToolDeps {
  wallet: WalletService;
}

const MINT_URL = { type: "string", minLength: 8, maxLength: WALLET_MINT_URL_MAX_CHARS, description: "mint URL (http or https)" } as const;
const AMOUNT = { type: "integer", minimum: 1, maximum: WALLET_AMOUNT_MAX_SATS, description: "sats" } as const;
const QUOTE = { type: "string", minLength: 1, maxLength: 128, description: "a quote id from an earlier quote" } as const;
const APPROVAL = {
  type: "string",
  pattern: "^w[0-9a-f]{8}$",
  description: "the id of the owner's approval, when an earlier call said the payment waits for it",
} as const;
const MINT_LIST = { type: "array", items: MINT_URL, maxItems: WALLET_MINTS_MAX } as const;

const available = ({ wallet }: WalletToolDeps): true | string => wallet.available();

/** The booted wallet, for a caller who may use it. */
async function walletFor(ctx: ToolContext, wallet: WalletService): Promise<CashuWallet> {
  wallet.rails.assertMayUse(ctx.principal);
  return untilAborted(wallet.ready(), ctx.signal);
}

function json(value: unknown): ToolResult {
  return { text: toJson(value) };
}

function waiting(a: WalletApprovalView): ToolResult {
  const again = a.kind === "receive" ? "The owner redeems it if they approve." : `Once approved, call again with approval "${a.id}".`;
  return {
    text: `The ${a.kind === "receive" ? "token" : "payment"} of ${a.amount} sats waits for the owner's approval (${a.id}; ${a.why}). ${again}`,
    structured: { awaiting_approval: a.id, amount: a.amount },
  };
}

function gated<T>(r: Gated<T>, done: (v: T) => ToolResult): ToolResult {
  return "waiting" in r ? waiting(r.waiting) : done(r.done);
}

export const walletBalance = defineTool({
  name: "wallet.balance",
  needs: ["wallet"],
  available,
  effect: "read",
  description: "The Cashu wallet's balance in sats: spendable, pending, in tokens sent and not yet claimed, and per mint.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: async (_args, ctx, { wallet }: WalletToolDeps) => json((await walletFor(ctx, wallet)).balance()),
});

export const walletInfo = defineTool({
  name: "wallet.info",
  needs: ["wallet"],
  available,
  effect: "read",
  openWorld: true,
  description: "A mint's NUT-06 info (name, version, supported NUTs): mint_url, or the wallet's first mint.",
  inputSchema: { type: "object", properties: { mint_url: MINT_URL }, additionalProperties: false },
  handler: async (args, ctx, { wallet }: WalletToolDeps) =>
    json(await untilAborted((await walletFor(ctx, wallet)).info(args.mint_url), ctx.signal)),
});

export const walletMintQuote = defineTool({
  name: "wallet.mint_quote",
  needs: ["wallet"],
  available,
  effect: "write",
  openWorld: true,
  description: "Ask a mint for a Lightning invoice that, once paid, mints that many sats into the wallet (NUT-04).",
  inputSchema: {
    type: "object",
    properties: { amount: AMOUNT, unit: { type: "string", enum: ["sat"] }, mint_url: MINT_URL },
    required: ["amount"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { wallet }: WalletToolDeps) => {
    const w = await walletFor(ctx, wallet);
    return json(await untilAborted(w.mintQuote(args.amount, args.unit, args.mint_url), ctx.signal));
  },
});

export const walletMintCheck = defineTool({
  name: "wallet.mint_check",
  needs: ["wallet"],
  available,
  effect: "read",
  openWorld: true,
  description: "Whether a mint quote's invoice is paid (UNPAID, PAID or ISSUED).",
  inputSchema: { type: "object", properties: { quote: QUOTE }, required: ["quote"], additionalProperties: false },
  handler: async (args, ctx, { wallet }: WalletToolDeps) =>
    json(await untilAborted((await walletFor(ctx, wallet)).mintCheck(args.quote), ctx.signal)),
});

export const walletMintClaim = defineTool({
  name: "wallet.mint_claim",
  needs: ["wallet"],
  available,
  effect: "write",
  openWorld: true,
  description: "Claim the sats of a paid mint quote into the wallet (journaled; kept on the card and the owner's relays).",
  inputSchema: { type: "object", properties: { quote: QUOTE }, required: ["quote"], additionalProperties: false },
  handler: async (args, ctx, { wallet }: WalletToolDeps) =>
    json(await untilAborted((await walletFor(ctx, wallet)).mintClaim(args.quote), ctx.signal)),
});

export const walletMeltQuote = defineTool({
  name: "wallet.melt_quote",
  needs: ["wallet"],
  available,
  effect: "write",
  openWorld: true,
  description: "Ask a mint what paying a Lightning invoice costs (amount and fee reserve, NUT-05); pay it with wallet.melt_pay.",
  inputSchema: {
    type: "object",
    properties: {
      request: { type: "string", minLength: 1, maxLength: WALLET_INVOICE_MAX_CHARS, description: "a BOLT11 invoice" },
      mint_url: MINT_URL,
    },
    required: ["request"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { wallet }: WalletToolDeps) => {
    const w = await walletFor(ctx, wallet);
    return json(await untilAborted(w.meltQuote(args.request, args.mint_url), ctx.signal));
  },
});

export const walletMeltPay = defineTool({
  name: "wallet.melt_pay",
  needs: ["wallet"],
  available,
  effect: "act",
  openWorld: true,
  description:
    "Pay a melt quote's Lightning invoice from the wallet. Above the owner's per-payment or daily limit it waits for their approval; then call again with approval.",
  inputSchema: { type: "object", properties: { quote: QUOTE, approval: APPROVAL }, required: ["quote"], additionalProperties: false },
  handler: async (args, ctx, { wallet }: WalletToolDeps) => {
    wallet.rails.assertMayUse(ctx.principal);
    return gated(await untilAborted(wallet.pay(ctx.principal, args.quote, args.approval), ctx.signal), json);
  },
});

export const walletCheckProofs = defineTool({
  name: "wallet.check_proofs",
  needs: ["wallet"],
  available,
  effect: "write",
  openWorld: true,
  description: "Ask the mints which of the wallet's proofs are unspent, pending or spent (NUT-07); spent ones leave the wallet.",
  inputSchema: { type: "object", properties: { mint_url: MINT_URL }, additionalProperties: false },
  handler: async (args, ctx, { wallet }: WalletToolDeps) =>
    json(await untilAborted((await walletFor(ctx, wallet)).checkProofs(args.mint_url), ctx.signal)),
});

export const walletReceiveToken = defineTool({
  name: "wallet.receive_token",
  needs: ["wallet"],
  available,
  effect: "write",
  openWorld: true,
  description:
    "Receive a cashuA or cashuB token: its proofs are swapped at the mint for fresh ones in the wallet. From anyone but the owner and those they allow, the token waits for the owner.",
  inputSchema: {
    type: "object",
    properties: { token: { type: "string", minLength: 8, maxLength: WALLET_TOKEN_MAX_CHARS } },
    required: ["token"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { wallet }: WalletToolDeps) =>
    gated(await untilAborted(wallet.receive(ctx.principal, args.token), ctx.signal), (r) => ({
      text: `Received ${r.amount} sats from ${r.mint} (fee ${r.fee}).`,
      structured: { ...r },
    })),
});

export const walletSendToken = defineTool({
  name: "wallet.send_token",
  needs: ["wallet"],
  available,
  effect: "act",
  openWorld: true,
  description:
    "Make a cashuB token of that many sats from the wallet, for the caller to hand on. Above the owner's per-payment or daily limit it waits for their approval; then call again with approval.",
  inputSchema: {
    type: "object",
    properties: { amount: AMOUNT, mint_url: MINT_URL, memo: { type: "string", maxLength: WALLET_MEMO_MAX_CHARS }, approval: APPROVAL },
    required: ["amount"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { wallet }: WalletToolDeps) => {
    wallet.rails.assertMayUse(ctx.principal);
    const r = await untilAborted(
      wallet.send(ctx.principal, args.amount, { mint: args.mint_url, memo: args.memo, approval: args.approval }),
      ctx.signal,
    );
    return gated(r, (s) => ({ text: s.token, structured: { mint: s.mint, amount: s.amount, fee: s.fee } }));
  },
});

export const walletMintsSet = defineTool({
  name: "wallet.mints_set",
  needs: ["wallet"],
  available,
  adminOnly: true,
  effect: "write",
  description:
    "Set the wallet's mints (NIP-60, the first is the default), its public mints (NIP-61), or both; each must be on the owner's allow-list.",
  inputSchema: {
    type: "object",
    properties: { target: { type: "string", enum: ["wallet", "public", "both"] }, wallet_mints: MINT_LIST, public_mints: MINT_LIST },
    required: ["target"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { wallet }: WalletToolDeps) => {
    const w = await walletFor(ctx, wallet);
    const c = await untilAborted(w.setMints(args.target, args.wallet_mints, args.public_mints), ctx.signal);
    return json({ mints: c.mints, public_mints: c.publicMints });
  },
});

/** The seed's eleven cashu_wallet_* tools. */
export const WALLET_TOOLS = [
  walletBalance,
  walletInfo,
  walletMintQuote,
  walletMintCheck,
  walletMintClaim,
  walletMeltQuote,
  walletMeltPay,
  walletCheckProofs,
  walletReceiveToken,
  walletSendToken,
  walletMintsSet,
] as const;
