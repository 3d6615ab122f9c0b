/*
 * Shared state of the SD-card module (sdcard.c: paths and file operations;
 * sdcard_card.c: mount, card info, free space, removal). One card per device.
 *
 * Backends: on ESP-IDF (ESP_PLATFORM) a FAT card over SPI mounted with
 * esp_vfs_fat_sdspi_mount; elsewhere (the XS test host, the SDK's lin target)
 * a folder on the host stands in for the card, through the same POSIX calls.
 */
#ifndef __SDCARD_H__
#define __SDCARD_H__

#include "xsmc.h"

#if defined(ESP_PLATFORM)
	#define SDCARD_POSIX 0
	#include "sdmmc_cmd.h"
#else
	#define SDCARD_POSIX 1
#endif

#define SDCARD_MAX_PATH 256     /* bytes of a full path (mount point included) with its NUL */
#define SDCARD_MAX_MOUNT 160    /* bytes of the mount point (a host folder on POSIX) with its NUL */
#define SDCARD_MAX_FILES 8      /* open handles at once; also the FAT mount's max_files */
#define SDCARD_MAX_ENTRIES 4096 /* names readdir returns from one folder */

typedef struct {
	int mounted;
	char mount[SDCARD_MAX_MOUNT];
	int fds[SDCARD_MAX_FILES];          /* -1: free */
	uint16_t generation[SDCARD_MAX_FILES]; /* bumped on close: a stale handle never reaches a reused slot */
#if SDCARD_POSIX
	int removed;     /* simulated card pulled: every operation fails with EIO */
	double capacity; /* simulated card size in bytes; 0: the host folder's file system */
#else
	sdmmc_card_t *card;
	int spiHost;
#endif
} SdCard;

extern SdCard gSdCard;

/* Closes every handle and unmounts; the card reads as absent until mounted again. */
void sdcardDrop(void);
/* Throws the errno's name (ENOENT...); EIO and ENODEV first drop the mount (a pulled card). */
void sdcardThrow(xsMachine *the, int error);
/* Throws ENODEV unless mounted (and, on POSIX, unless the simulated card is present). */
void sdcardRequire(xsMachine *the);
/* Bytes used under `path` (a full path in a buffer of SDCARD_MAX_PATH bytes); POSIX only. */
double sdcardUsed(char *path);

#endif
