// A local HTTP server standing in for an LLM provider: it records every request and
// answers from a script, including the misbehaviours the adapters must survive.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import assert from "node:assert/strict";
import { ProviderError } from "../../lib/providers/errors";

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Wait before answering (the server never waits past close()). */
  delayMs?: number;
  /** Full control of the socket (truncation, garbage). */
  raw?: (res: ServerResponse) => void;
}

type Step = ScriptedReply | ((req: SeenRequest) => ScriptedReply);

export class ProviderServer {
  readonly seen: SeenRequest[] = [];
  private readonly script: Step[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private server!: Server;
  /** Base URL including /v1, like the real APIs. */
  url = "";

  static async start(): Promise<ProviderServer> {
    const s = new ProviderServer();
    s.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const seen: SeenRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, text, json };
        s.seen.push(seen);
        const step = s.script.shift() ?? { status: 500, body: { error: { message: "no scripted reply" } } };
        const reply = typeof step === "function" ? step(seen) : step;
        const send = (): void => s.send(res, reply);
        if (reply.delayMs) {
          const t = setTimeout(() => (s.timers.delete(t), send()), reply.delayMs);
          s.timers.add(t);
        } else send();
      });
    });
    await new Promise<void>((ok) => s.server.listen(0, "127.0.0.1", () => ok()));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/v1`;
    return s;
  }

  /** Queues replies, answered in order; an unscripted request gets a 500. */
  reply(...steps: Step[]): this {
    this.script.push(...steps);
    return this;
  }

  private send(res: ServerResponse, reply: ScriptedReply): void {
    if (res.destroyed) return;
    if (reply.raw) {
      reply.raw(res);
      return;
    }
    const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(body);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

/** A reply whose body stops short of its declared length, then the connection drops. */
export function truncatedReply(full: string, keep: number): ScriptedReply {
  return {
    raw: (res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(full)) });
      res.write(full.slice(0, keep));
      setTimeout(() => res.socket?.destroy(), 10);
    },
  };
}

/** A chunked reply that ends cleanly but holds only the first `keep` characters of the JSON. */
export function cutJsonReply(full: string, keep: number): ScriptedReply {
  return {
    raw: (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(full.slice(0, keep));
    },
  };
}

/** Sleeps recorded instead of waited. */
export function recordingSleep(): { sleeps: number[]; sleep(ms: number): Promise<void> } {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

/** The ProviderError `p` rejects with; fails when it resolves or when the message contains `key`. */
export async function providerRejection(p: Promise<unknown>, key: string): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ProviderError, String(e));
    assert.ok(!e.message.includes(key), "the key must never appear in a message");
    return e;
  }
  assert.fail("expected a rejection");
}
