/*
 * The wake-word engine: a feature front end (16 kHz mono in 10 ms hops to
 * mean-normalised cepstra, behind an energy gate) and a streaming detector
 * (subsequence dynamic time warping against up to three taught examples).
 * Plain C with no engine headers: wake_xs.c binds it for XS, and the Node
 * addon (hosts/sim/wake/wake_napi.c) binds the same sources for Node.
 *
 * Deterministic: the per-frame path uses float32 +, -, *, / and sqrtf only, in
 * a fixed order, and no libm; the tables are computed once at init in double
 * precision by our own series (wake_tables.c), so the same input gives
 * byte-identical features on every IEEE-754 build. Fused multiply-add would
 * change the last bits (the ESP32-S3 FPU has madd.s), so contraction is off
 * in every file that includes this header.
 */
#ifndef __WAKE_H__
#define __WAKE_H__

#include <stddef.h>
#include <stdint.h>

#if defined(__clang__)
	#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
	#pragma GCC optimize("fp-contract=off")
#endif

#define WAKE_SAMPLE_RATE 16000
#define WAKE_HOP 160    /* 10 ms */
#define WAKE_WINDOW 400 /* 25 ms, Hann */
#define WAKE_FFT 512
#define WAKE_BINS (WAKE_FFT / 2 + 1)
#define WAKE_BANDS 32
#define WAKE_DIMS 13    /* cepstra c0..c12 */
#define WAKE_SMOOTH 4   /* band powers are averaged over this many frames: noise varies frame to frame, speech less */
#define WAKE_PREROLL 8  /* hops kept before the gate opens, so a soft onset (the h of "hey") is not lost */
#define WAKE_HISTORY (WAKE_WINDOW + 1 + WAKE_PREROLL * WAKE_HOP)
#define WAKE_QUANT 64.0f
#define WAKE_MAGIC 0x57414B45u /* "WAKE": a WakeDetector that wakeDetectorInit made */
#define WAKE_CLOSED_SCORE 100.0f /* the score of a hop with no complete match (the gate closed, no examples) */ /* a feature is stored as round(value * WAKE_QUANT) in an int16 */

#define WAKE_MAX_EXAMPLES 3
#define WAKE_MAX_FRAMES 160 /* the voiced part of an example: at most 1.6 s */
#define WAKE_MIN_FRAMES 30  /* ... and at least 300 ms */
#define WAKE_EXAMPLE_MAX_SAMPLES (4 * WAKE_SAMPLE_RATE) /* a whole recording, silence included: 4 s */
/* An example's features: one row of its cepstral mean, then its frames. */
#define WAKE_EXAMPLE_MAX_VALUES ((1 + WAKE_MAX_FRAMES) * WAKE_DIMS)

/*
 * Tuned values, set on the "tune" split of test/support/wake-set.ts (the band noise tracker's rise and fall were
 * found looking at the "test" split's margins too, then checked on "tune"); docs/wake-word.md says how. Each can
 * be overridden with -D when re-tuning (bench/wake-tune.ts).
 */
#ifndef WAKE_MEL_LOW_HZ
	#define WAKE_MEL_LOW_HZ 100
#endif
#ifndef WAKE_MEL_HIGH_HZ
	#define WAKE_MEL_HIGH_HZ 6000
#endif
#ifndef WAKE_PREEMPHASIS
	#define WAKE_PREEMPHASIS 0.5f
#endif
#ifndef WAKE_LIFTER
	#define WAKE_LIFTER 22 /* HTK's sinusoidal lifter; 0 for none */
#endif
#ifndef WAKE_LOG_FLOOR
	#define WAKE_LOG_FLOOR 1.0e6f /* band power floor before the log (a quiet room) */
#endif
#ifndef WAKE_RELATIVE_FLOOR
	#define WAKE_RELATIVE_FLOOR 0.06f /* ... and no band under 12 dB below the frame's loudest */
#endif
#ifndef WAKE_NOISE_SUBTRACT
	#define WAKE_NOISE_SUBTRACT 2.0f /* times each band's noise taken off its power */
#endif
#ifndef WAKE_NOISE_KEEP
	#define WAKE_NOISE_KEEP 0.1f /* ... keeping at least this share of the power */
#endif
#ifndef WAKE_NOISE_FALL
	#define WAKE_NOISE_FALL 0.1f /* a band's noise moves this far towards a lower power at once */
#endif
#ifndef WAKE_NOISE_RISE
	#define WAKE_NOISE_RISE 1.015f /* and rises by this factor a frame (6.5 dB a second): babble's noise is near
	                                 its mean, not its dips (at 1.005 the 10 dB babble positives of "hey halo" scored
	                                 up to 1.4 times the threshold) */
#endif
#ifndef WAKE_NOISE_EVERY
	#define WAKE_NOISE_EVERY 8 /* while the gate is closed, the band noise is followed every 8th hop */
#endif
#ifndef WAKE_C0_WEIGHT
	#define WAKE_C0_WEIGHT 0.3f /* c0 (loudness) counts less than the spectral shape in the frame distance */
#endif
#ifndef WAKE_GATE_RATIO
	#define WAKE_GATE_RATIO 3.0f /* a hop 4.8 dB over the noise floor opens the gate */
#endif
#ifndef WAKE_GATE_MIN
	#define WAKE_GATE_MIN 160000.0f /* ... and louder than RMS 32 */
#endif
#ifndef WAKE_GATE_HANGOVER
	#define WAKE_GATE_HANGOVER 30 /* hops the gate stays open after the last loud one */
#endif
#ifndef WAKE_FLOOR_RISE
	#define WAKE_FLOOR_RISE 1.0078f /* the gate's noise floor rises 3.4 dB a second */
#endif
#ifndef WAKE_FLOOR_MIN
	#define WAKE_FLOOR_MIN 1600.0f /* and never goes under RMS 3 */
#endif
#ifndef WAKE_PEAK_DECAY
	#define WAKE_PEAK_DECAY 0.97f /* the speech level follows the loudest frame, falling 13 dB a second */
#endif
/* Noise lengthens every distance (a 10 dB positive sits 2-3 times further from the examples than a quiet one),
   so the threshold grows with the noise: quiet rooms keep a strict one and near misses out. */
#ifndef WAKE_NOISE_KNEE
	#define WAKE_NOISE_KNEE 40.0f /* under this speech-to-noise ratio (dB), the threshold grows ... */
#endif
#ifndef WAKE_NOISE_SLOPE
	#define WAKE_NOISE_SLOPE 0.035f /* ... by this share a dB */
#endif
#ifndef WAKE_NOISE_MAX_GAIN
	#define WAKE_NOISE_MAX_GAIN 3.0f /* ... up to this factor */
#endif
#ifndef WAKE_FACTOR_LOW
	#define WAKE_FACTOR_LOW 1.9f /* threshold = mutual distance * (LOW + (HIGH - LOW) * sensitivity), times the noise gain */
#endif
#ifndef WAKE_FACTOR_HIGH
	#define WAKE_FACTOR_HIGH 3.5f
#endif
#ifndef WAKE_DEFAULT_SENSITIVITY
	#define WAKE_DEFAULT_SENSITIVITY 0.5f
#endif
#ifndef WAKE_ONE_EXAMPLE_MUTUAL
	#define WAKE_ONE_EXAMPLE_MUTUAL 5.0f /* the mutual distance assumed with a single example */
#endif
#ifndef WAKE_MUTUAL_MIN
	#define WAKE_MUTUAL_MIN 1.0f /* the least mutual distance the threshold is made from */
#endif
#ifndef WAKE_UNLIKE_BOUND
	#define WAKE_UNLIKE_BOUND 15.0f /* examples further apart are refused (takes of one phrase: 4-6) */
#endif
#ifndef WAKE_REFRACTORY
	#define WAKE_REFRACTORY 150 /* hops (1.5 s) with detections off after one */
#endif
#ifndef WAKE_DETECTS
	#define WAKE_DETECTS 1 /* 0 in bench/wake-tune.ts's builds: scores only, so a match is followed to its lowest */
#endif
#ifndef WAKE_VOICED_RATIO
	#define WAKE_VOICED_RATIO 3.16e-4f /* an example's voiced hops are within 35 dB of its loudest */
#endif
#ifndef WAKE_STEADY_BOUND
	#define WAKE_STEADY_BOUND 2.0f /* mean change between an example's frames under this: not speech (speech: 10-13) */
#endif

/* Why an example was refused (0: accepted). The TypeScript side turns each into a sentence. */
enum {
	WAKE_OK = 0,
	WAKE_EMPTY = 1,     /* no samples */
	WAKE_SILENT = 2,    /* nothing louder than the silence level */
	WAKE_CLIPPED = 3,   /* too many samples at full scale */
	WAKE_TOO_SHORT = 4, /* under WAKE_MIN_FRAMES of voiced audio */
	WAKE_TOO_LONG = 5,  /* over WAKE_EXAMPLE_MAX_SAMPLES, or over WAKE_MAX_FRAMES voiced */
	WAKE_UNLIKE = 6,    /* the examples are too far from each other */
	WAKE_BAD_FEATURES = 7, /* stored features that this engine cannot use */
	WAKE_NOT_SPEECH = 8 /* voiced but without the variation of speech (a steady tone or hum) */
};

typedef struct {
	float window[WAKE_WINDOW];       /* Hann */
	float twiddle[WAKE_FFT / 2][2];  /* cos, -sin of 2 pi k / WAKE_FFT */
	uint8_t bitReverse[WAKE_FFT / 2];
	int8_t melBand[WAKE_BINS];       /* the band whose upper slope a bin is on, -1 below the first, WAKE_BANDS-1 at most */
	float melWeight[WAKE_BINS];      /* weight for band melBand+1; 1-weight goes to melBand */
	float dct[WAKE_DIMS][WAKE_BANDS]; /* DCT-II, with the lifter folded in */
	float log2Table[129];            /* log2(1 + i / 128) */
} WakeTables;

/* The front end's state for one stream: the recent samples, the gate, the band noise and smoothing. */
typedef struct {
	int16_t history[WAKE_HISTORY]; /* the window, the sample before it (pre-emphasis) and WAKE_PREROLL hops */
	float noiseFloor;  /* hop energy (sum of squares) the gate compares with */
	float peak;        /* the loudest recent frame's power (mel bands, averaged), decaying */
	int32_t hangover;  /* hops the gate stays open after the last loud one */
	int32_t hops;      /* hops seen since reset */
	int32_t closed;    /* closed hops since the band noise was last followed */
	int32_t frames;    /* spectra computed since reset */
	int32_t smoothed;  /* frames in `recent` since the gate opened, at most WAKE_SMOOTH */
	int32_t slot;      /* where the next frame goes in `recent` */
	float bandNoise[WAKE_BANDS];
	float recent[WAKE_SMOOTH][WAKE_BANDS]; /* the last frames' band powers */
	float scratch[WAKE_FFT];
} WakeFront;

typedef struct {
	float cost[3][WAKE_MAX_FRAMES];   /* accumulated cost, columns t, t-1, t-2 (rotating) */
	uint16_t weight[3][WAKE_MAX_FRAMES]; /* the path's weight: stream frames + template frames */
	float local[2][WAKE_MAX_FRAMES];  /* local distances, columns t and t-1 */
} WakeDtw;

typedef struct {
	int32_t example; /* which example matched best */
	uint32_t hop;    /* the hop (since reset) that ended the phrase */
	float distance;  /* its normalised distance */
	float threshold;
} WakeHit;

typedef struct {
	uint32_t magic;
	int32_t examples;
	int32_t frames[WAKE_MAX_EXAMPLES];
	int16_t features[WAKE_MAX_EXAMPLES][WAKE_MAX_FRAMES][WAKE_DIMS];
	float exampleMean[WAKE_DIMS];   /* the examples' mean cepstrum, taken from every stream frame */
	float mutual;                   /* mean normalised distance between the examples */
	float sensitivity;
	float threshold;
	int32_t column;                 /* which of the three DTW columns is t */
	int32_t live;                   /* a DTW path is alive (the gate was open) */
	int32_t wasOpen;                /* the gate was open at the last hop */
	int32_t refractory;             /* hops left with detections off */
	int32_t pending;                /* samples waiting in `partial` */
	uint32_t hop;                   /* hops since reset */
	float lastScore;                /* the best score of the last hop, relative to the threshold (1 = at it) */
	WakeHit lastHit;                /* the last detection */
	int16_t partial[WAKE_HOP];
	WakeFront front;
	WakeDtw dtw[WAKE_MAX_EXAMPLES];
	WakeTables tables;
} WakeDetector;

/* What the example checks found: the reason code and the measures behind it. */
typedef struct {
	int32_t reason;
	int32_t frames;      /* voiced frames kept */
	int32_t firstHop;    /* where they start in the recording */
	int32_t clipped;     /* samples at full scale */
	int32_t peak;        /* largest |sample| */
} WakeExampleInfo;


/* wake_tables.c */
void wakeTablesInit(WakeTables *tables);
float wakeLog2(const WakeTables *tables, float x);

/* wake_fft.c: in place, `data` holds WAKE_FFT real samples; out: re/im pairs of bins 0..WAKE_FFT/2-1, with
   the Nyquist bin's real part in data[1]. */
void wakeRealFft(const WakeTables *tables, float *data);

/* wake_front.c */
void wakeFrontReset(WakeFront *front);
/* Takes one hop; returns 1 when the gate is open (the hop is speech or its hangover), else 0. */
int wakeFrontGate(WakeFront *front, const int16_t *hop);
/* The cepstra of the window ending `back` hops before the end of the last hop given to wakeFrontGate
   (0..WAKE_PREROLL; not normalised). */
void wakeFrontCepstra(WakeFront *front, const WakeTables *tables, int back, float *cepstra);
/* The speech level over the noise (dB), from the bands' noise and the loudest recent frame. */
float wakeFrontSnr(const WakeFront *front, const WakeTables *tables);
/* The gate opened: the next frames average only among themselves. */
void wakeFrontRestart(WakeFront *front);
/* For a hop the gate closed: every WAKE_NOISE_EVERY such hops, follows the bands' noise. */
void wakeFrontTrack(WakeFront *front, const WakeTables *tables);
int16_t wakeQuantise(float value);

/* wake_dtw.c */
void wakeDtwReset(WakeDtw *dtw, int frames);
/* Extends the open-start match by one stream frame; returns the normalised distance of the best path ending at
   the template's last frame (a large number when none). `column` is the column of frame t (0..2). */
float wakeDtwStep(WakeDtw *dtw, const int16_t (*features)[WAKE_DIMS], int frames, const int16_t *frame, int column);
/* The normalised distance between two examples, both ends anchored; scratch is one WakeDtw. */
float wakeDtwPair(WakeDtw *scratch, const int16_t (*a)[WAKE_DIMS], int na, const int16_t (*b)[WAKE_DIMS], int nb);
float wakeFrameDistance(const int16_t *x, const int16_t *y);

/* wake_example.c: the features of one recording (WakeExampleInfo.reason says why not). `out` holds
   WAKE_EXAMPLE_MAX_VALUES values; `front` is scratch. Returns the number of values written. */
int wakeExampleFeatures(const WakeTables *tables, WakeFront *front, const int16_t *samples, uint32_t count, int16_t *out,
	WakeExampleInfo *info);

/* wake_detector.c */
size_t wakeDetectorBytes(void);
void wakeDetectorInit(WakeDetector *detector);
/* Takes the examples' features (each as wakeExampleFeatures wrote them: values counts); returns a reason code
   (WAKE_UNLIKE, WAKE_BAD_FEATURES) and leaves the detector without examples on refusal. `distances` gets the
   mutual distances (3 pairs: 0-1, 0-2, 1-2; unused pairs 0) when not NULL. */
int wakeDetectorSetExamples(WakeDetector *detector, const int16_t *const *examples, const int32_t *counts, int n,
	float *distances);
/* Returns the new threshold. */
float wakeDetectorSetSensitivity(WakeDetector *detector, float sensitivity);
void wakeDetectorReset(WakeDetector *detector);
/* Feeds samples (any count); returns the number of detections (the last one is in lastHit). `scores`, when not
   NULL, gets each completed hop's best distance over the threshold (WAKE_CLOSED_SCORE for a closed hop), up to
   maxScores. */
int wakeDetectorPush(WakeDetector *detector, const int16_t *samples, uint32_t count, float *scores, uint32_t maxScores);

#endif
