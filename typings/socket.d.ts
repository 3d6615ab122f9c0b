// "socket" (modules/network/socket): the SDK's TCP/UDP socket. Only the UDP side the captive DNS uses is declared.

export class Socket {
  constructor(options: { kind: "UDP"; port?: number });
  /** For UDP: message 2 (readable) with value = datagram bytes, and the sender's address and port. */
  callback: (this: Socket, message: number, value: number, address: string, port: number) => void;
  read(type: typeof ArrayBuffer, count?: number): ArrayBuffer;
  /** UDP: sends one datagram. */
  write(address: string, port: number, data: ArrayBuffer): void;
  close(): void;
  static readonly readable: 2;
  static readonly error: -2;
}
