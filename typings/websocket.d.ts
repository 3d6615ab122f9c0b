// "websocket" (modules/network/websocket): the SDK's WebSocket client. Only what Halo uses is declared.

export interface ClientOptions {
  host: string;
  port?: number;
  /** Everything after the port, "/" by default. */
  path?: string;
  /** SecureSocket for wss:// (the options object is also given to it). */
  Socket?: unknown;
  secure?: { [key: string]: unknown };
}

/** `callback(message, value)`: connect (socket open), handshake (upgrade done), receive (value: String or ArrayBuffer), disconnect. */
export class Client {
  constructor(options: ClientOptions);
  callback: (message: number, value?: string | ArrayBuffer) => void;
  /** Sends one frame: a String as text, an ArrayBuffer as binary (at most 65,535 bytes). */
  write(message: string | ArrayBuffer): void;
  close(): void;
  static readonly connect: 1;
  static readonly handshake: 2;
  static readonly receive: 3;
  static readonly disconnect: 4;
}
