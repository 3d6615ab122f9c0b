// ECMA-419 TCP sockets as the Moddable SDK implements them (modules/io/socket/lwip on the ESP32,
// modules/io/socket/lin on Linux): the parts hosts/device/http/server.ts uses. Documented in the
// SDK's documentation/io/io.md ("TCP Socket", "TCP Listener").

declare module "embedded:io/socket/tcp" {
  export interface TCPOptions {
    /** A socket a Listener accepted: the connection this instance takes over. */
    from: TCP;
    nodelay?: boolean;
    /** `bytes` may be read. */
    onReadable?(this: TCP, bytes: number): void;
    /** `bytes` may be written without overflowing the output buffers. */
    onWritable?(this: TCP, bytes: number): void;
    /** The connection is gone (a clean close included); it is no longer usable. */
    onError?(this: TCP): void;
  }
  export default class TCP {
    constructor(options: TCPOptions);
    /** What is available (buffer format). */
    read(): ArrayBuffer | undefined;
    /** Throws, writing nothing, when the output buffers have no room for all of it. */
    write(data: ArrayBuffer | ArrayBufferView): void;
    close(): void;
  }
}

declare module "embedded:io/socket/listener" {
  import type TCP from "embedded:io/socket/tcp";
  export interface ListenerOptions {
    port?: number;
    /** `requests` connections wait to be read. */
    onReadable?(this: Listener, requests: number): void;
  }
  export default class Listener {
    constructor(options: ListenerOptions);
    /** An accepted connection with no callbacks: hand it to `new TCP({ from })`. */
    read(): TCP | undefined;
    close(): void;
  }
}
