// Realtime speech's WebSocket on the device, over the SDK's `websocket`
// client (SecureSocket for wss). The SDK's client neither sends nor reads
// frames over 65535 bytes: a larger server event ends the connection, which
// the exchange reports as closed. Type-checked only; not run on a board yet.
import Modules from "modules";
import SecureSocket from "securesocket";
import type { Client } from "websocket";
import type { RealtimeConnector, RealtimeSocket } from "../../../lib/voice/realtime-socket";

type ClientClass = typeof Client;

const TLS_MIN_VERSION = 0x303;
const URL_PATTERN = /^(wss?):\/\/([^/:]+)(?::(\d+))?(\/.*)?$/;

/** The connector, or undefined when the build has no websocket module. */
export function moddableRealtimeConnector(): RealtimeConnector | undefined {
  if (!Modules.has("websocket")) return undefined;
  const Socket = (Modules.importNow("websocket") as { Client: ClientClass }).Client;
  return {
    connect(url, headers, handlers) {
      return new Promise<RealtimeSocket>((resolve, reject) => {
        const m = URL_PATTERN.exec(url);
        if (!m) return reject(new Error("The realtime URL is not a ws(s) URL."));
        const secure = m[1] === "wss";
        const flat: string[] = [];
        for (const name of Object.keys(headers)) flat.push(name, headers[name]);
        let open = false;
        let client: Client;
        try {
          client = new Socket({
            host: m[2],
            port: m[3] ? Number(m[3]) : secure ? 443 : 80,
            path: m[4] ?? "/",
            headers: flat,
            ...(secure ? { Socket: SecureSocket, secure: { protocolVersion: TLS_MIN_VERSION } } : {}),
          });
        } catch {
          return reject(new Error("The realtime connection could not be opened."));
        }
        client.callback = (message, value) => {
          if (message === Socket.handshake) {
            open = true;
            resolve({
              send: (text) => {
                if (open) client.write(text);
              },
              close: () => {
                if (!open) return;
                open = false;
                client.close();
              },
            });
          } else if (message === Socket.receive) {
            if (typeof value === "string") handlers.onMessage(value);
          } else if (message === Socket.disconnect) {
            if (open) {
              open = false;
              handlers.onClose("the connection closed");
            } else reject(new Error("The realtime service refused the connection."));
          }
        };
      });
    },
  };
}
