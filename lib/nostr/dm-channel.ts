// The Nostr DM channel: DMs to the device's key (NIP-04 kind 4, NIP-17 gift
// wraps) from permitted senders run as turns and are answered the same way
// they came. The sender's tier decides: the owner's key runs as the owner
// (admin), keys the owner follows as a guest, and a stranger's text never
// reaches the model (the owner may set one fixed reply for strangers).
// A DM runs once: the id of every DM that may run a turn is kept in the settings (SeenEvents)
// for longer than NIP-17's two-day window, an older DM is refused by its date, and each relay
// is asked, after a reconnect, only for what is newer than the last DM it delivered.
import type { NostrEvent } from "./event";
import { NOSTR_DM_MAX_CHARS, NOSTR_GIFT_WRAP_LOOKBACK_S, NOSTR_INBOUND_QUEUE_MAX, NOSTR_SEEN_IDS_MAX, NOSTR_SEEN_KEEP_S } from "./limits";
import type { PublishOutcome } from "./pool";
import type { Filter } from "./relay";
import { SeenEvents } from "./seen-store";
import { KIND_GIFT_WRAP, unwrapPrivateMessage, wrapPrivateMessage } from "./nip17";
import { skillTurnText, type ReferenceResolver } from "./references";
import { toolsOf, type AdoptedSkill } from "./skills";
import type { NostrSubsystem, SenderTier } from "./subsystem";
import type { Log, Settings } from "../ports";
import type { Principal } from "../registry/principal";

export const KIND_NIP04_DM = 4;
export const NOSTR_FAILED_TURN_REPLY = "Sorry, something went wrong with that message. Please try again.";

export interface NostrTurnRunner {
  runTurn(principal: Principal, input: { text: string; channel: string; tools?: readonly string[] }): Promise<{ reply: string }>;
}

export interface NostrChannelDeps {
  nostr: NostrSubsystem;
  runner: NostrTurnRunner;
  /** The principal of a tier that may talk (admin and wot); undefined refuses. */
  principalFor(tier: SenderTier, pubkey: string): Principal | undefined;
  /** Credit and rate per sender, asked before a turn runs (lib/people/rails.ts); a refused DM is dropped. */
  rails: { decide(principal: Principal, door: "nostr-dm", sender: string): unknown };
  /** The owner's fixed reply to strangers; undefined or empty: strangers get nothing. */
  strangerReply(): string | undefined;
  /** Told after a turn that used skills (the skills chained to them fire). */
  skillsDone?(skills: AdoptedSkill[]): void;
  /** Where the ids of run DMs are kept (they outlive a restart). */
  settings: Settings;
  /**
   * Takes the Cashu tokens out of a DM from anyone but the owner (the wallet holds them for the owner's
   * approval) and gives back the text without them: such a token is never redeemed without the owner.
   */
  screenTokens?(text: string, sender: string): string;
  /** Resolves the `{{...}}` references of a skill's text (lib/nostr/references.ts); none: each is unavailable. */
  references?: ReferenceResolver;
  log: Log;
}

interface Inbound {
  sender: string;
  text: string;
  nip: "04" | "17";
  /** When the sender wrote it (the event's date, or the rumor's inside a gift wrap). */
  time: number;
}

export class NostrChannel {
  private readonly queue: Inbound[] = [];
  /** Ids of this run's DMs from strangers and refused ones, so a duplicate is not decrypted twice (bounded). */
  private readonly seen = new Set<string>();
  /** Ids of the DMs that may run a turn: durable, checked before anything else. */
  private readonly ran: SeenEvents;
  /** Per relay: the date of the last DM it delivered that was accepted (NIP-04 event, NIP-17 rumor). */
  private readonly lastFrom = new Map<string, { dm: number; wrapped: number }>();
  private working = false;
  private startedAt = 0;
  private counts = { turns: 0, strangers: 0, refused: 0, dropped: 0, replayed: 0 };

  constructor(private readonly deps: NostrChannelDeps) {
    this.ran = new SeenEvents(deps.settings, () => deps.nostr.nowSeconds());
  }

  /** Subscribes to the device's inbox; messages older than now are ignored. */
  start(): void {
    const { nostr } = this.deps;
    if (!nostr.pool) return;
    this.startedAt = nostr.nowSeconds();
    nostr.pool.subscribe(
      "dm-inbox",
      this.filters(undefined),
      (e, relay) => this.accept(e, relay),
      true,
      (relay) => this.filters(relay),
    );
  }

  stats(): { turns: number; strangers: number; refused: number; dropped: number; replayed: number } {
    return { ...this.counts };
  }

  /** The inbox filters, for one relay after a reconnect: nothing older than the last DM it delivered. */
  private filters(relay: string | undefined): Filter[] {
    const me = this.deps.nostr.identity.pubkey;
    const last = relay === undefined ? undefined : this.lastFrom.get(relay);
    return [
      { kinds: [KIND_NIP04_DM], "#p": [me], since: Math.max(this.startedAt, last?.dm ?? 0) },
      // A gift wrap is back-dated by up to two days: ask that far behind the last rumor.
      { kinds: [KIND_GIFT_WRAP], "#p": [me], since: Math.max(this.startedAt, last?.wrapped ?? 0) - NOSTR_GIFT_WRAP_LOOKBACK_S },
    ];
  }

  private accept(e: NostrEvent, relay: string): void {
    if (this.seen.has(e.id)) return;
    if (this.ran.has(e.id)) {
      this.counts.replayed++;
      return;
    }
    this.remember(e.id);
    // A NIP-04 DM says its sender outside the encryption: a stranger's or a blocked key's is not decrypted.
    if (e.kind === KIND_NIP04_DM && this.deps.nostr.isBlocked(e.pubkey)) return;
    const inbound = this.open(e);
    if (!inbound) {
      this.counts.refused++;
      return;
    }
    if (inbound.time < this.deps.nostr.nowSeconds() - NOSTR_SEEN_KEEP_S) {
      this.counts.refused++;
      return;
    }
    if (this.deps.nostr.isBlocked(inbound.sender)) return;
    if (this.deps.nostr.tierOf(inbound.sender) !== "stranger") {
      // Recorded before it runs: a crash mid-turn loses the DM rather than running it twice.
      if (!this.ran.add(e.id, inbound.time)) {
        if (this.counts.dropped++ === 0) this.deps.log.warn("nostr: the record of run DMs is full; dropping DMs until it ages");
        return;
      }
      const last = this.lastFrom.get(relay) ?? { dm: 0, wrapped: 0 };
      if (inbound.nip === "04") last.dm = Math.max(last.dm, e.created_at);
      else last.wrapped = Math.max(last.wrapped, inbound.time);
      this.lastFrom.set(relay, last);
    }
    if (this.queue.length >= NOSTR_INBOUND_QUEUE_MAX) {
      if (this.counts.dropped++ === 0) this.deps.log.warn("nostr: the DM queue is full; dropping DMs until it drains");
      return;
    }
    this.queue.push(inbound);
    if (!this.working) void this.work();
  }

  private remember(id: string): void {
    // The oldest goes first: a flood can push out only what is also refused by date or by the durable record.
    if (this.seen.size >= NOSTR_SEEN_IDS_MAX) this.seen.delete(this.seen.values().next().value as string);
    this.seen.add(id);
  }

  /** Decrypts a DM addressed to the device; undefined when it is not one or does not open. */
  private open(e: NostrEvent): Inbound | undefined {
    const { identity } = this.deps.nostr;
    try {
      if (e.kind === KIND_NIP04_DM) {
        if (e.created_at < this.startedAt || !e.tags.some((t) => t[0] === "p" && t[1] === identity.pubkey)) return undefined;
        return { sender: e.pubkey, text: identity.nip04Decrypt(e.pubkey, e.content), nip: "04", time: e.created_at };
      }
      if (e.kind === KIND_GIFT_WRAP) {
        const m = unwrapPrivateMessage(identity, e, this.deps.nostr.nowSeconds());
        // A rumor from before this start is an old DM delivered again, not a new one.
        if (m.createdAt < this.startedAt) return undefined;
        return { sender: m.sender, text: m.content, nip: "17", time: m.createdAt };
      }
    } catch {
      return undefined;
    }
    return undefined;
  }

  private async work(): Promise<void> {
    this.working = true;
    try {
      for (let item = this.queue.shift(); item; item = this.queue.shift()) await this.handle(item);
    } finally {
      this.working = false;
    }
  }

  private async handle(received: Inbound): Promise<void> {
    const tier = this.deps.nostr.tierOf(received.sender);
    const screen = this.deps.screenTokens;
    const item = tier === "admin" || !screen ? received : { ...received, text: screen(received.text, received.sender) };
    const principal = tier === "stranger" ? undefined : this.deps.principalFor(tier, item.sender);
    if (!principal) {
      this.counts.strangers++;
      const fixed = this.deps.strangerReply();
      if (fixed) await this.reply(item, fixed);
      return;
    }
    if (this.deps.rails.decide(principal, "nostr-dm", item.sender)) {
      this.counts.refused++;
      return;
    }
    let text: string;
    try {
      this.counts.turns++;
      // Approved DM-triggered skills whose keyword the message has bring their instructions into this turn.
      // Such a turn sees only the skills' requires_tool tools.
      const message = item.text.slice(0, NOSTR_DM_MAX_CHARS);
      const skills = this.deps.nostr.skills.forDm(message);
      const built = await skillTurnText(message, skills, "message", principal, this.deps.references);
      if (built.unresolved.length) this.deps.log.warn(`nostr: skill references unavailable: ${built.unresolved.join(", ")}`);
      text = (await this.deps.runner.runTurn(principal, { text: built.text, channel: "nostr", tools: toolsOf(skills) })).reply;
      if (skills.length) this.deps.skillsDone?.(skills);
    } catch (e) {
      this.deps.log.warn(`nostr: a DM turn failed (${e instanceof Error ? e.name : "error"})`);
      text = NOSTR_FAILED_TURN_REPLY;
    }
    if (typeof text === "string" && text.trim()) await this.reply(item, text);
  }

  private async reply(to: Inbound, text: string): Promise<void> {
    const { nostr } = this.deps;
    if (!nostr.pool) return;
    await sendDm(nostr, to.sender, text.slice(0, NOSTR_DM_MAX_CHARS), to.nip).catch((e) =>
      this.deps.log.warn(`nostr: a DM reply was not sent (${e instanceof Error ? e.name : "error"})`),
    );
  }
}

/** Signs and publishes a DM to `recipient` by NIP-04 or NIP-17; returns the event and each relay's answer. */
export async function sendDm(
  nostr: NostrSubsystem,
  recipient: string,
  text: string,
  nip: "04" | "17",
  subject?: string,
): Promise<{ event: NostrEvent; outcomes: PublishOutcome[] }> {
  const now = nostr.nowSeconds();
  const event =
    nip === "17"
      ? wrapPrivateMessage(nostr.identity, recipient, text, now, subject)
      : nostr.identity.sign({
          kind: KIND_NIP04_DM,
          tags: [["p", recipient]],
          created_at: now,
          content: nostr.identity.nip04Encrypt(recipient, text),
        });
  return { event, outcomes: nostr.pool ? await nostr.pool.publish(event) : [] };
}
