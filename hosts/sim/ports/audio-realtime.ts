// The simulator's WebSocket client for realtime speech, over the `ws` package.
import WebSocket from "ws";
import type { RealtimeConnector, RealtimeHandlers, RealtimeSocket } from "../../../lib/voice/realtime-socket.ts";

/** The handshake must finish within this long. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Largest frame accepted from the server. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export const wsRealtimeConnector: RealtimeConnector = {
  connect(url: string, headers: { [name: string]: string }, handlers: RealtimeHandlers): Promise<RealtimeSocket> {
    return new Promise((resolve, reject) => {
      let opened = false;
      const ws = new WebSocket(url, { headers, handshakeTimeout: CONNECT_TIMEOUT_MS, maxPayload: MAX_FRAME_BYTES });
      ws.on("open", () => {
        opened = true;
        resolve({
          send(text) {
            if (ws.readyState === WebSocket.OPEN) ws.send(text);
          },
          close() {
            if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
          },
        });
      });
      ws.on("message", (data, isBinary) => {
        if (!isBinary) handlers.onMessage(data.toString());
      });
      ws.on("unexpected-response", (_req, res) => {
        reject(new Error(`The realtime service refused the connection (HTTP ${res.statusCode}).`));
        ws.terminate();
      });
      ws.on("error", (e) => {
        if (!opened) reject(new Error(`The realtime connection failed: ${e.message.replace(/\.$/, "")}.`));
      });
      ws.on("close", (code) => {
        if (opened) handlers.onClose(`code ${code}`);
      });
    });
  },
};
