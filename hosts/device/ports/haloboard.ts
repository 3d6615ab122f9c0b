// The C side of the System and Ota ports (haloboard.c beside this file): chip
// readings from ESP-IDF on the device, from the PC process on lin.

/** [free, total] bytes of internal RAM (device) or of the malloc arena (lin); undefined when unknown. */
export const boardHeap: () => [number, number] | undefined = native("xs_haloboard_heap");
/** [free, total] PSRAM bytes; undefined without PSRAM. */
export const boardPsram: () => [number, number] | undefined = native("xs_haloboard_psram");
/** ESP-IDF's esp_reset_reason(); undefined on lin. */
export const boardResetReason: () => number | undefined = native("xs_haloboard_reset_reason");
/** The label of the running app partition, e.g. "ota_0"; undefined on lin. */
export const boardRunningSlot: () => string | undefined = native("xs_haloboard_running_slot");
/** Restarts the chip (does not return); false where the host cannot restart. */
export const boardRestart: () => boolean = native("xs_haloboard_restart");
