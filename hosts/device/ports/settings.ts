// The device's Settings port: NVS through the SDK's `preference` module (a
// JSON file on lin), mapped as nvs-settings.ts describes. Client tokens (the
// owner's among them), provider keys, the bot token and every knob live here,
// on internal flash; the SD card never holds them.
import type { Settings } from "../../../lib/ports";
import { nvsSettings, type PreferenceStore } from "./nvs-settings";
import { preference } from "./preference";

/** Each call reaches `preference` when made, so this module loads without it (see preference.ts). */
const store: PreferenceStore = {
  set: (domain, key, value) => preference().set(domain, key, value),
  get: (domain, key) => preference().get(domain, key),
  delete: (domain, key) => preference().delete(domain, key),
  keys: (domain) => preference().keys(domain),
};

export const preferenceSettings: Settings = nvsSettings(store);
