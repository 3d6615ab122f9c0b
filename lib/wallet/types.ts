// The wallet's data, as kept on the card and on relays, and the seams it is built with: the Cashu protocol
// (CashuKit, over @cashu/cashu-ts in ./cashu-kit) and the device's Nostr identity and relays, which the
// caller passes in so lib/wallet never imports lib/nostr.
import type { GuardedHttp } from "../net/outbound";
import type { Random } from "../ports";

/** A proof in the Cashu wire form (NUT-00), amounts as numbers. */
export interface StoredProof {
  /** Keyset id. */
  id: string;
  amount: number;
  secret: string;
  C: string;
  dleq?: { e: string; s: string; r?: string };
}

/** A proof the wallet holds, with the mint it belongs to. */
export interface HeldProof extends StoredProof {
  mint: string;
}

/**
 * One blinded output the wallet asked a mint to sign, with what unblinds it (cashu-ts's SerializedOutputData):
 * journaled before the request, so that a signature the mint gave and the wallet never read can be asked for
 * again (NUT-09 restore) and unblinded after a restart.
 */
export interface JournaledOutput {
  blindedMessage: { amount: string; B_: string; id: string };
  /** Decimal. */
  blindingFactor: string;
  /** Hex of the secret's bytes. */
  secret: string;
}

/** Who an output is for: kept in the wallet, handed out in a token, or melt change. */
export type OutputRole = "keep" | "send" | "change";

export interface RoleOutput extends JournaledOutput {
  role: OutputRole;
}

/** A swap the kit prepared: the inputs it chose and the outputs to ask for. */
export interface PreparedSwap {
  mint: string;
  keysetId: string;
  inputs: StoredProof[];
  outputs: RoleOutput[];
  fee: number;
}

export type ProofState = "UNSPENT" | "PENDING" | "SPENT";
export type MintQuoteState = "UNPAID" | "PAID" | "ISSUED";
export type MeltQuoteState = "UNPAID" | "PENDING" | "PAID";

export interface MintQuote {
  quote: string;
  mint: string;
  amount: number;
  /** The Lightning invoice to pay. */
  request: string;
  state: MintQuoteState;
  /** Seconds since the epoch, or undefined when the mint gives none. */
  expiry?: number;
}

export interface MeltQuote {
  quote: string;
  mint: string;
  amount: number;
  feeReserve: number;
  state: MeltQuoteState;
  expiry?: number;
  preimage?: string;
}

/** What NUT-06 says about a mint, trimmed to what a caller reads. */
export interface MintInfo {
  mint: string;
  name?: string;
  version?: string;
  description?: string;
  /** NUT numbers the mint lists, sorted. */
  nuts: number[];
}

/** A token read: its mint, unit and proofs (not yet ours). */
export interface DecodedToken {
  mint: string;
  unit: string;
  proofs: StoredProof[];
  memo?: string;
}

/** The signatures a restore found, each unblinded into a proof, with the index of its journaled output. */
export interface RestoredProof {
  index: number;
  proof: StoredProof;
}

/**
 * The Cashu protocol as the wallet uses it, over one mint per call. ./cashu-kit implements it with
 * @cashu/cashu-ts; every request goes through the HttpClient port. Every method rejects with a HaloError.
 */
export interface CashuKit {
  /** The canonical form of a mint URL; throws a HaloError("invalid-arguments") for anything else. */
  normalizeMintUrl(url: string): string;
  /** The mint, unit and amount a token names, read without the network; throws on a malformed token. */
  tokenMint(token: string): { mint: string; unit: string; amount: number };
  decodeToken(mint: string, token: string): Promise<DecodedToken>;
  /** A cashuB (v4) token. */
  encodeToken(mint: string, proofs: StoredProof[], memo: string | undefined): string;
  info(mint: string): Promise<MintInfo>;
  prepareSend(mint: string, amount: number, proofs: StoredProof[]): Promise<PreparedSwap>;
  prepareReceive(mint: string, proofs: StoredProof[]): Promise<PreparedSwap>;
  /** Sends the swap; the proofs of its outputs, by role. */
  swap(prepared: PreparedSwap): Promise<{ keep: StoredProof[]; send: StoredProof[] }>;
  createMintQuote(mint: string, amount: number): Promise<MintQuote>;
  checkMintQuote(mint: string, quote: string): Promise<MintQuote>;
  prepareMint(mint: string, amount: number): Promise<RoleOutput[]>;
  mint(mint: string, quote: string, outputs: RoleOutput[]): Promise<StoredProof[]>;
  createMeltQuote(mint: string, invoice: string): Promise<MeltQuote>;
  checkMeltQuote(mint: string, quote: string): Promise<MeltQuote>;
  /** NUT-08 blank outputs for the change of paying `quote` with `inputs`. */
  prepareMelt(mint: string, quote: MeltQuote, inputs: StoredProof[]): Promise<RoleOutput[]>;
  melt(mint: string, quote: MeltQuote, inputs: StoredProof[], outputs: RoleOutput[]): Promise<{ quote: MeltQuote; change: StoredProof[] }>;
  /** NUT-09: the signatures the mint already gave for these outputs, unblinded. */
  restore(mint: string, outputs: JournaledOutput[]): Promise<RestoredProof[]>;
  /** NUT-07, in the order given. */
  checkStates(mint: string, proofs: StoredProof[]): Promise<ProofState[]>;
  /** The compressed public key (hex) of the wallet's P2PK key, for the NIP-61 kind 10019 event. */
  publicKeyOf(privkeyHex: string): string;
}

/** A signed Nostr event, as relays carry it. */
export interface WalletEvent {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
  sig: string;
}

export interface WalletEventTemplate {
  kind: number;
  content: string;
  tags: string[][];
  created_at: number;
}

/**
 * The device's Nostr identity as the wallet needs it (the lead binds NostrIdentity): sign with the device's
 * key, and NIP-44 to its own public key. The secret key stays behind this interface.
 */
export interface WalletSigner {
  readonly pubkey: string;
  sign(template: WalletEventTemplate): WalletEvent;
  /** NIP-44 v2 encryption to the device's own public key. */
  encryptToSelf(plaintext: string): string;
  /** Throws when the payload does not decrypt. */
  decryptFromSelf(payload: string): string;
}

/** The owner's relays as the wallet needs them (the lead binds RelayPool). */
export interface WalletRelays {
  /** Publishes one event; true when at least one relay acknowledged it (an OK true). */
  publish(event: WalletEvent): Promise<boolean>;
  /** The device's own events of these kinds (each already verified by the relay layer), newest first. */
  queryOwn(kinds: number[], max: number, timeoutMs: number): Promise<WalletEvent[]>;
}

/**
 * Makes the Cashu kit: the host binds it to lib/wallet/cashu/kit.ts's createCashuKit, which is loaded at run
 * time and never preloaded (docs/wallet.md); undefined on a host without the library (the wallet's tools say so).
 */
export type WalletKitFactory = (deps: { http: GuardedHttp; random: Random }) => CashuKit;
