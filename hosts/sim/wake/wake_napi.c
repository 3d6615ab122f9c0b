/*
 * The Node binding of the wake-word engine (the C files of modules/wake/, the same sources
 * the XS host and the device compile): an N-API addon that build.mjs compiles
 * with the machine's C compiler. The functions and results mirror
 * modules/wake/wake_xs.c; hosts/sim/wake/kernel.ts wraps both shapes the same.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>
#include <string.h>
#include "wake.h"

typedef struct {
	WakeTables tables;
	WakeFront front;
	int16_t out[WAKE_EXAMPLE_MAX_VALUES];
} WakeScratch;

#define CHECK(CALL)                                                      \
	do {                                                                 \
		if ((CALL) != napi_ok) {                                         \
			napi_throw_error(env, NULL, "wake: N-API call failed");      \
			return NULL;                                                 \
		}                                                                \
	} while (0)

/* The external's data: close() frees the detector at once, the finalizer whatever is left. */
typedef struct {
	WakeDetector *detector;
} WakeHandle;

static void wakeFinalize(napi_env env, void *data, void *hint)
{
	free(((WakeHandle *)data)->detector);
	free(data);
}

static napi_value wakeNumber(napi_env env, double value)
{
	napi_value result;
	napi_create_double(env, value, &result);
	return result;
}

static void wakeSet(napi_env env, napi_value object, const char *name, double value)
{
	napi_set_named_property(env, object, name, wakeNumber(env, value));
}

/* args[index] as a typed array of `type`: its data and element count, or NULL after throwing. */
static void *wakeTyped(napi_env env, napi_value value, napi_typedarray_type type, size_t *length)
{
	bool is = false;
	napi_typedarray_type actual;
	void *data = NULL;
	if ((napi_is_typedarray(env, value, &is) != napi_ok) || !is ||
		(napi_get_typedarray_info(env, value, &actual, length, &data, NULL, NULL) != napi_ok) || (actual != type)) {
		napi_throw_type_error(env, NULL, type == napi_int16_array ? "bad samples" : "bad scores");
		return NULL;
	}
	return data ? data : (void *)"";
}

/* The handle of `value` (an external made by create), or NULL after throwing. */
static WakeHandle *wakeHandle(napi_env env, napi_value value)
{
	napi_valuetype type;
	void *data = NULL;
	if ((napi_typeof(env, value, &type) != napi_ok) || (type != napi_external) ||
		(napi_get_value_external(env, value, &data) != napi_ok) || !data) {
		napi_throw_type_error(env, NULL, "bad detector");
		return NULL;
	}
	return data;
}

/* The open detector of `value`, or NULL after throwing. */
static WakeDetector *wakeState(napi_env env, napi_value value)
{
	WakeHandle *handle = wakeHandle(env, value);
	if (handle && !handle->detector)
		napi_throw_type_error(env, NULL, "closed detector");
	return handle ? handle->detector : NULL;
}

static napi_value wakeCreate(napi_env env, napi_callback_info info)
{
	napi_value result;
	WakeHandle *handle = calloc(1, sizeof(WakeHandle));
	if (handle)
		handle->detector = calloc(1, sizeof(WakeDetector));
	if (!handle || !handle->detector) {
		free(handle);
		napi_throw_range_error(env, NULL, "no memory");
		return NULL;
	}
	wakeDetectorInit(handle->detector);
	if (napi_create_external(env, handle, wakeFinalize, NULL, &result) != napi_ok) {
		free(handle->detector);
		free(handle);
		napi_throw_error(env, NULL, "wake: N-API call failed");
		return NULL;
	}
	return result;
}

static napi_value wakeClose(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value args[1];
	WakeHandle *handle;
	CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
	if (argc < 1)
		return napi_throw_type_error(env, NULL, "bad detector"), NULL;
	if (!(handle = wakeHandle(env, args[0])))
		return NULL;
	free(handle->detector);
	handle->detector = NULL;
	return NULL;
}

static napi_value wakeBytes(napi_env env, napi_callback_info info)
{
	return wakeNumber(env, (double)wakeDetectorBytes());
}

static napi_value wakeFeatures(napi_env env, napi_callback_info info)
{
	size_t argc = 1, length = 0;
	napi_value args[1], result, features;
	int16_t *samples, *data;
	WakeExampleInfo out;
	WakeScratch *scratch;
	int values;
	CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
	if (argc < 1)
		return napi_throw_type_error(env, NULL, "bad samples"), NULL;
	samples = wakeTyped(env, args[0], napi_int16_array, &length);
	if (!samples)
		return NULL;
	if (length > 0xFFFFFFFFu)
		length = 0xFFFFFFFFu;
	scratch = malloc(sizeof(WakeScratch));
	if (!scratch)
		return napi_throw_range_error(env, NULL, "no memory"), NULL;
	wakeTablesInit(&scratch->tables);
	values = wakeExampleFeatures(&scratch->tables, &scratch->front, samples, (uint32_t)length, scratch->out, &out);
	if (napi_create_object(env, &result) != napi_ok) {
		free(scratch);
		return NULL;
	}
	wakeSet(env, result, "reason", out.reason);
	wakeSet(env, result, "frames", out.frames);
	wakeSet(env, result, "clipped", out.clipped);
	wakeSet(env, result, "peak", out.peak);
	if (values > 0) {
		napi_value buffer;
		if (napi_create_arraybuffer(env, (size_t)values * sizeof(int16_t), (void **)&data, &buffer) == napi_ok) {
			memcpy(data, scratch->out, (size_t)values * sizeof(int16_t));
			if (napi_create_typedarray(env, napi_int16_array, (size_t)values, buffer, 0, &features) == napi_ok)
				napi_set_named_property(env, result, "features", features);
		}
	}
	free(scratch);
	return result;
}

static napi_value wakeTeach(napi_env env, napi_callback_info info)
{
	size_t argc = 1 + WAKE_MAX_EXAMPLES, i, length;
	napi_value args[1 + WAKE_MAX_EXAMPLES], result;
	const int16_t *examples[WAKE_MAX_EXAMPLES];
	int32_t counts[WAKE_MAX_EXAMPLES];
	float distances[3];
	WakeDetector *detector;
	int reason;
	CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
	if ((argc < 2) || (argc > 1 + WAKE_MAX_EXAMPLES))
		return napi_throw_range_error(env, NULL, "bad examples"), NULL;
	if (!(detector = wakeState(env, args[0])))
		return NULL;
	for (i = 1; i < argc; i++) {
		examples[i - 1] = wakeTyped(env, args[i], napi_int16_array, &length);
		if (!examples[i - 1])
			return NULL;
		counts[i - 1] = (length > WAKE_EXAMPLE_MAX_VALUES) ? -1 : (int32_t)length;
	}
	reason = wakeDetectorSetExamples(detector, examples, counts, (int)argc - 1, distances);
	CHECK(napi_create_object(env, &result));
	wakeSet(env, result, "reason", reason);
	wakeSet(env, result, "threshold", detector->threshold);
	wakeSet(env, result, "mutual", detector->mutual);
	wakeSet(env, result, "d01", distances[0]);
	wakeSet(env, result, "d02", distances[1]);
	wakeSet(env, result, "d12", distances[2]);
	return result;
}

static napi_value wakeSensitivity(napi_env env, napi_callback_info info)
{
	size_t argc = 2;
	napi_value args[2];
	WakeDetector *detector;
	double value = 0.5;
	CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
	if (argc < 2 || !(detector = wakeState(env, args[0])))
		return argc < 2 ? (napi_throw_type_error(env, NULL, "bad sensitivity"), NULL) : NULL;
	if (napi_get_value_double(env, args[1], &value) != napi_ok)
		return napi_throw_type_error(env, NULL, "bad sensitivity"), NULL;
	return wakeNumber(env, wakeDetectorSetSensitivity(detector, (float)value));
}

static napi_value wakeReset(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value args[1];
	WakeDetector *detector;
	CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
	if (argc < 1 || !(detector = wakeState(env, args[0])))
		return argc < 1 ? (napi_throw_type_error(env, NULL, "bad detector"), NULL) : NULL;
	wakeDetectorReset(detector);
	return NULL;
}

static napi_value wakePush(napi_env env, napi_callback_info info)
{
	size_t argc = 3, length = 0, scoreCount = 0;
	napi_value args[3];
	WakeDetector *detector;
	int16_t *samples;
	float *scores = NULL;
	CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
	if (argc < 2 || !(detector = wakeState(env, args[0])))
		return argc < 2 ? (napi_throw_type_error(env, NULL, "bad samples"), NULL) : NULL;
	if (!(samples = wakeTyped(env, args[1], napi_int16_array, &length)))
		return NULL;
	if (argc > 2) {
		napi_valuetype type;
		napi_typeof(env, args[2], &type);
		if ((type != napi_undefined) && !(scores = wakeTyped(env, args[2], napi_float32_array, &scoreCount)))
			return NULL;
	}
	if (length > 0xFFFFFFFFu)
		return napi_throw_range_error(env, NULL, "bad samples"), NULL;
	return wakeNumber(env, wakeDetectorPush(detector, samples, (uint32_t)length, scores,
		(uint32_t)(scoreCount > 0xFFFFFFFFu ? 0xFFFFFFFFu : scoreCount)));
}

static napi_value wakeInfo(napi_env env, napi_callback_info info)
{
	size_t argc = 1;
	napi_value args[1], result, hit;
	WakeDetector *detector;
	CHECK(napi_get_cb_info(env, info, &argc, args, NULL, NULL));
	if (argc < 1 || !(detector = wakeState(env, args[0])))
		return argc < 1 ? (napi_throw_type_error(env, NULL, "bad detector"), NULL) : NULL;
	CHECK(napi_create_object(env, &result));
	wakeSet(env, result, "examples", detector->examples);
	wakeSet(env, result, "sensitivity", detector->sensitivity);
	wakeSet(env, result, "threshold", detector->threshold);
	wakeSet(env, result, "mutual", detector->mutual);
	wakeSet(env, result, "hop", detector->hop);
	wakeSet(env, result, "score", detector->lastScore);
	CHECK(napi_create_object(env, &hit));
	wakeSet(env, hit, "example", detector->lastHit.example);
	wakeSet(env, hit, "hop", detector->lastHit.hop);
	wakeSet(env, hit, "distance", detector->lastHit.distance);
	wakeSet(env, hit, "threshold", detector->lastHit.threshold);
	napi_set_named_property(env, result, "hit", hit);
	return result;
}

static napi_value wakeInit(napi_env env, napi_value exports)
{
	napi_property_descriptor properties[] = {
		{ "create", NULL, wakeCreate, NULL, NULL, NULL, napi_default, NULL },
		{ "close", NULL, wakeClose, NULL, NULL, NULL, napi_default, NULL },
		{ "bytes", NULL, wakeBytes, NULL, NULL, NULL, napi_default, NULL },
		{ "features", NULL, wakeFeatures, NULL, NULL, NULL, napi_default, NULL },
		{ "teach", NULL, wakeTeach, NULL, NULL, NULL, napi_default, NULL },
		{ "sensitivity", NULL, wakeSensitivity, NULL, NULL, NULL, napi_default, NULL },
		{ "reset", NULL, wakeReset, NULL, NULL, NULL, napi_default, NULL },
		{ "push", NULL, wakePush, NULL, NULL, NULL, napi_default, NULL },
		{ "info", NULL, wakeInfo, NULL, NULL, NULL, napi_default, NULL },
	};
	napi_define_properties(env, exports, sizeof(properties) / sizeof(properties[0]), properties);
	return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, wakeInit)
