// The part of the Web Serial API that esptool-js's Transport uses (open,
// close, readable, writable, setSignals, getInfo, setBaudRate), over the
// `serialport` package, so esptool-js runs in Node as it runs in a browser.
import { SerialPort } from "serialport";

export interface SerialSignals {
  dataTerminalReady?: boolean;
  requestToSend?: boolean;
  break?: boolean;
}

export class NodeSerialPort {
  readable: ReadableStream<Uint8Array> | null = null;
  writable: WritableStream<Uint8Array> | null = null;
  /** Set when the port has no modem control lines (a pseudo-terminal, some adapters): resets then do nothing. */
  signalsUnsupported = false;
  private port: SerialPort | undefined;

  constructor(
    readonly path: string,
    private readonly note: (line: string) => void = () => {},
  ) {}

  async open(options: { baudRate: number }): Promise<void> {
    const port = new SerialPort({ path: this.path, baudRate: options.baudRate, autoOpen: false });
    await new Promise<void>((ok, fail) => port.open((e) => (e ? fail(new Error(`cannot open ${this.path}: ${e.message}`)) : ok())));
    this.port = port;
    this.readable = new ReadableStream<Uint8Array>({
      start(controller) {
        port.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
        port.on("close", () => {
          try {
            controller.close();
          } catch {
            // already closed by a cancel
          }
        });
      },
      cancel() {
        port.removeAllListeners("data");
      },
    });
    this.writable = new WritableStream<Uint8Array>({
      write: (chunk) =>
        new Promise<void>((ok, fail) => {
          port.write(Buffer.from(chunk), (e) => (e ? fail(e) : port.drain((d) => (d ? fail(d) : ok()))));
        }),
    });
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = undefined;
    this.readable = null;
    this.writable = null;
    if (port?.isOpen) await new Promise<void>((ok) => port.close(() => ok()));
  }

  async setSignals(signals: SerialSignals): Promise<void> {
    const port = this.port;
    if (!port || this.signalsUnsupported) return;
    const set: { dtr?: boolean; rts?: boolean; brk?: boolean } = {};
    if (signals.dataTerminalReady !== undefined) set.dtr = signals.dataTerminalReady;
    if (signals.requestToSend !== undefined) set.rts = signals.requestToSend;
    if (signals.break !== undefined) set.brk = signals.break;
    await new Promise<void>((ok) =>
      port.set(set, (e) => {
        if (e) {
          this.signalsUnsupported = true;
          this.note("this port has no DTR/RTS lines, so the board cannot be reset from here: hold BOOT and tap RESET to enter the loader");
        }
        ok();
      }),
    );
  }

  getInfo(): { usbVendorId?: number; usbProductId?: number } {
    return {};
  }

  async setBaudRate(baudRate: number): Promise<void> {
    const port = this.port;
    if (!port) throw new Error("the port is closed");
    await new Promise<void>((ok, fail) => port.update({ baudRate }, (e) => (e ? fail(e) : ok())));
  }
}
