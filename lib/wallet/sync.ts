// The wallet on the owner's relays (NIP-60), with the card as the authority: after every change the proofs the
// card holds and no acknowledged token event covers are published, token events that hold a proof the
// wallet no longer has are rolled over (a new event with `del`, then a NIP-09 deletion), and only what a relay
// acknowledged is recorded on the card as published, so a crash before the acknowledgement means publishing
// again at the next sync. At boot, reconcile reads the relays back: a proof found there that the card does not
// know is added when its mint says it is unspent (another client of the same wallet, or a replaced card).
import { djb2Hex, toHex } from "../util/hash";
import { toJson } from "../util/json";
import { held, type WalletCore, write } from "./core";
import { ownsInputs, type TokenEventRef } from "./ledger-state";
import { WALLET_CHECK_BATCH, WALLET_RELAY_EVENTS_MAX, WALLET_RELAY_QUERY_TIMEOUT_MS, WALLET_TOKEN_EVENT_PROOFS_MAX } from "./limits";
import {
  deletedTokenIds,
  deletionEvent,
  historyEvent,
  KIND_DELETION,
  KIND_NUTZAP_INFO,
  KIND_TOKEN,
  KIND_WALLET,
  nutzapInfoEvent,
  parseNutzapInfo,
  parseTokenEvent,
  parseWalletEvent,
  tokenEvent,
  walletEvent,
} from "./nip60";
import type { HeldProof, StoredProof, WalletEvent, WalletRelays, WalletSigner } from "./types";

export interface WalletNostr {
  signer: WalletSigner;
  relays: WalletRelays;
}

export interface SyncReport {
  published: number;
  deleted: number;
  /** Events no relay acknowledged (tried again at the next sync). */
  unacknowledged: number;
}

export interface ReconcileReport extends SyncReport {
  tokenEvents: number;
  /** Proofs found on relays, unknown to the card and unspent at their mint: now in the wallet. */
  adoptedProofs: number;
  adoptedSats: number;
}

/** What the relays should hold: spendable proofs and the own inputs of open operations (unspent until settled). */
function walletProofs(core: WalletCore): Map<string, HeldProof> {
  const out = new Map(core.ledger.state.proofs);
  for (const op of core.ledger.state.ops.values())
    if (ownsInputs(op)) for (const p of op.inputs) out.set(p.secret, { ...p, mint: op.mint });
  return out;
}

function configKey(privkey: string, mints: string[], publicMints: string[]): string {
  return djb2Hex(toJson([privkey, mints, publicMints]));
}

/** secp256k1's group order in hex: a private key is a 64-hex-digit number below it (and not zero). */
const ORDER_HEX = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";

/** A new P2PK key for the wallet (NIP-60 `privkey`), from the Random port: never the device's Nostr key. */
function freshKey(core: WalletCore): string {
  const bytes = new Uint8Array(32);
  for (;;) {
    core.random.fill(bytes);
    const hex = toHex(bytes);
    if (hex < ORDER_HEX && hex !== "0".repeat(64)) return hex;
  }
}

async function publishConfig(core: WalletCore, nostr: WalletNostr, report: SyncReport): Promise<void> {
  if (core.ledger.state.config.mints.length === 0) return;
  if (!core.ledger.state.config.privkey) write(core, { t: "config", config: { ...core.ledger.state.config, privkey: freshKey(core) } });
  const config = core.ledger.state.config;
  if (!config.privkey) return;
  const key = configKey(config.privkey, config.mints, config.publicMints);
  if (config.published === key) return;
  const now = core.clock.now();
  const ok = await nostr.relays.publish(walletEvent(nostr.signer, config.privkey, config.mints, now));
  const info = await nostr.relays.publish(nutzapInfoEvent(nostr.signer, config.publicMints, core.kit.publicKeyOf(config.privkey), now));
  if (!ok || !info) {
    report.unacknowledged++;
    return;
  }
  report.published += 2;
  write(core, { t: "config", config: { ...core.ledger.state.config, published: key } });
}

/** Brings the relays up to the card's state; a change of `direction`/`amount` is also recorded as history. */
export async function syncRelays(
  core: WalletCore,
  nostr: WalletNostr,
  history?: { direction: "in" | "out"; amount: number },
): Promise<SyncReport> {
  const report: SyncReport = { published: 0, deleted: 0, unacknowledged: 0 };
  await publishConfig(core, nostr, report);
  const proofs = walletProofs(core);
  const events = [...core.ledger.state.events.values()];
  const stale = events.filter((e) => e.secrets.some((s) => !proofs.has(s)));
  const covered = new Set(events.filter((e) => !stale.includes(e)).flatMap((e) => e.secrets));
  const created: string[] = [];
  const mints = new Set([...proofs.values()].map((p) => p.mint).concat(stale.map((e) => e.mint)));
  const rolledOver: string[] = [];
  for (const mint of [...mints].sort()) {
    const fresh = [...proofs.values()].filter((p) => p.mint === mint && !covered.has(p.secret));
    const del = stale.filter((e) => e.mint === mint).map((e) => e.id);
    const added: TokenEventRef[] = [];
    let acked = true;
    for (let i = 0; i < fresh.length; i += WALLET_TOKEN_EVENT_PROOFS_MAX) {
      const chunk: StoredProof[] = fresh.slice(i, i + WALLET_TOKEN_EVENT_PROOFS_MAX).map(({ mint: _m, ...p }) => p);
      const event = tokenEvent(nostr.signer, mint, chunk, del, core.clock.now());
      if (await nostr.relays.publish(event)) added.push({ id: event.id, mint, secrets: chunk.map((p) => p.secret) });
      else acked = false;
    }
    report.published += added.length;
    report.unacknowledged += Math.ceil(fresh.length / WALLET_TOKEN_EVENT_PROOFS_MAX) - added.length;
    if (added.length > 0) write(core, { t: "events", add: added, del: [] });
    created.push(...added.map((e) => e.id));
    // A stale event is deleted only once its proofs that remain are on relays in an acknowledged event.
    if (acked) rolledOver.push(...del);
  }
  if (rolledOver.length > 0) {
    if (await nostr.relays.publish(deletionEvent(nostr.signer, rolledOver, core.clock.now()))) {
      write(core, { t: "events", add: [], del: rolledOver });
      report.deleted += rolledOver.length;
    } else report.unacknowledged++;
  }
  if (history && (created.length > 0 || rolledOver.length > 0)) {
    const ok = await nostr.relays.publish(
      historyEvent(nostr.signer, history.direction, history.amount, created, rolledOver, core.clock.now()),
    );
    if (ok) report.published++;
    else report.unacknowledged++;
  }
  return report;
}

/** Boot: relays and card merged (the card wins for what it knows), then the relays brought up to the card. */
export async function reconcile(core: WalletCore, nostr: WalletNostr): Promise<ReconcileReport> {
  const events = await nostr.relays.queryOwn(
    [KIND_WALLET, KIND_NUTZAP_INFO, KIND_TOKEN, KIND_DELETION],
    WALLET_RELAY_EVENTS_MAX,
    WALLET_RELAY_QUERY_TIMEOUT_MS,
  );
  const deleted = new Set(events.flatMap((e) => deletedTokenIds(nostr.signer, e)));
  const state = core.ledger.state;
  const newest = (kind: number): WalletEvent | undefined =>
    events.filter((e) => e.kind === kind).sort((a, b) => b.created_at - a.created_at)[0];
  const walletEv = newest(KIND_WALLET);
  const parsedWallet = walletEv ? parseWalletEvent(nostr.signer, walletEv) : undefined;
  const infoEv = newest(KIND_NUTZAP_INFO);
  const publicMints = infoEv ? parseNutzapInfo(nostr.signer, infoEv) : [];
  // The card's own key and lists win; a new card takes them from the relays.
  const config = { ...state.config };
  if (!config.privkey && parsedWallet?.privkey) config.privkey = parsedWallet.privkey;
  if (config.mints.length === 0 && parsedWallet && parsedWallet.mints.length > 0) config.mints = parsedWallet.mints;
  if (config.publicMints.length === 0 && publicMints.length > 0) config.publicMints = publicMints;
  const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  if (
    config.privkey &&
    parsedWallet?.privkey === config.privkey &&
    same(parsedWallet.mints, config.mints) &&
    infoEv &&
    same(publicMints, config.publicMints)
  ) {
    config.published = configKey(config.privkey, config.mints, config.publicMints); // the relays hold this very config
  }
  if (toJson(config) !== toJson(state.config)) write(core, { t: "config", config });
  const tokens = events.filter((e) => e.kind === KIND_TOKEN).map((e) => ({ e, body: parseTokenEvent(nostr.signer, e) }));
  for (const t of tokens) for (const d of t.body?.del ?? []) deleted.add(d);
  const mine = walletProofs(core);
  const given = new Set([...state.sent.values()].flatMap((s) => s.proofs.map((p) => p.secret)));
  const live = tokens.filter((t) => t.body !== undefined && !deleted.has(t.e.id));
  const unknown = new Map<string, StoredProof[]>();
  for (const { body } of live) {
    for (const p of body?.proofs ?? []) {
      if (!body || mine.has(p.secret) || given.has(p.secret)) continue;
      const list = unknown.get(body.mint) ?? [];
      if (!list.some((q) => q.secret === p.secret)) list.push(p);
      unknown.set(body.mint, list);
    }
  }
  let adoptedProofs = 0;
  let adoptedSats = 0;
  for (const [mint, proofs] of unknown) {
    if (!core.ledger.state.config.allowed.includes(mint)) continue;
    for (let i = 0; i < proofs.length; i += WALLET_CHECK_BATCH) {
      const batch = proofs.slice(i, i + WALLET_CHECK_BATCH);
      const states = await core.kit.checkStates(mint, batch);
      const unspent = batch.filter((_, j) => states[j] === "UNSPENT");
      if (unspent.length === 0) continue;
      write(core, { t: "add", proofs: held(mint, unspent) });
      adoptedProofs += unspent.length;
      for (const p of unspent) adoptedSats += p.amount;
    }
  }
  // Every live token event on the relays is now known to the card: the sync below keeps those whose proofs
  // the wallet holds and rolls over (deletes) those that list a proof it no longer has.
  const known = live
    .filter(({ e }) => !core.ledger.state.events.has(e.id))
    .map(({ e, body }) => ({ id: e.id, mint: body?.mint ?? "", secrets: (body?.proofs ?? []).map((p) => p.secret) }));
  if (known.length > 0) write(core, { t: "events", add: known, del: [] });
  const sync = await syncRelays(core, nostr);
  return { ...sync, tokenEvents: tokens.length, adoptedProofs, adoptedSats };
}
