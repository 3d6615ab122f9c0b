// The captive portal's DNS responder over node:dgram: the simulator's copy of
// what the device runs on its access point, answering every A question with
// the portal's address (lib/net/dns.ts). Bound to loopback by default.
import { createSocket, type Socket } from "node:dgram";
import { answerDns, DNS_UDP_MAX_BYTES } from "../../lib/net/dns.ts";

export interface DnsResponder {
  port: number;
  /** Queries answered and packets dropped (too short, too long, or responses). */
  counts: { answered: number; dropped: number };
  close(): Promise<void>;
}

export async function startDnsResponder(options: { address: string; host?: string; port?: number }): Promise<DnsResponder> {
  const socket: Socket = createSocket("udp4");
  const counts = { answered: 0, dropped: 0 };
  socket.on("message", (msg, from) => {
    const reply = msg.length <= DNS_UDP_MAX_BYTES ? answerDns(new Uint8Array(msg), options.address) : undefined;
    if (!reply) {
      counts.dropped++;
      return;
    }
    counts.answered++;
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((ok, fail) => {
    socket.once("error", fail);
    socket.bind(options.port ?? 0, options.host ?? "127.0.0.1", () => ok());
  });
  return {
    port: socket.address().port,
    counts,
    close: () => new Promise<void>((ok) => socket.close(() => ok())),
  };
}
