// lockstep::dmath — deterministic float transcendental functions.
//
// Every function here returns the same bits on every supported platform
// (gcc and clang, -O0 and -O2, x86-64 SSE2 and aarch64). They use only IEEE
// basic operations (+ - * /, square root), integer arithmetic and bit casts;
// no platform math library transcendental is called, so results do not depend
// on the libm that happens to be installed. See docs/numerics.md, section
// "Deterministic math", for the method and the measured error tables.
//
// Requirements on the build and the floating-point environment:
//   * compiled with -ffp-contract=off and without -ffast-math (dmath.cpp
//     refuses to compile under fast-math);
//   * FLT_EVAL_METHOD == 0 (SSE2 on x86-64, always on aarch64);
//   * the default FP environment at run time: round-to-nearest-even, no
//     flush-to-zero / denormals-are-zero modes.
//
// Errors are stated in units in the last place (ulp) of the float result,
// measured against a double-precision reference (docs/numerics.md); "0.5 ulp"
// means 0.5 to within 1e-12, i.e. the result is the reference rounded to
// float. Measured bounds come from an exhaustive run over every float input
// for the one-argument functions and from 10^9 pseudo-random pairs for atan2;
// core/tests/test_dmath.cpp re-checks the documented bound (0.501 ulp) on
// >= 1,000,000 inputs per function on every test run.
//
// Special values: every NaN input yields the canonical quiet NaN, bit pattern
// 0x7fc00000 (positive sign, no payload), and so does every out-of-domain
// input; the sign/payload of an input NaN is never propagated, because those
// differ between x86-64 and aarch64.
#pragma once

namespace lockstep::dmath {

/// Nearest float to pi (0x40490FDB = 3.14159274...; slightly above pi).
inline constexpr float kPi = 0x1.921fb6p+1f;
/// Nearest float to 2*pi (0x40C90FDB); exactly 2 * kPi.
inline constexpr float kTwoPi = 0x1.921fb6p+2f;
/// Nearest float to pi/2 (0x3FC90FDB); exactly kPi / 2.
inline constexpr float kHalfPi = 0x1.921fb6p+0f;

/// Sine. Domain: all finite floats (|x| up to FLT_MAX, exact argument
/// reduction: see docs). sin(+-0) = +-0 (sign kept); |x| < 2^-12 returns x.
/// +-inf and NaN -> canonical NaN. Measured max error over every finite float:
/// 0.500000009 ulp (2 of 4.28e9 results not correctly rounded).
/// Documented bound: 0.501 ulp.
float sin(float x);

/// Cosine. Domain: all finite floats. cos(+-0) = 1; |x| < 2^-12 returns 1.
/// +-inf and NaN -> canonical NaN. Measured max error over every finite float:
/// 0.5 ulp (all results correctly rounded). Documented bound: 0.501 ulp.
float cos(float x);

/// Sine and cosine of the same argument, sharing one argument reduction.
/// *s and *c are bit-identical to sin(x) and cos(x). Both pointers must be
/// valid and distinct.
void sincos(float x, float* s, float* c);

/// Tangent. Domain: all finite floats (no float is close enough to an odd
/// multiple of pi/2 to overflow; |tan| <= 2.3e7). tan(+-0) = +-0; |x| < 2^-12
/// returns x. +-inf and NaN -> canonical NaN. Measured max error over every
/// finite float: 0.5 ulp (all correctly rounded). Documented bound: 0.501 ulp.
float tan(float x);

/// Arcsine, result in [-kHalfPi, kHalfPi]. Domain [-1, 1]; |x| > 1 and NaN
/// -> canonical NaN. asin(+-0) = +-0, asin(+-1) = +-kHalfPi exactly; |x| < 2^-12
/// returns x. Measured max error over every float in [-1, 1]: 0.5 ulp (all
/// correctly rounded). Documented bound: 0.501 ulp.
float asin(float x);

/// Arccosine, result in [0, kPi]. Domain [-1, 1]; |x| > 1 and NaN -> canonical
/// NaN. acos(1) = +0, acos(0) = kHalfPi, acos(-1) = kPi exactly.
/// Measured max error over every float in [-1, 1]: 0.5 ulp (all correctly
/// rounded). Documented bound: 0.501 ulp.
float acos(float x);

/// Arctangent, result in [-kHalfPi, kHalfPi]. Domain: all floats;
/// atan(+-inf) = +-kHalfPi, atan(+-0) = +-0, |x| < 2^-12 returns x; NaN ->
/// canonical NaN. Measured max error over every float: 0.5 ulp (all correctly
/// rounded). Documented bound: 0.501 ulp.
float atan(float x);

/// Angle of the point (x, y) from the +x axis, result in [-kPi, kPi].
/// Zeros and infinities follow the C99 Annex F table (F.9.1.4):
///   atan2(+-0, -0) = +-kPi,   atan2(+-0, +0) = +-0,
///   atan2(+-0, x<0) = +-kPi,  atan2(+-0, x>0) = +-0,
///   atan2(y<0, +-0) = -kHalfPi, atan2(y>0, +-0) = kHalfPi,
///   atan2(+-y, -inf) = +-kPi, atan2(+-y, +inf) = +-0 (finite y > 0),
///   atan2(+-inf, x) = +-kHalfPi (finite x),
///   atan2(+-inf, -inf) = +-3pi/4 (0x4016CBE4), atan2(+-inf, +inf) = +-pi/4
///   (0x3F490FDB); any NaN -> canonical NaN.
/// Measured max error: 0.5 ulp on ~10^9 pseudo-random finite pairs (all
/// correctly rounded). Documented bound: 0.501 ulp.
float atan2(float y, float x);

/// atan2 with one division and no table: the same special values as atan2 and
/// the same documented bound (0.501 ulp), but not always the same bits (the two
/// differ by one ulp where the exact value lies within about 2^-38 of a
/// rounding boundary; docs/numerics.md). Method: the octant of the first
/// quadrant (ay/ax against tan(pi/8) and tan(3pi/8)), one division giving
/// |t| <= tan(pi/8), atan(t) by a degree-13 odd polynomial (relative error
/// < 2^-38), plus pi/4 or pi/2. Measured max error: 0.5 ulp to within 10^-4
/// on >= 1,000,000 pairs (test_dmath.cpp). Documented bound: 0.501 ulp.
float atan2_fast(float y, float x);

/// Exponential e^x. Domain: all floats. exp(+-0) = 1; results beyond FLT_MAX
/// are +inf (every x >= 88.7228394), results below half the least subnormal
/// are +0 (x <= -103.972); subnormal results are rounded once, from double.
/// exp(-inf) = +0, exp(+inf) = +inf; NaN -> canonical NaN.
/// Its values are exp_reference's, bit for bit, on every input: for
/// -87 < x < 88 it takes x = (256 m + j) ln 2 / 256 + r, |r| <= ln 2 / 512,
/// and 2^m * 2^(j/256) * e^r in double (a table of 256 entries, e^r to degree
/// 4), whose double result and the reference's are both within a few double
/// ulps of e^x; where that result lies within 2^10 double ulps of a halfway
/// point between two floats (about one input in 250,000), and outside that
/// range, it returns exp_reference(x). Checked on every float from -104.5 to
/// 89.5 (docs/numerics.md). Only + - * / and bit casts.
/// Documented bound: 0.501 ulp (test_dmath.cpp re-checks it on >= 1,000,000
/// inputs against the platform's double exp).
float exp(float x);

/// The reference exponential, the definition of exp's values (slower: about
/// 2.3 times exp's cost). k = nearest integer to x / ln 2, r = x - k ln 2
/// (two-part Cody-Waite, exact first product), e^r by a degree-13 Taylor
/// polynomial in double (|r| <= 0.347, truncation < 2^-57 relative), scaled
/// by 2^k exactly, rounded to float once. The same special values as exp.
float exp_reference(float x);

/// Square root, correctly rounded (IEEE). sqrt(-0) = -0, sqrt(+inf) = +inf;
/// x < 0 and NaN -> canonical NaN (the hardware default NaN differs between
/// x86-64 and aarch64, so it is replaced). Error: <= 0.5 ulp.
float sqrt(float x);

}  // namespace lockstep::dmath
