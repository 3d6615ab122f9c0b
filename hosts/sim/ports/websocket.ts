// The WebSocket port over the `ws` package (the device uses the SDK's WebSocket client):
// Nostr relays and realtime speech.
import WebSocket from "ws";
import type { WebSocketClient, WebSocketConnection, WebSocketEvents, WebSocketOptions } from "../../../lib/ports.ts";

/** How long an opening handshake may take (ms). */
const OPEN_TIMEOUT_MS = 10_000;

export const wsClient: WebSocketClient = {
  open(url: string, events: WebSocketEvents, options: WebSocketOptions): WebSocketConnection {
    let closed = false;
    const finish = (reason: string): void => {
      if (closed) return;
      closed = true;
      events.onClose(reason);
    };
    let socket: WebSocket;
    try {
      // A frame over the limit closes the socket (code 1009) instead of being buffered.
      socket = new WebSocket(url, { headers: options.headers, handshakeTimeout: OPEN_TIMEOUT_MS, maxPayload: options.maxFrameBytes });
    } catch {
      queueMicrotask(() => finish("the URL is not a WebSocket URL"));
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
    socket.on("unexpected-response", (_request, response) => {
      finish(`the server refused the connection (HTTP ${response.statusCode})`);
      socket.terminate();
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
