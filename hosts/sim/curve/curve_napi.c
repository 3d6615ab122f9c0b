/*
 * The Node binding of the secp256k1 arithmetic (modules/curve/secp256k1.c, the
 * same source the XS host and the device compile): an N-API addon that
 * build.mjs compiles with the machine's C compiler. The functions and results
 * mirror modules/curve/curve_xs.c: a 33-byte ArrayBuffer, or the status code of
 * secp256k1.h as a number (4: a length); lib/nostr/curve/native.ts wraps both.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <string.h>
#include "secp256k1.h"

#define CURVE_BAD_LENGTH 4

/* Copies args[index] into `out` when it is a typed array or ArrayBuffer of exactly `length` bytes. */
static int curveArgument(napi_env env, napi_value value, uint8_t *out, size_t length)
{
	bool is = false;
	void *data = NULL;
	size_t size = 0, offset = 0;
	napi_value buffer;
	napi_typedarray_type type;
	if ((napi_is_typedarray(env, value, &is) == napi_ok) && is) {
		if (napi_get_typedarray_info(env, value, &type, &size, &data, &buffer, &offset) != napi_ok)
			return 0;
		if ((type != napi_uint8_array) || (size != length))
			return 0;
	}
	else if ((napi_is_arraybuffer(env, value, &is) == napi_ok) && is) {
		if (napi_get_arraybuffer_info(env, value, &data, &size) != napi_ok)
			return 0;
		if (size != length)
			return 0;
	}
	else
		return 0;
	memcpy(out, data, length);
	return 1;
}

static napi_value curveResult(napi_env env, int status, const uint8_t out[33])
{
	napi_value result;
	void *data;
	if (status != CURVE_OK) {
		napi_create_int32(env, status, &result);
		return result;
	}
	if (napi_create_arraybuffer(env, 33, &data, &result) != napi_ok)
		return NULL;
	memcpy(data, out, 33);
	return result;
}

static napi_value curveMultiplyBaseNapi(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value args[1];
	uint8_t k[32], out[33];
	int status = CURVE_BAD_LENGTH;
	napi_get_cb_info(env, info, &argc, args, NULL, NULL);
	if ((argc >= 1) && curveArgument(env, args[0], k, 32))
		status = curveMultiplyBase(out, k);
	memset(k, 0, sizeof(k));
	return curveResult(env, status, out);
}

static napi_value curveMultiplyNapi(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value args[2];
	uint8_t point[33], k[32], out[33];
	int status = CURVE_BAD_LENGTH;
	napi_get_cb_info(env, info, &argc, args, NULL, NULL);
	if ((argc >= 2) && curveArgument(env, args[0], point, 33) && curveArgument(env, args[1], k, 32))
		status = curveMultiply(out, point, k);
	memset(k, 0, sizeof(k));
	return curveResult(env, status, out);
}

static napi_value curveMultiplyAddNapi(napi_env env, napi_callback_info info)
{
	size_t argc = 3;
	napi_value args[3];
	uint8_t a[32], point[33], b[32], out[33];
	int status = CURVE_BAD_LENGTH;
	napi_get_cb_info(env, info, &argc, args, NULL, NULL);
	if ((argc >= 3) && curveArgument(env, args[0], a, 32) && curveArgument(env, args[1], point, 33) && curveArgument(env, args[2], b, 32))
		status = curveMultiplyAdd(out, a, point, b);
	return curveResult(env, status, out);
}

static napi_value curveInit(napi_env env, napi_value exports)
{
	napi_property_descriptor properties[] = {
		{ "multiplyBase", NULL, curveMultiplyBaseNapi, NULL, NULL, NULL, napi_default, NULL },
		{ "multiply", NULL, curveMultiplyNapi, NULL, NULL, NULL, napi_default, NULL },
		{ "multiplyAdd", NULL, curveMultiplyAddNapi, NULL, NULL, NULL, napi_default, NULL },
	};
	napi_define_properties(env, exports, sizeof(properties) / sizeof(properties[0]), properties);
	return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, curveInit)
