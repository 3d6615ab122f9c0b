// The relay pool: the owner's relays, named long-lived subscriptions (the DM
// inbox, the owner's contacts), one-shot queries that end at EOSE or a timeout,
// and publishing that waits for each relay's OK. Duplicates that several relays
// deliver reach a subscriber once.
import { HaloError } from "../errors";
import type { Log, WebSocketClient } from "../ports";
import type { NostrEvent } from "./event";
import { NOSTR_PUBLISH_TIMEOUT_MS, NOSTR_QUERY_EVENTS_MAX, NOSTR_RELAYS_MAX, NOSTR_SEEN_IDS_MAX, NOSTR_SUBSCRIPTIONS_MAX } from "./limits";
import { type Filter, RelayConnection, type RelayStatus } from "./relay";
import type { EventVerifier } from "./verify-queue";

export interface PoolDeps {
  ws: WebSocketClient;
  /** Where every received event waits for its signature check (verify-queue.ts). */
  verifier: EventVerifier;
  log: Log;
  now(): number;
  sleep(ms: number): Promise<void>;
  backoffMinMs?: number;
  eventsPerWindow?: number;
}

export interface PublishOutcome {
  relay: string;
  /** "ok": the relay accepted; "refused": it said no; "queued": sent when it reconnects; "timeout": no answer. */
  result: "ok" | "refused" | "queued" | "timeout";
  message?: string;
}

export interface ManagedSubscription {
  name: string;
  filters: Filter[];
  enabled: boolean;
  received: number;
}

type EventSink = (event: NostrEvent, relay: string) => void;
/** A subscription's filters for one relay when it reconnects (a `since` from what that relay delivered). */
type Refilter = (relay: string) => Filter[];

interface Query {
  events: Map<string, NostrEvent>;
  waiting: Set<string>;
  max: number;
  done(): void;
}

export class RelayPool {
  private readonly relays = new Map<string, RelayConnection>();
  private readonly managed = new Map<string, ManagedSubscription & { sink: EventSink; refilter?: Refilter }>();
  private readonly queries = new Map<string, Query>();
  private readonly pendingOk = new Map<string, Map<string, (o: PublishOutcome) => void>>();
  private readonly seen = new Set<string>();
  private querySeq = 0;

  constructor(private readonly deps: PoolDeps) {}

  /** Replaces the relay set: new URLs connect, dropped ones close. */
  setRelays(urls: string[]): void {
    const wanted = urls.slice(0, NOSTR_RELAYS_MAX);
    for (const [url, relay] of this.relays) {
      if (wanted.indexOf(url) < 0) {
        relay.stop();
        this.relays.delete(url);
      }
    }
    for (const url of wanted) {
      if (this.relays.has(url)) continue;
      const relay = new RelayConnection(url, this.deps, {
        onEvent: (subId, event, from) => this.deliver(subId, event, from),
        onEose: (subId, from) => this.eose(subId, from),
        onOk: (id, ok, message, from) => this.pendingOk.get(id)?.get(from)?.({ relay: from, result: ok ? "ok" : "refused", message }),
        onConnected: () => undefined,
        filtersFor: (subId, from) => this.managed.get(subId)?.refilter?.(from),
        // what the owner asked for (a query) is checked before what relays push
        preferred: (subId) => this.queries.has(subId),
      });
      for (const sub of this.managed.values()) if (sub.enabled) relay.subscribe(sub.name, sub.filters);
      this.relays.set(url, relay);
      relay.start();
    }
  }

  urls(): string[] {
    return [...this.relays.keys()];
  }

  stop(): void {
    for (const relay of this.relays.values()) relay.stop();
  }

  status(): RelayStatus[] {
    return [...this.relays.values()].map((r) => r.status());
  }

  connectedCount(): number {
    let n = 0;
    for (const r of this.relays.values()) if (r.isConnected()) n++;
    return n;
  }

  /**
   * Opens or replaces a named subscription on every relay (kept across reconnects). `refilter` gives the filters
   * a relay is sent when it reconnects, so it is not asked again for what it already delivered.
   */
  subscribe(name: string, filters: Filter[], sink: EventSink, enabled = true, refilter?: Refilter): void {
    if (!this.managed.has(name) && this.managed.size >= NOSTR_SUBSCRIPTIONS_MAX)
      throw new HaloError("full", `at most ${NOSTR_SUBSCRIPTIONS_MAX} subscriptions.`);
    const had = this.managed.get(name);
    this.managed.set(name, { name, filters, enabled, received: had?.received ?? 0, sink, refilter: refilter ?? had?.refilter });
    for (const relay of this.relays.values()) {
      if (enabled) relay.subscribe(name, filters);
      else relay.unsubscribe(name);
    }
  }

  /** Changes a named subscription's filters or switches it on or off; false when there is none by that name. */
  update(name: string, change: { filters?: Filter[]; enabled?: boolean }): boolean {
    const sub = this.managed.get(name);
    if (!sub) return false;
    this.subscribe(name, change.filters ?? sub.filters, sub.sink, change.enabled ?? sub.enabled);
    return true;
  }

  subscriptions(): ManagedSubscription[] {
    return [...this.managed.values()].map(({ name, filters, enabled, received }) => ({ name, filters, enabled, received }));
  }

  /** Events matching `filters` from the connected relays, until each sent EOSE or `timeoutMs` passed; newest first. */
  async query(filters: Filter[], timeoutMs: number, max = NOSTR_QUERY_EVENTS_MAX): Promise<NostrEvent[]> {
    const live = [...this.relays.values()].filter((r) => r.isConnected());
    if (live.length === 0) throw new HaloError("unavailable", "no relay is connected.");
    const subId = `q${++this.querySeq}`;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const q: Query = {
      events: new Map(),
      waiting: new Set(live.map((r) => r.url)),
      max: Math.min(max, NOSTR_QUERY_EVENTS_MAX),
      done: finish,
    };
    this.queries.set(subId, q);
    for (const r of live) r.subscribe(subId, filters);
    await Promise.race([finished, this.deps.sleep(timeoutMs)]);
    this.queries.delete(subId);
    for (const r of live) r.unsubscribe(subId);
    return [...q.events.values()].sort((a, b) => b.created_at - a.created_at).slice(0, q.max);
  }

  /** Sends `event` to every relay and waits (bounded) for their OKs. */
  async publish(event: NostrEvent): Promise<PublishOutcome[]> {
    if (this.relays.size === 0) throw new HaloError("not-configured", "no relays are set.");
    const waits: Array<Promise<PublishOutcome>> = [];
    const answers = new Map<string, (o: PublishOutcome) => void>();
    this.pendingOk.set(event.id, answers);
    for (const relay of this.relays.values()) {
      const url = relay.url;
      if (!relay.isConnected()) {
        waits.push(
          Promise.resolve({
            relay: url,
            result: relay.publish(event) ? "queued" : "timeout",
            message: relay.isConnected() ? undefined : "not connected",
          }),
        );
        continue;
      }
      waits.push(
        Promise.race([
          new Promise<PublishOutcome>((resolve) => answers.set(url, resolve)),
          this.deps.sleep(NOSTR_PUBLISH_TIMEOUT_MS).then((): PublishOutcome => ({ relay: url, result: "timeout" })),
        ]),
      );
      relay.publish(event);
    }
    const outcomes = await Promise.all(waits);
    this.pendingOk.delete(event.id);
    return outcomes;
  }

  private deliver(subId: string, event: NostrEvent, relay: string): void {
    const q = this.queries.get(subId);
    if (q) {
      if (q.events.size < q.max) q.events.set(event.id, event);
      return;
    }
    const sub = this.managed.get(subId);
    if (!sub?.enabled) return;
    const key = `${subId}:${event.id}`;
    if (this.seen.has(key)) return;
    // The oldest goes first (never the whole set): subscribers keep their own record of what ran.
    if (this.seen.size >= NOSTR_SEEN_IDS_MAX) this.seen.delete(this.seen.values().next().value as string);
    this.seen.add(key);
    sub.received++;
    try {
      sub.sink(event, relay);
    } catch (e) {
      this.deps.log.warn(`nostr: the ${subId} subscriber failed (${e instanceof Error ? e.name : "error"})`);
    }
  }

  private eose(subId: string, relay: string): void {
    const q = this.queries.get(subId);
    if (!q) return;
    q.waiting.delete(relay);
    if (q.waiting.size === 0) q.done();
  }
}
