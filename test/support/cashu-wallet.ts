// Building wallets for tests: a seeded Random, a wallet over a given HttpClient and card, the NIP-60 seam
// bound to lib/nostr's identity and relay pool (what the lead's wiring does), and a cashuA token made the
// old way (cashu-ts writes cashuB only).
import type { NostrIdentity } from "../../lib/nostr/identity.ts";
import type { RelayPool } from "../../lib/nostr/pool.ts";
import type { Clock, HttpClient, Log, Random, Storage } from "../../lib/ports.ts";
import { createCashuKit } from "../../lib/wallet/cashu/kit.ts";
import type { WalletNostr } from "../../lib/wallet/sync.ts";
import type { StoredProof } from "../../lib/wallet/types.ts";
import { CashuWallet } from "../../lib/wallet/wallet.ts";
import { mulberry32 } from "./prng.ts";

/** A Random port whose bytes follow `seed` (the same on Node and XS). */
export function seededRandom(seed: number): Random {
  const prng = mulberry32(seed);
  return {
    fill: (bytes) => {
      for (let i = 0; i < bytes.length; i++) bytes[i] = prng.nextUint32() & 0xff;
    },
  };
}

export function quietLog(lines: string[] = []): Log {
  return { info: (m) => void lines.push(m), warn: (m) => void lines.push(m) };
}

export interface WalletOptions {
  http: HttpClient;
  storage: Storage | undefined;
  random?: Random;
  clock?: Clock;
  log?: Log;
  nostr?: WalletNostr;
  timeoutMs?: number;
}

/** A wallet, opened (its card read), with `allowed` as the owner's allow-list and wallet mints. */
export async function openWallet(options: WalletOptions, allowed: string[] = []): Promise<CashuWallet> {
  const random = options.random ?? seededRandom(1);
  const wallet = new CashuWallet({
    kit: createCashuKit({ http: options.http, random, timeoutMs: options.timeoutMs }),
    storage: options.storage,
    clock: options.clock ?? { now: () => Date.UTC(2026, 10, 1) },
    random,
    log: options.log ?? quietLog(),
    nostr: options.nostr,
  });
  wallet.open();
  if (allowed.length > 0) {
    await wallet.setAllowedMints(allowed);
    if (wallet.config().mints.length === 0) await wallet.setMints("wallet", allowed);
  }
  return wallet;
}

/** The wallet's Nostr seam over the device's identity and relay pool. */
export function walletNostr(identity: NostrIdentity, pool: RelayPool, queryTimeoutMs?: number): WalletNostr {
  return {
    signer: {
      pubkey: identity.pubkey,
      sign: (t) => identity.sign(t),
      encryptToSelf: (text) => identity.nip44Encrypt(identity.pubkey, text),
      decryptFromSelf: (payload) => identity.nip44Decrypt(identity.pubkey, payload),
    },
    relays: {
      publish: async (event) => (await pool.publish(event)).some((o) => o.result === "ok"),
      queryOwn: (kinds, max, timeoutMs) => pool.query([{ kinds, authors: [identity.pubkey] }], queryTimeoutMs ?? timeoutMs, max),
    },
  };
}

/** A version-3 (cashuA) token: base64url of the JSON token. */
export function cashuAToken(mint: string, proofs: StoredProof[], memo?: string): string {
  const json = JSON.stringify({
    token: [{ mint, proofs: proofs.map((p) => ({ id: p.id, amount: p.amount, secret: p.secret, C: p.C })) }],
    unit: "sat",
    ...(memo ? { memo } : {}),
  });
  let b64 = "";
  const bytes = new TextEncoder().encode(json);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    b64 += alphabet[n >> 18] + alphabet[(n >> 12) & 63];
    if (i + 1 < bytes.length) b64 += alphabet[(n >> 6) & 63];
    if (i + 2 < bytes.length) b64 += alphabet[n & 63];
  }
  return `cashuA${b64}`;
}
