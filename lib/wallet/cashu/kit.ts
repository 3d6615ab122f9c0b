// CashuKit over @cashu/cashu-ts. lib/wallet/cashu/ holds every module of lib/ that imports it, so that what the
// library keeps at its top level stays out of the preloaded core (docs/wallet.md, "Preloading"). Every mint request goes through
// the HttpClient port (cashu-ts's customRequest); every blinding factor and secret comes from the Random port
// (./outputs); a failure leaves as a HaloError, a refusal by the mint as a MintRefused.
import {
  Amount,
  getDecodedToken,
  getEncodedToken,
  getPubKeyFromPrivKey,
  getTokenMetadata,
  Mint,
  normalizeMintUrl,
  pointFromHex,
  type MeltQuoteBolt11Response,
  type MintQuoteBolt11Response,
  type Proof,
  type SerializedBlindedSignature,
  Wallet,
} from "@cashu/cashu-ts";
import { HaloError } from "../../errors";
import type { GuardedHttp } from "../../net/outbound";
import type { Random } from "../../ports";
import { toHex } from "../../util/hash";
import { WALLET_UNIT } from "../limits";
import { installCashuGlobals } from "../shims";
import { kitError, nameableCashuErrors } from "./errors";
import { randomOutputCreator, toJournaled, toOutputData } from "./outputs";
import { mintRequest } from "./request";
import type {
  CashuKit,
  DecodedToken,
  JournaledOutput,
  MeltQuote,
  MeltQuoteState,
  MintInfo,
  MintQuote,
  MintQuoteState,
  PreparedSwap,
  ProofState,
  RestoredProof,
  RoleOutput,
  StoredProof,
} from "../types";

export interface CashuKitDeps {
  /** The guarded client (lib/net/outbound.ts): mints are named by tokens from outside. */
  http: GuardedHttp;
  random: Random;
  /** Deadline of one mint request (default WALLET_HTTP_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * Window of @noble/curves' table of base-point multiples, built at the first blinding and kept for the life
   * of the engine: 6 (noble's default) is about 350 KB of heap on the XS host, 4 about a third of that, each
   * step down slower per multiplication (docs/wallet.md has the figures). Undefined: noble's default.
   */
  baseTableWindow?: number;
}

/** secp256k1's generator, compressed: a point whose class is @noble/curves' Point (cashu-ts does not export it). */
const G_HEX = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";

/** A cashu-ts proof (amounts as Amount) in the stored form (numbers). */
function stored(p: Proof): StoredProof {
  const out: StoredProof = { id: p.id, amount: Amount.from(p.amount).toNumber(), secret: p.secret, C: p.C };
  if (p.dleq) out.dleq = p.dleq.r === undefined ? { e: p.dleq.e, s: p.dleq.s } : { e: p.dleq.e, s: p.dleq.s, r: p.dleq.r };
  return out;
}

function proof(p: StoredProof): Proof {
  return { id: p.id, amount: Amount.from(p.amount), secret: p.secret, C: p.C, ...(p.dleq ? { dleq: p.dleq } : {}) };
}

function numberOf(a: unknown): number {
  return a === undefined || a === null ? 0 : Amount.from(a as number).toNumber();
}

function mintQuoteOf(mint: string, q: MintQuoteBolt11Response): MintQuote {
  const state = String(q.state) as MintQuoteState;
  return { quote: q.quote, mint, amount: numberOf(q.amount), request: q.request, state, expiry: q.expiry ?? undefined };
}

function meltQuoteOf(mint: string, q: MeltQuoteBolt11Response): MeltQuote {
  const out: MeltQuote = {
    quote: q.quote,
    mint,
    amount: numberOf(q.amount),
    feeReserve: numberOf(q.fee_reserve),
    state: String(q.state) as MeltQuoteState,
    expiry: q.expiry ?? undefined,
  };
  if (q.payment_preimage) out.preimage = q.payment_preimage;
  return out;
}

/** The cashu-ts melt quote a prepared melt needs, from the stored one. */
function meltQuoteObject(q: MeltQuote): MeltQuoteBolt11Response {
  return {
    quote: q.quote,
    amount: Amount.from(q.amount),
    fee_reserve: Amount.from(q.feeReserve),
    state: q.state,
    expiry: q.expiry ?? 0,
    unit: WALLET_UNIT,
  } as unknown as MeltQuoteBolt11Response;
}

class CashuTsKit implements CashuKit {
  /** One cashu-ts Wallet per mint, keys loaded once (a failed load is forgotten, so the next call retries). */
  private readonly wallets = new Map<string, Promise<Wallet>>();

  constructor(private readonly deps: CashuKitDeps) {
    installCashuGlobals(deps.random);
    nameableCashuErrors();
    if (deps.baseTableWindow !== undefined) {
      const point = pointFromHex(G_HEX) as unknown as { constructor: { BASE: { precompute(w: number): unknown } } };
      point.constructor.BASE.precompute(deps.baseTableWindow);
    }
  }

  normalizeMintUrl(url: string): string {
    try {
      return normalizeMintUrl(url);
    } catch {
      throw new HaloError("invalid-arguments", "a mint URL is an http or https address without credentials, query or fragment.");
    }
  }

  tokenMint(token: string): { mint: string; unit: string; amount: number } {
    try {
      const meta = getTokenMetadata(token);
      return { mint: this.normalizeMintUrl(meta.mint), unit: meta.unit, amount: meta.amount.toNumber() };
    } catch {
      throw new HaloError("invalid-arguments", "the token is not a cashuA or cashuB token.");
    }
  }

  async decodeToken(mint: string, token: string): Promise<DecodedToken> {
    const w = await this.wallet(mint);
    try {
      const t = getDecodedToken(token, w.keyChain.getAllKeysetIds());
      return { mint: this.normalizeMintUrl(t.mint), unit: t.unit ?? WALLET_UNIT, proofs: t.proofs.map(stored), memo: t.memo };
    } catch {
      throw new HaloError("invalid-arguments", "the token does not decode against its mint's keysets.");
    }
  }

  encodeToken(mint: string, proofs: StoredProof[], memo: string | undefined): string {
    return getEncodedToken({ mint, unit: WALLET_UNIT, proofs: proofs.map(proof), ...(memo ? { memo } : {}) });
  }

  async info(mint: string): Promise<MintInfo> {
    const i = await this.call(() => new Mint(mint, { customRequest: mintRequest(this.deps.http, this.deps.timeoutMs) }).getInfo());
    const nuts = Object.keys(i.nuts ?? {})
      .map(Number)
      .filter((n) => Number.isInteger(n))
      .sort((a, b) => a - b);
    return { mint, name: i.name, version: i.version, description: i.description, nuts };
  }

  async prepareSend(mint: string, amount: number, proofs: StoredProof[]): Promise<PreparedSwap> {
    const w = await this.wallet(mint);
    const p = await this.call(() => w.prepareSwapToSend(amount, proofs.map(proof)));
    const outputs = [...toJournaled(p.keepOutputs ?? [], "keep"), ...toJournaled(p.sendOutputs ?? [], "send")];
    return { mint, keysetId: p.keysetId, inputs: p.inputs.map(stored), outputs, fee: p.fees.toNumber() };
  }

  async prepareReceive(mint: string, proofs: StoredProof[]): Promise<PreparedSwap> {
    const w = await this.wallet(mint);
    const p = await this.call(() => w.prepareSwapToReceive(proofs.map(proof)));
    return {
      mint,
      keysetId: p.keysetId,
      inputs: p.inputs.map(stored),
      outputs: toJournaled(p.keepOutputs ?? [], "keep"),
      fee: p.fees.toNumber(),
    };
  }

  async swap(prepared: PreparedSwap): Promise<{ keep: StoredProof[]; send: StoredProof[] }> {
    const w = await this.wallet(prepared.mint);
    const keep = prepared.outputs.filter((o) => o.role === "keep").map(toOutputData);
    const send = prepared.outputs.filter((o) => o.role === "send").map(toOutputData);
    const done = await this.call(() =>
      w.completeSwap({
        amount: Amount.zero(),
        fees: Amount.from(prepared.fee),
        keysetId: prepared.keysetId,
        inputs: prepared.inputs.map(proof),
        keepOutputs: keep,
        sendOutputs: send,
      }),
    );
    return { keep: done.keep.map(stored), send: done.send.map(stored) };
  }

  async createMintQuote(mint: string, amount: number): Promise<MintQuote> {
    const w = await this.wallet(mint);
    return mintQuoteOf(mint, await this.call(() => w.createMintQuoteBolt11(amount)));
  }

  async checkMintQuote(mint: string, quote: string): Promise<MintQuote> {
    const w = await this.wallet(mint);
    return mintQuoteOf(mint, await this.call(() => w.checkMintQuoteBolt11(quote)));
  }

  async prepareMint(mint: string, amount: number): Promise<RoleOutput[]> {
    const w = await this.wallet(mint);
    const keyset = w.getKeyset();
    return toJournaled(randomOutputCreator(this.deps.random).createRandomData(amount, keyset), "keep");
  }

  async mint(mint: string, quote: string, outputs: RoleOutput[]): Promise<StoredProof[]> {
    const w = await this.wallet(mint);
    const data = outputs.map(toOutputData);
    const proofs = await this.call(() =>
      w.completeMint({
        method: "bolt11",
        payload: { quote, outputs: data.map((o) => o.blindedMessage) },
        outputData: data,
        keysetId: outputs[0]?.blindedMessage.id ?? w.keysetId,
        quote: { quote } as MintQuoteBolt11Response,
      }),
    );
    return proofs.map(stored);
  }

  async createMeltQuote(mint: string, invoice: string): Promise<MeltQuote> {
    const w = await this.wallet(mint);
    return meltQuoteOf(mint, await this.call(() => w.createMeltQuoteBolt11(invoice)));
  }

  async checkMeltQuote(mint: string, quote: string): Promise<MeltQuote> {
    const w = await this.wallet(mint);
    return meltQuoteOf(mint, await this.call(() => w.checkMeltQuoteBolt11(quote)));
  }

  async prepareMelt(mint: string, quote: MeltQuote, inputs: StoredProof[]): Promise<RoleOutput[]> {
    const w = await this.wallet(mint);
    const preview = await this.call(() => w.prepareMelt("bolt11", meltQuoteObject(quote), inputs.map(proof)));
    return toJournaled(preview.outputData, "change");
  }

  async melt(
    mint: string,
    quote: MeltQuote,
    inputs: StoredProof[],
    outputs: RoleOutput[],
  ): Promise<{ quote: MeltQuote; change: StoredProof[] }> {
    const w = await this.wallet(mint);
    const data = outputs.map(toOutputData);
    const done = await this.call(() =>
      w.completeMelt({
        method: "bolt11",
        inputs: inputs.map(proof),
        outputData: data,
        keysetId: outputs[0]?.blindedMessage.id ?? w.keysetId,
        quote: meltQuoteObject(quote),
      }),
    );
    return { quote: meltQuoteOf(mint, done.quote as MeltQuoteBolt11Response), change: done.change.map(stored) };
  }

  async restore(mint: string, outputs: JournaledOutput[]): Promise<RestoredProof[]> {
    const w = await this.wallet(mint);
    const data = outputs.map(toOutputData);
    const answer = await this.call(() => w.mint.restore({ outputs: data.map((o) => o.blindedMessage) }));
    const byB = new Map<string, SerializedBlindedSignature>();
    answer.outputs.forEach((o, i) => {
      if (answer.signatures[i]) byB.set(o.B_, answer.signatures[i]);
    });
    const found: RestoredProof[] = [];
    data.forEach((o, index) => {
      const sig = byB.get(o.blindedMessage.B_);
      if (!sig) return;
      // Melt change is signed for amounts the blank outputs did not name: unblind with the signature's own.
      found.push({ index, proof: stored(o.toProof(sig, w.getKeyset(sig.id))) });
    });
    return found;
  }

  async checkStates(mint: string, proofs: StoredProof[]): Promise<ProofState[]> {
    const w = await this.wallet(mint);
    const states = await this.call(() => w.checkProofsStates(proofs.map((p) => ({ id: p.id, secret: p.secret }))));
    return states.map((s) => String(s.state) as ProofState);
  }

  publicKeyOf(privkeyHex: string): string {
    const bytes = new Uint8Array(32);
    for (let i = 0; i < 32; i++) bytes[i] = parseInt(privkeyHex.slice(i * 2, i * 2 + 2), 16);
    return toHex(getPubKeyFromPrivKey(bytes));
  }

  /** The loaded cashu-ts Wallet for `mint`: info and keysets fetched once. */
  private wallet(mint: string): Promise<Wallet> {
    let w = this.wallets.get(mint);
    if (!w) {
      const created = new Wallet(new Mint(mint, { customRequest: mintRequest(this.deps.http, this.deps.timeoutMs) }), {
        unit: WALLET_UNIT,
        outputDataCreator: randomOutputCreator(this.deps.random),
      });
      w = this.call(() => created.loadMint()).then(() => created);
      w.catch(() => this.wallets.delete(mint));
      this.wallets.set(mint, w);
    }
    return w;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      throw kitError(e);
    }
  }
}

/** The kit over @cashu/cashu-ts; installs the globals cashu-ts needs where the host lacks them (./shims). */
export function createCashuKit(deps: CashuKitDeps): CashuKit {
  return new CashuTsKit(deps);
}

// The device host loads this module at the wallet's first use with Modules.importNow, which returns a module's
// default export (hosts/device/wallet-kit.ts).
export default createCashuKit;
