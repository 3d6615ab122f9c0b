// The simulator's OtaSlots over a folder: ota_0.bin, ota_1.bin and
// otadata.json (written to a temporary file, flushed, renamed), with the boot
// loader rules of ota-bootloader.ts.
import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { nodeSha256 } from "./node-basics.ts";
import { bootSimSlots, type OtaData, type SimOtaSlots, type SlotFlash } from "./ota-bootloader.ts";

export function nodeSha512(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha512").update(data).digest());
}

/** Slot files and the otadata record in `dir`. */
export function folderSlotFlash(dir: string): SlotFlash {
  mkdirSync(dir, { recursive: true });
  const dataPath = join(dir, "otadata.json");
  const slotPath = (i: 0 | 1): string => join(dir, `ota_${i}.bin`);
  return {
    loadData(): OtaData | undefined {
      return existsSync(dataPath) ? (JSON.parse(readFileSync(dataPath, "utf8")) as OtaData) : undefined;
    },
    saveData(data: OtaData): void {
      const tmp = dataPath + ".tmp";
      const fd = openSync(tmp, "w");
      writeSync(fd, JSON.stringify(data));
      fsyncSync(fd);
      closeSync(fd);
      renameSync(tmp, dataPath);
    },
    readSlot(slot: 0 | 1): Uint8Array {
      return existsSync(slotPath(slot)) ? new Uint8Array(readFileSync(slotPath(slot))) : new Uint8Array(0);
    },
    eraseSlot(slot: 0 | 1): { append(bytes: Uint8Array): void; close(): void } {
      const fd = openSync(slotPath(slot), "w");
      let open = true;
      return {
        append: (bytes) => void writeSync(fd, bytes),
        close: () => {
          if (!open) return;
          open = false;
          fsyncSync(fd);
          closeSync(fd);
        },
      };
    },
  };
}

/** Boots the simulator's slots in `dir` (ota_0 gets a factory image of `factoryVersion` the first time). */
export function openSimOtaSlots(dir: string, factoryVersion: string, onRestart: () => void): SimOtaSlots {
  return bootSimSlots(folderSlotFlash(dir), { factoryVersion, onRestart, sha256: nodeSha256, sha512: nodeSha512 });
}
