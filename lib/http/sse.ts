import { toJson } from "../util/json";
// Server-sent events: a response that stays open and carries one event per
// change (ring frames, chat progress). The host writes what the stream gives.
import type { HttpResponse, StreamSink } from "./types";

/** One event in the text/event-stream format; data lines never contain a raw newline. */
export function sseEvent(event: string, data: unknown): string {
  const lines = toJson(data).split("\n");
  return `event: ${event}\n${lines.map((l) => `data: ${l}`).join("\n")}\n\n`;
}

/** A streamed response: `subscribe` gets a send function and returns how to stop. */
export function sseResponse(subscribe: (send: (event: string, data: unknown) => void, end: () => void) => () => void): HttpResponse {
  return {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-content-type-options": "nosniff" },
    body: "",
    stream: {
      start(sink: StreamSink): () => void {
        sink.write(": halo\n\n");
        return subscribe(
          (event, data) => sink.write(sseEvent(event, data)),
          () => sink.end(),
        );
      },
    },
  };
}
