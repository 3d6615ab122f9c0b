// The device's Ota ports. `deviceOtaSlots`: the spare app slot written through
// the SDK's embedded:update (which switches the boot slot on complete()), the
// boot loader's image state and the rollback calls from haloboard.c, and the
// streaming SHA-256 in C (modules/sha256). `deviceOta`: the read-only status
// a build without the update engine reports.
import { Digest } from "crypt";
import type Flash from "embedded:storage/flash";
import type Update from "embedded:update";
import Modules from "modules";
import type { Ota, OtaBoot, OtaSlots, OtaSlotWriter, OtaStatus } from "../../../lib/ports";
import { nativeSha256 } from "../../../modules/sha256/sha256";
import type { DeviceConfig } from "../config";
import { boardCanRollBack, boardImageState, boardMarkValid, boardRestart, boardRollback, boardRunningSlot } from "./haloboard";

/** The partition ESP-IDF names for the app slot not running now. */
const SPARE_SLOT = "nextota";

export function deviceOta(config: DeviceConfig): Ota {
  return {
    status(): OtaStatus {
      const slot = boardRunningSlot();
      const status: OtaStatus = {
        state: "disabled",
        runningVersion: config.firmwareVersion,
        autoUpdate: false,
        detail: config.simulated ? "the lin build does not update itself" : "no update server is configured on this build",
      };
      if (slot !== undefined) status.slot = slot;
      return status;
    },
  };
}

/** The app slots, or undefined on a build without the SDK's flash and update modules (lin). */
export function deviceOtaSlots(): OtaSlots | undefined {
  if (!Modules.has("embedded:storage/flash") || !Modules.has("embedded:update")) return undefined;
  const flash = Modules.importNow("embedded:storage/flash") as typeof Flash;
  const update = Modules.importNow("embedded:update") as typeof Update;
  return {
    boot(): OtaBoot {
      return { slot: boardRunningSlot() ?? "unknown", imageState: boardImageState(), canRollBack: boardCanRollBack() };
    },
    begin(size: number): OtaSlotWriter {
      const partition = flash.open({ path: SPARE_SLOT });
      if (size > partition.status().size) throw new Error("the image does not fit the spare app slot");
      const writer = update.open({ partition, mode: "a", byteLength: size });
      let open = true;
      return {
        write: (chunk) => writer.write(chunk),
        complete: () => {
          open = false;
          try {
            writer.complete(); // esp_ota_end checks the image, then the boot slot switches
          } finally {
            writer.close();
          }
        },
        abort: () => {
          if (open) writer.close(); // closing before complete() aborts the update
          open = false;
        },
      };
    },
    markValid: () => boardMarkValid(),
    rollback: () => boardRollback(),
    restart: () => void boardRestart(),
    sha256: nativeSha256,
    sha512: (data) => {
      const digest = new Digest("SHA512");
      digest.write(data);
      return new Uint8Array(digest.close());
    },
  };
}
