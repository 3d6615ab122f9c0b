// The captive portal's web server on the access point: the setup page, its
// form and the connectivity probes (lib/net/portal.ts), answered at once.
import { Server, type ServerRequest } from "http";
import { PORTAL_BODY_MAX_BYTES, portalRequest } from "../../../lib/net/portal";
import type { WifiJoin } from "../../../lib/net/wifi-credentials";
import type { Log } from "../../../lib/ports";

interface PortalConnection extends ServerRequest {
  portalPath?: string;
  portalMethod?: string;
  portalBody?: string;
  portalLength?: number;
}

export function startPortalServer(
  port: number,
  address: string,
  deviceName: string,
  log: Log,
  onJoin: (join: WifiJoin) => void,
): { close(): void } {
  const server = new Server({ port });
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's callback passes and expects different types per message
  server.callback = function (this: ServerRequest, message: number, val1?: any, val2?: any): any {
    const conn = this as PortalConnection;
    switch (message) {
      case Server.status:
        conn.portalPath = String(val1);
        conn.portalMethod = String(val2);
        conn.portalBody = "";
        return;
      case Server.header:
        if (String(val1) === "content-length") conn.portalLength = Number(val2);
        return;
      case Server.headersComplete:
        // Small forms only; a larger body is drained unread and refused.
        return (conn.portalLength ?? 0) <= PORTAL_BODY_MAX_BYTES ? String : false;
      case Server.requestComplete:
        if (typeof val1 === "string") conn.portalBody = val1;
        else if ((conn.portalLength ?? 0) > PORTAL_BODY_MAX_BYTES) conn.portalBody = "x".repeat(PORTAL_BODY_MAX_BYTES + 1);
        return;
      case Server.prepareResponse: {
        const answer = portalRequest(conn.portalMethod ?? "GET", conn.portalPath ?? "/", conn.portalBody ?? "", address, deviceName);
        if (answer.join) onJoin(answer.join);
        const headers: string[] = [];
        for (const name of Object.keys(answer.headers)) headers.push(name, answer.headers[name]);
        return { status: answer.status, headers, body: new TextEncoder().encode(answer.body).buffer as ArrayBuffer };
      }
    }
  };
  log.info(`setup page on http://${address}/`);
  return { close: (): void => server.close(true) };
}
