/*
 * The front end's tables, computed once at init: Hann window, FFT twiddles and
 * bit reversal, mel filter bank, DCT and a log2 table. libm's cos, log and exp
 * may differ in the last bit between C libraries, so the few values needed
 * here come from our own series in double precision (IEEE +, -, *, / only, in
 * a fixed order), rounded to float once.
 */
#include "wake.h"

#define WAKE_PI 3.14159265358979323846
#define WAKE_LN2 0.69314718055994530942
#define WAKE_SQRT_1_32 0.17677669529663688110

#if WAKE_BANDS != 32
	#error "the DCT's scale assumes 32 bands"
#endif

/* cos and sin of x in [0, pi/4] by their Taylor series (terms below 1e-19 dropped). */
static double wakeCosSmall(double x)
{
	double x2 = x * x, term = 1.0, sum = 1.0;
	int n;
	for (n = 1; n <= 10; n++) {
		term = -term * x2 / (double)((2 * n - 1) * (2 * n));
		sum += term;
	}
	return sum;
}

static double wakeSinSmall(double x)
{
	double x2 = x * x, term = x, sum = x;
	int n;
	for (n = 1; n <= 10; n++) {
		term = -term * x2 / (double)((2 * n) * (2 * n + 1));
		sum += term;
	}
	return sum;
}

/* cos(2 pi num / den) for 0 <= num, 0 < den, folded to the first octant exactly (integer arithmetic). */
static double wakeCosTurn(int64_t num, int64_t den)
{
	int64_t n = (num % den) * 8, d = den * 8, octant, rest;
	double angle, value;
	/* quarter turns: cos(a + k pi/2) */
	int64_t quarter = n / (2 * den);
	rest = n - quarter * 2 * den; /* in [0, 2 den): a fraction of a quarter turn, in units of 1/(8 den) turn */
	octant = rest >= den;
	if (octant)
		rest = 2 * den - rest; /* fold: cos(pi/2 - a) = sin(a) */
	angle = 2.0 * WAKE_PI * (double)rest / (double)d;
	/* quarter 0: cos a; 1: -sin a; 2: -cos a; 3: sin a (a within the quarter, before the octant fold) */
	switch (quarter) {
	case 0: value = octant ? wakeSinSmall(angle) : wakeCosSmall(angle); break;
	case 1: value = octant ? -wakeCosSmall(angle) : -wakeSinSmall(angle); break;
	case 2: value = octant ? -wakeSinSmall(angle) : -wakeCosSmall(angle); break;
	default: value = octant ? wakeCosSmall(angle) : wakeSinSmall(angle); break;
	}
	return value;
}

/* ln(x) for x > 0: x = m 2^e with m in [0.75, 1.5), then 2 atanh((m-1)/(m+1)). */
static double wakeLn(double x)
{
	int e = 0;
	double z, z2, term, sum;
	int n;
	while (x >= 1.5) {
		x *= 0.5;
		e++;
	}
	while (x < 0.75) {
		x *= 2.0;
		e--;
	}
	z = (x - 1.0) / (x + 1.0);
	z2 = z * z;
	term = z;
	sum = z;
	for (n = 1; n <= 20; n++) {
		term *= z2;
		sum += term / (double)(2 * n + 1);
	}
	return 2.0 * sum + (double)e * WAKE_LN2;
}

/* exp(x) for |x| < 20: halve until small, Taylor, square back. */
static double wakeExp(double x)
{
	int halvings = 0, n;
	double term = 1.0, sum = 1.0;
	while (x > 0.125 || x < -0.125) {
		x *= 0.5;
		halvings++;
	}
	for (n = 1; n <= 14; n++) {
		term = term * x / (double)n;
		sum += term;
	}
	while (halvings-- > 0)
		sum *= sum;
	return sum;
}

static double wakeHzToMel(double hz)
{
	return 1127.0 * wakeLn(1.0 + hz / 700.0);
}

static double wakeMelToHz(double mel)
{
	return 700.0 * (wakeExp(mel / 1127.0) - 1.0);
}

static void wakeMelInit(WakeTables *tables)
{
	double centers[WAKE_BANDS + 2];
	double low = wakeHzToMel(WAKE_MEL_LOW_HZ), high = wakeHzToMel(WAKE_MEL_HIGH_HZ);
	int b = 0, k;
	for (k = 0; k < WAKE_BANDS + 2; k++)
		centers[k] = wakeMelToHz(low + (high - low) * (double)k / (double)(WAKE_BANDS + 1));
	/* Band j (0..WAKE_BANDS-1) rises from centers[j] to centers[j+1] and falls to centers[j+2]. A bin between
	   centers[i] and centers[i+1] is on the rise of band i and the fall of band i-1: melBand = i-1. */
	for (k = 0; k < WAKE_BINS; k++) {
		double hz = (double)k * WAKE_SAMPLE_RATE / WAKE_FFT;
		while ((b < WAKE_BANDS + 1) && (hz >= centers[b + 1]))
			b++;
		if ((hz < centers[0]) || (b >= WAKE_BANDS + 1)) {
			tables->melBand[k] = -2; /* outside the bank */
			tables->melWeight[k] = 0.0f;
			continue;
		}
		tables->melBand[k] = (int8_t)(b - 1);
		tables->melWeight[k] = (float)((hz - centers[b]) / (centers[b + 1] - centers[b]));
	}
}

void wakeTablesInit(WakeTables *tables)
{
	int i, j, bits;
	for (i = 0; i < WAKE_WINDOW; i++)
		tables->window[i] = (float)(0.5 - 0.5 * wakeCosTurn(i, WAKE_WINDOW));
	for (i = 0; i < WAKE_FFT / 2; i++) {
		tables->twiddle[i][0] = (float)wakeCosTurn(i, WAKE_FFT);
		tables->twiddle[i][1] = (float)wakeCosTurn(4 * (int64_t)i + WAKE_FFT, 4 * WAKE_FFT); /* -sin a = cos(a + pi/2) */
	}
	for (bits = 0; (1 << bits) < WAKE_FFT / 2; bits++)
		;
	for (i = 0; i < WAKE_FFT / 2; i++) {
		int r = 0;
		for (j = 0; j < bits; j++)
			if (i & (1 << j))
				r |= 1 << (bits - 1 - j);
		tables->bitReverse[i] = (uint8_t)r;
	}
	wakeMelInit(tables);
	for (i = 0; i < WAKE_DIMS; i++) {
		double scale = (i == 0) ? WAKE_SQRT_1_32 : 0.25; /* orthonormal for 32 bands: sqrt(1/32), sqrt(2/32) */
		/* 1 + L/2 sin(pi i / L), with sin(a) = cos(a - pi/2) */
		double lifter = WAKE_LIFTER ? 1.0 + 0.5 * WAKE_LIFTER * wakeCosTurn(2 * (int64_t)i + 3 * WAKE_LIFTER, 4 * WAKE_LIFTER) : 1.0;
		for (j = 0; j < WAKE_BANDS; j++)
			tables->dct[i][j] = (float)(scale * lifter * wakeCosTurn((int64_t)i * (2 * j + 1), 4 * WAKE_BANDS));
	}
	for (i = 0; i <= 128; i++)
		tables->log2Table[i] = (float)(wakeLn(1.0 + (double)i / 128.0) / WAKE_LN2);
}

/* log2(x) for x > 0 (x <= 0 gives -126): exponent from the float's bits, mantissa by linear interpolation in a
   129-entry table (error under 2e-5). */
float wakeLog2(const WakeTables *tables, float x)
{
	union {
		float f;
		uint32_t u;
	} v;
	int32_t exponent, index;
	float fraction;
	v.f = x;
	if (!(x > 1.1754944e-38f))
		return -126.0f;
	exponent = (int32_t)((v.u >> 23) & 0xFF) - 127;
	index = (int32_t)((v.u >> 16) & 0x7F);
	fraction = (float)(v.u & 0xFFFF) * (1.0f / 65536.0f);
	return (float)exponent + tables->log2Table[index] + fraction * (tables->log2Table[index + 1] - tables->log2Table[index]);
}
