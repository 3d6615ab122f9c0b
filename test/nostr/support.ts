// Shared pieces of the Nostr tests: a pool over the real `ws` client, waiting helpers.
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import { memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { wsClient } from "../../hosts/sim/ports/websocket.ts";
import { RelayPool } from "../../lib/nostr/pool.ts";
import { VerifyQueue } from "../../lib/nostr/verify-queue.ts";
import type { Log } from "../../lib/ports.ts";

export const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms).unref());

/** A verification queue over the C curve, with no preferred authors (tests of the pool). */
export function testVerifier(log: Log = memoryLog(), perSecond?: number): VerifyQueue {
  return new VerifyQueue({
    curve: nodeCurve(),
    digest: nodeDigest,
    log,
    now: () => Date.now(),
    sleep,
    isPreferred: () => false,
    perSecond,
  });
}

export function testPool(urls: string[]): RelayPool {
  const pool = new RelayPool({ ws: wsClient, verifier: testVerifier(), log: memoryLog(), now: () => Date.now(), sleep, backoffMinMs: 50 });
  pool.setRelays(urls);
  return pool;
}

/** Polls `check` every 20 ms until it is true or `ms` passed. */
export async function until(check: () => boolean, ms = 5000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Publishes one event as an outside client would (its own socket) and resolves with the relay's OK. */
export async function publishAsClient(url: string, event: object & { id: string }): Promise<boolean> {
  const { default: WebSocket } = await import("ws");
  const socket = new WebSocket(url);
  await new Promise<void>((ok, fail) => (socket.once("open", () => ok()), socket.once("error", fail)));
  const accepted = await new Promise<boolean>((resolve) => {
    socket.on("message", (data) => {
      const m = JSON.parse(data.toString());
      if (m[0] === "OK" && m[1] === event.id) resolve(m[2] === true);
    });
    socket.send(JSON.stringify(["EVENT", event]));
  });
  socket.close();
  return accepted;
}
