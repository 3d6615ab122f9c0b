/*
 * The features of one taught example, and the checks that refuse a
 * recording the detector could not use: empty, over-long, silent, clipped,
 * too little voiced audio, too much of it, or a steady sound (a tone, a hum)
 * rather than speech.
 *
 * The voiced part is found from the hops' energies (a hop is voiced when it
 * is within WAKE_VOICED_RATIO of the loudest, clear of the recording's
 * quietest hop and over the gate's minimum); the features are those of its
 * frames, with a few frames either side, minus their mean. The mean goes
 * first: the detector takes the examples' mean from every stream frame.
 */
#include "wake.h"

#define WAKE_CLIP_LEVEL 32700
#define WAKE_SILENCE_PEAK 150
#define WAKE_PAD_FRAMES 3

static void wakeExampleCepstra(const WakeTables *tables, WakeFront *front, const int16_t *samples, int first, int last,
	float *mean, int16_t *out)
{
	float cepstra[WAKE_DIMS];
	int h, k;
	wakeFrontReset(front);
	for (h = (first > 3) ? first - 3 : 0; h <= last; h++) {
		wakeFrontGate(front, samples + h * WAKE_HOP);
		if (h < first)
			continue;
		wakeFrontCepstra(front, tables, 0, cepstra);
		if (out) {
			for (k = 0; k < WAKE_DIMS; k++)
				*out++ = wakeQuantise(cepstra[k] - mean[k]);
		}
		else {
			for (k = 0; k < WAKE_DIMS; k++)
				mean[k] += cepstra[k];
		}
	}
}

/* Mean distance between consecutive frames: near 0 for a steady sound. */
static float wakeExampleChange(const int16_t *frames, int count)
{
	float sum = 0.0f;
	int i;
	for (i = 1; i < count; i++)
		sum += wakeFrameDistance(frames + (i - 1) * WAKE_DIMS, frames + i * WAKE_DIMS);
	return (count > 1) ? sum / (float)(count - 1) : 0.0f;
}

int wakeExampleFeatures(const WakeTables *tables, WakeFront *front, const int16_t *samples, uint32_t count, int16_t *out,
	WakeExampleInfo *info)
{
	float *energy = front->scratch; /* WAKE_EXAMPLE_MAX_SAMPLES / WAKE_HOP = 400 hops fit in its WAKE_FFT floats */
	float loudest = 0.0f, quietest = 0.0f, level, mean[WAKE_DIMS];
	uint32_t i;
	int hops, h, first = -1, last = -1, voiced = 0, k, frames;
	info->reason = WAKE_OK;
	info->frames = 0;
	info->firstHop = 0;
	info->clipped = 0;
	info->peak = 0;
	if (count == 0)
		return (info->reason = WAKE_EMPTY), 0;
	if (count > WAKE_EXAMPLE_MAX_SAMPLES)
		return (info->reason = WAKE_TOO_LONG), 0;
	for (i = 0; i < count; i++) {
		int32_t v = samples[i] < 0 ? -(int32_t)samples[i] : samples[i];
		if (v > info->peak)
			info->peak = v;
		if (v >= WAKE_CLIP_LEVEL)
			info->clipped++;
	}
	if (info->peak < WAKE_SILENCE_PEAK)
		return (info->reason = WAKE_SILENT), 0;
	if ((info->clipped >= 8) && ((uint32_t)info->clipped * 1000u > count))
		return (info->reason = WAKE_CLIPPED), 0;
	hops = (int)(count / WAKE_HOP);
	for (h = 0; h < hops; h++) {
		uint64_t sum = 0;
		const int16_t *hop = samples + h * WAKE_HOP;
		for (k = 0; k < WAKE_HOP; k++)
			sum += (uint64_t)((int32_t)hop[k] * (int32_t)hop[k]);
		energy[h] = (float)sum;
		if ((h == 0) || (energy[h] > loudest))
			loudest = energy[h];
		if ((h == 0) || (energy[h] < quietest))
			quietest = energy[h];
	}
	/* a recording with no quiet part (a steady tone) counts as voiced wherever it is within 3 dB of its loudest */
	level = quietest * WAKE_GATE_RATIO;
	if (level > loudest * 0.5f)
		level = loudest * 0.5f;
	if (level < loudest * WAKE_VOICED_RATIO)
		level = loudest * WAKE_VOICED_RATIO;
	if (level < WAKE_GATE_MIN)
		level = WAKE_GATE_MIN;
	for (h = 0; h < hops; h++) {
		if (!(energy[h] > level))
			continue;
		if (first < 0)
			first = h;
		last = h;
		voiced++;
	}
	if (first < 0)
		return (info->reason = WAKE_SILENT), 0;
	if (voiced < WAKE_MIN_FRAMES)
		return (info->reason = WAKE_TOO_SHORT), 0;
	if (last - first + 1 > WAKE_MAX_FRAMES)
		return (info->reason = WAKE_TOO_LONG), 0;
	/* pad both sides as far as the recording and WAKE_MAX_FRAMES allow */
	for (k = 0; k < WAKE_PAD_FRAMES; k++) {
		if ((first > 0) && (last - first + 1 < WAKE_MAX_FRAMES))
			first--;
		if ((last < hops - 1) && (last - first + 1 < WAKE_MAX_FRAMES))
			last++;
	}
	frames = last - first + 1;
	for (k = 0; k < WAKE_DIMS; k++)
		mean[k] = 0.0f;
	wakeExampleCepstra(tables, front, samples, first, last, mean, NULL);
	for (k = 0; k < WAKE_DIMS; k++) {
		mean[k] = mean[k] / (float)frames;
		out[k] = wakeQuantise(mean[k]);
	}
	wakeExampleCepstra(tables, front, samples, first, last, mean, out + WAKE_DIMS);
	info->frames = frames;
	info->firstHop = first;
	if (wakeExampleChange(out + WAKE_DIMS, frames) < WAKE_STEADY_BOUND)
		return (info->reason = WAKE_NOT_SPEECH), 0;
	return (1 + frames) * WAKE_DIMS;
}
