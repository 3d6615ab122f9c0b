// The device's Settings port: NVS through the SDK's `preference` module (a
// JSON file on lin), mapped as nvs-settings.ts describes. Client tokens (the
// owner's among them), provider keys, the bot token and every knob live here,
// on internal flash; the SD card never holds them.
import Preference from "preference";
import type { Settings } from "../../../lib/ports";
import { nvsSettings } from "./nvs-settings";

export const preferenceSettings: Settings = nvsSettings(Preference);
