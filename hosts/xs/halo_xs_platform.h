/*
 * Engine configuration of the Halo XS host.
 *
 * XS includes this header from xsPlatform.h when the build passes
 * -DINCLUDE_XSPLATFORM -DXSPLATFORM="halo_xs_platform.h". It picks the OS
 * flags, the C library, the per-machine fields the host needs, and which
 * engine defaults (xsPlatforms.c) we use; everything not defaulted here
 * (fxCreateMachinePlatform, fxDeleteMachinePlatform, fxQueuePromiseJobs,
 * fxAbort, fxFindModule, fxLoadModule, fxAllocateChunks/Slots and their
 * frees, which count bytes so --heap-limit can refuse) is in main.c.
 */
#ifndef __HALO_XS_PLATFORM__
#define __HALO_XS_PLATFORM__

#if !defined(__GNUC__)
	#error "the Halo XS host builds with gcc or clang"
#endif
#if defined(__BYTE_ORDER__) && (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
	#error "the Halo XS host assumes a little-endian CPU"
#endif
#if defined(__linux__)
	#undef mxLinux
	#define mxLinux 1
#elif defined(__APPLE__)
	#undef mxMacOSX
	#define mxMacOSX 1
#else
	#error "the Halo XS host builds on Linux or macOS"
#endif
#define XS_FUNCTION_NORETURN __attribute__((noreturn))

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <unistd.h>

#define mxUseGCCAtomics 1
#define mxUsePOSIXThreads 1

/* Strings are stored as CESU-8 like xsnap does: lone surrogates survive and
   the text/encoder + text/decoder C sources convert to and from real UTF-8. */
#define mxCESU8 1

/* The engine console (parser errors, warnings, "stack overflow") goes to
   stderr so that stdout carries only what the script prints. The build
   defines mxDebug to get file:line in error stacks, and mxDebug also reports
   every throw, caught or not ("path:line: exception: throw!"): main.c drops
   those reports; uncaught errors are printed by the host with their stack. */
extern int haloEnginePrintf(const char* format, ...);
extern int haloEngineVPrintf(const char* format, va_list arguments);
#define c_printf haloEnginePrintf
#define c_vprintf haloEngineVPrintf

/* Per-machine host state (XS pastes this into struct sxMachine). */
#define mxMachinePlatform \
	void* waiterCondition; \
	void* waiterData; \
	void* waiterLink; \
	void* host;

#define mxUseDefaultBuildKeys 1
#define mxUseDefaultParseScript 1
#define mxUseDefaultSharedChunks 1
#define mxUseDefaultDebug 1

#endif /* __HALO_XS_PLATFORM__ */
