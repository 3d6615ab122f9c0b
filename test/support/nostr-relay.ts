// A real Nostr relay for tests: @nostr-relay/core (its own validation,
// subscriptions, replaceable and deletion handling) behind a `ws` server on
// loopback, with the in-memory EventRepository that the library asks its user
// to supply. `restart()` closes every socket and listens again on the same port.
// Plain HTTP on the same port answers NIP-11 with the test's information document.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EventRepository, EventUtils, type Event, type EventRepositoryUpsertResult, type Filter } from "@nostr-relay/common";
import { NostrRelay } from "@nostr-relay/core";
import { WebSocketServer, type WebSocket } from "ws";

class MemoryEventRepository extends EventRepository {
  readonly events = new Map<string, Event>();

  /** search: answers NIP-50 `search` filters (every word in the content); off, such a filter finds nothing. */
  constructor(private readonly search = false) {
    super();
  }

  isSearchSupported(): boolean {
    return this.search;
  }

  upsert(event: Event): EventRepositoryUpsertResult {
    if (this.events.has(event.id)) return { isDuplicate: true };
    const replaceable = event.kind === 0 || event.kind === 3 || (event.kind >= 10000 && event.kind < 20000);
    const addressable = event.kind >= 30000 && event.kind < 40000;
    if (replaceable || addressable) {
      const d = EventUtils.extractDTagValue(event);
      for (const old of this.events.values()) {
        if (old.kind !== event.kind || old.pubkey !== event.pubkey) continue;
        if (addressable && EventUtils.extractDTagValue(old) !== d) continue;
        if (old.created_at > event.created_at) return { isDuplicate: true };
        this.events.delete(old.id);
      }
    }
    this.events.set(event.id, event);
    return { isDuplicate: false };
  }

  /** The library's matcher checks ids, authors, kinds and times; tag filters (#e, #p, #d...) are the repository's part. */
  find(filter: Filter): Event[] {
    const tagFilters = Object.entries(filter).filter(([k, v]) => k.startsWith("#") && Array.isArray(v)) as Array<[string, string[]]>;
    const words =
      typeof filter.search === "string"
        ? filter.search
            .toLowerCase()
            .split(/\s+/)
            .filter((w) => w && !w.includes(":"))
        : [];
    const matches = (e: Event): boolean =>
      words.every((w) => e.content.toLowerCase().includes(w)) &&
      EventUtils.isMatchingFilter(e, filter) &&
      tagFilters.every(([k, values]) => e.tags.some((t) => t[0] === k.slice(1) && values.includes(t[1])));
    const out = [...this.events.values()].filter(matches).sort((a, b) => b.created_at - a.created_at);
    return filter.limit !== undefined ? out.slice(0, filter.limit) : out;
  }

  override async deleteByDeletionRequest(event: Event): Promise<void> {
    for (const tag of event.tags) {
      const target = tag[0] === "e" ? this.events.get(tag[1]) : undefined;
      if (target && target.pubkey === event.pubkey) this.events.delete(target.id);
    }
  }

  async destroy(): Promise<void> {}
}

/** The NIP-11 document the test relay serves. */
export const RELAY_INFO = {
  name: "halo test relay",
  description: "@nostr-relay/core on loopback",
  supported_nips: [1, 9, 11],
  software: "@nostr-relay/core",
};

export interface TestRelay {
  url: string;
  repository: MemoryEventRepository;
  /** Every raw text frame clients sent (tests look for what the device published). */
  received: string[];
  /** Sends a raw frame to every connected client (forged and malformed events). */
  broadcastRaw(frame: string): void;
  connections(): number;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A relay on loopback; `search` makes it one that supports NIP-50. */
export async function startTestRelay(options: { search?: boolean } = {}): Promise<TestRelay> {
  const repository = new MemoryEventRepository(options.search);
  const received: string[] = [];
  let relay = new NostrRelay(repository);
  let server: WebSocketServer;
  let http: Server;
  let port = 0;
  const listen = async (): Promise<void> => {
    http = createServer((req, res) => {
      if (!String(req.headers.accept).includes("application/nostr+json")) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/nostr+json" }).end(JSON.stringify(RELAY_INFO));
    });
    server = new WebSocketServer({ server: http });
    await new Promise<void>((ok) => http.listen(port, "127.0.0.1", () => ok()));
    port = (http.address() as AddressInfo).port;
    server.on("connection", (ws: WebSocket) => {
      relay.handleConnection(ws);
      ws.on("message", (data) => {
        const text = data.toString();
        received.push(text);
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          return;
        }
        if (Array.isArray(message)) void relay.handleMessage(ws, message as never).catch(() => undefined);
      });
      ws.on("close", () => relay.handleDisconnect(ws));
    });
  };
  const shut = async (): Promise<void> => {
    for (const client of server.clients) client.terminate();
    await new Promise<void>((ok) => server.close(() => ok()));
    await new Promise<void>((ok) => http.close(() => ok()));
    await relay.destroy();
  };
  await listen();
  return {
    get url() {
      return `ws://127.0.0.1:${port}`;
    },
    repository,
    received,
    broadcastRaw: (frame) => {
      for (const client of server.clients) client.send(frame);
    },
    connections: () => server.clients.size,
    restart: async () => {
      await shut();
      relay = new NostrRelay(repository);
      await listen();
    },
    close: shut,
  };
}
