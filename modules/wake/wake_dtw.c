/*
 * Dynamic time warping of a stream of frames against one example, one frame
 * at a time, in three columns (the stream's frames t, t-1, t-2).
 *
 * Steps (Sakoe and Chiba's symmetric form with slope between 1/2 and 2): a
 * cell (t, j) of the stream frame t and example frame j comes from
 *   (t-1, j-1)  adding 2 d(t, j)                  weight 2
 *   (t-1, j-2)  adding 2 d(t, j-1) + d(t, j)      weight 3 (the example goes faster)
 *   (t-2, j-1)  adding 2 d(t-1, j) + d(t, j)      weight 3 (the stream goes slower)
 * so a path's weight is the number of stream frames plus example frames it
 * spans, and cost / weight is its mean distance whatever its length. The
 * predecessor kept is the one with the lowest mean. A path may start at any
 * stream frame (open start: cell (t, 0) may begin with 2 d(t, 0), weight 2).
 */
#include "wake.h"
#include <math.h>

#define WAKE_NONE 1e30f

/* Euclidean, with c0 weighted by WAKE_C0_WEIGHT, in feature units. */
float wakeFrameDistance(const int16_t *x, const int16_t *y)
{
	float sum, diff;
	int k;
	diff = (float)((int32_t)x[0] - (int32_t)y[0]);
	sum = WAKE_C0_WEIGHT * diff * diff;
	for (k = 1; k < WAKE_DIMS; k++) {
		diff = (float)((int32_t)x[k] - (int32_t)y[k]);
		sum += diff * diff;
	}
	return sqrtf(sum) * (1.0f / WAKE_QUANT);
}

void wakeDtwReset(WakeDtw *dtw, int frames)
{
	int c, j;
	for (c = 0; c < 3; c++)
		for (j = 0; j < frames; j++) {
			dtw->cost[c][j] = WAKE_NONE;
			dtw->weight[c][j] = 1;
		}
	for (c = 0; c < 2; c++)
		for (j = 0; j < frames; j++)
			dtw->local[c][j] = 0.0f;
}

/* Keeps (cost, weight) when its mean is lower than the best so far. */
#define WAKE_CONSIDER(COST, WEIGHT)                                                     \
	do {                                                                                \
		float candidate = (COST);                                                        \
		int32_t w = (WEIGHT);                                                            \
		if ((candidate < WAKE_NONE) && (candidate * (float)bestWeight < bestCost * (float)w)) { \
			bestCost = candidate;                                                        \
			bestWeight = w;                                                              \
		}                                                                               \
	} while (0)

static float wakeDtwColumn(WakeDtw *dtw, const int16_t (*features)[WAKE_DIMS], int frames, const int16_t *frame,
	int column, int start)
{
	int p1 = (column + 2) % 3, p2 = (column + 1) % 3, j;
	float *local = dtw->local[column & 1], *previous = dtw->local[(column + 1) & 1];
	float *cost = dtw->cost[column];
	uint16_t *weight = dtw->weight[column];
	const float *cost1 = dtw->cost[p1], *cost2 = dtw->cost[p2];
	const uint16_t *weight1 = dtw->weight[p1], *weight2 = dtw->weight[p2];
	for (j = 0; j < frames; j++)
		local[j] = wakeFrameDistance(frame, features[j]);
	for (j = 0; j < frames; j++) {
		float bestCost = WAKE_NONE;
		int32_t bestWeight = 1;
		if (start && (j == 0))
			WAKE_CONSIDER(2.0f * local[j], 2);
		if (j >= 1) {
			WAKE_CONSIDER(cost1[j - 1] + 2.0f * local[j], weight1[j - 1] + 2);
			WAKE_CONSIDER(cost2[j - 1] + 2.0f * previous[j] + local[j], weight2[j - 1] + 3);
		}
		if (j >= 2)
			WAKE_CONSIDER(cost1[j - 2] + 2.0f * local[j - 1] + local[j], weight1[j - 2] + 3);
		cost[j] = bestCost;
		weight[j] = (uint16_t)bestWeight;
	}
	return (cost[frames - 1] < WAKE_NONE) ? cost[frames - 1] / (float)weight[frames - 1] : WAKE_NONE;
}

float wakeDtwStep(WakeDtw *dtw, const int16_t (*features)[WAKE_DIMS], int frames, const int16_t *frame, int column)
{
	return wakeDtwColumn(dtw, features, frames, frame, column, 1);
}

float wakeDtwPair(WakeDtw *scratch, const int16_t (*a)[WAKE_DIMS], int na, const int16_t (*b)[WAKE_DIMS], int nb)
{
	float distance = WAKE_NONE;
	int t;
	wakeDtwReset(scratch, nb);
	for (t = 0; t < na; t++)
		distance = wakeDtwColumn(scratch, b, nb, a[t], t % 3, t == 0);
	return distance;
}
