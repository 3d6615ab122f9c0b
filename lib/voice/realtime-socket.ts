// The WebSocket of realtime speech: text frames both ways, over the host's
// WebSocket port (the one Nostr relays use). A host without one leaves the
// port undefined and realtime mode refuses.
import type { WebSocketClient } from "../ports";

/** Largest server event read; the audio deltas are well under it. */
export const REALTIME_FRAME_MAX_BYTES = 4 * 1024 * 1024;

export interface RealtimeHandlers {
  onMessage(text: string): void;
  /** The connection ended (by either side, or failed); one short sentence. */
  onClose(reason: string): void;
}

export interface RealtimeSocket {
  send(text: string): void;
  close(): void;
}

/** Opens `url` with `headers`; resolves once open, rejects with one sentence (never the key) when it cannot. */
export function connectRealtime(
  client: WebSocketClient,
  url: string,
  headers: { [name: string]: string },
  handlers: RealtimeHandlers,
): Promise<RealtimeSocket> {
  return new Promise((resolve, reject) => {
    let open = false;
    const connection = client.open(
      url,
      {
        onOpen: () => {
          open = true;
          resolve({ send: (text) => connection.send(text), close: () => connection.close() });
        },
        onText: (text) => handlers.onMessage(text),
        onClose: (reason) => {
          if (open) handlers.onClose(reason);
          else reject(new Error(`The realtime connection failed: ${reason}.`));
        },
      },
      { headers, maxFrameBytes: REALTIME_FRAME_MAX_BYTES },
    );
  });
}
