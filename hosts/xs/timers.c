/*
 * setTimeout, clearTimeout, setInterval, clearInterval of the Halo XS host,
 * and the two functions main.c's run loop calls.
 */
#include "halo_xs.h"

/* TIMERS: a binary min-heap ordered by (deadline, scheduling order), so equal
   deadlines run first-scheduled first. Each timer keeps its callback and
   arguments in a C-held slot; one rooted host object marks those slots for
   the GC. (Keeping them in a JS array or object instead makes XS 13.3 spend
   seconds in GC once thousands of timers are pending.) */

typedef struct HaloTimer {
	xsSlot entry;    /* [callback, delay, ...args] */
	xsIntegerValue id;
	uint32_t order;  /* when it was (re)scheduled */
	double when;
	double interval; /* < 0 for setTimeout */
	int cleared;     /* cleared by its own callback */
} HaloTimer;

static HaloTimer** gHeap = NULL;
static xsIntegerValue gHeapCount = 0;
static xsIntegerValue gHeapCapacity = 0;
static uint32_t gTimerOrder = 0;
static HaloTimer* gCurrentTimer = NULL;
static xsIntegerValue gTimerID = 0;
static xsSlot gTimerRoot;

double haloNow(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((double)now.tv_sec * 1000.0) + ((double)now.tv_nsec / 1e6);
}

static void haloMarkTimers(xsMachine* the, void* data, xsMarkRoot markRoot)
{
	xsIntegerValue i;
	for (i = 0; i < gHeapCount; i++)
		(*markRoot)(the, &gHeap[i]->entry);
	if (gCurrentTimer)
		(*markRoot)(the, &gCurrentTimer->entry);
}

static void haloDestroyTimers(void* data)
{
}

static const xsHostHooks gTimerHooks = { haloDestroyTimers, haloMarkTimers, NULL };

static int haloTimerBefore(HaloTimer* a, HaloTimer* b)
{
	return (a->when < b->when) || ((a->when == b->when) && ((int32_t)(a->order - b->order) < 0));
}

static void haloSiftUp(xsIntegerValue i)
{
	HaloTimer* timer = gHeap[i];
	while (i > 0) {
		xsIntegerValue parent = (i - 1) / 2;
		if (!haloTimerBefore(timer, gHeap[parent]))
			break;
		gHeap[i] = gHeap[parent];
		i = parent;
	}
	gHeap[i] = timer;
}

static void haloSiftDown(xsIntegerValue i)
{
	HaloTimer* timer = gHeap[i];
	for (;;) {
		xsIntegerValue child = 2 * i + 1;
		if (child >= gHeapCount)
			break;
		if ((child + 1 < gHeapCount) && haloTimerBefore(gHeap[child + 1], gHeap[child]))
			child++;
		if (!haloTimerBefore(gHeap[child], timer))
			break;
		gHeap[i] = gHeap[child];
		i = child;
	}
	gHeap[i] = timer;
}

static void haloInsertTimer(xsMachine* the, HaloTimer* timer)
{
	if (gHeapCount == gHeapCapacity) {
		xsIntegerValue capacity = gHeapCapacity ? 2 * gHeapCapacity : 64;
		HaloTimer** heap = c_realloc(gHeap, capacity * sizeof(HaloTimer*));
		if (!heap) {
			c_free(timer);
			xsUnknownError("out of memory");
		}
		gHeap = heap;
		gHeapCapacity = capacity;
	}
	timer->order = gTimerOrder++;
	gHeap[gHeapCount] = timer;
	haloSiftUp(gHeapCount++);
}

static void haloRemoveTimerAt(xsIntegerValue i)
{
	gHeapCount--;
	if (i < gHeapCount) {
		gHeap[i] = gHeap[gHeapCount];
		haloSiftDown(i);
		haloSiftUp(i);
	}
}

static void haloSetTimer(xsMachine* the, int repeat)
{
	xsIntegerValue i, c = xsToInteger(xsArgc);
	double delay = (c > 1) ? xsToNumber(xsArg(1)) : 0;
	HaloTimer* timer;
	if ((c < 1) || !xsIsCallable(xsArg(0)))
		xsTypeError("callback is not a function");
	if (!(delay >= 0)) /* also NaN */
		delay = 0;
	xsResult = xsNewArray(c);
	for (i = 0; i < c; i++) /* [callback, delay, ...args]: the delay is skipped when called */
		xsSetIndex(xsResult, i, xsArg(i));
	timer = c_calloc(1, sizeof(HaloTimer));
	if (!timer)
		xsUnknownError("out of memory");
	timer->entry = xsResult; /* no allocation until it is in the heap the GC marks */
	timer->id = ++gTimerID;
	timer->when = haloNow() + delay;
	timer->interval = repeat ? delay : -1;
	haloInsertTimer(the, timer);
	xsResult = xsInteger(timer->id);
}

static void xs_halo_setTimeout(xsMachine* the) { haloSetTimer(the, 0); }
static void xs_halo_setInterval(xsMachine* the) { haloSetTimer(the, 1); }

static void xs_halo_clearTimeout(xsMachine* the)
{
	xsIntegerValue i, id;
	if ((xsToInteger(xsArgc) < 1) || ((xsTypeOf(xsArg(0)) != xsIntegerType) && (xsTypeOf(xsArg(0)) != xsNumberType)))
		return;
	id = xsToInteger(xsArg(0));
	if (gCurrentTimer && (gCurrentTimer->id == id)) {
		gCurrentTimer->cleared = 1;
		return;
	}
	for (i = 0; i < gHeapCount; i++) {
		HaloTimer* timer = gHeap[i];
		if (timer->id == id) {
			haloRemoveTimerAt(i);
			c_free(timer);
			return;
		}
	}
}

double haloNextTimerDeadline(void)
{
	return gHeapCount ? gHeap[0]->when : -1;
}

/* Calls entry[0](...entry.slice(2)) with entry in xsVar(0). */
static void haloCallTimer(xsMachine* the)
{
	xsIntegerValue i, c = xsToInteger(xsGet(xsVar(0), xsID("length")));
	xsTry {
		mxPushUndefined();
		xsVar(1) = xsGetIndex(xsVar(0), 0);
		mxPushSlot(&xsVar(1));
		mxCall();
		for (i = 2; i < c; i++) {
			xsVar(1) = xsGetIndex(xsVar(0), i);
			mxPushSlot(&xsVar(1));
		}
		mxRunCount(c > 2 ? c - 2 : 0);
		mxPop();
	}
	xsCatch {
		haloReportError(the, "Uncaught ", &xsException);
		fflush(stdout);
		exit(1); /* like Node: an exception thrown by a timer callback ends the run */
	}
}

int haloRunDueTimer(xsMachine* the)
{
	HaloTimer* timer = gHeapCount ? gHeap[0] : NULL;
	if (!timer || (timer->when > haloNow()))
		return 0;
	haloRemoveTimerAt(0);
	gCurrentTimer = timer;
	xsBeginHost(the);
	{
		xsVars(2);
		xsVar(0) = timer->entry;
		haloCallTimer(the);
	}
	xsEndHost(the);
	gCurrentTimer = NULL;
	if ((timer->interval >= 0) && !timer->cleared) {
		timer->when = haloNow() + timer->interval;
		haloInsertTimer(the, timer);
	}
	else
		c_free(timer);
	return 1;
}

void haloInstallTimers(xsMachine* the)
{
	gTimerRoot = xsNewHostObject(NULL);
	xsSetHostData(gTimerRoot, &gHeapCount); /* XS calls the marker of host objects with data only */
	xsSetHostHooks(gTimerRoot, &gTimerHooks);
	xsRemember(gTimerRoot);
	haloDefine(the, &xsGlobal, "setTimeout", xs_halo_setTimeout, 2);
	haloDefine(the, &xsGlobal, "clearTimeout", xs_halo_clearTimeout, 1);
	haloDefine(the, &xsGlobal, "setInterval", xs_halo_setInterval, 2);
	haloDefine(the, &xsGlobal, "clearInterval", xs_halo_clearTimeout, 1);
}
