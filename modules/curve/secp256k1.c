/*
 * secp256k1 (SEC 2: y^2 = x^3 + 7 over p = 2^256 - 2^32 - 977): the field, the
 * points and the multiplications secp256k1.h declares. Written for Halo from
 * SEC 2 and the complete formulas of Renes, Costello and Batina ("Complete
 * addition formulas for prime order elliptic curves", 2016, algorithms 7 and
 * 9 with a = 0, b3 = 3b = 21).
 *
 * What "constant time" means here (curveMultiplyBase, curveMultiply: the
 * signing and ECDH paths, whose scalar is secret): after the range check of
 * the scalar, the same sequence of field operations runs for every scalar;
 * the field operations themselves have no data-dependent branch (carries and
 * the final subtraction of p are masks) and the window's table entry is read
 * by scanning all 16 with masks, so no memory address depends on the scalar
 * either. Not covered: the compiler is trusted not to turn masks back into
 * branches, and the 32x32->64 multiply is assumed constant time (it is on the
 * ESP32-S3 and x86-64). The exponentiations (inverse, square root) run over
 * public exponents, by fixed addition chains. curveMultiplyAdd (verification,
 * public scalars only) is not constant time: Jacobian coordinates and width-5
 * NAF digits, with branches (see the comment above it).
 */
#include "secp256k1.h"
#include <string.h>

typedef struct {
	uint32_t v[8]; /* little-endian limbs, always fully reduced below p */
} Fe;

typedef struct {
	Fe x, y, z; /* homogeneous projective: (X/Z, Y/Z); the point at infinity is (0:1:0) */
} Point;

static const uint32_t curveP[8] = { 0xFFFFFC2F, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF };
static const uint32_t curveN[8] = { 0xD0364141, 0xBFD25E8C, 0xAF48A03B, 0xBAAEDCE6, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF };
#include "secp256k1_base.h"
static const Point curveInfinity = { { { 0 } }, { { 1, 0, 0, 0, 0, 0, 0, 0 } }, { { 0 } } };

static void limbsFromBytes(uint32_t r[8], const uint8_t b[32])
{
	int i;
	for (i = 0; i < 8; i++) {
		const uint8_t *q = b + 28 - 4 * i;
		r[i] = ((uint32_t)q[0] << 24) | ((uint32_t)q[1] << 16) | ((uint32_t)q[2] << 8) | (uint32_t)q[3];
	}
}

static void limbsToBytes(uint8_t b[32], const uint32_t a[8])
{
	int i;
	for (i = 0; i < 8; i++) {
		uint8_t *q = b + 28 - 4 * i;
		q[0] = (uint8_t)(a[i] >> 24);
		q[1] = (uint8_t)(a[i] >> 16);
		q[2] = (uint8_t)(a[i] >> 8);
		q[3] = (uint8_t)a[i];
	}
}

/* 1 when a < m, else 0; no branch. */
static uint32_t limbsLess(const uint32_t a[8], const uint32_t m[8])
{
	uint64_t borrow = 0;
	int i;
	for (i = 0; i < 8; i++)
		borrow = (((uint64_t)a[i] - m[i] - borrow) >> 63) & 1;
	return (uint32_t)borrow;
}

static uint32_t limbsZero(const uint32_t a[8])
{
	uint32_t any = 0;
	int i;
	for (i = 0; i < 8; i++)
		any |= a[i];
	return ((any | (0 - any)) >> 31) ^ 1;
}

/* r = w + hi * 2^256 mod p, for w < 2^256 and hi < 2^34: 2^256 = 2^32 + 977 (mod p). */
static void feFold(Fe *r, uint32_t w[8], uint64_t hi)
{
	uint64_t m = hi * 977, c, k, borrow = 0;
	uint32_t u[8], mask;
	int i;
	c = (uint64_t)w[0] + (m & 0xFFFFFFFF);
	w[0] = (uint32_t)c;
	c = (c >> 32) + w[1] + (m >> 32) + (hi & 0xFFFFFFFF);
	w[1] = (uint32_t)c;
	c = (c >> 32) + w[2] + (hi >> 32);
	w[2] = (uint32_t)c;
	for (i = 3; i < 8; i++) {
		c = (c >> 32) + w[i];
		w[i] = (uint32_t)c;
	}
	/* a carry out of 2^256 leaves w below 2^77: fold it once more, which cannot carry again */
	k = c >> 32;
	c = (uint64_t)w[0] + k * 977;
	w[0] = (uint32_t)c;
	c = (c >> 32) + w[1] + k;
	w[1] = (uint32_t)c;
	for (i = 2; i < 8; i++) {
		c = (c >> 32) + w[i];
		w[i] = (uint32_t)c;
	}
	/* w < 2^256 < 2p: subtract p once when w >= p */
	for (i = 0; i < 8; i++) {
		uint64_t d = (uint64_t)w[i] - curveP[i] - borrow;
		u[i] = (uint32_t)d;
		borrow = (d >> 63) & 1;
	}
	mask = (uint32_t)borrow - 1; /* all ones when there was no borrow */
	for (i = 0; i < 8; i++)
		r->v[i] = (u[i] & mask) | (w[i] & ~mask);
}

static void feAdd(Fe *r, const Fe *a, const Fe *b)
{
	uint32_t t[8], u[8], mask;
	uint64_t c = 0, borrow = 0;
	int i;
	for (i = 0; i < 8; i++) {
		c += (uint64_t)a->v[i] + b->v[i];
		t[i] = (uint32_t)c;
		c >>= 32;
	}
	for (i = 0; i < 8; i++) {
		uint64_t d = (uint64_t)t[i] - curveP[i] - borrow;
		u[i] = (uint32_t)d;
		borrow = (d >> 63) & 1;
	}
	/* the sum is at least p when it carried out of 2^256 or t - p did not borrow */
	mask = 0 - ((uint32_t)c | ((uint32_t)borrow ^ 1));
	for (i = 0; i < 8; i++)
		r->v[i] = (u[i] & mask) | (t[i] & ~mask);
}

static void feSub(Fe *r, const Fe *a, const Fe *b)
{
	uint32_t t[8], mask;
	uint64_t c = 0, borrow = 0;
	int i;
	for (i = 0; i < 8; i++) {
		uint64_t d = (uint64_t)a->v[i] - b->v[i] - borrow;
		t[i] = (uint32_t)d;
		borrow = (d >> 63) & 1;
	}
	mask = 0 - (uint32_t)borrow; /* add p back when a < b */
	for (i = 0; i < 8; i++) {
		c += (uint64_t)t[i] + (curveP[i] & mask);
		r->v[i] = (uint32_t)c;
		c >>= 32;
	}
}

/* r = t mod p for a 512-bit t (16 limbs): low + high * 977 + high * 2^32, then feFold. */
static void feReduce(Fe *r, const uint32_t t[16])
{
	uint32_t w[8];
	uint64_t c = 0;
	int i;
	for (i = 0; i < 8; i++) {
		c += (uint64_t)t[i] + (uint64_t)t[8 + i] * 977;
		if (i > 0)
			c += t[7 + i];
		w[i] = (uint32_t)c;
		c >>= 32;
	}
	c += t[15];
	feFold(r, w, c);
}

/* Schoolbook 8x8 limbs into 16, then the reduction. r may be a or b. */
static void feMul(Fe *r, const Fe *a, const Fe *b)
{
	uint32_t t[16];
	uint64_t c;
	int i, j;
	memset(t, 0, sizeof(t));
	for (i = 0; i < 8; i++) {
		c = 0;
		for (j = 0; j < 8; j++) {
			c += (uint64_t)a->v[i] * b->v[j] + t[i + j]; /* at most 2^64 - 1 */
			t[i + j] = (uint32_t)c;
			c >>= 32;
		}
		t[i + 8] = (uint32_t)c;
	}
	feReduce(r, t);
}

/* r = a^2: the 28 cross products once, doubled, plus the 8 squares (36 multiplies instead of 64). r may be a. */
static void feSqr(Fe *r, const Fe *a)
{
	uint32_t t[16], top = 0;
	uint64_t c;
	int i, j;
	memset(t, 0, sizeof(t));
	for (i = 0; i < 7; i++) {
		c = 0;
		for (j = i + 1; j < 8; j++) {
			c += (uint64_t)a->v[i] * a->v[j] + t[i + j];
			t[i + j] = (uint32_t)c;
			c >>= 32;
		}
		t[i + 8] = (uint32_t)c; /* no row before this one reached limb i + 8 */
	}
	for (i = 0; i < 16; i++) { /* the cross products are below 2^511: doubling them cannot carry out */
		uint32_t v = t[i];
		t[i] = (v << 1) | top;
		top = v >> 31;
	}
	c = 0;
	for (i = 0; i < 8; i++) {
		uint64_t square = (uint64_t)a->v[i] * a->v[i];
		c += (uint64_t)t[2 * i] + (square & 0xFFFFFFFF);
		t[2 * i] = (uint32_t)c;
		c = (c >> 32) + t[2 * i + 1] + (square >> 32);
		t[2 * i + 1] = (uint32_t)c;
		c >>= 32;
	}
	feReduce(r, t);
}

/* r = a * k for a small k (21 here). */
static void feMulSmall(Fe *r, const Fe *a, uint32_t k)
{
	uint32_t w[8];
	uint64_t c = 0;
	int i;
	for (i = 0; i < 8; i++) {
		c += (uint64_t)a->v[i] * k;
		w[i] = (uint32_t)c;
		c >>= 32;
	}
	feFold(r, w, c);
}

/* r = a^(2^n): n squarings. */
static void feSqrN(Fe *r, const Fe *a, int n)
{
	feSqr(r, a);
	while (--n > 0)
		feSqr(r, r);
}

/*
 * The powers both exponents below share: a^(2^k - 1) for the runs of ones in them, by the addition
 * chain 1, 2, 3, 6, 9, 11, 22, 44, 88, 176, 220, 223 (libsecp256k1's, from the exponents' binary form).
 * x223 takes 222 squarings and 11 multiplications instead of about 220 of each by square and multiply.
 */
static void feRuns(Fe *x2, Fe *x22, Fe *x223, const Fe *a)
{
	Fe x3, x6, x9, x11, x44, x88, x176, x220;
	feSqr(x2, a);
	feMul(x2, x2, a);
	feSqr(&x3, x2);
	feMul(&x3, &x3, a);
	feSqrN(&x6, &x3, 3);
	feMul(&x6, &x6, &x3);
	feSqrN(&x9, &x6, 3);
	feMul(&x9, &x9, &x3);
	feSqrN(&x11, &x9, 2);
	feMul(&x11, &x11, x2);
	feSqrN(x22, &x11, 11);
	feMul(x22, x22, &x11);
	feSqrN(&x44, x22, 22);
	feMul(&x44, &x44, x22);
	feSqrN(&x88, &x44, 44);
	feMul(&x88, &x88, &x44);
	feSqrN(&x176, &x88, 88);
	feMul(&x176, &x176, &x88);
	feSqrN(&x220, &x176, 44);
	feMul(&x220, &x220, &x44);
	feSqrN(x223, &x220, 3);
	feMul(x223, x223, &x3);
}

/* r = a^(p - 2) = a^-1 (Fermat; 0 for 0). p - 2 is 223 ones, a zero, 22 ones, 0000101101 in binary. */
static void feInvert(Fe *r, const Fe *a)
{
	Fe x2, x22, t;
	feRuns(&x2, &x22, &t, a);
	feSqrN(&t, &t, 23);
	feMul(&t, &t, &x22);
	feSqrN(&t, &t, 5);
	feMul(&t, &t, a);
	feSqrN(&t, &t, 3);
	feMul(&t, &t, &x2);
	feSqrN(&t, &t, 2);
	feMul(r, &t, a);
}

/* r = a^((p + 1) / 4), a square root of a when a has one (p = 3 mod 4). The exponent is 223 ones, a zero,
 * 22 ones, 000011 and 00 in binary. */
static void feRoot(Fe *r, const Fe *a)
{
	Fe x2, x22, t;
	feRuns(&x2, &x22, &t, a);
	feSqrN(&t, &t, 23);
	feMul(&t, &t, &x22);
	feSqrN(&t, &t, 6);
	feMul(&t, &t, &x2);
	feSqrN(r, &t, 2);
}

static int feEqual(const Fe *a, const Fe *b)
{
	return memcmp(a->v, b->v, sizeof(a->v)) == 0;
}

/* Complete addition (RCB algorithm 7, a = 0). r may be p or q. */
static void pointAdd(Point *r, const Point *p, const Point *q)
{
	Fe t0, t1, t2, t3, t4, x3, y3, z3;
	feMul(&t0, &p->x, &q->x);
	feMul(&t1, &p->y, &q->y);
	feMul(&t2, &p->z, &q->z);
	feAdd(&t3, &p->x, &p->y);
	feAdd(&t4, &q->x, &q->y);
	feMul(&t3, &t3, &t4);
	feAdd(&t4, &t0, &t1);
	feSub(&t3, &t3, &t4);
	feAdd(&t4, &p->y, &p->z);
	feAdd(&x3, &q->y, &q->z);
	feMul(&t4, &t4, &x3);
	feAdd(&x3, &t1, &t2);
	feSub(&t4, &t4, &x3);
	feAdd(&x3, &p->x, &p->z);
	feAdd(&y3, &q->x, &q->z);
	feMul(&x3, &x3, &y3);
	feAdd(&y3, &t0, &t2);
	feSub(&y3, &x3, &y3);
	feAdd(&x3, &t0, &t0);
	feAdd(&t0, &x3, &t0);
	feMulSmall(&t2, &t2, 21);
	feAdd(&z3, &t1, &t2);
	feSub(&t1, &t1, &t2);
	feMulSmall(&y3, &y3, 21);
	feMul(&x3, &t4, &y3);
	feMul(&t2, &t3, &t1);
	feSub(&x3, &t2, &x3);
	feMul(&y3, &y3, &t0);
	feMul(&t1, &t1, &z3);
	feAdd(&y3, &t1, &y3);
	feMul(&t0, &t0, &t3);
	feMul(&z3, &z3, &t4);
	feAdd(&z3, &z3, &t0);
	r->x = x3;
	r->y = y3;
	r->z = z3;
}

/* Complete doubling (RCB algorithm 9, a = 0). r may be p. */
static void pointDouble(Point *r, const Point *p)
{
	Fe t0, t1, t2, x3, y3, z3;
	feSqr(&t0, &p->y);
	feAdd(&z3, &t0, &t0);
	feAdd(&z3, &z3, &z3);
	feAdd(&z3, &z3, &z3);
	feMul(&t1, &p->y, &p->z);
	feSqr(&t2, &p->z);
	feMulSmall(&t2, &t2, 21);
	feMul(&x3, &t2, &z3);
	feAdd(&y3, &t0, &t2);
	feMul(&z3, &t1, &z3);
	feAdd(&t1, &t2, &t2);
	feAdd(&t2, &t1, &t2);
	feSub(&t0, &t0, &t2);
	feMul(&y3, &t0, &y3);
	feAdd(&y3, &x3, &y3);
	feMul(&t1, &p->x, &p->y);
	feMul(&x3, &t0, &t1);
	feAdd(&x3, &x3, &x3);
	r->x = x3;
	r->y = y3;
	r->z = z3;
}

/* A compressed point (02/03 || x) as a projective point with Z = 1, or CURVE_BAD_POINT. */
static int pointDecode(Point *r, const uint8_t in[33])
{
	Fe y2, seven = { { 7, 0, 0, 0, 0, 0, 0, 0 } }, check;
	if ((in[0] != 2) && (in[0] != 3))
		return CURVE_BAD_POINT;
	limbsFromBytes(r->x.v, in + 1);
	if (!limbsLess(r->x.v, curveP))
		return CURVE_BAD_POINT;
	feSqr(&y2, &r->x);
	feMul(&y2, &y2, &r->x);
	feAdd(&y2, &y2, &seven);
	feRoot(&r->y, &y2);
	feSqr(&check, &r->y);
	if (!feEqual(&check, &y2))
		return CURVE_BAD_POINT; /* x^3 + 7 is not a square: no point has this x */
	if ((r->y.v[0] & 1) != (uint32_t)(in[0] & 1)) {
		Fe zero = { { 0 } };
		feSub(&r->y, &zero, &r->y);
	}
	memset(&r->z, 0, sizeof(r->z));
	r->z.v[0] = 1;
	return CURVE_OK;
}

/* The compressed encoding of p, or CURVE_INFINITY. */
static int pointEncode(uint8_t out[33], const Point *p)
{
	Fe inverse, x, y;
	if (limbsZero(p->z.v))
		return CURVE_INFINITY;
	feInvert(&inverse, &p->z);
	feMul(&x, &p->x, &inverse);
	feMul(&y, &p->y, &inverse);
	out[0] = (uint8_t)(2 | (y.v[0] & 1));
	limbsToBytes(out + 1, x.v);
	return CURVE_OK;
}

/* table[i] = i·p for i in 0..15. */
static void pointTable(Point table[16], const Point *p)
{
	int i;
	table[0] = curveInfinity;
	table[1] = *p;
	for (i = 2; i < 16; i++) {
		if (i & 1)
			pointAdd(&table[i], &table[i - 1], p);
		else
			pointDouble(&table[i], &table[i >> 1]);
	}
}

/* r = table[index], reading every entry (index is a secret digit). */
static void pointSelect(Point *r, const Point table[16], uint32_t index)
{
	uint32_t *out = (uint32_t *)r;
	const size_t limbs = sizeof(Point) / sizeof(uint32_t);
	uint32_t i;
	size_t j;
	memset(r, 0, sizeof(Point));
	for (i = 0; i < 16; i++) {
		const uint32_t *entry = (const uint32_t *)&table[i];
		uint32_t mask = 0 - (((i ^ index) - 1) >> 31);
		for (j = 0; j < limbs; j++)
			out[j] |= entry[j] & mask;
	}
}

/* The 4-bit digit `i` of a big-endian scalar, from the top (0..63). */
static uint32_t scalarDigit(const uint8_t k[32], int i)
{
	uint8_t b = k[i >> 1];
	return (i & 1) ? (uint32_t)(b & 15) : (uint32_t)(b >> 4);
}

/* CURVE_OK when the scalar is below n (and not zero unless zeroAllowed). */
static int scalarCheck(const uint8_t k[32], int zeroAllowed)
{
	uint32_t limbs[8];
	limbsFromBytes(limbs, k);
	if (!limbsLess(limbs, curveN))
		return CURVE_BAD_SCALAR;
	if (!zeroAllowed && limbsZero(limbs))
		return CURVE_BAD_SCALAR;
	return CURVE_OK;
}

/* out = k·T[1] for the window table T of a point: the same operations for every k (see the head of this file). */
static int multiplyFixed(uint8_t out[33], const Point table[16], const uint8_t k[32])
{
	Point acc, entry;
	int i;
	if (scalarCheck(k, 0) != CURVE_OK)
		return CURVE_BAD_SCALAR;
	acc = curveInfinity;
	for (i = 0; i < 64; i++) {
		pointDouble(&acc, &acc);
		pointDouble(&acc, &acc);
		pointDouble(&acc, &acc);
		pointDouble(&acc, &acc);
		pointSelect(&entry, table, scalarDigit(k, i));
		pointAdd(&acc, &acc, &entry);
	}
	memset(&entry, 0, sizeof(entry));
	return pointEncode(out, &acc);
}

int curveMultiplyBase(uint8_t out[33], const uint8_t k[32])
{
	return multiplyFixed(out, curveBaseTable, k);
}

int curveMultiply(uint8_t out[33], const uint8_t point[33], const uint8_t k[32])
{
	Point p, table[16];
	int status = pointDecode(&p, point);
	if (status != CURVE_OK)
		return status;
	if (scalarCheck(k, 0) != CURVE_OK)
		return CURVE_BAD_SCALAR;
	pointTable(table, &p);
	status = multiplyFixed(out, table, k);
	memset(table, 0, sizeof(table)); /* multiples of the other party's key: not secret, cleared anyway */
	return status;
}

/*
 * Verification's double multiplication, a·G + b·P, where nothing is secret: Jacobian coordinates
 * ((X/Z^2, Y/Z^3), infinity when Z = 0) with the Explicit-Formulas Database's a = 0 formulas
 * (dbl-2009-l: 2M + 5S; madd-2007-bl: 7M + 4S for an affine addend; add-2007-bl: 11M + 5S), and the
 * scalars in width-5 NAF (odd digits up to 15, about one in six positions nonzero): a third fewer field
 * multiplications than the complete formulas over 4-bit windows. Branches on the data are fine here.
 */

/* r = 2p (Jacobian). Infinity stays infinity (Z3 = 2·Y·Z). r may be p. */
static void jacDouble(Point *r, const Point *p)
{
	Fe a, b, c, d, e, f, t;
	feSqr(&a, &p->x);
	feSqr(&b, &p->y);
	feSqr(&c, &b);
	feAdd(&d, &p->x, &b);
	feSqr(&d, &d);
	feSub(&d, &d, &a);
	feSub(&d, &d, &c);
	feAdd(&d, &d, &d);
	feAdd(&e, &a, &a);
	feAdd(&e, &e, &a);
	feSqr(&f, &e);
	feMul(&r->z, &p->y, &p->z);
	feAdd(&r->z, &r->z, &r->z);
	feSub(&r->x, &f, &d);
	feSub(&r->x, &r->x, &d);
	feSub(&t, &d, &r->x);
	feMul(&t, &e, &t);
	feAdd(&c, &c, &c);
	feAdd(&c, &c, &c);
	feAdd(&c, &c, &c);
	feSub(&r->y, &t, &c);
}

/* r = p + q for q affine (Z = 1, never infinity). r may be p. */
static void jacAddAffine(Point *r, const Point *p, const Point *q)
{
	Fe z1z1, u2, s2, h, hh, i, j, rr, v, t;
	if (limbsZero(p->z.v)) {
		*r = *q;
		return;
	}
	feSqr(&z1z1, &p->z);
	feMul(&u2, &q->x, &z1z1);
	feMul(&s2, &q->y, &p->z);
	feMul(&s2, &s2, &z1z1);
	feSub(&h, &u2, &p->x);
	feSub(&rr, &s2, &p->y);
	if (limbsZero(h.v)) {
		if (limbsZero(rr.v))
			jacDouble(r, p);
		else
			*r = curveInfinity; /* p = -q */
		return;
	}
	feSqr(&hh, &h);
	feAdd(&i, &hh, &hh);
	feAdd(&i, &i, &i);
	feMul(&j, &h, &i);
	feAdd(&rr, &rr, &rr);
	feMul(&v, &p->x, &i);
	feAdd(&t, &p->z, &h);
	feSqr(&t, &t);
	feSub(&t, &t, &z1z1);
	feSub(&r->z, &t, &hh);
	feMul(&t, &p->y, &j); /* p->y is read before r->y is written (r may be p) */
	feAdd(&t, &t, &t);
	feSqr(&r->x, &rr);
	feSub(&r->x, &r->x, &j);
	feSub(&r->x, &r->x, &v);
	feSub(&r->x, &r->x, &v);
	feSub(&v, &v, &r->x);
	feMul(&v, &rr, &v);
	feSub(&r->y, &v, &t);
}

/* r = p + q, both Jacobian. r may be p. */
static void jacAdd(Point *r, const Point *p, const Point *q)
{
	Fe z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
	if (limbsZero(p->z.v)) {
		*r = *q;
		return;
	}
	if (limbsZero(q->z.v)) {
		*r = *p;
		return;
	}
	feSqr(&z1z1, &p->z);
	feSqr(&z2z2, &q->z);
	feMul(&u1, &p->x, &z2z2);
	feMul(&u2, &q->x, &z1z1);
	feMul(&s1, &p->y, &q->z);
	feMul(&s1, &s1, &z2z2);
	feMul(&s2, &q->y, &p->z);
	feMul(&s2, &s2, &z1z1);
	feSub(&h, &u2, &u1);
	feSub(&rr, &s2, &s1);
	if (limbsZero(h.v)) {
		if (limbsZero(rr.v))
			jacDouble(r, p);
		else
			*r = curveInfinity;
		return;
	}
	feAdd(&i, &h, &h);
	feSqr(&i, &i);
	feMul(&j, &h, &i);
	feAdd(&rr, &rr, &rr);
	feMul(&v, &u1, &i);
	feAdd(&t, &p->z, &q->z);
	feSqr(&t, &t);
	feSub(&t, &t, &z1z1);
	feSub(&t, &t, &z2z2);
	feMul(&r->z, &t, &h);
	feSqr(&r->x, &rr);
	feSub(&r->x, &r->x, &j);
	feSub(&r->x, &r->x, &v);
	feSub(&r->x, &r->x, &v);
	feMul(&s1, &s1, &j);
	feAdd(&s1, &s1, &s1);
	feSub(&v, &v, &r->x);
	feMul(&v, &rr, &v);
	feSub(&r->y, &v, &s1);
}

/* The compressed encoding of a Jacobian point, or CURVE_INFINITY. */
static int jacEncode(uint8_t out[33], const Point *p)
{
	Fe zi, zi2, x, y;
	if (limbsZero(p->z.v))
		return CURVE_INFINITY;
	feInvert(&zi, &p->z);
	feSqr(&zi2, &zi);
	feMul(&x, &p->x, &zi2);
	feMul(&y, &p->y, &zi2);
	feMul(&y, &y, &zi);
	out[0] = (uint8_t)(2 | (y.v[0] & 1));
	limbsToBytes(out + 1, x.v);
	return CURVE_OK;
}

/* Positions of a width-5 NAF of a scalar below 2^256. */
#define NAF_DIGITS 257

/* The width-5 NAF of a (public) 32-byte big-endian scalar: naf[i] in {0, ±1, ±3, ..., ±15}, least significant first. */
static void scalarNaf(int8_t naf[NAF_DIGITS], const uint8_t k[32])
{
	uint32_t v[9];
	int i, j;
	limbsFromBytes(v, k);
	v[8] = 0;
	for (i = 0; i < NAF_DIGITS; i++) {
		int d = 0;
		if (v[0] & 1) {
			d = (int)(v[0] & 31);
			if (d > 15)
				d -= 32;
			if (d > 0) { /* v -= d: v[0] is at least d, so no borrow */
				v[0] -= (uint32_t)d;
			} else { /* v += -d, carrying */
				uint64_t c = (uint64_t)v[0] + (uint32_t)(-d);
				v[0] = (uint32_t)c;
				for (j = 1; j < 9 && (c >> 32); j++) {
					c = (uint64_t)v[j] + 1;
					v[j] = (uint32_t)c;
				}
			}
		}
		naf[i] = (int8_t)d;
		for (j = 0; j < 8; j++)
			v[j] = (v[j] >> 1) | (v[j + 1] << 31);
		v[8] >>= 1;
	}
}

/* -q for an affine or Jacobian point (y negated). */
static void pointNegate(Point *r, const Point *q)
{
	Fe zero = { { 0 } };
	r->x = q->x;
	feSub(&r->y, &zero, &q->y);
	r->z = q->z;
}

int curveMultiplyAdd(uint8_t out[33], const uint8_t a[32], const uint8_t point[33], const uint8_t b[32])
{
	Point p, odd[8], acc, addend;
	int8_t nafA[NAF_DIGITS], nafB[NAF_DIGITS];
	int i, status = pointDecode(&p, point);
	if (status != CURVE_OK)
		return status;
	if ((scalarCheck(a, 1) != CURVE_OK) || (scalarCheck(b, 1) != CURVE_OK))
		return CURVE_BAD_SCALAR;
	/* odd[i] = (2i + 1)·P, Jacobian (P is affine: Z = 1 from pointDecode) */
	jacDouble(&addend, &p);
	odd[0] = p;
	for (i = 1; i < 8; i++)
		jacAdd(&odd[i], &odd[i - 1], &addend);
	scalarNaf(nafA, a);
	scalarNaf(nafB, b);
	acc = curveInfinity;
	for (i = NAF_DIGITS - 1; i >= 0; i--) {
		int da = nafA[i], db = nafB[i];
		if (!limbsZero(acc.z.v))
			jacDouble(&acc, &acc);
		if (da > 0)
			jacAddAffine(&acc, &acc, &curveBaseTable[da]);
		else if (da < 0) {
			pointNegate(&addend, &curveBaseTable[-da]);
			jacAddAffine(&acc, &acc, &addend);
		}
		if (db > 0)
			jacAdd(&acc, &acc, &odd[db >> 1]);
		else if (db < 0) {
			pointNegate(&addend, &odd[(-db) >> 1]);
			jacAdd(&acc, &acc, &addend);
		}
	}
	return jacEncode(out, &acc);
}
