// The WebSocket port over the SDK's `websocket` Client, with SecureSocket for
// wss:// (CA roots from the build's resources). Text frames only; a binary
// frame is ignored. The Client throws from write() on a frame over 64 KB and
// from callbacks on socket errors: both end only this connection.
import SecureSocket from "securesocket";
import { Socket } from "socket";
import { Client } from "websocket";
import type { WebSocketClient, WebSocketConnection, WebSocketEvents, WebSocketOptions } from "../../../lib/ports";

/** scheme, host (name or [IPv6]), port, path+query. */
const URL_PATTERN = /^(wss?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?([/?][^#\s]*)?$/;
const TLS_MIN_VERSION = 0x303;

/**
 * The SDK's TCP socket for ws://, whose write ends the connection instead of throwing. The Client writes its
 * handshake from inside the socket's own callback, where a throw is uncaught and aborts the app; on the
 * Linux target a refused connect still reports "connected" and that write throws (found there: setting a
 * relay nobody listens on aborted the firmware). SecureSocket (wss://) catches in its callback already.
 */
class GuardedSocket extends Socket {
  override write(...parts: unknown[]): void {
    try {
      super.write(...parts);
    } catch {
      const report = this.callback;
      // Reported after the Client's callback returns: Socket.error ends the Client as any socket error does.
      Promise.resolve().then(() => report?.call(this, Socket.error, 0, "", 0));
    }
  }
}

export const moddableWebSocket: WebSocketClient = {
  open(url: string, events: WebSocketEvents, options: WebSocketOptions): WebSocketConnection {
    let closed = false;
    let client: Client | undefined;
    const finish = (reason: string): void => {
      if (closed) return;
      closed = true;
      try {
        client?.close();
      } catch {
        // already closed underneath
      }
      events.onClose(reason);
    };
    const m = URL_PATTERN.exec(url);
    if (!m) {
      Promise.resolve().then(() => finish("the URL is not a WebSocket URL"));
      return {
        send: () => undefined,
        close: () => {
          closed = true;
        },
      };
    }
    const secure = m[1] === "wss";
    const host = m[2].startsWith("[") ? m[2].slice(1, -1) : m[2];
    const port = m[3] === undefined ? (secure ? 443 : 80) : Number(m[3]);
    let open = false;
    const headers: string[] = [];
    const wanted = options.headers ?? {};
    for (const name of Object.keys(wanted)) headers.push(name, wanted[name]);
    try {
      client = new Client({
        host,
        port,
        path: m[4] ?? "/",
        headers,
        ...(secure ? { Socket: SecureSocket, secure: { protocolVersion: TLS_MIN_VERSION } } : { Socket: GuardedSocket }),
      });
    } catch {
      Promise.resolve().then(() => finish("the connection failed"));
      return {
        send: () => undefined,
        close: () => {
          closed = true;
        },
      };
    }
    client.callback = (message: number, value?: unknown): void => {
      if (closed) return;
      if (message === Client.handshake) {
        open = true;
        events.onOpen();
      } else if (message === Client.receive && typeof value === "string") events.onText(value);
      else if (message === Client.disconnect) finish(open ? "the connection closed" : "the connection failed");
    };
    return {
      send: (text: string): void => {
        if (closed || !open || !client) return;
        try {
          client.write(text);
        } catch {
          finish("a frame could not be sent");
        }
      },
      close: (): void => {
        if (closed) return;
        closed = true;
        try {
          client?.close();
        } catch {
          // already closed underneath
        }
      },
    };
  },
};
