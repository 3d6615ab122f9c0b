/*
 * Tells whether an object lives in flash: on the device, the objects that
 * preloaded modules made at build time (tool schemas, knob tables) are kept
 * read-only in flash, and XS marks them with XS_MARK_FLAG, the flag its
 * collector sets on live objects while it runs and never clears on these.
 * XS's JSON.stringify refuses such an object (it flags each object it visits);
 * lib/util/json.ts copies only the objects this says are in flash.
 */
#include "xsAll.h"
#include "xsmc.h"

/* contains(value): true when value is an object held in flash. */
void xs_flash_contains(xsMachine *the)
{
	txSlot *slot = mxArgv(0);
	txBoolean inFlash = (slot->kind == XS_REFERENCE_KIND) && (slot->value.reference->flag & XS_MARK_FLAG);
	xsmcSetBoolean(xsResult, inFlash);
}
