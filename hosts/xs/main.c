/*
 * halo-xs: a small host for the Moddable XS engine (XS 13.3 from
 * @agoric/xsnap). It creates one machine, installs the host globals
 * (globals.c), imports ONE self-contained ES module (an esbuild bundle) and
 * runs promise jobs and timers until nothing is pending.
 *
 *   halo-xs [--heap-limit <MB>] <bundle.js> [script args...]
 *   halo-xs --version
 *
 * Exit status: 0; 1 if evaluation threw, a timer callback threw or a promise
 * rejection was never handled; the code given to exit(); 2 for engine aborts
 * (stack overflow, memory full, ...) and usage errors; 13 when the module
 * still awaits something that can no longer happen (as Node does).
 */
#include "halo_xs.h"
#include "xsScript.h"

#define HALO_FATAL_EXIT 2

static HaloHost gHost;

/* Slots are 32 bytes on 64-bit hosts: the JS stack below is 8 MB (about
   twice Node's default depth); the heap starts small and grows. */
static xsCreation gCreation = {
	4 * 1024 * 1024,   /* initialChunkSize */
	1024 * 1024,       /* incrementalChunkSize */
	64 * 1024,         /* initialHeapCount (slots) */
	256 * 1024,        /* incrementalHeapCount: a large live heap (10,000 files on the card) collects 8x less often */
	256 * 1024,        /* stackCount (slots): ~23000 frames of a simple function */
	8 * 1024,          /* initialKeyCount */
	4 * 1024,          /* incrementalKeyCount */
	1993,              /* nameModulo */
	127,               /* symbolModulo */
	8 * 1024 * 1024,   /* parserBufferSize: longest string literal or token */
	1993,              /* parserTableModulo */
	0,                 /* staticSize */
};

/* PLATFORM HOOKS (see halo_xs_platform.h) */

static int gHaloMuted = 0;

int haloEnginePrintf(const char* format, ...)
{
	va_list arguments;
	int result;
	if (!strcmp(format, "%s:%d: exception: ") || !strcmp(format, "# exception: ")) {
		gHaloMuted = 1; /* until the closing "!\n" of fxReportException */
		return 0;
	}
	if (gHaloMuted) {
		if (!strcmp(format, "!\n"))
			gHaloMuted = 0;
		return 0;
	}
	va_start(arguments, format);
	result = vfprintf(stderr, format, arguments);
	va_end(arguments);
	return result;
}

int haloEngineVPrintf(const char* format, va_list arguments)
{
	return gHaloMuted ? 0 : vfprintf(stderr, format, arguments);
}

void fxCreateMachinePlatform(txMachine* the)
{
	the->host = &gHost;
}

void fxDeleteMachinePlatform(txMachine* the)
{
	the->host = NULL;
}

void fxQueuePromiseJobs(txMachine* the)
{
	mxHaloHost(the)->promiseJobs = 1;
}

static int haloReserve(txMachine* the, size_t size)
{
	/* gHost, not the->host: this runs before fxCreateMachinePlatform too */
	if (gHost.heapLimit && (gHost.allocated + size > gHost.heapLimit))
		return 0;
	gHost.allocated += size;
	return 1;
}

void* fxAllocateChunks(txMachine* the, txSize size)
{
	return haloReserve(the, size) ? c_malloc(size) : NULL;
}

void fxFreeChunks(txMachine* the, void* chunks)
{
	c_free(chunks);
}

txSlot* fxAllocateSlots(txMachine* the, txSize count)
{
	if (!the->stackBottom) /* the JS stack (fxAllocate): not part of the heap limit */
		return c_malloc(count * sizeof(txSlot));
	return haloReserve(the, count * sizeof(txSlot)) ? c_malloc(count * sizeof(txSlot)) : NULL;
}

void fxFreeSlots(txMachine* the, void* slots)
{
	c_free(slots);
}

static void haloExit(int status)
{
	fflush(stdout);
	fflush(stderr);
	exit(status);
}

/* XS calls this for everything it cannot continue from. Rejections are
   reported and the run goes on (the exit code becomes 1); an exception
   escaping a job ends the run like an uncaught exception in Node; the rest
   are fatal, as they are on the device. */
void fxAbort(txMachine* the, int status)
{
	const char* why;
	switch (status) {
	case XS_UNHANDLED_REJECTION_EXIT:
		haloReportError(the, "Unhandled promise rejection: ", &mxException);
		mxException = mxUndefined;
		return;
	case XS_UNHANDLED_EXCEPTION_EXIT:
		haloReportError(the, "Uncaught ", &mxException);
		haloExit(1);
		return;
	case XS_STACK_OVERFLOW_EXIT: why = "stack overflow"; break;
	case XS_NOT_ENOUGH_MEMORY_EXIT: why = "memory full"; break;
	case XS_NO_MORE_KEYS_EXIT: why = "not enough keys"; break;
	case XS_TOO_MUCH_COMPUTATION_EXIT: why = "too much computation"; break;
	case XS_DEAD_STRIP_EXIT: why = "dead strip"; break;
	default: why = "fatal check"; break;
	}
	fprintf(stderr, "halo-xs: fatal: %s\n", why);
	haloExit(HALO_FATAL_EXIT);
}

/* MODULES: the only module is the bundle given on the command line. */

txID fxFindModule(txMachine* the, txSlot* realm, txID moduleID, txSlot* slot)
{
	char name[C_PATH_MAX];
	fxToStringBuffer(the, slot, name, sizeof(name));
	if (moduleID != XS_NO_ID)
		return XS_NO_ID; /* an import left in the bundle: "module not found" */
	return fxNewNameC(the, name);
}

static char* haloReadFile(const char* path, txSize* size)
{
	FILE* file = fopen(path, "rb");
	char* buffer = NULL;
	long length;
	if (!file)
		return NULL;
	if ((fseek(file, 0, SEEK_END) == 0) && ((length = ftell(file)) >= 0) && (fseek(file, 0, SEEK_SET) == 0)) {
		buffer = c_malloc(length + 1);
		if (buffer && (fread(buffer, 1, length, file) == (size_t)length)) {
			buffer[length] = 0;
			*size = (txSize)length;
		}
		else {
			c_free(buffer);
			buffer = NULL;
		}
	}
	fclose(file);
	return buffer;
}

/* The parser turns syntax errors into a thrown SyntaxError without the
   position: print "path:line: message" first. */
static void haloReportParserError(void* console, txString path, txInteger line, txString format, c_va_list arguments)
{
	fprintf(stderr, "%s:%d: SyntaxError: ", path ? path : "?", (int)line);
	vfprintf(stderr, format, arguments);
	fputc('\n', stderr);
}

void fxLoadModule(txMachine* the, txSlot* module, txID moduleID)
{
	txString path = fxGetKeyName(the, moduleID);
	txStringCStream stream;
	txParser parser;
	txParserJump jump;
	txScript* script = NULL;
	txSize size = 0;
	stream.buffer = haloReadFile(path, &size);
	if (!stream.buffer)
		mxURIError("cannot read %s", path);
	stream.offset = 0;
	stream.size = size;
	fxInitializeParser(&parser, the, the->parserBufferSize, the->parserTableModulo);
	parser.firstJump = &jump;
	parser.reportError = haloReportParserError;
	if (c_setjmp(jump.jmp_buf) == 0) {
		parser.path = fxNewParserSymbol(&parser, path); /* file:line in error stacks */
		fxParserTree(&parser, &stream, fxStringCGetter, mxDebugFlag, NULL);
		fxParserHoist(&parser);
		fxParserBind(&parser);
		script = fxParserCode(&parser);
	}
	fxTerminateParser(&parser);
	c_free(stream.buffer);
	if (script)
		fxResolveModule(the, module, moduleID, script, C_NULL, C_NULL);
}

/* RUN */

static int gImportSettled = 0;

static void haloImportFulfilled(xsMachine* the)
{
	gImportSettled = 1;
}

static void haloImportRejected(xsMachine* the)
{
	gImportSettled = 1;
	haloReportError(the, "Uncaught ", &xsArg(0));
	haloExit(1);
}

/* import(path).then(fulfilled, rejected): an error thrown while the module
   evaluates only surfaces as the rejection of that promise. */
static void haloImport(txMachine* the, const char* path)
{
	txSlot* realm = mxModuleInstanceInternal(mxProgram.value.reference)->value.module.realm;
	mxPushStringC((txString)path);
	fxRunImport(the, realm, XS_NO_ID);
	mxDub();
	fxGetID(the, mxID(_then));
	mxCall();
	fxNewHostFunction(the, haloImportFulfilled, 1, XS_NO_ID, XS_NO_ID);
	fxNewHostFunction(the, haloImportRejected, 1, XS_NO_ID, XS_NO_ID);
	mxRunCount(2);
	mxPop();
}

/* Drain promise jobs, then run the earliest due timer, until nothing is left. */
static void haloRunLoop(txMachine* the)
{
	for (;;) {
		while (gHost.promiseJobs) {
			gHost.promiseJobs = 0;
			fxRunPromiseJobs(the);
		}
		fxEndJob(the); /* finalization registries, collected unhandled rejections */
		if (gHost.promiseJobs)
			continue;
		double deadline = haloNextTimerDeadline();
		if (deadline < 0)
			break;
		double wait = deadline - haloNow();
		if (wait > 0) {
			struct timespec delay = { (time_t)(wait / 1000), (long)(fmod(wait, 1000) * 1e6) };
			nanosleep(&delay, NULL);
			continue;
		}
		haloRunDueTimer(the);
	}
	fxCheckUnhandledRejections(the, 1);
}

static int haloUsage(void)
{
	fprintf(stderr, "usage: halo-xs [--heap-limit <MB>] <bundle.js> [args...] | --version\n");
	return HALO_FATAL_EXIT;
}

int main(int argc, char** argv)
{
	char path[C_PATH_MAX];
	int argi = 1;
	xsMachine* machine;
	setvbuf(stdout, NULL, _IOLBF, 0); /* lines reach a piped runner as they are printed */
	while ((argi < argc) && !strncmp(argv[argi], "--", 2)) {
		if (!strcmp(argv[argi], "--version")) {
			printf("XS %d.%d.%d\n", XS_MAJOR_VERSION, XS_MINOR_VERSION, XS_PATCH_VERSION);
			return 0;
		}
		if (!strcmp(argv[argi], "--heap-limit") && (argi + 1 < argc)) {
			gHost.heapLimit = (size_t)(atof(argv[argi + 1]) * 1024 * 1024);
			argi += 2;
			continue;
		}
		return haloUsage();
	}
	if (argi >= argc)
		return haloUsage();
	if (!realpath(argv[argi], path)) {
		fprintf(stderr, "halo-xs: cannot find %s\n", argv[argi]);
		return HALO_FATAL_EXIT;
	}
	machine = xsCreateMachine(&gCreation, "halo-xs", NULL);
	if (!machine) {
		fprintf(stderr, "halo-xs: cannot create the XS machine\n");
		return HALO_FATAL_EXIT;
	}
	xsBeginHost(machine);
	haloInstallGlobals(the, argc - argi - 1, argv + argi + 1);
	haloImport(the, path);
	haloRunLoop(the);
	xsEndHost(machine);
	fflush(stdout);
	if (!gImportSettled) {
		/* Node exits with 13 too: nothing left to run, the module still awaits */
		fprintf(stderr, "halo-xs: unsettled top-level await: nothing is pending but the module has not finished\n");
		return 13;
	}
	xsDeleteMachine(machine);
	return gHost.failed ? 1 : 0;
}
