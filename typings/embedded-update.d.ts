// ECMA-419 persistent storage as the Moddable SDK implements it on the ESP32:
// "embedded:storage/flash" (partitions; "nextota" is the spare app slot) and
// "embedded:update" (writes an app image into a partition and, on complete(),
// switches the boot slot; it neither restarts nor rolls back).
declare module "embedded:storage/flash" {
  export interface FlashPartition {
    status(): { size: number; blockLength: number };
    read(byteLength: number, offset: number): ArrayBuffer;
  }
  const flash: { open(options: { path: string }): FlashPartition };
  export default flash;
}

declare module "embedded:update" {
  import type { FlashPartition } from "embedded:storage/flash";
  export interface Update {
    write(data: ArrayBuffer | ArrayBufferView): void;
    complete(): void;
    close(): void;
  }
  const update: { open(options: { partition: FlashPartition; mode?: "a" | "w"; byteLength?: number }): Update };
  export default update;
}
