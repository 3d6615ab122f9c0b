// The simulated boot loader behind the simulator's OtaSlots: two app slots,
// an otadata record and a boot counter over any SlotFlash (files in the
// simulator, memory on the XS host), with the ESP-IDF rollback rules: a new
// image boots once as "pending-verify"; booting it again before it marked
// itself valid aborts it and falls back to the other slot. Opening the slots
// is a boot; a test "cuts the power" by opening them again without closing.
// No Node built-ins here, so the XS tests run the same rules.
import type { OtaBoot, OtaSlots, OtaSlotWriter, Sha256Stream } from "../../../lib/ports.ts";
import { buildAppImage, readAppVersion } from "./ota-image.ts";

/** Size of each app slot (the 16 MB partition table's ota_0 and ota_1). */
export const SIM_SLOT_BYTES = 6 * 1024 * 1024;
/** Boots a new image gets before the boot loader gives up on it (ESP-IDF: one). */
export const SIM_MAX_UNVERIFIED_BOOTS = 1;

export type SlotState = "empty" | "new" | "pending-verify" | "valid" | "invalid" | "aborted";

export interface OtaData {
  boot: 0 | 1;
  states: [SlotState, SlotState];
  /** Boots of the current slot while it is pending-verify. */
  unverifiedBoots: number;
}

/** Where the slots and the otadata record live. `saveData` must be atomic. */
export interface SlotFlash {
  loadData(): OtaData | undefined;
  saveData(data: OtaData): void;
  /** The whole slot, or an empty array when it was never written. */
  readSlot(slot: 0 | 1): Uint8Array;
  /** Erases the slot; the returned sink appends, `close` makes the writes durable. */
  eraseSlot(slot: 0 | 1): { append(bytes: Uint8Array): void; close(): void };
}

export interface BootOptions {
  /** Written to ota_0 when the flash holds no otadata yet. */
  factoryVersion: string;
  /** Called by restart() and rollback(): a simulator cannot reboot itself. */
  onRestart(): void;
  sha256(): Sha256Stream;
  sha512(data: Uint8Array): Uint8Array;
}

export interface SimOtaSlots extends OtaSlots {
  /** What the simulated boot loader decided at this boot (for logs and tests). */
  bootNote: string;
}

const slotName = (i: 0 | 1): string => `ota_${i}`;

function bootLoader(data: OtaData): string {
  const other = (data.boot === 0 ? 1 : 0) as 0 | 1;
  const state = data.states[data.boot];
  if (state === "new") {
    data.states[data.boot] = "pending-verify";
    data.unverifiedBoots = 1;
    return `booted the new image in ${slotName(data.boot)} for verification`;
  }
  if (state === "pending-verify") {
    data.unverifiedBoots++;
    if (data.unverifiedBoots > SIM_MAX_UNVERIFIED_BOOTS && data.states[other] === "valid") {
      data.states[data.boot] = "aborted";
      const note = `${slotName(data.boot)} restarted without marking itself valid: fell back to ${slotName(other)}`;
      data.boot = other;
      data.unverifiedBoots = 0;
      return note;
    }
  } else if (state !== "valid" && data.states[other] === "valid") {
    data.boot = other;
  }
  return `booted ${slotName(data.boot)}`;
}

/** Boots: runs the boot loader's rules over the flash and returns the slots of the app it started. */
export function bootSimSlots(flash: SlotFlash, options: BootOptions): SimOtaSlots {
  let data = flash.loadData();
  if (!data) {
    const factory = flash.eraseSlot(0);
    factory.append(buildAppImage(options.factoryVersion));
    factory.close();
    data = { boot: 0, states: ["valid", "empty"], unverifiedBoots: 0 };
  }
  const d = data;
  const bootNote = bootLoader(d);
  flash.saveData(d);
  const running = d.boot;
  const spare = (running === 0 ? 1 : 0) as 0 | 1;
  const read = readAppVersion(flash.readSlot(running));
  const version = "version" in read ? read.version : undefined;
  let writing = false;

  return {
    bootNote,
    boot(): OtaBoot {
      const s = d.states[running];
      const boot: OtaBoot = {
        slot: slotName(running),
        imageState: s === "pending-verify" ? "pending-verify" : s === "valid" ? "valid" : "unknown",
        canRollBack: d.states[spare] === "valid",
      };
      if (version !== undefined) boot.version = version;
      return boot;
    },
    begin(size: number): OtaSlotWriter {
      if (!Number.isInteger(size) || size <= 0 || size > SIM_SLOT_BYTES)
        throw new Error(`the image does not fit the ${SIM_SLOT_BYTES}-byte slot`);
      if (writing) throw new Error("the spare slot is already being written");
      // Erasing the spare slot makes it unbootable before the first byte lands.
      d.states[spare] = "empty";
      flash.saveData(d);
      const sink = flash.eraseSlot(spare);
      let written = 0;
      let open = true;
      writing = true;
      const close = (): void => {
        if (!open) return;
        open = false;
        writing = false;
        sink.close();
      };
      return {
        write(chunk: Uint8Array): void {
          if (!open) throw new Error("the slot writer is closed");
          if (written + chunk.length > size) throw new Error("more bytes than announced");
          sink.append(chunk);
          written += chunk.length;
        },
        complete(): void {
          if (!open) throw new Error("the slot writer is closed");
          close();
          if (written !== size) throw new Error(`${written} of ${size} bytes were written`);
          const check = readAppVersion(flash.readSlot(spare));
          if ("problem" in check) throw new Error(check.problem);
          d.states[spare] = "new";
          d.boot = spare;
          d.unverifiedBoots = 0;
          flash.saveData(d);
        },
        abort(): void {
          if (!open) return;
          close();
          flash.eraseSlot(spare).close();
        },
      };
    },
    markValid(): void {
      d.states[running] = "valid";
      d.unverifiedBoots = 0;
      flash.saveData(d);
    },
    rollback(): void {
      if (d.states[spare] !== "valid") throw new Error("there is no valid image to roll back to");
      d.states[running] = "invalid";
      d.boot = spare;
      d.unverifiedBoots = 0;
      flash.saveData(d);
      options.onRestart();
    },
    restart(): void {
      options.onRestart();
    },
    sha256: options.sha256,
    sha512: options.sha512,
  };
}
