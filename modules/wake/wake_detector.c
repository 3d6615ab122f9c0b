/*
 * The streaming detector: the front end's gate, then for each open hop the
 * hop's cepstra minus the examples' mean cepstrum, one DTW column per
 * example, and a detection when the best normalised distance is under the
 * threshold. The threshold is the examples' mean mutual distance times a
 * factor the sensitivity (0..1) moves, times a gain for the noise (1 in a
 * quiet room, up to 3 in loud noise). After a detection, and when the gate
 * closes, every partial match is dropped; after a detection, detections stay
 * off for WAKE_REFRACTORY hops. All memory is in the WakeDetector; nothing is
 * allocated.
 *
 * The mean taken off is the examples' own, not a running mean of the stream:
 * on the tune split a running mean (a 5 s time constant) pulled the phrase's
 * frames towards everyday speech and cut detections at 10 dB from 1.00 to
 * 0.19 for "hey halo". So the examples should come from the microphone the
 * detector listens with.
 */
#include "wake.h"
#include <string.h>


size_t wakeDetectorBytes(void)
{
	return sizeof(WakeDetector);
}

void wakeDetectorInit(WakeDetector *detector)
{
	memset(detector, 0, sizeof(*detector));
	detector->magic = WAKE_MAGIC;
	detector->sensitivity = WAKE_DEFAULT_SENSITIVITY;
	wakeTablesInit(&detector->tables);
	wakeDetectorReset(detector);
}

/* Drops every partial match. */
static void wakeDetectorDrop(WakeDetector *detector)
{
	int i;
	for (i = 0; i < detector->examples; i++)
		wakeDtwReset(&detector->dtw[i], detector->frames[i]);
	detector->live = 0;
}

void wakeDetectorReset(WakeDetector *detector)
{
	wakeFrontReset(&detector->front);
	wakeDetectorDrop(detector);
	detector->column = 0;
	detector->wasOpen = 0;
	detector->refractory = 0;
	detector->pending = 0;
	detector->hop = 0;
	detector->lastScore = WAKE_CLOSED_SCORE;
}

float wakeDetectorSetSensitivity(WakeDetector *detector, float sensitivity)
{
	if (!(sensitivity >= 0.0f))
		sensitivity = 0.0f; /* NaN too */
	if (sensitivity > 1.0f)
		sensitivity = 1.0f;
	detector->sensitivity = sensitivity;
	detector->threshold = detector->mutual * (WAKE_FACTOR_LOW + (WAKE_FACTOR_HIGH - WAKE_FACTOR_LOW) * sensitivity);
	return detector->threshold;
}

int wakeDetectorSetExamples(WakeDetector *detector, const int16_t *const *examples, const int32_t *counts, int n,
	float *distances)
{
	float sum = 0.0f;
	int i, j, k, pairs = 0, reason = WAKE_OK;
	detector->examples = 0;
	detector->mutual = 0.0f;
	detector->threshold = 0.0f;
	if (distances)
		for (i = 0; i < 3; i++)
			distances[i] = 0.0f;
	if ((n < 1) || (n > WAKE_MAX_EXAMPLES))
		reason = WAKE_BAD_FEATURES;
	for (i = 0; (reason == WAKE_OK) && (i < n); i++) {
		int32_t frames = counts[i] / WAKE_DIMS - 1;
		if ((counts[i] < 0) || (counts[i] % WAKE_DIMS) || (frames < WAKE_MIN_FRAMES) || (frames > WAKE_MAX_FRAMES))
			reason = WAKE_BAD_FEATURES;
	}
	if (reason != WAKE_OK) {
		wakeDetectorReset(detector);
		return reason;
	}
	for (k = 0; k < WAKE_DIMS; k++)
		detector->exampleMean[k] = 0.0f;
	for (i = 0; i < n; i++) {
		detector->frames[i] = counts[i] / WAKE_DIMS - 1;
		memcpy(detector->features[i], examples[i] + WAKE_DIMS, (size_t)detector->frames[i] * WAKE_DIMS * sizeof(int16_t));
		for (k = 0; k < WAKE_DIMS; k++)
			detector->exampleMean[k] += (float)examples[i][k] * (1.0f / WAKE_QUANT);
	}
	for (k = 0; k < WAKE_DIMS; k++)
		detector->exampleMean[k] = detector->exampleMean[k] / (float)n;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			float d = wakeDtwPair(&detector->dtw[0], (const int16_t (*)[WAKE_DIMS])detector->features[i], detector->frames[i],
				(const int16_t (*)[WAKE_DIMS])detector->features[j], detector->frames[j]);
			if (distances)
				distances[i + j - 1] = d;
			if (!(d <= WAKE_UNLIKE_BOUND))
				reason = WAKE_UNLIKE; /* an unreachable end (lengths over 2:1 apart) is unlike too */
			sum += d;
			pairs++;
		}
	if (reason == WAKE_OK) {
		detector->examples = n;
		detector->mutual = pairs ? sum / (float)pairs : WAKE_ONE_EXAMPLE_MUTUAL;
		if (detector->mutual < WAKE_MUTUAL_MIN)
			detector->mutual = WAKE_MUTUAL_MIN; /* the same recording taught three times */
		wakeDetectorSetSensitivity(detector, detector->sensitivity);
	}
	wakeDetectorReset(detector);
	return reason;
}

/* One frame (the window `back` hops before the newest) through the DTW of every example; returns the best
   normalised distance and its example. */
static float wakeDetectorFrame(WakeDetector *detector, int back, int *which)
{
	float cepstra[WAKE_DIMS], best = 1e30f;
	int16_t frame[WAKE_DIMS];
	int i, k;
	wakeFrontCepstra(&detector->front, &detector->tables, back, cepstra);
	for (k = 0; k < WAKE_DIMS; k++)
		frame[k] = wakeQuantise(cepstra[k] - detector->exampleMean[k]);
	for (i = 0; i < detector->examples; i++) {
		float d = wakeDtwStep(&detector->dtw[i], (const int16_t (*)[WAKE_DIMS])detector->features[i], detector->frames[i],
			frame, detector->column);
		if (d < best) {
			best = d;
			*which = i;
		}
	}
	detector->column = (detector->column + 1) % 3;
	detector->live = 1;
	return best;
}

/* How much the threshold grows for the noise: 1 when the speech level is WAKE_NOISE_KNEE dB over the bands'
   noise or more, growing by WAKE_NOISE_SLOPE a dB under it, at most WAKE_NOISE_MAX_GAIN. */
static float wakeDetectorNoiseGain(WakeDetector *detector)
{
	float db = wakeFrontSnr(&detector->front, &detector->tables);
	float gain = 1.0f + WAKE_NOISE_SLOPE * (WAKE_NOISE_KNEE - db);
	if (!(gain > 1.0f))
		return 1.0f;
	return (gain < WAKE_NOISE_MAX_GAIN) ? gain : WAKE_NOISE_MAX_GAIN;
}

/* One hop through the gate, the features and the DTW; returns 1 on a detection. When the gate opens, the
   WAKE_PREROLL hops before it go through first (no detection can end in them). */
static int wakeDetectorHop(WakeDetector *detector, const int16_t *hop)
{
	float best, threshold;
	int which = 0, open, back;
	detector->hop++;
	open = wakeFrontGate(&detector->front, hop);
	if (detector->refractory > 0)
		detector->refractory--;
	if (!open || !detector->examples) {
		if (!open)
			wakeFrontTrack(&detector->front, &detector->tables);
		if (detector->live)
			wakeDetectorDrop(detector);
		detector->wasOpen = open;
		detector->lastScore = WAKE_CLOSED_SCORE;
		return 0;
	}
	if (!detector->wasOpen) {
		wakeFrontRestart(&detector->front);
		back = (detector->front.hops - 1 < WAKE_PREROLL) ? detector->front.hops - 1 : WAKE_PREROLL;
		for (; back > 0; back--)
			wakeDetectorFrame(detector, back, &which);
	}
	detector->wasOpen = 1;
	best = wakeDetectorFrame(detector, 0, &which);
	threshold = detector->threshold * wakeDetectorNoiseGain(detector);
	detector->lastScore = ((best < 1e29f) && (threshold > 0.0f)) ? best / threshold : WAKE_CLOSED_SCORE;
	if (!WAKE_DETECTS || (detector->refractory > 0) || !(best < threshold))
		return 0;
	detector->lastHit.example = which;
	detector->lastHit.hop = detector->hop;
	detector->lastHit.distance = best;
	detector->lastHit.threshold = threshold;
	detector->refractory = WAKE_REFRACTORY;
	wakeDetectorDrop(detector);
	return 1;
}

int wakeDetectorPush(WakeDetector *detector, const int16_t *samples, uint32_t count, float *scores, uint32_t maxScores)
{
	int detections = 0;
	uint32_t used = 0, scored = 0;
	while (used < count) {
		uint32_t take = WAKE_HOP - (uint32_t)detector->pending;
		const int16_t *hop = NULL;
		if (take > count - used)
			take = count - used;
		if ((detector->pending == 0) && (take == WAKE_HOP))
			hop = samples + used;
		else {
			memcpy(detector->partial + detector->pending, samples + used, take * sizeof(int16_t));
			detector->pending += (int32_t)take;
			if (detector->pending == WAKE_HOP)
				hop = detector->partial;
		}
		used += take;
		if (!hop)
			continue;
		detector->pending = 0;
		detections += wakeDetectorHop(detector, hop);
		if (scores && (scored < maxScores))
			scores[scored++] = detector->lastScore;
	}
	return detections;
}
