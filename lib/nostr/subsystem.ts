// The Nostr subsystem: the device's identity, the owner's key and relays (owner
// settings), the relay pool, and the owner's contact list as the web of trust.
import { HaloError } from "../errors";
import type { Curve, Log, Random, Settings, WebSocketClient } from "../ports";
import { ContextBlocks } from "./context-blocks";
import type { NostrEvent, Sha256Port } from "./event";
import { NostrIdentity } from "./identity";
import { parsePubkey } from "./keys";
import { schnorr } from "./secp256k1";
import { fromHex } from "../util/hash";
import { NOSTR_RELAY_URL_MAX_CHARS, NOSTR_RELAYS_MAX, NOSTR_WOT_MAX } from "./limits";
import { NOSTR_MEMORY_D, NostrMemory } from "./memory-note";
import { SelfNote } from "./self-note";
import { NOSTR_TASKS_D, NostrTasks } from "./task-note";
import { KIND_MUTE_LIST, type ListContents, readList } from "./lists";
import { RelayPool } from "./pool";
import { NostrSkills } from "./skills";
import { VerifyQueue } from "./verify-queue";

const OWNER_SETTING = "nostr.owner";
const RELAYS_SETTING = "nostr.relays";
const STRANGER_REPLY_SETTING = "nostr.stranger-reply";
/** Longest fixed reply to strangers (characters). */
export const NOSTR_STRANGER_REPLY_MAX_CHARS = 500;
const RELAY_URL = /^wss?:\/\/[^\s/?#]+(\/[^\s]*)?$/;

export interface NostrDeps {
  settings: Settings;
  random: Random;
  log: Log;
  curve: Curve;
  /** The SHA-256 of event ids and BIP-340 (the Digest port: native where the host has it). */
  digest: Sha256Port;
  now(): number;
  sleep(ms: number): Promise<void>;
  ws?: WebSocketClient;
  backoffMinMs?: number;
  /** Tests that flood on purpose raise the relays' flood window. */
  eventsPerWindow?: number;
  /** Signature checks per second (NOSTR_VERIFY_PER_SECOND unless a test changes it). */
  verifyPerSecond?: number;
}

export type SenderTier = "admin" | "wot" | "stranger";

export class NostrSubsystem {
  readonly identity: NostrIdentity;
  readonly pool?: RelayPool;
  /** Where received events wait for their signature check, the owner's and followed keys' first. */
  readonly verifier: VerifyQueue;
  /** Adopted skills (kind 31123), each inert until the owner approves it. */
  readonly skills: NostrSkills;
  /** The owner's and the device's profile, contacts, relays and notes, cached for skills' context. */
  readonly context: ContextBlocks;
  /** The device's memory note on the relays (kind 30078, d=memory, NIP-44 to itself). */
  readonly memory: NostrMemory;
  /** The device's task list on the relays (kind 30078, d=tasks, NIP-44 to itself). */
  readonly tasks: NostrTasks;
  private readonly contacts = new Set<string>();
  private contactsAt = 0;
  private blockEntriesNow: string[][] = [];
  private blockAt = 0;

  constructor(private readonly deps: NostrDeps) {
    this.identity = new NostrIdentity(deps.settings, deps.random, deps.log, deps.curve, deps.digest);
    this.skills = new NostrSkills(deps.settings, deps.log);
    this.context = new ContextBlocks({
      settings: deps.settings,
      nowSeconds: () => this.nowSeconds(),
      pubkeyOf: (subject) => (subject === "admin" ? this.owner() : this.identity.pubkey),
      query: (filters, ms) => (this.pool && this.pool.connectedCount() > 0 ? this.pool.query(filters, ms) : undefined),
    });
    this.verifier = new VerifyQueue({
      curve: deps.curve,
      digest: deps.digest,
      log: deps.log,
      now: deps.now,
      sleep: deps.sleep,
      isPreferred: (pubkey) => pubkey === this.identity.pubkey || this.tierOf(pubkey) !== "stranger",
      perSecond: deps.verifyPerSecond,
    });
    if (deps.ws)
      this.pool = new RelayPool({
        ws: deps.ws,
        verifier: this.verifier,
        log: deps.log,
        now: deps.now,
        sleep: deps.sleep,
        backoffMinMs: deps.backoffMinMs,
        eventsPerWindow: deps.eventsPerWindow,
      });
    const noteDeps = { identity: this.identity, pool: this.pool, nowSeconds: () => this.nowSeconds() };
    this.memory = new NostrMemory(new SelfNote(noteDeps, NOSTR_MEMORY_D), () => this.nowSeconds());
    this.tasks = new NostrTasks(new SelfNote(noteDeps, NOSTR_TASKS_D), () => this.nowSeconds());
  }

  nowSeconds(): number {
    return Math.floor(this.deps.now() / 1000);
  }

  owner(): string | undefined {
    return this.deps.settings.get(OWNER_SETTING);
  }

  /** Sets the owner's key (hex, npub or nprofile); returns the hex. */
  setOwner(input: string): string {
    const hex = parsePubkey(input);
    // 64 hex digits are not yet a key: one that is not on the curve could never sign a DM.
    if (!schnorr.isValidPublicKey(this.deps.curve, fromHex(hex)))
      throw new HaloError("invalid", "that public key is not a point on secp256k1.");
    if (hex === this.identity.pubkey) throw new HaloError("invalid", "the owner's key cannot be the device's own key.");
    this.deps.settings.set(OWNER_SETTING, hex);
    this.contacts.clear();
    this.contactsAt = 0;
    this.watchOwnerContacts();
    this.deps.log.info("nostr: owner key set");
    return hex;
  }

  /** The owner's fixed reply to strangers; undefined: strangers get nothing. */
  strangerReply(): string | undefined {
    return this.deps.settings.get(STRANGER_REPLY_SETTING);
  }

  /** Sets the fixed reply to strangers; an empty text clears it. */
  setStrangerReply(text: string): void {
    if (text.length > NOSTR_STRANGER_REPLY_MAX_CHARS)
      throw new HaloError("too-large", `the reply to strangers is at most ${NOSTR_STRANGER_REPLY_MAX_CHARS} characters.`);
    if (text.trim()) this.deps.settings.set(STRANGER_REPLY_SETTING, text);
    else this.deps.settings.remove(STRANGER_REPLY_SETTING);
  }

  relays(): string[] {
    const v = this.deps.settings.get(RELAYS_SETTING);
    return v ? v.split(",").filter((u) => u) : [];
  }

  /** Sets the relay list (owner setting) and reconnects the pool to it. */
  setRelays(urls: string[]): string[] {
    const clean = urls.map((u) => u.trim()).filter((u) => u);
    if (clean.length > NOSTR_RELAYS_MAX) throw new HaloError("limit", `at most ${NOSTR_RELAYS_MAX} relays.`);
    for (const u of clean) {
      if (u.length > NOSTR_RELAY_URL_MAX_CHARS || !RELAY_URL.test(u)) throw new HaloError("invalid", "a relay is a ws:// or wss:// URL.");
    }
    this.deps.settings.set(RELAYS_SETTING, clean.join(","));
    this.pool?.setRelays(clean);
    return clean;
  }

  /** Connects to the stored relays, follows the owner's contact list and loads the device's block list. */
  start(): void {
    this.pool?.setRelays(this.relays());
    this.watchOwnerContacts();
    this.pool?.subscribe("block-list", [{ kinds: [KIND_MUTE_LIST], authors: [this.identity.pubkey], limit: 1 }], (e) => {
      if (e.pubkey !== this.identity.pubkey || e.kind !== KIND_MUTE_LIST || e.created_at < this.blockAt) return;
      this.blockAt = e.created_at;
      this.takeBlockList(readList(this, e));
    });
  }

  /** Replaces the block list in force (after an edit, or the newest copy from a relay). */
  takeBlockList(contents: ListContents): void {
    this.blockEntriesNow = [...contents.publicTags, ...contents.privateTags];
  }

  blockEntries(): string[][] {
    return this.blockEntriesNow.map((t) => t.slice());
  }

  isBlocked(pubkey: string): boolean {
    return this.blockEntriesNow.some((t) => t[0] === "p" && t[1] === pubkey);
  }

  stop(): void {
    this.skills.onChange = () => undefined;
    this.pool?.stop();
  }

  /** The seed's sender tiers: the owner's key is ADMIN, keys the owner follows (kind 3) are WOT, others STRANGER. */
  tierOf(pubkey: string): SenderTier {
    if (pubkey === this.owner()) return "admin";
    return this.contacts.has(pubkey) ? "wot" : "stranger";
  }

  private watchOwnerContacts(): void {
    const owner = this.owner();
    if (!owner || !this.pool) return;
    this.pool.subscribe("owner-contacts", [{ kinds: [3], authors: [owner], limit: 1 }], (e) => this.takeContacts(e));
  }

  private takeContacts(e: NostrEvent): void {
    if (e.kind !== 3 || e.pubkey !== this.owner() || e.created_at < this.contactsAt) return;
    this.contactsAt = e.created_at;
    this.contacts.clear();
    for (const t of e.tags) {
      if (this.contacts.size >= NOSTR_WOT_MAX) break;
      if (t[0] === "p" && /^[0-9a-f]{64}$/.test(t[1] ?? "")) this.contacts.add(t[1]);
    }
  }
}
