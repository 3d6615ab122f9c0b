/*
 * A memcpy baseline for bench/vector.mjs (vector-scan-fraction-of-memcpy).
 * Only the XS test host links it: modules/vector/manifest.json names vector.c
 * alone, so the device image never carries it.
 */
#include "xsmc.h"
#include <string.h>

/* copy(source, target, times): copies source's bytes to the start of target
   `times` times; returns target's first byte so the copies cannot be elided. */
void xs_vector_copy_bench(xsMachine *the)
{
	uint8_t *source, *target;
	xsUnsignedValue sourceLength, targetLength;
	int32_t times = xsmcToInteger(xsArg(2)), i;

	xsmcGetBufferReadable(xsArg(0), (void **)&source, &sourceLength);
	xsmcGetBufferWritable(xsArg(1), (void **)&target, &targetLength);
	if (targetLength < sourceLength)
		xsRangeError("bad target");
	if (times < 1)
		xsRangeError("bad times");
	for (i = 0; i < times; i++)
		memcpy(target, source, sourceLength);
	xsmcSetInteger(xsResult, target[0]);
}
