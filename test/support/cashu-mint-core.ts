// A stand-in Cashu mint for tests, with no Node imports so that it runs on the XS host too: the NUT HTTP API
// (01 keys, 02 keysets, 03 swap, 04 mint quote and mint over a fake Lightning backend the test pays, 05 melt
// quote and melt with a fake payment and NUT-08 change, 06 info, 07 check state, 09 restore, 12 DLEQ) as a
// request handler, on cashu-ts's mint-side cryptography: blind signatures are real, and a double spend, a
// forged proof, an unknown keyset or an output signed twice is refused with its NUT error code.
// test/support/cashu-mint.ts serves it on loopback; cashu-mint-client.ts calls it in-process.
import {
  createBlindSignature,
  createDLEQProof,
  createNewMintKeys,
  hashToCurve,
  pointFromHex,
  verifyUnblindedSignature,
} from "@cashu/cashu-ts";
import { toHex } from "../../lib/util/hash.ts";

export interface MintAnswer {
  status: number;
  body: string;
}

export type MintEndpoint = "info" | "keys" | "keysets" | "swap" | "mint-quote" | "mint" | "melt-quote" | "melt" | "checkstate" | "restore";

/** What a test makes the next payment do: pay, stay pending until settleMelt, or fail. */
export type PaymentOutcome = "paid" | "pending" | "failed";

interface Signed {
  id: string;
  amount: number;
  C_: string;
  dleq?: { e: string; s: string };
}

interface MeltRecord {
  amount: number;
  fee: number;
  request: string;
  state: "UNPAID" | "PENDING" | "PAID";
  expiry: number;
  change: Signed[];
  inputs: string[];
  /** The blank outputs (NUT-08) and what the inputs brought, kept while a payment is pending. */
  blanks: { B_: string }[];
  total: number;
  preimage?: string;
}

interface Proof {
  id: string;
  amount: number;
  secret: string;
  C: string;
}

class Refusal extends Error {
  constructor(
    readonly code: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export interface StandInMintOptions {
  /** Milliseconds since the epoch (quote expiries). */
  now: () => number;
  /** Seed of the keyset (so keyset ids are the same on every run and engine). */
  seed?: Uint8Array;
  /** Keys 1, 2, 4 ... 2^(height-1). */
  height?: number;
  inputFeePpk?: number;
  /** Lightning fee a payment really costs (at most the quote's fee reserve). */
  lightningFee?: number;
  /** Mint quotes are paid as they are made (the crash test's fake Lightning pays at once). */
  autoPay?: boolean;
  /** NUT-12 DLEQ proofs on signatures (default true; the crash test turns them off to save both sides' work). */
  dleq?: boolean;
}

export class StandInMint {
  readonly keysetId: string;
  private readonly priv: { [amount: string]: Uint8Array };
  private readonly pub: { [amount: string]: string };
  private readonly signed = new Map<string, Signed>();
  private readonly spent = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly mintQuotes = new Map<string, { amount: number; request: string; state: "UNPAID" | "PAID" | "ISSUED"; expiry: number }>();
  private readonly meltQuotes = new Map<string, MeltRecord>();
  private readonly paidInvoices = new Set<string>();
  private seq = 0;
  /** Sats the mint signed for and sats it saw spent: what it owes is the difference (liabilities()). */
  issuedSats = 0;
  spentSats = 0;
  /** Sats issued for paid mint quotes (Lightning in). */
  lightningInSats = 0;
  /** Sats paid out over Lightning (amount and real fee), input fees and change the blanks could not carry. */
  paidOutSats = 0;
  /** What the next melt's payment does. */
  nextPayment: PaymentOutcome = "paid";
  /** Whether signatures carry NUT-12 DLEQ proofs (StandInMintOptions.dleq; a bench turns it off midway). */
  dleq: boolean;

  constructor(private readonly options: StandInMintOptions) {
    this.dleq = options.dleq !== false;
    const keys = createNewMintKeys((options.height ?? 21) as 21, options.seed ?? new Uint8Array(32).fill(7), {
      input_fee_ppk: options.inputFeePpk ?? 0,
    });
    this.keysetId = keys.keysetId;
    this.priv = keys.privKeys;
    this.pub = {};
    for (const a of Object.keys(keys.pubKeys)) this.pub[a] = toHex(keys.pubKeys[a]);
  }

  /** The fake invoice of `sats` (bolt11's human-readable part: nano-bitcoin, 10 per sat). */
  invoice(sats: number): string {
    // The data part after bolt11's last "1" must hold no other "1": hex digits written in bech32's letters.
    const data = [...(++this.seq).toString(16).padStart(8, "0")].map((d) => "qpzry9x8gf2tvdw0"[parseInt(d, 16)]).join("");
    return `lnbc${sats * 10}n1p${data}`;
  }

  /** The test's Lightning payment of a mint quote's invoice. */
  payQuote(quote: string): void {
    const q = this.mintQuotes.get(quote);
    if (q && q.state === "UNPAID") q.state = "PAID";
  }

  /** Ends a pending payment: paid (inputs spent, change signed) or failed (inputs released). */
  settleMelt(quote: string, outcome: "paid" | "failed"): void {
    const q = this.meltQuotes.get(quote);
    if (q?.state !== "PENDING") return;
    for (const y of q.inputs) this.pending.delete(y);
    if (outcome === "failed") q.state = "UNPAID";
    else this.pay(q);
  }

  /** Sats of ecash the mint signed and has not seen spent. */
  liabilities(): number {
    return this.issuedSats - this.spentSats;
  }

  /** NUT-07 state of a secret. */
  stateOf(secret: string): "UNSPENT" | "PENDING" | "SPENT" {
    const y = hashToCurve(utf8(secret)).toHex(true);
    return this.spent.has(y) ? "SPENT" : this.pending.has(y) ? "PENDING" : "UNSPENT";
  }

  endpointOf(method: string, path: string): MintEndpoint | undefined {
    if (method === "GET" && path === "/v1/info") return "info";
    if (method === "GET" && /^\/v1\/keys(\/[0-9a-f]+)?$/.test(path)) return "keys";
    if (method === "GET" && path === "/v1/keysets") return "keysets";
    if (method === "POST" && path === "/v1/swap") return "swap";
    if (/^\/v1\/mint\/quote\/bolt11(\/[^/]+)?$/.test(path)) return "mint-quote";
    if (method === "POST" && path === "/v1/mint/bolt11") return "mint";
    if (/^\/v1\/melt\/quote\/bolt11(\/[^/]+)?$/.test(path)) return "melt-quote";
    if (method === "POST" && path === "/v1/melt/bolt11") return "melt";
    if (method === "POST" && path === "/v1/checkstate") return "checkstate";
    if (method === "POST" && path === "/v1/restore") return "restore";
    return undefined;
  }

  /** Answers one request (path without the query); never throws. */
  handle(method: string, path: string, bodyText: string): MintAnswer {
    try {
      const body = bodyText ? (JSON.parse(bodyText) as { [k: string]: unknown }) : {};
      const out = this.route(method, path, body);
      return out === undefined
        ? { status: 404, body: JSON.stringify({ detail: "not found" }) }
        : { status: 200, body: JSON.stringify(out) };
    } catch (e) {
      if (e instanceof Refusal) return { status: 400, body: JSON.stringify({ code: e.code, detail: e.detail }) };
      return { status: 400, body: JSON.stringify({ code: 10000, detail: "bad request" }) };
    }
  }

  private route(method: string, path: string, b: { [k: string]: unknown }): unknown {
    const endpoint = this.endpointOf(method, path);
    const tail = path.split("/").pop() ?? "";
    switch (endpoint) {
      case "info":
        return {
          name: "halo stand-in mint",
          pubkey: this.pub["1"],
          version: "standin/1",
          description: "a test mint",
          contact: [],
          nuts: {
            4: { methods: [{ method: "bolt11", unit: "sat" }], disabled: false },
            5: { methods: [{ method: "bolt11", unit: "sat" }], disabled: false },
            7: { supported: true },
            8: { supported: true },
            9: { supported: true },
            12: { supported: true },
          },
        };
      case "keys":
        if (tail !== "keys" && tail !== this.keysetId) throw new Refusal(12001, "keyset is not known");
        return {
          keysets: [{ id: this.keysetId, unit: "sat", active: true, input_fee_ppk: this.options.inputFeePpk ?? 0, keys: this.pub }],
        };
      case "keysets":
        return { keysets: [{ id: this.keysetId, unit: "sat", active: true, input_fee_ppk: this.options.inputFeePpk ?? 0 }] };
      case "swap":
        return this.swap(b);
      case "mint-quote":
        return method === "POST" ? this.newMintQuote(b) : this.mintQuoteState(tail);
      case "mint":
        return this.mint(b);
      case "melt-quote":
        return method === "POST" ? this.newMeltQuote(b) : this.meltQuoteState(tail);
      case "melt":
        return this.melt(b);
      case "checkstate":
        return {
          states: this.list(b.Ys).map((y) => ({
            Y: y,
            state: this.spent.has(String(y)) ? "SPENT" : this.pending.has(String(y)) ? "PENDING" : "UNSPENT",
            witness: null,
          })),
        };
      case "restore":
        return this.restore(b);
      default:
        return undefined;
    }
  }

  private list(v: unknown): unknown[] {
    if (!Array.isArray(v)) throw new Refusal(10000, "bad request");
    return v;
  }

  /** Checks inputs and returns their Y points; throws the NUT refusal of the first bad one. */
  private verifyInputs(raw: unknown): { ys: string[]; total: number } {
    const ys: string[] = [];
    let total = 0;
    for (const r of this.list(raw)) {
      const p = r as Proof;
      if (p.id !== this.keysetId) throw new Refusal(12001, "keyset is not known");
      const key = this.priv[String(p.amount)];
      if (!key || typeof p.secret !== "string" || typeof p.C !== "string") throw new Refusal(10001, "proof verification failed");
      let valid = false;
      try {
        valid = verifyUnblindedSignature({ C: pointFromHex(p.C), secret: utf8(p.secret), id: p.id }, key);
      } catch {
        valid = false;
      }
      if (!valid) throw new Refusal(10001, "proof verification failed");
      const y = hashToCurve(utf8(p.secret)).toHex(true);
      if (ys.includes(y)) throw new Refusal(11007, "duplicate inputs provided");
      if (this.spent.has(y)) throw new Refusal(11001, "token already spent");
      if (this.pending.has(y)) throw new Refusal(11004, "token is pending");
      ys.push(y);
      total += Number(p.amount);
    }
    if (ys.length === 0) throw new Refusal(11002, "no inputs");
    return { ys, total };
  }

  private fee(inputs: number): number {
    return Math.ceil(((this.options.inputFeePpk ?? 0) * inputs) / 1000);
  }

  /** Checks outputs (keyset, amount, not signed before); returns their total. */
  private checkOutputs(raw: unknown, amounts: boolean): { B_: string; amount: number }[] {
    const out: { B_: string; amount: number }[] = [];
    for (const r of this.list(raw)) {
      const o = r as { id: string; amount: number; B_: string };
      if (o.id !== this.keysetId) throw new Refusal(12001, "keyset is not known");
      if (amounts && !this.priv[String(o.amount)]) throw new Refusal(11002, "output amount not in keyset");
      if (this.signed.has(o.B_) || out.some((x) => x.B_ === o.B_)) throw new Refusal(10002, "blinded message already signed");
      pointFromHex(o.B_);
      out.push({ B_: o.B_, amount: Number(o.amount) });
    }
    return out;
  }

  private sign(B_: string, amount: number): Signed {
    const key = this.priv[String(amount)];
    const point = pointFromHex(B_);
    const sig = createBlindSignature(point, key, this.keysetId);
    const s: Signed = { id: this.keysetId, amount, C_: sig.C_.toHex(true) };
    if (this.dleq) {
      const dleq = createDLEQProof(point, key);
      s.dleq = { e: toHex(dleq.e), s: toHex(dleq.s) };
    }
    this.signed.set(B_, s);
    this.issuedSats += amount;
    return s;
  }

  private swap(b: { [k: string]: unknown }): unknown {
    const { ys, total } = this.verifyInputs(b.inputs);
    const outputs = this.checkOutputs(b.outputs, true);
    const out = outputs.reduce((n, o) => n + o.amount, 0);
    if (total - this.fee(ys.length) !== out) throw new Refusal(11002, "transaction is not balanced");
    for (const y of ys) this.spent.add(y);
    this.spentSats += total;
    return { signatures: outputs.map((o) => this.sign(o.B_, o.amount)) };
  }

  private newMintQuote(b: { [k: string]: unknown }): unknown {
    if (b.unit !== "sat") throw new Refusal(11005, "unit not supported");
    const amount = Number(b.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > 2 ** 21) throw new Refusal(11006, "amount outside limit");
    const id = `mq${(++this.seq).toString(16).padStart(8, "0")}`;
    this.mintQuotes.set(id, {
      amount,
      request: this.invoice(amount),
      state: this.options.autoPay ? "PAID" : "UNPAID",
      expiry: Math.floor(this.options.now() / 1000) + 3600,
    });
    return this.mintQuoteState(id);
  }

  private mintQuoteState(id: string): unknown {
    const q = this.mintQuotes.get(id);
    if (!q) throw new Refusal(20004, "quote not found");
    return { quote: id, request: q.request, amount: q.amount, unit: "sat", state: q.state, expiry: q.expiry };
  }

  private mint(b: { [k: string]: unknown }): unknown {
    const q = this.mintQuotes.get(String(b.quote));
    if (!q) throw new Refusal(20004, "quote not found");
    if (q.state === "UNPAID") throw new Refusal(20001, "quote not paid");
    if (q.state === "ISSUED") throw new Refusal(20002, "tokens already issued");
    const outputs = this.checkOutputs(b.outputs, true);
    if (outputs.reduce((n, o) => n + o.amount, 0) !== q.amount) throw new Refusal(11002, "outputs do not match the quote");
    q.state = "ISSUED";
    this.lightningInSats += q.amount;
    return { signatures: outputs.map((o) => this.sign(o.B_, o.amount)) };
  }

  private newMeltQuote(b: { [k: string]: unknown }): unknown {
    if (b.unit !== "sat") throw new Refusal(11005, "unit not supported");
    const m = /^lnbc(\d+)([munp]?)1/.exec(String(b.request));
    if (!m) throw new Refusal(20008, "invoice not understood");
    const scale: { [k: string]: number } = { m: 1e5, u: 100, n: 0.1, p: 0.0001, "": 1e8 };
    const amount = Math.ceil(Number(m[1]) * scale[m[2]]);
    const id = `me${(++this.seq).toString(16).padStart(8, "0")}`;
    this.meltQuotes.set(id, {
      amount,
      fee: Math.max(2, Math.ceil(amount / 100)),
      request: String(b.request),
      state: "UNPAID",
      expiry: Math.floor(this.options.now() / 1000) + 3600,
      change: [],
      inputs: [],
      blanks: [],
      total: 0,
    });
    return this.meltQuoteState(id);
  }

  private meltQuoteState(id: string): unknown {
    const q = this.meltQuotes.get(id);
    if (!q) throw new Refusal(20004, "quote not found");
    return {
      quote: id,
      request: q.request,
      amount: q.amount,
      fee_reserve: q.fee,
      unit: "sat",
      state: q.state,
      expiry: q.expiry,
      payment_preimage: q.preimage ?? null,
      ...(q.state === "PAID" ? { change: q.change } : {}),
    };
  }

  private melt(b: { [k: string]: unknown }): unknown {
    const id = String(b.quote);
    const q = this.meltQuotes.get(id);
    if (!q) throw new Refusal(20004, "quote not found");
    if (q.state === "PENDING") throw new Refusal(20005, "quote is pending");
    if (q.state === "PAID" || this.paidInvoices.has(q.request)) throw new Refusal(20006, "invoice already paid");
    const { ys, total } = this.verifyInputs(b.inputs);
    const blanks = this.checkOutputs(b.outputs ?? [], false);
    if (total - this.fee(ys.length) < q.amount + q.fee) throw new Refusal(11002, "inputs do not cover the amount and fee reserve");
    const outcome = this.nextPayment;
    this.nextPayment = "paid";
    if (outcome === "failed") return this.meltQuoteState(id);
    q.inputs = ys;
    q.blanks = blanks;
    q.total = total;
    if (outcome === "pending") {
      for (const y of ys) this.pending.add(y);
      q.state = "PENDING";
      return this.meltQuoteState(id);
    }
    this.pay(q);
    return this.meltQuoteState(id);
  }

  /** Pays a melt quote: inputs spent, the invoice paid, the change signed onto the blank outputs (NUT-08). */
  private pay(q: MeltRecord): void {
    const blanks = q.blanks.slice();
    const total = q.total;
    const realFee = Math.min(this.options.lightningFee ?? 1, q.fee);
    for (const y of q.inputs) this.spent.add(y);
    this.spentSats += total;
    this.paidOutSats += q.amount + realFee;
    this.paidInvoices.add(q.request);
    const inputFee = this.fee(q.inputs.length);
    this.paidOutSats += inputFee;
    let change = total - inputFee - q.amount - realFee;
    for (let bit = 2 ** 20; bit >= 1 && change > 0; bit /= 2) {
      while (change >= bit && blanks.length > 0 && this.priv[String(bit)]) {
        q.change.push(this.sign(blanks.shift()!.B_, bit));
        change -= bit;
      }
    }
    // Change the blanks could not carry stays with the mint, as a real mint's would.
    this.paidOutSats += change;
    q.state = "PAID";
    q.preimage = toHex(utf8(q.request).slice(0, 32));
  }

  private restore(b: { [k: string]: unknown }): unknown {
    const outputs: unknown[] = [];
    const signatures: Signed[] = [];
    for (const r of this.list(b.outputs)) {
      const s = this.signed.get((r as { B_: string }).B_);
      if (s) {
        outputs.push(r);
        signatures.push(s);
      }
    }
    return { outputs, signatures, promises: signatures };
  }
}
