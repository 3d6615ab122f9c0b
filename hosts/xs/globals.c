/*
 * The globals of the Halo XS host: print, console, exit, hostNow,
 * xsHeapInfo, gc, native, scriptArgs, TextEncoder, TextDecoder (timers are
 * in timers.c). Their TypeScript declarations are in globals.d.ts.
 */
#include "halo_xs.h"

/* TEXT OUTPUT */

static void haloPutCodePoint(FILE* stream, uint32_t c)
{
	char buffer[4];
	char* end = fxUTF8Encode(buffer, (txInteger)c);
	fwrite(buffer, 1, end - buffer, stream);
}

/* XS keeps strings in CESU-8 (halo_xs_platform.h): NUL is C0 80 and a
   character above U+FFFF is two 3-byte surrogates. Terminals and Node want
   UTF-8, so join pairs and turn lone surrogates into U+FFFD. */
void haloWriteString(FILE* stream, const char* string)
{
	const uint8_t* p = (const uint8_t*)string;
	const uint8_t* run = p;
	while (*p) {
		if ((p[0] == 0xC0) && (p[1] == 0x80)) {
			fwrite(run, 1, p - run, stream);
			fputc(0, stream);
			run = p += 2;
		}
		else if ((p[0] == 0xED) && ((p[1] & 0xE0) == 0xA0)) {
			uint32_t high = 0xD000 | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
			fwrite(run, 1, p - run, stream);
			if ((high < 0xDC00) && (p[3] == 0xED) && ((p[4] & 0xF0) == 0xB0)) {
				uint32_t low = 0xD000 | ((p[4] & 0x3F) << 6) | (p[5] & 0x3F);
				haloPutCodePoint(stream, 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
				p += 6;
			}
			else {
				haloPutCodePoint(stream, 0xFFFD);
				p += 3;
			}
			run = p;
		}
		else
			p++;
	}
	fwrite(run, 1, p - run, stream);
}

/* The reverse, for command-line arguments: UTF-8 in, CESU-8 string out. */
static void haloSetUTF8String(xsMachine* the, xsSlot* slot, const char* utf8)
{
	size_t length = strlen(utf8);
	char* buffer = c_malloc(length * 2 + 1);
	char* q = buffer;
	const uint8_t* p = (const uint8_t*)utf8;
	if (!buffer)
		xsUnknownError("out of memory");
	while (*p) {
		if (((p[0] & 0xF8) == 0xF0) && p[1] && p[2] && p[3]) {
			uint32_t c = ((p[0] & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
			c -= 0x10000;
			q = fxUTF8Encode(q, 0xD800 + (c >> 10));
			q = fxUTF8Encode(q, 0xDC00 + (c & 0x3FF));
			p += 4;
		}
		else
			*q++ = *p++;
	}
	*q = 0;
	fxString(the, slot, buffer);
	c_free(buffer);
}

static int haloTryStackOrJSON(xsMachine* the, xsSlot* value, xsSlot* result)
{
	int done = 0;
	xsTry {
		if (xsIsInstanceOf(*value, xsErrorPrototype)) {
			*result = xsGet(*value, xsID("stack"));
			done = (xsTypeOf(*result) == xsStringType) && xsToString(*result)[0];
		}
		else if (!xsIsCallable(*value)) {
			*result = xsGet(xsGlobal, xsID("JSON"));
			*result = xsCall1(*result, xsID("stringify"), *value);
			done = xsTypeOf(*result) == xsStringType;
		}
	}
	xsCatch {
	}
	return done;
}

/* Strings as they are; an Error as its stack ("Name: message\n at f (file:line)");
   other objects as JSON when they have a JSON form; anything else via String(). */
void haloFormat(xsMachine* the, xsSlot* value, xsSlot* result)
{
	if (xsTypeOf(*value) == xsStringType) {
		*result = *value;
		return;
	}
	if ((xsTypeOf(*value) == xsReferenceType) && haloTryStackOrJSON(the, value, result))
		return;
	xsTry {
		*result = xsCall1(xsGlobal, xsID("String"), *value);
	}
	xsCatch {
		*result = xsString("[value that cannot be printed]");
	}
}

/* Replaces *error by error.cause when error is an Error that has one. */
static int haloGetCause(xsMachine* the, xsSlot* error)
{
	int found = 0;
	xsTry {
		if (xsIsInstanceOf(*error, xsErrorPrototype) && xsHas(*error, xsID("cause"))) {
			*error = xsGet(*error, xsID("cause"));
			found = 1;
		}
	}
	xsCatch {
	}
	return found;
}

void haloReportError(xsMachine* the, const char* prefix, xsSlot* value)
{
	xsSlot error = *value;
	mxHaloHost(the)->failed = 1;
	fflush(stdout);
	xsBeginHost(the);
	{
		int depth = 0;
		xsVars(2);
		xsVar(0) = error;
		for (;;) {
			haloFormat(the, &xsVar(0), &xsVar(1));
			fputs(prefix, stderr);
			haloWriteString(stderr, xsToString(xsVar(1)));
			fputc('\n', stderr);
			if ((++depth > 4) || !haloGetCause(the, &xsVar(0)))
				break;
			prefix = "Caused by: ";
		}
		fflush(stderr);
	}
	xsEndHost(the);
}

static void haloPrintTo(xsMachine* the, FILE* stream)
{
	xsIntegerValue i, c = xsToInteger(xsArgc);
	xsVars(1);
	for (i = 0; i < c; i++) {
		if (i)
			fputc(' ', stream);
		haloFormat(the, &xsArg(i), &xsVar(0));
		haloWriteString(stream, xsToString(xsVar(0)));
	}
	fputc('\n', stream);
}

static void xs_halo_print(xsMachine* the)
{
	haloPrintTo(the, stdout);
}

static void xs_halo_print_error(xsMachine* the)
{
	fflush(stdout); /* keep the order of interleaved stdout/stderr lines */
	haloPrintTo(the, stderr);
}

/* MISC */

static void xs_halo_exit(xsMachine* the)
{
	int code = (xsToInteger(xsArgc) > 0) ? xsToInteger(xsArg(0)) : 0;
	if ((code == 0) && mxHaloHost(the)->failed)
		code = 1; /* an error was already reported: do not let exit(0) hide it */
	fflush(stdout);
	fflush(stderr);
	exit(code);
}

static void xs_halo_hostNow(xsMachine* the)
{
	xsResult = xsNumber(haloNow());
}

static void xs_halo_gc(xsMachine* the)
{
	xsCollectGarbage();
}

static void haloSetNumber(xsMachine* the, const char* name, double value)
{
	xsSet(xsResult, xsID((char*)name), xsNumber(value));
}

/* xsHeapInfo(collect = true): the machine's chunk and slot use, after a GC. */
static void xs_halo_heapInfo(xsMachine* the)
{
	double slotSize = sizeof(txSlot);
	double chunkBytes, slotBytes;
	if ((xsToInteger(xsArgc) < 1) || xsTest(xsArg(0)))
		xsCollectGarbage();
	chunkBytes = the->currentChunksSize;
	slotBytes = the->currentHeapCount * slotSize;
	xsResult = xsNewObject();
	haloSetNumber(the, "heapBytes", chunkBytes + slotBytes);
	haloSetNumber(the, "chunkBytes", chunkBytes);
	haloSetNumber(the, "slotBytes", slotBytes);
	haloSetNumber(the, "peakBytes", the->peakChunksSize + the->peakHeapCount * slotSize);
	haloSetNumber(the, "reservedBytes", mxHaloHost(the)->allocated);
	haloSetNumber(the, "heapLimit", mxHaloHost(the)->heapLimit);
	haloSetNumber(the, "slotSize", slotSize);
}

/* native(name): the C function `void name(xsMachine *the)` linked from modules/. */
static void xs_halo_native(xsMachine* the)
{
	const HaloNative* native = haloNatives;
	xsStringValue name;
	if (xsToInteger(xsArgc) < 1)
		xsTypeError("no name");
	name = xsToString(xsArg(0));
	while (native->name) {
		if (!c_strcmp(native->name, name)) {
			xsResult = xsNewHostFunctionObject(native->callback, 0, xsID((char*)native->name));
			return;
		}
		native++;
	}
	xsTypeError("no function %s", name);
}

/* INSTALL */

void haloDefine(xsMachine* the, xsSlot* target, const char* name, xsCallback callback, xsIntegerValue length)
{
	xsIdentifier id = xsID((char*)name);
	xsVar(0) = xsNewHostFunctionObject(callback, length, id);
	xsDefine(*target, id, xsVar(0), xsDontEnum);
}

void haloInstallGlobals(xsMachine* the, int argc, char** argv)
{
	int i;
	xsVars(2);
	haloInstallTimers(the);
	haloDefine(the, &xsGlobal, "print", xs_halo_print, 0);
	haloDefine(the, &xsGlobal, "exit", xs_halo_exit, 1);
	haloDefine(the, &xsGlobal, "hostNow", xs_halo_hostNow, 0);
	haloDefine(the, &xsGlobal, "xsHeapInfo", xs_halo_heapInfo, 0);
	haloDefine(the, &xsGlobal, "gc", xs_halo_gc, 0);
	haloDefine(the, &xsGlobal, "native", xs_halo_native, 1);

	xsVar(1) = xsNewObject();
	haloDefine(the, &xsVar(1), "log", xs_halo_print, 0);
	haloDefine(the, &xsVar(1), "info", xs_halo_print, 0);
	haloDefine(the, &xsVar(1), "debug", xs_halo_print, 0);
	haloDefine(the, &xsVar(1), "warn", xs_halo_print_error, 0);
	haloDefine(the, &xsVar(1), "error", xs_halo_print_error, 0);
	xsDefine(xsGlobal, xsID("console"), xsVar(1), xsDontEnum);

	xsVar(1) = xsNewArray(0);
	for (i = 0; i < argc; i++) {
		haloSetUTF8String(the, &xsVar(0), argv[i]);
		xsSetIndex(xsVar(1), i, xsVar(0));
	}
	xsDefine(xsGlobal, xsID("scriptArgs"), xsVar(1), xsDontEnum);

	modInstallTextEncoder(the);
	modInstallTextDecoder(the);
}
