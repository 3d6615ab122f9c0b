// Improv Wi-Fi on the serial console (lib/net/improv.ts), so a web flasher can
// hand over Wi-Fi credentials right after flashing. It reads the UART the
// console uses; in a debug build xsbug owns that UART, so Improv runs in
// release builds only.
import Modules from "modules";
import { ImprovService, type ImprovDevice } from "../../../lib/net/improv";
import type { Log } from "../../../lib/ports";

/** The part of the ECMA-419 Serial class used here ("embedded:io/serial", loaded only where the build has it). */
interface Serial {
  read(): ArrayBuffer | undefined;
  write(data: ArrayBuffer | ArrayBufferView): void;
  close(): void;
}
type SerialClass = new (options: {
  port: number;
  receive: number;
  transmit: number;
  baud: number;
  format: "buffer";
  onReadable(this: Serial): void;
}) => Serial;

export interface ImprovConsoleConfig {
  port: number;
  receive: number;
  transmit: number;
  baud: number;
}

export function startImprovConsole(config: ImprovConsoleConfig | undefined, device: ImprovDevice, log: Log): { close(): void } | undefined {
  if (!config || !Modules.has("embedded:io/serial")) return undefined;
  let serial: Serial;
  try {
    const SerialIo = Modules.importNow("embedded:io/serial") as SerialClass;
    serial = new SerialIo({
      port: config.port,
      receive: config.receive,
      transmit: config.transmit,
      baud: config.baud,
      format: "buffer",
      onReadable(this: Serial): void {
        const bytes = this.read();
        if (bytes) void service.receive(new Uint8Array(bytes));
      },
    });
  } catch (e) {
    log.warn(`Improv: the console UART did not open (${e instanceof Error ? e.message : String(e)}).`);
    return undefined;
  }
  const service = new ImprovService(device, (bytes) => serial.write(bytes));
  return { close: (): void => serial.close() };
}
