// Serves a Halo core through Moddable's `http` Server. The Server asks for
// the response synchronously (prepareResponse) right after the request ends,
// but Halo answers with a Promise. So the callback parks the request after
// reading it and resumes the Server's own state machine when the answer is
// ready. Parking uses three fields of the Server's per-request object (state,
// total, socket), as modules/network/http/http.js of Moddable SDK 8.2.3 has
// them: if a later SDK renames them, this file is the one place to change.
// It also sets the limits Node gives the simulator for free: a deadline for
// the headers and for the body, a cap on open requests, and a 413 for a body
// larger than the route takes, answered at once with the connection closed.
import { Server, type ServerRequest } from "http";
import type { Halo, HttpResponse } from "../../../lib/halo";
import type { Log } from "../../../lib/ports";
import Timer, { type TimerId } from "timer";
import { Exchange } from "./exchange";

/** Requests answered at once; past it a new one gets 503 (RAM is the limit, not the socket count). */
export const MAX_OPEN_REQUESTS = 6;
/** A client that has not finished its headers by then is disconnected (slowloris). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A body that has not arrived in full by then is abandoned and the connection closed. */
export const BODY_TIMEOUT_MS = 30_000;

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
  /** The headers or body deadline running now. */
  haloDeadline?: TimerId;
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

function busy(): HttpResponse {
  const body = '{"error":"Busy: too many requests at once; try again in a moment."}';
  return { status: 503, headers: { "content-type": "application/json", "retry-after": "1" }, body, close: true };
}

/** Closes the connection if it is still in the same phase after `ms`. */
function deadline(conn: Connection, ms: number): void {
  clearDeadline(conn);
  conn.haloDeadline = Timer.set((): void => {
    conn.haloDeadline = undefined;
    conn.haloClosed = true;
    inFlight.delete(conn);
    conn.close();
  }, ms);
}

function clearDeadline(conn: Connection): void {
  if (conn.haloDeadline !== undefined) Timer.clear(conn.haloDeadline);
  conn.haloDeadline = undefined;
}

function dispatch(conn: Connection, exchange: Exchange, body: ArrayBuffer | undefined, halo: Halo, log: Log): void {
  clearDeadline(conn);
  const answer = inFlight.size >= MAX_OPEN_REQUESTS ? Promise.resolve(busy()) : halo.handleHttp(exchange.request(body));
  inFlight.add(conn);
  answer
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
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's callback passes and expects different types per message
  server.callback = function (this: ServerRequest, message: number, val1?: any, val2?: any): any {
    const conn = this as Connection;
    switch (message) {
      case Server.status:
        conn.halo = new Exchange(String(val1), String(val2));
        deadline(conn, HEADERS_TIMEOUT_MS);
        return;
      case Server.header:
        conn.halo?.addHeader(String(val1), String(val2));
        return;
      case Server.headersComplete: {
        const exchange = conn.halo;
        if (!exchange) return false;
        if (exchange.expectsBody(halo.http.bodyLimit(exchange.method, exchange.path))) {
          deadline(conn, BODY_TIMEOUT_MS);
          return ArrayBuffer;
        }
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
        clearDeadline(conn);
        conn.haloClosed = true;
        inFlight.delete(conn);
        return;
    }
  };
  servers.push(server);
  log.info(`serving http on port ${port}`);
  return server;
}
