// The WebSocket port over the SDK's `websocket` Client, with SecureSocket for
// wss:// (CA roots from the build's resources). Text frames only; a binary
// frame is ignored. The Client throws from write() on a frame over 64 KB and
// from callbacks on socket errors: both end only this connection.
import SecureSocket from "securesocket";
import { Socket } from "socket";
import { Client } from "websocket";
import type { WebSocketClient, WebSocketConnection, WebSocketEvents, WebSocketOptions } from "../../../lib/ports";
import { encodeUtf8 } from "../../../lib/util/utf8";

/** scheme, host (name or [IPv6]), port, path+query. */
const URL_PATTERN = /^(wss?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?([/?][^#\s]*)?$/;
const TLS_MIN_VERSION = 0x303;

/** The bytes a Socket write sends for `parts`: strings (ASCII here: the handshake) and buffers as they are, a number as one byte. */
function partBytes(parts: unknown[]): Uint8Array {
  const pieces: Uint8Array[] = [];
  let size = 0;
  for (const part of parts) {
    let piece: Uint8Array;
    if (typeof part === "number") piece = Uint8Array.of(part & 0xff);
    else if (typeof part === "string") piece = encodeUtf8(part);
    else if (part instanceof ArrayBuffer) piece = new Uint8Array(part);
    else if (ArrayBuffer.isView(part)) piece = new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
    else throw new Error("unsupported type for write");
    pieces.push(piece);
    size += piece.byteLength;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.byteLength;
  }
  return out;
}

/**
 * The SDK's TCP socket for ws://, with two changes. Its write ends the connection instead of throwing: the Client
 * writes its handshake from inside the socket's own callback, where a throw is uncaught and aborts the app; on the
 * Linux target a refused connect still reports "connected" and that write throws (found there: setting a relay
 * nobody listens on aborted the firmware). SecureSocket (wss://) catches in its callback already. And a write
 * larger than the room left in the socket's buffer (1 KB on lin, the TCP send buffer on the device) is sent in
 * pieces as room is reported, where the SDK's write refuses it whole ("can't write all data"): the Client writes a
 * frame in one write, so before this any Nostr event over 1 KB (a NIP-60 token event) ended the relay's
 * connection on lin.
 */
class GuardedSocket extends Socket {
  /** What did not fit yet, sent in order before anything written after it. */
  private waiting: Uint8Array | undefined;

  override write(...parts: unknown[]): void {
    try {
      const bytes = partBytes(parts);
      if (this.waiting === undefined) this.waiting = bytes;
      else {
        const joined = new Uint8Array(this.waiting.byteLength + bytes.byteLength);
        joined.set(this.waiting);
        joined.set(bytes, this.waiting.byteLength);
        this.waiting = joined;
      }
      this.sendWaiting();
    } catch {
      this.failed();
    }
  }

  /**
   * Wraps the callback the Client set on this socket (call once, after the Client is made): room reported
   * (Socket.writable) goes first to what waits.
   */
  sendAsRoomComes(): void {
    const inner = this.callback;
    this.callback = (message: number, value: number, address: string, port: number): void => {
      if (message === Socket.writable && this.waiting !== undefined) {
        try {
          this.sendWaiting();
        } catch {
          this.failed();
        }
        return;
      }
      inner.call(this, message, value, address, port);
    };
  }

  /** Writes as much of what waits as the socket has room for (its write with no arguments says how much). */
  private sendWaiting(): void {
    while (this.waiting !== undefined) {
      const room = (super.write as () => number)();
      if (!(room > 0)) return;
      const n = Math.min(room, this.waiting.byteLength);
      super.write(this.waiting.slice(0, n).buffer);
      this.waiting = n === this.waiting.byteLength ? undefined : this.waiting.subarray(n);
    }
  }

  private failed(): void {
    this.waiting = undefined;
    const report = this.callback;
    // Reported after the Client's callback returns: Socket.error ends the Client as any socket error does.
    Promise.resolve().then(() => report?.call(this, Socket.error, 0, "", 0));
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
      if (!secure) (client as unknown as { socket: GuardedSocket }).socket.sendAsRoomComes();
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
