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
/** "valid", "pending-verify" (an update's first boot) or "unknown" (factory image, lin). */
export const boardImageState: () => "valid" | "pending-verify" | "unknown" = native("xs_haloboard_image_state");
/** Whether the boot loader has a previous image to go back to. */
export const boardCanRollBack: () => boolean = native("xs_haloboard_can_roll_back");
/** Keeps the running image (esp_ota_mark_app_valid_cancel_rollback). */
export const boardMarkValid: () => void = native("xs_haloboard_mark_valid");
/** Marks the running image invalid and restarts into the previous one (does not return on the device). */
export const boardRollback: () => void = native("xs_haloboard_rollback");
