// Builds the device's Storage port: Halo's SD module mounted at the build's
// `storageRoot`, over SPI with the pins in the build's `sd` config on the
// ESP32-S3; on lin the module's POSIX backend uses `storageRoot` as a folder
// (made when `storageCreate` is set).
import config from "mc/config";
import Time from "time";
import type { Log } from "../../../lib/ports";
import { sdcard, type SdMountOptions } from "../../../modules/sdcard/sdcard";
import { sdStorage, type SdStorage } from "./storage";

function pin(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 48 ? value : undefined;
}

/** The mount options from the build: root without its trailing '/', SPI pins when the build names them. */
export function sdMountOptions(root: string, create: boolean): SdMountOptions {
  const options: SdMountOptions = { root: root.length > 1 ? root.replace(/\/+$/, "") : root };
  if (create) options.create = true;
  const sd = config.sd;
  if (typeof sd === "object" && sd !== null) {
    const { sck, mosi, miso, cs, khz } = sd as { [key: string]: unknown };
    options.sck = pin(sck);
    options.mosi = pin(mosi);
    options.miso = pin(miso);
    options.cs = pin(cs);
    if (typeof khz === "number" && khz > 0) options.khz = khz;
  }
  return options;
}

export function cardStorage(root: string, create: boolean, log: Log): SdStorage {
  return sdStorage({ card: sdcard, mount: sdMountOptions(root, create), now: () => Time.ticks, log });
}
