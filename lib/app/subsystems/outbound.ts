// The one guarded HTTP client (lib/net/outbound.ts) that every request made for a caller, or from data the
// device received, goes through.
import { OutboundHttp } from "../../net/outbound";
import { defineSubsystem } from "../subsystem";

export const OUTBOUND = defineSubsystem({
  name: "outbound",
  ports: ["http", "resolver", "clock"],
  needs: [],
  provides: ["outbound"],
  build: (p) => ({ outbound: new OutboundHttp({ http: p.http, resolver: p.resolver, clock: p.clock }) }),
});
