// Serves a Halo core through Moddable's `http` Server. The Server asks for
// the response synchronously (prepareResponse) right after the request ends,
// but Halo answers with a Promise. So the callback parks the request after
// reading it and resumes the Server's own state machine when the answer is
// ready. Parking uses three fields of the Server's per-request object (state,
// total, socket), as modules/network/http/http.js of Moddable SDK 8.2.3 has
// them: if a later SDK renames them, this file is the one place to change.
import { Server, type ServerRequest } from "http";
import type { Halo, HttpResponse } from "../../../lib/halo";
import type { Log } from "../../../lib/ports";
import { Exchange } from "./exchange";

/** http.js state: about to send the response headers. */
const SENDING_HEADERS = 7;
/** Not a state of http.js: it does nothing for a request in this state. */
const PARKED = 100;
/** http.js socket message: room to write. */
const WRITABLE = 3;

interface ServerSocket {
  callback(message: number, value: number): void;
  write(): number;
}

/** The per-request object the Server calls its callback on. */
interface Connection extends ServerRequest {
  state: number;
  total?: number;
  socket?: ServerSocket;
  halo?: Exchange;
  haloClosed?: boolean;
}

/**
 * Each request from dispatch until its response completes. While parked, a
 * request is otherwise owned only by the Server's internal list; this set
 * makes sure a request waiting on Halo stays reachable whatever that list does.
 */
const inFlight = new Set<Connection>();
/** The servers started, kept reachable for the same reason. */
const servers: Server[] = [];

function internalError(): HttpResponse {
  return { status: 500, headers: { "content-type": "application/json" }, body: '{"error":"Internal error."}' };
}

function dispatch(conn: Connection, exchange: Exchange, body: ArrayBuffer | undefined, halo: Halo, log: Log): void {
  inFlight.add(conn);
  halo
    .handleHttp(exchange.request(body))
    .then(undefined, (e: unknown): HttpResponse => {
      log.warn(`request failed: ${e instanceof Error ? e.message : String(e)}`);
      return internalError();
    })
    .then((res: HttpResponse): void => {
      const socket = conn.socket;
      if (conn.haloClosed || !socket) {
        inFlight.delete(conn); // the client went away meanwhile
        return;
      }
      exchange.respond(res);
      conn.state = SENDING_HEADERS;
      delete conn.total;
      socket.callback(WRITABLE, socket.write());
    });
}

export function serveHttp(halo: Halo, port: number, log: Log): Server {
  const server = new Server({ port });
  server.callback = function (this: ServerRequest, message: number, val1?: any, val2?: any): any {
    const conn = this as Connection;
    switch (message) {
      case Server.status:
        conn.halo = new Exchange(String(val1), String(val2));
        return;
      case Server.header:
        conn.halo?.addHeader(String(val1), String(val2));
        return;
      case Server.headersComplete: {
        const exchange = conn.halo;
        if (!exchange) return false;
        if (exchange.expectsBody(halo.http.bodyLimit(exchange.method, exchange.path))) return ArrayBuffer;
        // No body, or one larger than the route takes (answered 413 at once, never read, and the
        // connection closed after): a total of 0 makes the Server wait in "reading body" for
        // nothing, which parks the request until dispatch resumes it.
        conn.total = 0;
        dispatch(conn, exchange, undefined, halo, log);
        return;
      }
      case Server.requestComplete: {
        const exchange = conn.halo;
        if (!exchange) return;
        conn.state = PARKED;
        dispatch(conn, exchange, val1 instanceof ArrayBuffer ? val1 : undefined, halo, log);
        return;
      }
      case Server.prepareResponse:
        return conn.halo?.prepared;
      case Server.responseFragment:
        return conn.halo?.nextFragment(Number(val1));
      case Server.responseComplete:
        if (conn.halo?.closeAfter) conn.close();
        conn.haloClosed = true;
        inFlight.delete(conn);
        return;
      case Server.error:
        conn.haloClosed = true;
        inFlight.delete(conn);
        return;
    }
  };
  servers.push(server);
  log.info(`serving http on port ${port}`);
  return server;
}
