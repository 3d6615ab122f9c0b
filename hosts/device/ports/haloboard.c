/*
 * Board readings and restart for the System and Ota ports (hosts/device/ports/
 * system.ts, ota.ts). On the ESP32 they come from ESP-IDF; on lin (the SDK's
 * Linux target, run headless by hosts/lin) from the PC process, and restart
 * does nothing. A reading the host cannot make returns undefined.
 */
#include "xsmc.h"

#if defined(ESP32)
	#include "esp_heap_caps.h"
	#include "esp_system.h"
	#include "esp_ota_ops.h"
#elif defined(__linux__)
	#include <malloc.h>
#endif

/* Free and total bytes of internal RAM (ESP32) or of the process's malloc arena (lin). */
void xs_haloboard_heap(xsMachine *the)
{
	double freeBytes, totalBytes;
#if defined(ESP32)
	freeBytes = heap_caps_get_free_size(MALLOC_CAP_INTERNAL);
	totalBytes = heap_caps_get_total_size(MALLOC_CAP_INTERNAL);
#elif defined(__linux__)
	struct mallinfo2 info = mallinfo2();
	freeBytes = (double)info.fordblks;
	totalBytes = (double)info.arena;
#else
	return;
#endif
	xsmcVars(1);
	xsmcSetNewArray(xsResult, 2);
	xsmcSetNumber(xsVar(0), freeBytes);
	xsmcSetIndex(xsResult, 0, xsVar(0));
	xsmcSetNumber(xsVar(0), totalBytes);
	xsmcSetIndex(xsResult, 1, xsVar(0));
}

/* Free and total PSRAM bytes; undefined without PSRAM (and on lin). */
void xs_haloboard_psram(xsMachine *the)
{
#if defined(ESP32)
	size_t total = heap_caps_get_total_size(MALLOC_CAP_SPIRAM);
	if (!total) return;
	xsmcVars(1);
	xsmcSetNewArray(xsResult, 2);
	xsmcSetNumber(xsVar(0), (double)heap_caps_get_free_size(MALLOC_CAP_SPIRAM));
	xsmcSetIndex(xsResult, 0, xsVar(0));
	xsmcSetNumber(xsVar(0), (double)total);
	xsmcSetIndex(xsResult, 1, xsVar(0));
#endif
}

/* esp_reset_reason() as a number (see system.ts for the names); undefined on lin. */
void xs_haloboard_reset_reason(xsMachine *the)
{
#if defined(ESP32)
	xsmcSetInteger(xsResult, (int)esp_reset_reason());
#endif
}

/* The label of the app partition running now (e.g. "ota_0"); undefined on lin. */
void xs_haloboard_running_slot(xsMachine *the)
{
#if defined(ESP32)
	const esp_partition_t *running = esp_ota_get_running_partition();
	if (running) xsmcSetString(xsResult, (char *)running->label);
#endif
}

/* Restarts the chip and does not return (ESP32); returns false where it cannot. */
void xs_haloboard_restart(xsMachine *the)
{
#if defined(ESP32)
	esp_restart();
#else
	xsmcSetFalse(xsResult);
#endif
}

/* What the boot loader says of the running image: "valid", "pending-verify"
   (first boot of an update, which must mark itself valid or roll back), or
   "unknown" (a USB-flashed factory image, or lin). Needs
   CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE for "pending-verify" to exist. */
void xs_haloboard_image_state(xsMachine *the)
{
#if defined(ESP32)
	esp_ota_img_states_t state;
	const esp_partition_t *running = esp_ota_get_running_partition();
	if (running && esp_ota_get_state_partition(running, &state) == ESP_OK) {
		if (state == ESP_OTA_IMG_PENDING_VERIFY) {
			xsmcSetString(xsResult, "pending-verify");
			return;
		}
		if (state == ESP_OTA_IMG_VALID) {
			xsmcSetString(xsResult, "valid");
			return;
		}
	}
#endif
	xsmcSetString(xsResult, "unknown");
}

/* Whether the other app slot holds an image the boot loader may go back to. */
void xs_haloboard_can_roll_back(xsMachine *the)
{
#if defined(ESP32)
	xsmcSetBoolean(xsResult, esp_ota_check_rollback_is_possible());
#else
	xsmcSetFalse(xsResult);
#endif
}

/* The running image passed its health check: cancel the pending rollback. */
void xs_haloboard_mark_valid(xsMachine *the)
{
#if defined(ESP32)
	esp_err_t err = esp_ota_mark_app_valid_cancel_rollback();
	if (err != ESP_OK)
		xsUnknownError("mark valid failed");
#endif
}

/* The running image failed its health check: mark it invalid and restart into
   the previous one. Does not return when it succeeds. */
void xs_haloboard_rollback(xsMachine *the)
{
#if defined(ESP32)
	esp_ota_mark_app_invalid_rollback_and_reboot();
	xsUnknownError("no image to roll back to");
#else
	xsUnknownError("no rollback on this host");
#endif
}
