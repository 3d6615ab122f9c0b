import { toJson } from "../util/json";
// One relay over a WebSocket: reconnects with backoff, re-sends its open
// subscriptions after every reconnect, and checks every frame it receives
// (size, JSON shape, the flood window), then hands each event to the verification queue
// (verify-queue.ts) for its id and signature. A relay that floods is disconnected and backed off.
import type { Log, WebSocketClient, WebSocketConnection } from "../ports";
import type { NostrEvent } from "./event";
import {
  NOSTR_BACKOFF_MAX_MS,
  NOSTR_BACKOFF_MIN_MS,
  NOSTR_FRAME_MAX_BYTES,
  NOSTR_MESSAGE_MAX_BYTES,
  NOSTR_OUTBOX_MAX,
  NOSTR_RELAY_QUEUE_DROPS_MAX,
  NOSTR_RELAY_EVENTS_PER_WINDOW,
  NOSTR_RELAY_WINDOW_MS,
} from "./limits";
import type { EventVerifier } from "./verify-queue";

export type Filter = { [key: string]: unknown };

export interface RelayListener {
  onEvent(subId: string, event: NostrEvent, relay: string): void;
  onEose(subId: string, relay: string): void;
  onOk(eventId: string, accepted: boolean, message: string, relay: string): void;
  onConnected(relay: string): void;
  /** The filters a subscription is sent again with after a reconnect; undefined keeps the ones it was opened with. */
  filtersFor?(subId: string, relay: string): Filter[] | undefined;
  /** Whether events of this subscription go in the verification queue's first lane (the owner's queries). */
  preferred?(subId: string): boolean;
}

export interface RelayDeps {
  ws: WebSocketClient;
  /** Where received events wait for their signature check. */
  verifier: EventVerifier;
  log: Log;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** First reconnect wait (ms); tests shorten it. */
  backoffMinMs?: number;
  /** Events per flood window (NOSTR_RELAY_EVENTS_PER_WINDOW); tests that flood on purpose raise it. */
  eventsPerWindow?: number;
}

export interface RelayStatus {
  url: string;
  connected: boolean;
  connects: number;
  received: number;
  refused: number;
  dropped: number;
  /** Times the relay flooded and was disconnected for a backoff. */
  backoffs: number;
  sent: number;
  lastError?: string;
}

export class RelayConnection {
  private socket?: WebSocketConnection;
  private connected = false;
  private active = false;
  private failures = 0;
  private readonly subs = new Map<string, Filter[]>();
  private readonly outbox: string[] = [];
  private windowStart = 0;
  private windowCount = 0;
  private windowQueueDrops = 0;
  private floodedThisWindow = false;
  /** Floods in a row: the backoff doubles with each, and a quiet window clears it. */
  private floodStreak = 0;
  private readonly counts = { connects: 0, received: 0, refused: 0, dropped: 0, backoffs: 0, sent: 0 };
  private lastError?: string;

  constructor(
    readonly url: string,
    private readonly deps: RelayDeps,
    private readonly listener: RelayListener,
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    this.connect();
  }

  stop(): void {
    this.active = false;
    this.connected = false;
    this.socket?.close();
    this.socket = undefined;
  }

  isConnected(): boolean {
    return this.connected;
  }

  /** Opens (or replaces) a subscription; it is sent again after every reconnect. */
  subscribe(subId: string, filters: Filter[]): void {
    this.subs.set(subId, filters);
    if (this.connected) this.sendNow(toJson(["REQ", subId, ...filters]));
  }

  unsubscribe(subId: string): void {
    if (!this.subs.delete(subId)) return;
    if (this.connected) this.sendNow(toJson(["CLOSE", subId]));
  }

  /** Sends an event now, or keeps it (bounded) for the next connect; false when the outbox is full. */
  publish(event: NostrEvent): boolean {
    const frame = toJson(["EVENT", event]);
    if (this.connected) {
      this.sendNow(frame);
      return true;
    }
    if (this.outbox.length >= NOSTR_OUTBOX_MAX) return false;
    this.outbox.push(frame);
    return true;
  }

  status(): RelayStatus {
    return { url: this.url, connected: this.connected, ...this.counts, lastError: this.lastError };
  }

  private connect(): void {
    if (!this.active) return;
    let mine: WebSocketConnection | undefined;
    const current = (): boolean => this.active && this.socket === mine;
    mine = this.deps.ws.open(
      this.url,
      {
        onOpen: () => {
          if (!current()) return;
          this.connected = true;
          this.failures = 0;
          this.counts.connects++;
          for (const [subId, filters] of this.subs) {
            const now = this.listener.filtersFor?.(subId, this.url) ?? filters;
            this.subs.set(subId, now);
            this.sendNow(toJson(["REQ", subId, ...now]));
          }
          for (const frame of this.outbox.splice(0)) this.sendNow(frame);
          this.listener.onConnected(this.url);
        },
        onText: (text) => {
          if (current()) this.receive(text);
        },
        onClose: (reason) => {
          if (!current()) return;
          this.connected = false;
          this.socket = undefined;
          this.lastError = reason;
          this.failures++;
          this.reconnectAfter(this.backoffMs(this.failures));
        },
      },
      { maxFrameBytes: NOSTR_FRAME_MAX_BYTES },
    );
    this.socket = mine;
  }

  private backoffMs(times: number): number {
    return Math.min(NOSTR_BACKOFF_MAX_MS, (this.deps.backoffMinMs ?? NOSTR_BACKOFF_MIN_MS) * 2 ** Math.min(times - 1, 16));
  }

  private reconnectAfter(ms: number): void {
    void this.deps.sleep(ms).then(() => {
      if (this.active && !this.socket) this.connect();
    });
  }

  /** The relay sends more than the device takes: close it and come back after a growing wait. */
  private backOff(why: string): void {
    if (this.floodedThisWindow) return;
    this.floodedThisWindow = true;
    this.floodStreak++;
    this.counts.backoffs++;
    const wait = this.backoffMs(this.floodStreak);
    this.deps.log.warn(`nostr: ${this.url} ${why}; disconnecting for ${Math.round(wait / 1000)} s`);
    const socket = this.socket;
    this.socket = undefined;
    this.connected = false;
    this.lastError = why;
    socket?.close();
    this.reconnectAfter(wait);
  }

  private sendNow(frame: string): void {
    this.counts.sent++;
    this.socket?.send(frame);
  }

  private receive(text: string): void {
    if (text.length > NOSTR_MESSAGE_MAX_BYTES) {
      this.counts.refused++;
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.counts.refused++;
      return;
    }
    if (!Array.isArray(msg) || typeof msg[0] !== "string") {
      this.counts.refused++;
      return;
    }
    switch (msg[0]) {
      case "EVENT":
        return this.receiveEvent(msg);
      case "EOSE": {
        // after the events sent before it have their verdicts, so a query ends with them
        const subId = msg[1];
        if (typeof subId === "string") this.deps.verifier.afterPending(this.keyOf(subId), () => this.listener.onEose(subId, this.url));
        return;
      }
      case "OK":
        if (typeof msg[1] === "string")
          this.listener.onOk(msg[1], msg[2] === true, typeof msg[3] === "string" ? msg[3].slice(0, 200) : "", this.url);
        return;
      case "CLOSED":
      case "NOTICE":
        return;
      default:
        this.counts.refused++;
    }
  }

  private receiveEvent(msg: unknown[]): void {
    const subId = msg[1];
    if (typeof subId !== "string" || !this.subs.has(subId)) {
      this.counts.refused++;
      return;
    }
    const now = this.deps.now();
    if (now - this.windowStart >= NOSTR_RELAY_WINDOW_MS) {
      if (!this.floodedThisWindow) this.floodStreak = 0;
      this.windowStart = now;
      this.windowCount = 0;
      this.windowQueueDrops = 0;
      this.floodedThisWindow = false;
    }
    if (++this.windowCount > (this.deps.eventsPerWindow ?? NOSTR_RELAY_EVENTS_PER_WINDOW)) {
      this.counts.dropped++;
      this.backOff("sends too many events");
      return;
    }
    const accepted = this.deps.verifier.submit(msg[2], this.keyOf(subId), this.listener.preferred?.(subId) ?? false, (verdict) => {
      if ("refused" in verdict) {
        this.counts.refused++;
        return;
      }
      this.counts.received++;
      this.listener.onEvent(subId, verdict.event, this.url);
    });
    if (accepted) return;
    this.counts.dropped++;
    if (++this.windowQueueDrops >= NOSTR_RELAY_QUEUE_DROPS_MAX) this.backOff("sends more events than the device can check");
  }

  private keyOf(subId: string): string {
    return `${this.url} ${subId}`;
  }
}
