/*
 * The XS binding of the secp256k1 arithmetic (secp256k1.h): modules/curve/curve.ts
 * binds these with native("xs_curve_..."), and lib/nostr/curve/native.ts makes
 * them the Curve port. Each takes Uint8Arrays (or ArrayBuffers), copies them to
 * the C stack before anything can allocate, and returns a new 33-byte
 * ArrayBuffer, or the status code of secp256k1.h as a number (4: a length).
 */
#include "xsmc.h"
#include "secp256k1.h"
#include <string.h>

#define CURVE_BAD_LENGTH 4

/* Copies argument `index` into `out` when it is exactly `length` bytes; returns 0 otherwise. */
static int curveArgument(xsMachine *the, int index, uint8_t *out, xsUnsignedValue length)
{
	void *data;
	xsUnsignedValue size;
	if ((xsmcArgc <= index) || (xsmcTypeOf(xsArg(index)) != xsReferenceType))
		return 0;
	xsmcGetBufferReadable(xsArg(index), &data, &size);
	if (size != length)
		return 0;
	memcpy(out, data, length);
	return 1;
}

static void curveResult(xsMachine *the, int status, const uint8_t out[33])
{
	if (status == CURVE_OK)
		xsmcSetArrayBuffer(xsResult, (void *)out, 33);
	else
		xsmcSetInteger(xsResult, status);
}

/* multiplyBase(k) */
void xs_curve_multiply_base(xsMachine *the)
{
	uint8_t k[32], out[33];
	if (!curveArgument(the, 0, k, 32)) {
		xsmcSetInteger(xsResult, CURVE_BAD_LENGTH);
		return;
	}
	curveResult(the, curveMultiplyBase(out, k), out);
	memset(k, 0, sizeof(k));
}

/* multiply(point, k) */
void xs_curve_multiply(xsMachine *the)
{
	uint8_t point[33], k[32], out[33];
	if (!curveArgument(the, 0, point, 33) || !curveArgument(the, 1, k, 32)) {
		xsmcSetInteger(xsResult, CURVE_BAD_LENGTH);
		return;
	}
	curveResult(the, curveMultiply(out, point, k), out);
	memset(k, 0, sizeof(k));
}

/* multiplyAdd(a, point, b) */
void xs_curve_multiply_add(xsMachine *the)
{
	uint8_t a[32], point[33], b[32], out[33];
	if (!curveArgument(the, 0, a, 32) || !curveArgument(the, 1, point, 33) || !curveArgument(the, 2, b, 32)) {
		xsmcSetInteger(xsResult, CURVE_BAD_LENGTH);
		return;
	}
	curveResult(the, curveMultiplyAdd(out, a, point, b), out);
}
