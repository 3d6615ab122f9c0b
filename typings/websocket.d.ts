// "websocket" (modules/network/websocket): the SDK's WebSocket client. Frames
// are at most 65535 bytes each way (no 8-byte lengths); the callback gets
// Client.connect, Client.handshake, Client.receive (a string or ArrayBuffer)
// and Client.disconnect.

export class Client {
  constructor(options: {
    host: string;
    port?: number;
    path?: string;
    headers?: string[];
    Socket?: unknown;
    secure?: { [key: string]: unknown };
  });
  static readonly connect: number;
  static readonly handshake: number;
  static readonly receive: number;
  static readonly disconnect: number;
  callback: (message: number, value?: unknown) => void;
  write(message: string | ArrayBuffer): void;
  close(): void;
}

declare const websocket: { Client: typeof Client };
export default websocket;
