// The WebSocket port over the `ws` package (the device uses the SDK's WebSocket client).
import WebSocket from "ws";
import type { WebSocketClient, WebSocketConnection, WebSocketEvents } from "../../../lib/ports.ts";
import { NOSTR_MESSAGE_MAX_BYTES } from "../../../lib/nostr/limits.ts";

/** How long an opening handshake may take (ms). */
const OPEN_TIMEOUT_MS = 10_000;

export const wsClient: WebSocketClient = {
  open(url: string, events: WebSocketEvents): WebSocketConnection {
    let closed = false;
    const finish = (reason: string): void => {
      if (closed) return;
      closed = true;
      events.onClose(reason);
    };
    let socket: WebSocket;
    try {
      // A frame over the limit closes the socket (code 1009) instead of being buffered.
      socket = new WebSocket(url, { handshakeTimeout: OPEN_TIMEOUT_MS, maxPayload: NOSTR_MESSAGE_MAX_BYTES * 4 });
    } catch {
      queueMicrotask(() => finish("the relay URL is not a WebSocket URL"));
      return {
        send: () => undefined,
        close: () => {
          closed = true;
        },
      };
    }
    socket.on("open", () => {
      if (!closed) events.onOpen();
    });
    socket.on("message", (data, isBinary) => {
      if (!closed && !isBinary) events.onText(data.toString());
    });
    socket.on("error", () => finish("the connection failed"));
    socket.on("close", () => finish("the connection closed"));
    return {
      send: (text) => {
        if (!closed && socket.readyState === WebSocket.OPEN) socket.send(text);
      },
      close: () => {
        closed = true;
        socket.removeAllListeners("message");
        socket.on("error", () => undefined);
        socket.terminate();
      },
    };
  },
};
