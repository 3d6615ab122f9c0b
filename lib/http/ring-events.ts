// GET /api/ring/events: what the LED ring shows, live, as server-sent events
// for the web page's ring preview: each whole-ring pattern (a device action) is
// a `pattern` event (the current one first), each status-ring frame a `frame`
// event (R, G, B per pixel in hex), the voice pipeline's phases `phase` events.
import type { Led, LedPattern } from "../ports";
import type { McpClient } from "../people/clients";
import type { PhaseEvent } from "../voice/pipeline";
import { requireClient } from "./middleware";
import type { RouteSpec } from "./pipeline";
import { toHex } from "../util/hash";
import { sseResponse } from "./sse";

/** Open ring streams at most: each holds a socket on the device. */
export const RING_STREAMS_MAX = 4;
/** Streams one client may hold; clients other than the owner's leave the last stream for the owner. */
export const RING_STREAMS_PER_CLIENT = 2;

/** What the ring was given: a whole-ring pattern (a device action) or a status-ring frame. */
export type RingUpdate = { kind: "pattern"; pattern: LedPattern } | { kind: "frame"; rgb: Uint8Array };

/** A Led that tells its listeners about every pattern and frame it is given. */
export class ObservedLed implements Led {
  private readonly listeners = new Set<(u: RingUpdate) => void>();
  /** Present only when the inner Led takes frames: the status ring is built only then. */
  readonly frame?: (rgb: Uint8Array) => void;
  /** The last status-ring frame written, so a new preview starts from what the ring shows. */
  lastFrame: Uint8Array | undefined;

  constructor(private readonly inner: Led) {
    const write = inner.frame?.bind(inner);
    if (write) {
      this.frame = (rgb) => {
        write(rgb);
        this.lastFrame = rgb.slice();
        this.tell({ kind: "frame", rgb });
      };
    }
  }

  get pixels(): number {
    return this.inner.pixels;
  }

  show(pattern: LedPattern): void {
    this.inner.show(pattern);
    this.tell({ kind: "pattern", pattern: { ...pattern } });
  }

  current(): LedPattern {
    return this.inner.current();
  }

  check(): string | undefined {
    return this.inner.check();
  }

  listen(fn: (u: RingUpdate) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  listening(): number {
    return this.listeners.size;
  }

  private tell(update: RingUpdate): void {
    for (const l of Array.from(this.listeners)) l(update);
  }
}

export interface RingEventsDeps {
  led: ObservedLed | undefined;
  voice: { subscribe(listener: (e: PhaseEvent) => void): () => void };
}

export function ringEventsRoute(deps: RingEventsDeps, verifyToken: (token: string) => McpClient | undefined): RouteSpec {
  /** Streams open per client name. */
  const open = new Map<string, number>();
  return {
    method: "GET",
    pattern: "/api/ring/events",
    maxBody: 0,
    errors: "api",
    use: [requireClient(verifyToken, "any")],
    handler: (ctx) => {
      const led = deps.led;
      const client = ctx.client!;
      return sseResponse((send, end) => {
        if (!led) {
          send("absent", { message: "This host has no LED ring." });
          end();
          return () => undefined;
        }
        const mine = open.get(client.name) ?? 0;
        const room = client.role === "admin" ? RING_STREAMS_MAX : RING_STREAMS_MAX - 1;
        if (led.listening() >= room || mine >= RING_STREAMS_PER_CLIENT) {
          send("busy", {
            message: `At most ${RING_STREAMS_PER_CLIENT} ring previews per client and ${RING_STREAMS_MAX} in all; close one.`,
          });
          end();
          return () => undefined;
        }
        open.set(client.name, mine + 1);
        const pattern = (p: LedPattern): void => send("pattern", { pixels: led.pixels, ...p });
        pattern(led.current());
        if (led.lastFrame) send("frame", { pixels: led.pixels, rgb: toHex(led.lastFrame) });
        const stopLed = led.listen((u) => {
          if (u.kind === "pattern") pattern(u.pattern);
          else send("frame", { pixels: led.pixels, rgb: toHex(u.rgb) });
        });
        const stopVoice = deps.voice.subscribe((e) => send("phase", e));
        return () => {
          stopLed();
          stopVoice();
          const left = (open.get(client.name) ?? 1) - 1;
          if (left > 0) open.set(client.name, left);
          else open.delete(client.name);
        };
      });
    },
  };
}
