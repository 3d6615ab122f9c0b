// "socket" (modules/network/socket): the SDK's TCP/UDP socket. Declared: the UDP side the captive DNS uses,
// and the TCP client the WebSocket port guards (hosts/device/ports/websocket.ts).

export class Socket {
  constructor(options: { kind: "UDP"; port?: number } | { host?: string; address?: string; port: number });
  /** For UDP: message 2 (readable) with value = datagram bytes, and the sender's address and port. */
  callback: (this: Socket, message: number, value: number, address: string, port: number) => void;
  read(type: typeof ArrayBuffer, count?: number): ArrayBuffer;
  /**
   * UDP: sends one datagram. TCP: writes each part (strings, numbers as bytes, buffers); throws when the connection
   * failed or the parts do not fit in the room left in its buffer. With no parts, returns that room in bytes.
   */
  write(...parts: unknown[]): void;
  close(): void;
  static readonly readable: 2;
  /** TCP: room was made in the socket's buffer (value: its size). */
  static readonly writable: 3;
  static readonly error: -2;
}
