/*
 * Shared declarations of the Halo XS host (main.c, globals.c and the
 * generated native table build/gen/halo_natives.c).
 */
#ifndef __HALO_XS__
#define __HALO_XS__

#include "xsAll.h" /* engine internals: machine fields, module loading */
#include "xs.h"     /* public API: xsBeginHost, xsTry, xsCall... */

/* One entry of the table build.mjs generates from the C files under modules/. */
typedef struct {
	const char* name;
	xsCallback callback;
} HaloNative;

extern const HaloNative haloNatives[]; /* ends with { NULL, NULL } */

/* Host state hanging off the->host. */
typedef struct {
	int promiseJobs;      /* set by fxQueuePromiseJobs, cleared by the loop */
	int failed;           /* an uncaught error or unhandled rejection was reported */
	size_t heapLimit;     /* bytes of chunks + slots the machine may allocate, 0 = none */
	size_t allocated;     /* bytes of chunks + slots allocated so far */
} HaloHost;

#define mxHaloHost(THE) ((HaloHost*)((THE)->host))

/* globals.c */
extern void haloInstallGlobals(xsMachine* the, int argc, char** argv);
/* Defines target[name] as a non-enumerable host function (uses xsVar(0)). */
extern void haloDefine(xsMachine* the, xsSlot* target, const char* name, xsCallback callback, xsIntegerValue length);
/* Formats a value the way print() does (an Error shows its stack). */
extern void haloFormat(xsMachine* the, xsSlot* value, xsSlot* result);
/* Writes an XS string (CESU-8 inside) to a stream as UTF-8. */
extern void haloWriteString(FILE* stream, const char* string);
/* Prints "<prefix><formatted value>" on stderr and marks the run as failed. */
extern void haloReportError(xsMachine* the, const char* prefix, xsSlot* value);
/* timers.c */
extern void haloInstallTimers(xsMachine* the);
/* Monotonic milliseconds, the clock of timers and hostNow(). */
extern double haloNow(void);
/* The earliest pending deadline (ms on haloNow's clock), or -1. */
extern double haloNextTimerDeadline(void);
/* Runs the earliest timer if it is due; returns 1 if one ran. */
extern int haloRunDueTimer(xsMachine* the);

/* Moddable's text/encoder and text/decoder modules (C, from @agoric/xsnap). */
extern void modInstallTextEncoder(xsMachine* the);
extern void modInstallTextDecoder(xsMachine* the);

#endif /* __HALO_XS__ */
