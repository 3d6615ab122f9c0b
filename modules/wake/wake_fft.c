/*
 * The real FFT of WAKE_FFT samples, as a complex FFT of half the size over
 * the even and odd samples (radix 2, in place) and one pass that splits the
 * result. The twiddles come from the tables; every operation is in a fixed
 * order, so results are the same on every IEEE-754 float32 machine.
 */
#include "wake.h"

#define WAKE_HALF (WAKE_FFT / 2)

static void wakeComplexFft(const WakeTables *tables, float *data)
{
	int i, size, start, j;
	for (i = 0; i < WAKE_HALF; i++) {
		int r = tables->bitReverse[i];
		if (r > i) {
			float re = data[2 * i], im = data[2 * i + 1];
			data[2 * i] = data[2 * r];
			data[2 * i + 1] = data[2 * r + 1];
			data[2 * r] = re;
			data[2 * r + 1] = im;
		}
	}
	for (size = 2; size <= WAKE_HALF; size *= 2) {
		int half = size / 2, step = WAKE_FFT / size;
		for (start = 0; start < WAKE_HALF; start += size) {
			for (j = 0; j < half; j++) {
				float wr = tables->twiddle[j * step][0], wi = tables->twiddle[j * step][1];
				float *u = data + 2 * (start + j), *v = data + 2 * (start + j + half);
				float vr = v[0] * wr - v[1] * wi;
				float vi = v[0] * wi + v[1] * wr;
				v[0] = u[0] - vr;
				v[1] = u[1] - vi;
				u[0] = u[0] + vr;
				u[1] = u[1] + vi;
			}
		}
	}
}

/* X[k] = E[k] + W^k O[k], with E and O the spectra of the even and odd samples, recovered from Z = FFT(even +
   i odd) as E[k] = (Z[k] + conj Z[N/2-k]) / 2 and O[k] = (Z[k] - conj Z[N/2-k]) / 2i. Bins k and N/2-k come
   from the same two values of Z, so each pair is done at once, in place. The factor 1/2 is left out: the
   spectrum is twice the usual one, the same for every frame. */
void wakeRealFft(const WakeTables *tables, float *data)
{
	int k;
	float z0r, z0i;
	wakeComplexFft(tables, data);
	z0r = data[0];
	z0i = data[1];
	data[0] = 2.0f * (z0r + z0i); /* bin 0 */
	data[1] = 2.0f * (z0r - z0i); /* the Nyquist bin, real */
	for (k = 1; k <= WAKE_HALF / 2; k++) {
		int m = WAKE_HALF - k;
		float ar = data[2 * k], ai = data[2 * k + 1], cr = data[2 * m], ci = data[2 * m + 1];
		float er = ar + cr, ei = ai - ci; /* 2 E[k] */
		float or_ = ai + ci, oi = cr - ar; /* 2 O[k] */
		float wr = tables->twiddle[k][0], wi = tables->twiddle[k][1];
		float tr = or_ * wr - oi * wi, ti = or_ * wi + oi * wr;
		/* bin m: E[m] = conj E[k], O[m] = conj O[k], W^m = -conj W^k */
		float wmr = tables->twiddle[m][0], wmi = tables->twiddle[m][1];
		float smr = or_ * wmr + oi * wmi, smi = or_ * wmi - oi * wmr;
		data[2 * k] = er + tr;
		data[2 * k + 1] = ei + ti;
		data[2 * m] = er + smr;
		data[2 * m + 1] = -ei + smi;
	}
}
