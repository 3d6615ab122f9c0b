/*
 * secp256k1 point arithmetic for Nostr (BIP-340 signatures, NIP-04/NIP-44
 * ECDH): the hot loop of lib/nostr/secp256k1.ts in C. Plain C with no engine
 * headers: curve_xs.c binds it for XS (the device and the XS test host), and
 * hosts/sim/curve/curve_napi.c binds the same source for Node.
 *
 * Points cross the boundary as 33-byte compressed SEC 1 encodings (02/03 and
 * x), scalars as 32 bytes big-endian. Every function checks its input (length
 * is the caller's job: the arrays are fixed size here) and answers one of the
 * CURVE_* codes; nothing is allocated and the stack use is fixed (under 2 KB,
 * 1.5 KB of it for the 16-point window table of P).
 *
 * Arithmetic: 8 x 32-bit limbs with 64-bit products (the ESP32-S3's Xtensa
 * has no 64x64 multiply, and no __int128 anywhere), every field element fully
 * reduced below p after each operation. Points are homogeneous projective
 * (X:Y:Z) with the complete addition and doubling formulas of Renes, Costello
 * and Batina (2016) for a = 0: one formula for every pair of points,
 * the point at infinity (0:1:0) included, so no case is chosen by a branch.
 */
#ifndef __HALO_SECP256K1_H__
#define __HALO_SECP256K1_H__

#include <stdint.h>

#define CURVE_OK 0
/** A scalar is zero or not below the group order n (or, for curveMultiplyAdd, not below n). */
#define CURVE_BAD_SCALAR 1
/** A point's prefix is not 02/03, its x is not below p, or x^3 + 7 has no square root. */
#define CURVE_BAD_POINT 2
/** The result is the point at infinity (curveMultiplyAdd only). */
#define CURVE_INFINITY 3

/**
 * out = k·G. k must be in [1, n). Constant time in k: a fixed 4-bit window, a
 * table lookup that reads all 16 entries, and complete formulas (no branch or
 * memory address depends on k's bits).
 */
int curveMultiplyBase(uint8_t out[33], const uint8_t k[32]);

/** out = k·P, P a compressed point. k must be in [1, n). Constant time in k, as curveMultiplyBase. */
int curveMultiply(uint8_t out[33], const uint8_t point[33], const uint8_t k[32]);

/**
 * out = a·G + b·P (verification's s·G - e·P, with b = n - e). a and b must be
 * in [0, n). Not constant time: both scalars are public in a verification.
 */
int curveMultiplyAdd(uint8_t out[33], const uint8_t a[32], const uint8_t point[33], const uint8_t b[32]);

#endif
