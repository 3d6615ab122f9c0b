// The captive portal's DNS responder on the access point: UDP port 53, every
// A question answered with the device's own address (lib/net/dns.ts).
import { Socket } from "socket";
import { answerDns, DNS_UDP_MAX_BYTES } from "../../../lib/net/dns";
import type { Log } from "../../../lib/ports";

const DNS_PORT = 53;

export function startCaptiveDns(address: string, log: Log): { close(): void } {
  const socket = new Socket({ kind: "UDP", port: DNS_PORT });
  socket.callback = function (this: Socket, message: number, value: number, from: string, port: number): void {
    if (message !== Socket.readable) return;
    const packet = this.read(ArrayBuffer, value);
    if (value > DNS_UDP_MAX_BYTES) return;
    try {
      const reply = answerDns(new Uint8Array(packet), address);
      if (reply) this.write(from, port, reply.buffer as ArrayBuffer);
    } catch (e) {
      log.warn(`captive DNS: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  log.info(`captive DNS answering every name with ${address}`);
  return { close: (): void => socket.close() };
}
