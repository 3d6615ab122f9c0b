// GET /api/ring/events: what the LED ring shows, live, as server-sent events
// for the web page's ring preview. Each pattern the ring is given is a `frame`
// event (the current one first); the voice pipeline's phases are `phase` events.
import type { Led, LedPattern } from "../ports";
import type { McpClient } from "../people/clients";
import type { PhaseEvent } from "../voice/pipeline";
import { requireClient } from "./middleware";
import type { Middleware, RouteSpec } from "./pipeline";
import { sseResponse } from "./sse";

/** Open ring streams at most: each holds a socket on the device. */
export const RING_STREAMS_MAX = 4;

/** A Led that tells its listeners about every pattern it is given. */
export class ObservedLed implements Led {
  private readonly listeners = new Set<(p: LedPattern) => void>();
  constructor(private readonly inner: Led) {}

  get pixels(): number {
    return this.inner.pixels;
  }

  show(pattern: LedPattern): void {
    this.inner.show(pattern);
    for (const l of Array.from(this.listeners)) l({ ...pattern });
  }

  current(): LedPattern {
    return this.inner.current();
  }

  check(): string | undefined {
    return this.inner.check();
  }

  listen(fn: (p: LedPattern) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  listening(): number {
    return this.listeners.size;
  }
}

export interface RingEventsDeps {
  led: ObservedLed | undefined;
  voice: { subscribe(listener: (e: PhaseEvent) => void): () => void };
}

export function ringEventsRoute(
  deps: RingEventsDeps,
  verifyToken: (token: string) => McpClient | undefined,
  guards: Middleware[],
): RouteSpec {
  return {
    method: "GET",
    pattern: "/api/ring/events",
    maxBody: 0,
    errors: "api",
    use: [...guards, requireClient(verifyToken, "any")],
    handler: () => {
      const led = deps.led;
      return sseResponse((send, end) => {
        if (!led) {
          send("absent", { message: "This host has no LED ring." });
          end();
          return () => undefined;
        }
        if (led.listening() >= RING_STREAMS_MAX) {
          send("busy", { message: `At most ${RING_STREAMS_MAX} ring previews at once; close one.` });
          end();
          return () => undefined;
        }
        const frame = (p: LedPattern): void => send("frame", { pixels: led.pixels, ...p });
        frame(led.current());
        const stopLed = led.listen(frame);
        const stopVoice = deps.voice.subscribe((e) => send("phase", e));
        return () => {
          stopLed();
          stopVoice();
        };
      });
    },
  };
}
