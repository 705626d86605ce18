// Build with -ffp-contract=off: an FMA contraction changes the rounding of a*b+c, so x86-64 and aarch64 builds would disagree.
//
// lockstep::dmath implementation. Method (details and error tables in
// docs/numerics.md, "Deterministic math"):
//   * the float argument is widened to double (exact), all work is done in
//     double with fixed coefficients and a fixed evaluation order, and the
//     result is rounded to float exactly once at the end;
//   * sin/cos/tan: |x| < 2^24 uses a three-part Cody-Waite reduction by pi/2
//     whose first two products are exact; |x| >= 2^24 uses a Payne-Hanek
//     reduction in 64-bit integer arithmetic with a 128-bit window of 2/pi,
//     so the reduction is accurate for every finite float;
//   * atan/atan2/asin/acos share one double kernel: atan(t), 0 <= t <= 1, is
//     computed as atan(j/16) + atan(u), u = (t - j/16) / (1 + t*j/16), |u| <= 1/32.
// Only + - * /, the correctly rounded square root, integer operations and bit
// casts are used.
#include "lockstep/core/dmath.h"

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>  // only for the IEEE correctly rounded square root
#include <cstdint>

#if defined(__FAST_MATH__)
#error "dmath.cpp must not be compiled with -ffast-math: it relies on IEEE semantics"
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
#error "dmath.cpp must not be compiled with -ffinite-math-only"
#endif
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "dmath.cpp needs FLT_EVAL_METHOD == 0 (SSE2 on x86, not x87)"
#endif

#if defined(__clang__)
// Belt and braces: clang honours the standard pragma; GCC needs the flag.
#pragma STDC FP_CONTRACT OFF
#endif

namespace lockstep::dmath {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u32 kAbsMask = 0x7fffffffu;
constexpr u32 kInfBits = 0x7f800000u;
constexpr u32 kCanonicalNaNBits = 0x7fc00000u;

// |x| thresholds as float bit patterns.
constexpr u32 kTinyBits = 0x39800000u;       // 2^-12
constexpr u32 kPiOver4Bits = 0x3f490fdbu;    // nearest float to pi/4 (just above pi/4)
constexpr u32 kCodyWaiteMaxBits = 0x4b800000u;  // 2^24

// atan2 special results (nearest floats).
constexpr float kQuarterPiF = 0x1.921fb6p-1f;     // 0x3F490FDB
constexpr float kThreeQuarterPiF = 0x1.2d97c8p+1f;  // 0x4016CBE4

// Double constants (nearest doubles, generated with 600-bit mpmath).
constexpr double kPiD = 0x1.921fb54442d18p+1;
constexpr double kHalfPiD = 0x1.921fb54442d18p+0;
constexpr double kInvHalfPiD = 0x1.45f306dc9c883p-1;  // 2/pi
constexpr double kRoundMagic = 0x1.8p52;              // 1.5 * 2^52

// pi/2 = kPio2A + kPio2B + kPio2C + O(2^-112). A and B have 29 significant
// bits, so k * A and k * B are exact for every |k| < 2^24.
constexpr double kPio2A = 0x1.921fb54000000p+0;
constexpr double kPio2B = 0x1.10b4611000000p-30;
constexpr double kPio2C = 0x1.4c4c6628b80dcp-59;

// Bits of 2/pi: bit 0 (the most significant bit of word 0) is the integer
// bit (0), bit i is the coefficient of 2^-i. 256 bits, enough for a 128-bit
// window starting at any bit needed by a finite float (start <= 103).
constexpr u32 kTwoOverPiBits[8] = {0x517CC1B7u, 0x27220A94u, 0xFE13ABE8u, 0xFA9A6EE0u,
                                   0x6DB14ACCu, 0x9E21C820u, 0xFF28B1D5u, 0xEF5DE2B0u};

// sin(r) = r + r^3 * P(r^2): Taylor coefficients (-1)^k / (2k+1)!, k = 1..7,
// rounded to double. Truncation error < 2^-54 relative for |r| <= pi/4.
constexpr double kS1 = -0x1.5555555555555p-3;
constexpr double kS2 = 0x1.1111111111111p-7;
constexpr double kS3 = -0x1.a01a01a01a01ap-13;
constexpr double kS4 = 0x1.71de3a556c734p-19;
constexpr double kS5 = -0x1.ae64567f544e4p-26;
constexpr double kS6 = 0x1.6124613a86d09p-33;
constexpr double kS7 = -0x1.ae7f3e733b81fp-41;

// cos(r) = 1 + r^2 * Q(r^2): Taylor coefficients (-1)^k / (2k)!, k = 1..7.
// Truncation error < 2^-50 for |r| <= pi/4.
constexpr double kC1 = -0x1.0000000000000p-1;
constexpr double kC2 = 0x1.5555555555555p-5;
constexpr double kC3 = -0x1.6c16c16c16c17p-10;
constexpr double kC4 = 0x1.a01a01a01a01ap-16;
constexpr double kC5 = -0x1.27e4fb7789f5cp-22;
constexpr double kC6 = 0x1.1eed8eff8d898p-29;
constexpr double kC7 = -0x1.93974a8c07c9dp-37;

// atan(u) = u + u^3 * R(u^2): Taylor coefficients (-1)^k / (2k+1), k = 1..4.
// Truncation error < 2^-53 relative for |u| <= 1/32.
constexpr double kA1 = -0x1.5555555555555p-2;
constexpr double kA2 = 0x1.999999999999ap-3;
constexpr double kA3 = -0x1.2492492492492p-3;
constexpr double kA4 = 0x1.c71c71c71c71cp-4;

// atan2_fast's octant kernel: atan(t) = t + t*z*P(z), z = t^2, |t| <= 0.41422. P's
// coefficients are a near-minimax (Chebyshev) fit of (atan(t)/t - 1)/z on [0, 0.41422^2]
// (mpmath chebyfit at 300 bits, degree 6, rounded to nearest doubles; docs/numerics.md).
constexpr double kB0 = -0x1.5555555502143p-2;
constexpr double kB1 = 0x1.9999982584f2cp-3;
constexpr double kB2 = -0x1.2491c086412a0p-3;
constexpr double kB3 = 0x1.c6f68625dbd4fp-4;
constexpr double kB4 = -0x1.71d3b3bbacacep-4;
constexpr double kB5 = 0x1.24430309bae00p-4;
constexpr double kB6 = -0x1.4b3753086f75cp-5;
constexpr double kTanPi8D = 0x1.a827999fcef32p-2;   // tan(pi/8) = sqrt(2) - 1, nearest double
constexpr double kTan3Pi8D = 0x1.3504f333f9de6p+1;  // tan(3pi/8) = sqrt(2) + 1, nearest double
constexpr double kQuarterPiD = 0x1.921fb54442d18p-1;

// atan(j/16), j = 0..16, nearest doubles.
constexpr double kAtanTable[17] = {
    0.0,
    0x1.ff55bb72cfdeap-5,
    0x1.fd5ba9aac2f6ep-4,
    0x1.7b97b4bce5b02p-3,
    0x1.f5b75f92c80ddp-3,
    0x1.362773707ebccp-2,
    0x1.6f61941e4def1p-2,
    0x1.a64eec3cc23fdp-2,
    0x1.dac670561bb4fp-2,
    0x1.0657e94db30d0p-1,
    0x1.1e00babdefeb4p-1,
    0x1.345f01cce37bbp-1,
    0x1.4978fa3269ee1p-1,
    0x1.5d58987169b18p-1,
    0x1.700a7c5784634p-1,
    0x1.819d0b7158a4dp-1,
    0x1.921fb54442d18p-1,
};

inline u32 bits_of(float x) { return std::bit_cast<u32>(x); }
inline float canonical_nan() { return std::bit_cast<float>(kCanonicalNaNBits); }
inline bool sign_of(float x) { return (bits_of(x) >> 31) != 0u; }

// 2^k for -1022 <= k <= 1023, exact.
inline double pow2(int k) {
  return std::bit_cast<double>(static_cast<u64>(1023 + k) << 52);
}

inline double sin_kernel(double r) {
  const double z = r * r;
  const double p = kS1 + z * (kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * (kS6 + z * kS7)))));
  return r + (r * z) * p;
}

inline double cos_kernel(double r) {
  const double z = r * r;
  const double q = kC1 + z * (kC2 + z * (kC3 + z * (kC4 + z * (kC5 + z * (kC6 + z * kC7)))));
  return 1.0 + z * q;
}

// x = q * pi/2 + r (mod 2*pi), |r| <= ~pi/4. Only quadrant q mod 4 matters.
struct Reduced {
  double r;
  u32 q;
};

// Payne-Hanek reduction of |x| = m * 2^e with e >= 1 (|x| >= 2^24), in
// integer arithmetic. Returns the reduction of |x| (caller applies the sign).
Reduced reduce_large(u32 ix) {
  const int e = static_cast<int>(ix >> 23) - 150;  // |x| = m * 2^e, 1 <= e <= 104
  const u64 m = static_cast<u64>((ix & 0x7fffffu) | 0x800000u);
  // Bits of 2/pi with index < e - 1 contribute multiples of 4 to |x| * 2/pi
  // and are dropped. Take the 128-bit window of bits [e-1, e+127).
  const int start = e - 1;
  const int w = start >> 5;
  const int sh = start & 31;
  const u64 w0 = (static_cast<u64>(kTwoOverPiBits[w]) << 32) | kTwoOverPiBits[w + 1];
  const u64 w1 = (static_cast<u64>(kTwoOverPiBits[w + 2]) << 32) | kTwoOverPiBits[w + 3];
  const u64 w2 = static_cast<u64>(kTwoOverPiBits[w + 4]) << 32;
  const u64 win_hi = (w0 << sh) | ((w1 >> 1) >> (63 - sh));
  const u64 win_lo = (w1 << sh) | ((w2 >> 1) >> (63 - sh));
  // y = m * window mod 2^128 = (|x| * 2/pi mod 4) * 2^126: 2 integer bits,
  // 126 fraction bits. The neglected tail of 2/pi is below 2^-100.
  const u64 p0 = m * (win_lo & 0xffffffffu);
  const u64 p1 = m * (win_lo >> 32) + (p0 >> 32);
  const u64 y_lo = (p1 << 32) | (p0 & 0xffffffffu);
  const u64 y_hi = m * win_hi + (p1 >> 32);  // wraps mod 2^64 by design

  u32 q = static_cast<u32>(y_hi >> 62);
  u64 f_hi = y_hi & 0x3fffffffffffffffu;  // fraction * 2^126, high part
  u64 f_lo = y_lo;
  bool negative = false;
  if ((f_hi >> 61) != 0u) {  // fraction >= 1/2: round the quadrant up
    q = (q + 1u) & 3u;
    negative = true;
    const u64 borrow = (f_lo != 0u) ? 1u : 0u;
    f_lo = 0u - f_lo;
    f_hi = (0u - f_hi - borrow) & 0x3fffffffffffffffu;  // 2^126 - fraction
  }
  // Fraction magnitude F * 2^-126 (F < 2^126) to double: take the top 63
  // significant bits (rounded once by the int64 -> double conversion).
  double mag;
  if (f_hi != 0u) {
    const int lz = std::countl_zero(f_hi);  // >= 2
    const u64 top = (f_hi << (lz - 1)) | (f_lo >> (65 - lz));
    mag = static_cast<double>(static_cast<std::int64_t>(top)) * pow2(-61 - lz);
  } else if (f_lo != 0u) {
    // Fraction < 2^-62: does not happen for binary32 inputs (the closest
    // float to a multiple of pi/2 is much farther away); kept for safety.
    const int lz = std::countl_zero(f_lo);
    const u64 top = (f_lo << lz) >> 1;
    mag = static_cast<double>(static_cast<std::int64_t>(top)) * pow2(-125 - lz);
  } else {
    mag = 0.0;
  }
  const double r = mag * kHalfPiD;
  return Reduced{negative ? -r : r, q};
}

// Precondition: x finite, |x| >= ~pi/4.
Reduced reduce(float x, u32 ix) {
  if (ix < kCodyWaiteMaxBits) {
    const double xd = static_cast<double>(x);
    // k = nearest integer to x * 2/pi (|k| < 2^24), by the 1.5*2^52 trick.
    const double k = (xd * kInvHalfPiD + kRoundMagic) - kRoundMagic;
    // x - k*A is exact (k*A exact, Sterbenz), k*B is exact.
    const double r = ((xd - k * kPio2A) - k * kPio2B) - k * kPio2C;
    const auto ki = static_cast<std::int32_t>(k);
    return Reduced{r, static_cast<u32>(ki) & 3u};
  }
  Reduced red = reduce_large(ix);
  if (sign_of(x)) {
    red.r = -red.r;
    red.q = (4u - red.q) & 3u;
  }
  return red;
}

// atan(t) for 0 <= t <= 1 (t may carry a double rounding error).
double atan_unit(double t) {
  const int j = static_cast<int>(t * 16.0 + 0.5);  // 0..16
  const double c = static_cast<double>(j) * 0.0625;
  const double u = (t - c) / (1.0 + t * c);  // |u| <= 1/32; t - c is exact
  const double z = u * u;
  const double p = kA1 + z * (kA2 + z * (kA3 + z * kA4));
  return kAtanTable[j] + (u + (u * z) * p);
}

// atan2 for ay >= 0, ax >= 0, both finite, not both zero. Result in [0, pi/2].
double atan2_first_quadrant(double ay, double ax) {
  if (ay <= ax) {
    return atan_unit(ay / ax);
  }
  return kHalfPiD - atan_unit(ax / ay);
}

}  // namespace

float sin(float x) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix >= kInfBits) {
    return canonical_nan();
  }
  if (ix < kTinyBits) {
    return x;  // |x| < 2^-12: sin(x) rounds to x (keeps the sign of zero)
  }
  if (ix < kPiOver4Bits) {
    return static_cast<float>(sin_kernel(static_cast<double>(x)));
  }
  const Reduced red = reduce(x, ix);
  double v = (red.q & 1u) != 0u ? cos_kernel(red.r) : sin_kernel(red.r);
  if ((red.q & 2u) != 0u) {
    v = -v;
  }
  return static_cast<float>(v);
}

float cos(float x) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix >= kInfBits) {
    return canonical_nan();
  }
  if (ix < kTinyBits) {
    return 1.0f;  // |x| < 2^-12: cos(x) rounds to 1
  }
  if (ix < kPiOver4Bits) {
    return static_cast<float>(cos_kernel(static_cast<double>(x)));
  }
  const Reduced red = reduce(x, ix);
  double v = (red.q & 1u) != 0u ? sin_kernel(red.r) : cos_kernel(red.r);
  if (((red.q + 1u) & 2u) != 0u) {  // q = 1, 2: negative
    v = -v;
  }
  return static_cast<float>(v);
}

void sincos(float x, float* s, float* c) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix >= kInfBits) {
    *s = canonical_nan();
    *c = canonical_nan();
    return;
  }
  if (ix < kTinyBits) {
    *s = x;
    *c = 1.0f;
    return;
  }
  if (ix < kPiOver4Bits) {
    const double xd = static_cast<double>(x);
    *s = static_cast<float>(sin_kernel(xd));
    *c = static_cast<float>(cos_kernel(xd));
    return;
  }
  const Reduced red = reduce(x, ix);
  const double sk = sin_kernel(red.r);
  const double ck = cos_kernel(red.r);
  double sv = (red.q & 1u) != 0u ? ck : sk;
  double cv = (red.q & 1u) != 0u ? sk : ck;
  if ((red.q & 2u) != 0u) {
    sv = -sv;
  }
  if (((red.q + 1u) & 2u) != 0u) {
    cv = -cv;
  }
  *s = static_cast<float>(sv);
  *c = static_cast<float>(cv);
}

float tan(float x) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix >= kInfBits) {
    return canonical_nan();
  }
  if (ix < kTinyBits) {
    return x;  // |x| < 2^-12: tan(x) rounds to x
  }
  if (ix < kPiOver4Bits) {
    const double xd = static_cast<double>(x);
    return static_cast<float>(sin_kernel(xd) / cos_kernel(xd));
  }
  const Reduced red = reduce(x, ix);
  const double sk = sin_kernel(red.r);
  const double ck = cos_kernel(red.r);
  // tan(r + q*pi/2) = tan(r) for even q, -1/tan(r) for odd q.
  const double v = (red.q & 1u) != 0u ? -(ck / sk) : sk / ck;
  return static_cast<float>(v);
}

float atan(float x) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix > kInfBits) {
    return canonical_nan();
  }
  if (ix < kTinyBits) {
    return x;  // |x| < 2^-12: atan(x) rounds to x
  }
  const double ax = static_cast<double>(std::bit_cast<float>(ix));
  // 1/inf = 0 gives atan(+-inf) = +-pi/2.
  const double a = ax <= 1.0 ? atan_unit(ax) : kHalfPiD - atan_unit(1.0 / ax);
  return static_cast<float>(sign_of(x) ? -a : a);
}

float atan2(float y, float x) {
  const u32 iy = bits_of(y) & kAbsMask;
  const u32 ix = bits_of(x) & kAbsMask;
  if (iy > kInfBits || ix > kInfBits) {
    return canonical_nan();
  }
  const bool y_neg = sign_of(y);
  const bool x_neg = sign_of(x);
  if (iy == 0u) {  // y = +-0
    if (x_neg) {   // x = -0, x < 0, x = -inf
      return y_neg ? -kPi : kPi;
    }
    return y;  // x = +0, x > 0, x = +inf: +-0
  }
  if (ix == 0u) {  // x = +-0, y != 0
    return y_neg ? -kHalfPi : kHalfPi;
  }
  if (iy == kInfBits) {
    if (ix == kInfBits) {
      const float v = x_neg ? kThreeQuarterPiF : kQuarterPiF;
      return y_neg ? -v : v;
    }
    return y_neg ? -kHalfPi : kHalfPi;
  }
  if (ix == kInfBits) {  // finite y != 0
    if (x_neg) {
      return y_neg ? -kPi : kPi;
    }
    return y_neg ? -0.0f : 0.0f;
  }
  const double ay = static_cast<double>(std::bit_cast<float>(iy));
  const double ax = static_cast<double>(std::bit_cast<float>(ix));
  double a = atan2_first_quadrant(ay, ax);
  if (x_neg) {
    a = kPiD - a;
  }
  return static_cast<float>(y_neg ? -a : a);
}

namespace {

// atan(t) for |t| <= 0.41422 (just above tan(pi/8)): t + t*z*P(z), z = t^2, P of degree 6
// (a near-minimax fit on [0, 0.41422^2]), evaluated in a fixed Estrin order. Relative error
// < 2^-38 (fit 2^-38.3, evaluation a few double ulps).
double atan_octant(double t) {
  const double z = t * t;
  const double z2 = z * z;
  const double z4 = z2 * z2;
  const double p = ((kB0 + z * kB1) + z2 * (kB2 + z * kB3)) + z4 * ((kB4 + z * kB5) + z2 * kB6);
  return t + (t * z) * p;
}

}  // namespace

float atan2_fast(float y, float x) {
  const u32 iy = bits_of(y) & kAbsMask;
  const u32 ix = bits_of(x) & kAbsMask;
  if (iy - 1u >= kInfBits - 1u || ix - 1u >= kInfBits - 1u) {
    return atan2(y, x);  // a zero, an infinity or a NaN: atan2's table (C99 Annex F)
  }
  const double ay = static_cast<double>(std::bit_cast<float>(iy));
  const double ax = static_cast<double>(std::bit_cast<float>(ix));
  // The octant of the first quadrant, and one division (the products only choose the octant:
  // their rounding moves |t| at most an ulp past tan(pi/8), inside atan_octant's range).
  double num = ay;  // ay/ax <= tan(pi/8): atan(ay/ax)
  double den = ax;
  double base = 0.0;
  if (ay > ax * kTanPi8D) {
    if (ay > ax * kTan3Pi8D) {  // pi/2 - atan(ax/ay)
      num = -ax;
      den = ay;
      base = kHalfPiD;
    } else {  // pi/4 + atan((ay - ax)/(ay + ax)); the ratio is within [0.41, 2.42], so the
              // difference and the sum of the two floats are exact in double
      num = ay - ax;
      den = ay + ax;
      base = kQuarterPiD;
    }
  }
  double a = base + atan_octant(num / den);
  if (sign_of(x)) {
    a = kPiD - a;
  }
  return static_cast<float>(sign_of(y) ? -a : a);
}

float asin(float x) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix > 0x3f800000u) {  // |x| > 1, +-inf, NaN
    return canonical_nan();
  }
  if (ix < kTinyBits) {
    return x;  // |x| < 2^-12: asin(x) rounds to x
  }
  const double ax = static_cast<double>(std::bit_cast<float>(ix));
  // sqrt(1 - x^2) with (1 - x) and (1 + x) exact for |x| >= 2^-29.
  const double s = std::sqrt((1.0 - ax) * (1.0 + ax));
  const double a = atan2_first_quadrant(ax, s);
  return static_cast<float>(sign_of(x) ? -a : a);
}

float acos(float x) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix > 0x3f800000u) {  // |x| > 1, +-inf, NaN
    return canonical_nan();
  }
  const double ax = static_cast<double>(std::bit_cast<float>(ix));
  const double s = std::sqrt((1.0 - ax) * (1.0 + ax));
  const double a = atan2_first_quadrant(s, ax);  // acos(|x|), in [0, pi/2]
  return static_cast<float>(sign_of(x) ? kPiD - a : a);
}

// exp: ln 2 = kLn2Hi + kLn2Lo; kLn2Hi has 32 significant bits, so k * kLn2Hi is
// exact for |k| < 2^20 (here |k| <= 151).
constexpr double kLn2Hi = 0x1.62e42fefp-1;
constexpr double kLn2Lo = 0x1.473de6af278edp-34;  // ln 2 - kLn2Hi, nearest double
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
// Guards only: between them the double result is finite and normal, and its one
// rounding to float gives inf above ln(FLT_MAX) and the subnormals/zero below.
constexpr float kExpOverflow = 89.0f;
constexpr float kExpUnderflow = -104.0f;

namespace {

// sum r^n / n!, n = 0..13, Horner from the top; the coefficients 1/n! are the
// nearest doubles (1/2, 1/6, ... exact where a power of two).
constexpr double exp_series(double r) {
  double p = 0x1.6124613a86d09p-33;
  const double c[] = {0x1.1eed8eff8d898p-29, 0x1.ae64567f544e4p-26, 0x1.27e4fb7789f5cp-22, 0x1.71de3a556c734p-19,
                      0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-13, 0x1.6c16c16c16c17p-10, 0x1.1111111111111p-7,
                      0x1.5555555555555p-5,  0x1.5555555555555p-3,  0x1.0p-1,              1.0,
                      1.0};
  for (const double ci : c) p = ci + r * p;
  return p;
}

// e^r by its Taylor series in double after x = k ln 2 + r, for x within the
// guards below. Its double result is within a few units in the last place (of
// a double) of e^x; rounded once to float it is exp's value.
float exp_taylor(float x) {
  const double xd = static_cast<double>(x);
  // k = round(x / ln 2), by the 1.5 * 2^52 trick (round to nearest even).
  const double kd = (xd * kInvLn2 + kRoundMagic) - kRoundMagic;
  const int k = static_cast<int>(kd);
  const double r = (xd - kd * kLn2Hi) - kd * kLn2Lo;
  const double p = exp_series(r);
  // k in [-151, 128]: 2^k is a normal double and the product is exact.
  return static_cast<float>(p * pow2(k));
}

// The fast path: x = (256 m + j) ln 2 / 256 + r, |r| <= ln 2 / 512, and
// e^x = 2^m * 2^(j/256) * e^r with a table of 2^(j/256) and e^r to degree 4
// (its truncation r^5/120 < 4e-17). Its double result and the reference's are
// both within a few double ulps of e^x, so they round to the same float except
// when e^x lies that near a rounding boundary of float (halfway between two
// floats): there the fast path hands over to the reference (kExpNearHalf, 2^10
// double ulps, far wider than both errors; about one input in 250,000). exp's
// values are therefore the reference's, bit for bit, on every input; the table
// only needs to be accurate, not correctly rounded. It is computed by the
// compiler from the same Taylor series (of half the argument, squared), in
// IEEE double.
constexpr int kExpTableBits = 8;
constexpr int kExpTableSize = 1 << kExpTableBits;
constexpr double kLn2Over256Hi = 0x1.62e42fefp-9;            // 32 significant bits: k * it is exact for |k| < 2^21
constexpr double kLn2Over256Lo = 0x1.473de6af278edp-42;      // ln 2 / 256 - kLn2Over256Hi
constexpr double k256InvLn2 = 0x1.71547652b82fep+8;          // 256 / ln 2
constexpr std::uint64_t kExpNearHalf = 1u << 10;            // double ulps around a float's halfway point

constexpr std::array<double, kExpTableSize> make_exp_table() {
  std::array<double, kExpTableSize> t{};
  for (int j = 0; j < kExpTableSize; ++j) {
    // e^(j ln 2 / 256) as the square of e^(j ln 2 / 512): the series' argument stays under ln 2 / 2.
    const double h = 0.5 * (static_cast<double>(j) * kLn2Over256Hi + static_cast<double>(j) * kLn2Over256Lo);
    const double e = exp_series(h);
    t[static_cast<std::size_t>(j)] = e * e;
  }
  return t;
}
constexpr std::array<double, kExpTableSize> kExpTable = make_exp_table();

}  // namespace

float exp_reference(float x) {
  const u32 ix = bits_of(x) & kAbsMask;
  if (ix > kInfBits) {
    return canonical_nan();
  }
  if (x > kExpOverflow) {
    return std::bit_cast<float>(kInfBits);
  }
  if (x < kExpUnderflow) {
    return 0.0f;
  }
  return exp_taylor(x);
}

float exp(float x) {
  // NaN, the overflow and underflow, subnormal results (x < -87.33) and those near FLT_MAX: the reference.
  if (!(x > -87.0f && x < 88.0f)) {
    return exp_reference(x);
  }
  const double xd = static_cast<double>(x);
  const double kd = (xd * k256InvLn2 + kRoundMagic) - kRoundMagic;  // |k| <= 32,500
  const int k = static_cast<int>(kd);
  const double r = (xd - kd * kLn2Over256Hi) - kd * kLn2Over256Lo;
  const double p = 1.0 + r * (1.0 + r * (0x1.0p-1 + r * (0x1.5555555555555p-3 + r * 0x1.5555555555555p-5)));
  const double d = kExpTable[static_cast<std::size_t>(k & (kExpTableSize - 1))] * p * pow2(k >> kExpTableBits);
  // The 29 bits of d's mantissa below float's 23 decide its rounding; near their halfway point, the reference.
  const std::uint64_t low = std::bit_cast<std::uint64_t>(d) & ((std::uint64_t{1} << 29) - 1);
  const std::uint64_t half = std::uint64_t{1} << 28;
  if ((low > half ? low - half : half - low) <= kExpNearHalf) {
    return exp_taylor(x);
  }
  return static_cast<float>(d);
}

float sqrt(float x) {
  if (!(x >= 0.0f)) {  // NaN or x < 0 (but -0 >= 0 holds: sqrt(-0) = -0)
    return canonical_nan();
  }
  return std::sqrt(x);
}

}  // namespace lockstep::dmath
