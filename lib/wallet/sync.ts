// The wallet on the owner's relays (NIP-60), with the card as the authority: after every change the proofs the
// card holds and no acknowledged token event covers are published, token events that hold a proof the
// wallet no longer has are rolled over (a new event with `del`, then a NIP-09 deletion), and only what a relay
// acknowledged is recorded on the card as published, so a crash before the acknowledgement means publishing
// again at the next sync. At boot, reconcile reads the relays back: a proof found there that the card does not
// know is added when its mint says it is unspent (another client of the same wallet, or a replaced card).
import { djb2Hex } from "../util/hash";
import { toJson } from "../util/json";
import { held, type WalletCore, write } from "./core";
import { ownsInputs, type TokenEventRef } from "./ledger-state";
import { WALLET_CHECK_BATCH, WALLET_RELAY_EVENTS_MAX, WALLET_RELAY_QUERY_TIMEOUT_MS, WALLET_TOKEN_EVENT_PROOFS_MAX } from "./limits";
import {
  deletedTokenIds,
  deletionEvent,
  historyEvent,
  KIND_DELETION,
  KIND_TOKEN,
  KIND_WALLET,
  nutzapInfoEvent,
  parseTokenEvent,
  parseWalletEvent,
  tokenEvent,
  walletEvent,
} from "./nip60";
import type { HeldProof, StoredProof, WalletRelays, WalletSigner } from "./types";

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

async function publishConfig(core: WalletCore, nostr: WalletNostr, report: SyncReport): Promise<void> {
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
    [KIND_WALLET, KIND_TOKEN, KIND_DELETION],
    WALLET_RELAY_EVENTS_MAX,
    WALLET_RELAY_QUERY_TIMEOUT_MS,
  );
  const deleted = new Set(events.flatMap((e) => deletedTokenIds(nostr.signer, e)));
  const state = core.ledger.state;
  const wallet = events.filter((e) => e.kind === KIND_WALLET).sort((a, b) => b.created_at - a.created_at)[0];
  const parsedWallet = wallet ? parseWalletEvent(nostr.signer, wallet) : undefined;
  if (
    parsedWallet &&
    ((!state.config.privkey && parsedWallet.privkey) || (state.config.mints.length === 0 && parsedWallet.mints.length > 0))
  ) {
    write(core, {
      t: "config",
      config: {
        ...state.config,
        privkey: state.config.privkey ?? parsedWallet.privkey,
        mints: state.config.mints.length ? state.config.mints : parsedWallet.mints,
      },
    });
  }
  const tokens = events.filter((e) => e.kind === KIND_TOKEN).map((e) => ({ e, body: parseTokenEvent(nostr.signer, e) }));
  for (const t of tokens) for (const d of t.body?.del ?? []) deleted.add(d);
  const mine = walletProofs(core);
  const given = new Set([...state.sent.values()].flatMap((s) => s.proofs.map((p) => p.secret)));
  const unknown = new Map<string, StoredProof[]>();
  const adoptEvents: TokenEventRef[] = [];
  for (const { e, body } of tokens) {
    if (!body || deleted.has(e.id)) continue;
    if (body.proofs.every((p) => mine.has(p.secret)) && !state.events.has(e.id)) {
      adoptEvents.push({ id: e.id, mint: body.mint, secrets: body.proofs.map((p) => p.secret) });
    }
    for (const p of body.proofs) {
      if (mine.has(p.secret) || given.has(p.secret)) continue;
      const list = unknown.get(body.mint) ?? [];
      if (!list.some((q) => q.secret === p.secret)) list.push(p);
      unknown.set(body.mint, list);
    }
  }
  if (adoptEvents.length > 0) write(core, { t: "events", add: adoptEvents, del: [] });
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
  const sync = await syncRelays(core, nostr);
  return { ...sync, tokenEvents: tokens.length, adoptedProofs, adoptedSats };
}
