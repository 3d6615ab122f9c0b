// Serves a Halo core over HTTP/1.1 on the SDK's ECMA-419 TCP listener
// (`embedded:io/socket/listener`), each connection an HttpConnection. Only
// documented APIs: the Listener hands over accepted sockets, TCP reads and
// writes them. Halo answers with a Promise, and the connection simply waits
// for it. The open connections are held by the object serveHttp returns, not
// by the module, so the module holds no state and can be preloaded.
import Listener from "embedded:io/socket/listener";
import type TCP from "embedded:io/socket/tcp";
import type { Halo } from "../../../lib/app/halo";
import { HttpError } from "../../../lib/http/http-error";
import { refusalResponse } from "../../../lib/http/wire";
import type { Log } from "../../../lib/ports";
import { HttpConnection } from "./connection";

/** Connections served at once (kept-alive ones count); past it a new one gets 503 (RAM is the limit, not sockets). */
export const MAX_OPEN_CONNECTIONS = 8;

export interface HttpService {
  /** Connections open now. */
  readonly open: number;
  /** Stops listening and closes every connection. */
  close(): void;
}

export function serveHttp(halo: Halo, port: number, log: Log): HttpService {
  const connections = new Set<HttpConnection>();
  const forget = (connection: HttpConnection): void => void connections.delete(connection);
  const listener = new Listener({
    port,
    onReadable(requests: number): void {
      for (let i = 0; i < requests; i++) {
        let from: TCP | undefined;
        try {
          from = this.read();
        } catch {
          return; // the client left before it was accepted
        }
        if (from === undefined) return;
        const connection = new HttpConnection(from, halo, log, forget);
        if (connections.size >= MAX_OPEN_CONNECTIONS) {
          const busy = new HttpError(503, "Busy: too many connections at once; try again in a moment.", {
            headers: { "retry-after": "1" },
          });
          connection.refuse(refusalResponse(busy));
        } else connections.add(connection);
      }
    },
  });
  log.info(`serving http on port ${port}`);
  return {
    get open(): number {
      return connections.size;
    },
    close(): void {
      listener.close();
      for (const connection of Array.from(connections)) connection.close();
    },
  };
}
