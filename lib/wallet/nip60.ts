// NIP-60 (Cashu wallets on relays) and NIP-61's nutzap info, built and read here: the wallet event (kind
// 17375: the wallet's P2PK key and mints), token events (7375: unspent proofs of one mint, with the ids of the
// token events they replace in `del`), NIP-09 deletions of rolled-over token events (kind 5 with a `k` tag of
// 7375) and spending history (7376). Contents are NIP-44 encrypted to the device's own key through the
// WalletSigner; what is read back is checked field by field before the wallet uses it.
import { toJson } from "../util/json";
import { WALLET_MINT_URL_MAX_CHARS, WALLET_MINTS_MAX, WALLET_TOKEN_EVENT_PROOFS_MAX, WALLET_UNIT } from "./limits";
import type { StoredProof, WalletEvent, WalletSigner } from "./types";

export const KIND_DELETION = 5;
export const KIND_WALLET = 17375;
export const KIND_TOKEN = 7375;
export const KIND_HISTORY = 7376;
export const KIND_NUTZAP_INFO = 10019;

const HEX = /^[0-9a-f]+$/;

function seconds(nowMs: number): number {
  return Math.floor(nowMs / 1000);
}

export function walletEvent(signer: WalletSigner, privkey: string, mints: string[], nowMs: number): WalletEvent {
  const content: string[][] = [["privkey", privkey], ...mints.map((m) => ["mint", m])];
  return signer.sign({ kind: KIND_WALLET, content: signer.encryptToSelf(toJson(content)), tags: [], created_at: seconds(nowMs) });
}

export function tokenEvent(signer: WalletSigner, mint: string, proofs: StoredProof[], del: string[], nowMs: number): WalletEvent {
  const body = {
    mint,
    unit: WALLET_UNIT,
    proofs: proofs.map((p) => ({ id: p.id, amount: p.amount, secret: p.secret, C: p.C })),
    ...(del.length ? { del } : {}),
  };
  return signer.sign({ kind: KIND_TOKEN, content: signer.encryptToSelf(toJson(body)), tags: [], created_at: seconds(nowMs) });
}

export function deletionEvent(signer: WalletSigner, ids: string[], nowMs: number): WalletEvent {
  return signer.sign({
    kind: KIND_DELETION,
    content: "",
    tags: [...ids.map((id) => ["e", id]), ["k", String(KIND_TOKEN)]],
    created_at: seconds(nowMs),
  });
}

export function historyEvent(
  signer: WalletSigner,
  direction: "in" | "out",
  amount: number,
  created: string[],
  destroyed: string[],
  nowMs: number,
): WalletEvent {
  const content = [
    ["direction", direction],
    ["amount", String(amount)],
    ["unit", WALLET_UNIT],
    ...created.map((id) => ["e", id, "", "created"]),
    ...destroyed.map((id) => ["e", id, "", "destroyed"]),
  ];
  return signer.sign({ kind: KIND_HISTORY, content: signer.encryptToSelf(toJson(content)), tags: [], created_at: seconds(nowMs) });
}

/** NIP-61: the mints others may send nutzaps on, and the P2PK key (compressed, hex) they lock them to. */
export function nutzapInfoEvent(signer: WalletSigner, publicMints: string[], p2pkPubkey: string, nowMs: number): WalletEvent {
  const tags = [...publicMints.map((m) => ["mint", m, WALLET_UNIT]), ["pubkey", p2pkPubkey]];
  return signer.sign({ kind: KIND_NUTZAP_INFO, content: "", tags, created_at: seconds(nowMs) });
}

function decrypt(signer: WalletSigner, e: WalletEvent): unknown {
  try {
    return JSON.parse(signer.decryptFromSelf(e.content));
  } catch {
    return undefined;
  }
}

function isMintUrl(v: unknown): v is string {
  return typeof v === "string" && v.length <= WALLET_MINT_URL_MAX_CHARS && /^https?:\/\//.test(v);
}

export function parseWalletEvent(signer: WalletSigner, e: WalletEvent): { privkey?: string; mints: string[] } | undefined {
  if (e.kind !== KIND_WALLET || e.pubkey !== signer.pubkey) return undefined;
  const rows = decrypt(signer, e);
  if (!Array.isArray(rows)) return undefined;
  let privkey: string | undefined;
  const mints: string[] = [];
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    if (row[0] === "privkey" && typeof row[1] === "string" && row[1].length === 64 && HEX.test(row[1])) privkey = row[1];
    if (row[0] === "mint" && isMintUrl(row[1]) && mints.length < WALLET_MINTS_MAX && !mints.includes(row[1])) mints.push(row[1]);
  }
  return { privkey, mints };
}

function proofOf(v: unknown): StoredProof | undefined {
  if (!v || typeof v !== "object") return undefined;
  const p = v as { [k: string]: unknown };
  if (typeof p.id !== "string" || p.id.length > 66 || typeof p.secret !== "string" || p.secret.length > 1024) return undefined;
  if (typeof p.C !== "string" || p.C.length !== 66 || !HEX.test(p.C)) return undefined;
  if (typeof p.amount !== "number" || !Number.isSafeInteger(p.amount) || p.amount < 1) return undefined;
  return { id: p.id, amount: p.amount, secret: p.secret, C: p.C };
}

export interface TokenEventBody {
  mint: string;
  proofs: StoredProof[];
  del: string[];
}

/** A token event's proofs, or undefined when it is not the device's, does not decrypt or is malformed. */
export function parseTokenEvent(signer: WalletSigner, e: WalletEvent): TokenEventBody | undefined {
  if (e.kind !== KIND_TOKEN || e.pubkey !== signer.pubkey) return undefined;
  const body = decrypt(signer, e) as { mint?: unknown; unit?: unknown; proofs?: unknown; del?: unknown } | undefined;
  if (!body || typeof body !== "object" || !isMintUrl(body.mint)) return undefined;
  if (body.unit !== undefined && body.unit !== WALLET_UNIT) return undefined;
  if (!Array.isArray(body.proofs) || body.proofs.length > WALLET_TOKEN_EVENT_PROOFS_MAX) return undefined;
  const proofs: StoredProof[] = [];
  for (const raw of body.proofs) {
    const p = proofOf(raw);
    if (!p) return undefined;
    proofs.push(p);
  }
  const del = Array.isArray(body.del) ? body.del.filter((d): d is string => typeof d === "string" && d.length === 64 && HEX.test(d)) : [];
  return { mint: body.mint, proofs, del };
}

/** The public mints of the device's NIP-61 info event. */
export function parseNutzapInfo(signer: WalletSigner, e: WalletEvent): string[] {
  if (e.kind !== KIND_NUTZAP_INFO || e.pubkey !== signer.pubkey) return [];
  const mints: string[] = [];
  for (const t of e.tags)
    if (t[0] === "mint" && isMintUrl(t[1]) && mints.length < WALLET_MINTS_MAX && !mints.includes(t[1])) mints.push(t[1]);
  return mints;
}

/** The token-event ids a NIP-09 deletion of the device's names (only those marked with `k` 7375). */
export function deletedTokenIds(signer: WalletSigner, e: WalletEvent): string[] {
  if (e.kind !== KIND_DELETION || e.pubkey !== signer.pubkey) return [];
  if (!e.tags.some((t) => t[0] === "k" && t[1] === String(KIND_TOKEN))) return [];
  return e.tags.filter((t) => t[0] === "e" && typeof t[1] === "string").map((t) => t[1]);
}
