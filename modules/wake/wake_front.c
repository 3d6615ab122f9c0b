/*
 * The feature front end, one 10 ms hop at a time.
 *
 * The gate: the hop's energy (sum of squares) against a noise floor that
 * follows the quietest hops (it drops to a quieter hop at once and rises
 * slowly). A hop WAKE_GATE_RATIO over the floor opens the gate for
 * WAKE_GATE_HANGOVER hops. Only then do callers ask for cepstra, so silence
 * and steady noise cost a sum of squares and a copy per hop (and, every
 * WAKE_NOISE_EVERY closed hops, one spectrum to follow the band noise).
 *
 * The cepstra: pre-emphasis, a 25 ms Hann window, a 512-point real FFT,
 * power in WAKE_BANDS mel bands, averaged over the last WAKE_SMOOTH frames,
 * less twice each band's noise (keeping a tenth of the power at least),
 * floored at 12 dB under the loudest band, log2, and a liftered DCT to
 * WAKE_DIMS coefficients. The averaging, the noise subtraction and the
 * relative floor are what keep noisy speech close to the quiet examples.
 */
#include "wake.h"
#include <string.h>

void wakeFrontReset(WakeFront *front)
{
	memset(front, 0, sizeof(*front));
}

int wakeFrontGate(WakeFront *front, const int16_t *hop)
{
	uint64_t sum = 0;
	float energy;
	int i;
	memmove(front->history, front->history + WAKE_HOP, (WAKE_HISTORY - WAKE_HOP) * sizeof(int16_t));
	memcpy(front->history + WAKE_HISTORY - WAKE_HOP, hop, WAKE_HOP * sizeof(int16_t));
	for (i = 0; i < WAKE_HOP; i++)
		sum += (uint64_t)((int32_t)hop[i] * (int32_t)hop[i]);
	energy = (float)sum;
	front->noiseFloor = (front->hops == 0) ? energy : front->noiseFloor * WAKE_FLOOR_RISE;
	if (energy < front->noiseFloor)
		front->noiseFloor = energy;
	if (front->noiseFloor < WAKE_FLOOR_MIN)
		front->noiseFloor = WAKE_FLOOR_MIN;
	if (front->hops < 0x7FFFFFFF)
		front->hops++;
	if ((energy > front->noiseFloor * WAKE_GATE_RATIO) && (energy > WAKE_GATE_MIN)) {
		front->hangover = WAKE_GATE_HANGOVER;
		return 1;
	}
	if (front->hangover > 0) {
		front->hangover--;
		return 1;
	}
	return 0;
}

/* The power in each mel band of the window ending `back` hops before the newest sample. */
static void wakeFrontBands(WakeFront *front, const WakeTables *tables, int back, float *bands)
{
	float *data = front->scratch;
	const int16_t *history = front->history + WAKE_HISTORY - (WAKE_WINDOW + 1) - back * WAKE_HOP;
	int i, k, b;
	for (i = 0; i < WAKE_WINDOW; i++)
		data[i] = ((float)history[i + 1] - WAKE_PREEMPHASIS * (float)history[i]) * tables->window[i];
	for (; i < WAKE_FFT; i++)
		data[i] = 0.0f;
	wakeRealFft(tables, data);
	for (b = 0; b < WAKE_BANDS; b++)
		bands[b] = 0.0f;
	for (k = 0; k < WAKE_BINS; k++) {
		float power, w;
		b = tables->melBand[k];
		if (b < -1)
			continue;
		if (k == 0)
			power = data[0] * data[0];
		else if (k == WAKE_BINS - 1)
			power = data[1] * data[1];
		else
			power = data[2 * k] * data[2 * k] + data[2 * k + 1] * data[2 * k + 1];
		w = tables->melWeight[k];
		if (b >= 0)
			bands[b] += (1.0f - w) * power;
		if (b + 1 < WAKE_BANDS)
			bands[b + 1] += w * power;
	}
}

/* Each band's noise follows its quieter values: part of the way down to a lower power at once, slowly up
   otherwise. The first frame after a reset sets it. */
static void wakeFrontNoise(WakeFront *front, const float *bands)
{
	int b;
	for (b = 0; b < WAKE_BANDS; b++) {
		float *noise = &front->bandNoise[b];
		if (front->frames == 0)
			*noise = bands[b];
		else if (bands[b] < *noise)
			*noise = *noise + WAKE_NOISE_FALL * (bands[b] - *noise);
		else
			*noise = *noise * WAKE_NOISE_RISE;
	}
}

/* The speech level over the noise, in dB: the loudest recent frame's power over the bands' noise. */
float wakeFrontSnr(const WakeFront *front, const WakeTables *tables)
{
	float noise = 0.0f;
	int b;
	for (b = 0; b < WAKE_BANDS; b++)
		noise += front->bandNoise[b];
	return 3.0103f * (wakeLog2(tables, front->peak) - wakeLog2(tables, noise));
}

void wakeFrontRestart(WakeFront *front)
{
	front->smoothed = 0;
	front->slot = 0;
}

void wakeFrontTrack(WakeFront *front, const WakeTables *tables)
{
	float bands[WAKE_BANDS];
	if (++front->closed < WAKE_NOISE_EVERY)
		return;
	front->closed = 0;
	wakeFrontBands(front, tables, 0, bands);
	wakeFrontNoise(front, bands);
	if (front->frames < 0x7FFFFFFF)
		front->frames++;
}

void wakeFrontCepstra(WakeFront *front, const WakeTables *tables, int back, float *cepstra)
{
	float bands[WAKE_BANDS], top = 0.0f, total = 0.0f, floor;
	int i, b, f, slot = front->slot, have;
	wakeFrontBands(front, tables, back, bands);
	wakeFrontNoise(front, bands);
	for (b = 0; b < WAKE_BANDS; b++)
		front->recent[slot][b] = bands[b];
	if (front->frames < 0x7FFFFFFF)
		front->frames++;
	front->slot = (slot + 1) % WAKE_SMOOTH;
	if (front->smoothed < WAKE_SMOOTH)
		front->smoothed++;
	have = front->smoothed;
	front->peak = front->peak * WAKE_PEAK_DECAY;
	for (b = 0; b < WAKE_BANDS; b++) {
		float sum = 0.0f, clean, keep;
		for (f = 0; f < have; f++)
			sum += front->recent[f][b];
		sum = sum / (float)have;
		total += sum;
		clean = sum - WAKE_NOISE_SUBTRACT * front->bandNoise[b];
		keep = WAKE_NOISE_KEEP * sum;
		bands[b] = (clean > keep) ? clean : keep;
		if (bands[b] > top)
			top = bands[b];
	}
	if (total > front->peak)
		front->peak = total;
	floor = top * WAKE_RELATIVE_FLOOR;
	if (floor < WAKE_LOG_FLOOR)
		floor = WAKE_LOG_FLOOR;
	for (b = 0; b < WAKE_BANDS; b++)
		bands[b] = wakeLog2(tables, (bands[b] > floor) ? bands[b] : floor);
	for (i = 0; i < WAKE_DIMS; i++) {
		float sum = 0.0f;
		for (b = 0; b < WAKE_BANDS; b++)
			sum += tables->dct[i][b] * bands[b];
		cepstra[i] = sum;
	}
}

/* round(value * WAKE_QUANT), halves away from zero, clamped to +-32767; NaN gives 0. */
int16_t wakeQuantise(float value)
{
	float scaled = value * WAKE_QUANT;
	if (!(scaled == scaled))
		return 0;
	if (scaled >= 32767.0f)
		return 32767;
	if (scaled <= -32767.0f)
		return -32767;
	return (int16_t)(int32_t)(scaled + ((scaled >= 0.0f) ? 0.5f : -0.5f));
}
