// The platform math library for tests: the one place test code calls libm.
//
// This header deliberately lives outside core/: it calls the platform math
// library, which nothing under core/ may do, tests included (the scan in
// core/tests/test_banlist.cpp covers every file there). Tests include it for
// expected values computed in floating point (namespace ref) and to compare
// lockstep::dmath against an independent reference (ref_sin, ref_cos, ...).
//
// ref::sin, ref::cos, ... are std::sin, std::cos, ... with the same overloads:
// a float argument calls the float function (sinf), a double argument the
// double one (sin), exactly as the std call they replace. Mixed or integer
// arguments are deliberately ambiguous (std would promote them to double):
// convert them to double at the call.
//
// dmath's references (ref_sin, ...): the platform libm in double precision,
// evaluated at the float argument converted exactly to double. glibc's double
// sin, cos, tan, atan, atan2, asin and acos are accurate to < 1 ulp of double,
// i.e. < 2^-29 ulp of float, so the float-ulp errors measured against them are
// exact to ~2e-9 ulp.
// (A long double reference would be no better for this purpose and would be
// slow on aarch64, where long double is a software quad type.)
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace lockstep::test_support {

namespace ref {

inline float sin(float x) { return std::sin(x); }
inline double sin(double x) { return std::sin(x); }
inline float cos(float x) { return std::cos(x); }
inline double cos(double x) { return std::cos(x); }
inline float tan(float x) { return std::tan(x); }
inline double tan(double x) { return std::tan(x); }
inline float asin(float x) { return std::asin(x); }
inline double asin(double x) { return std::asin(x); }
inline float acos(float x) { return std::acos(x); }
inline double acos(double x) { return std::acos(x); }
inline float atan(float x) { return std::atan(x); }
inline double atan(double x) { return std::atan(x); }
inline float atan2(float y, float x) { return std::atan2(y, x); }
inline double atan2(double y, double x) { return std::atan2(y, x); }
inline float exp(float x) { return std::exp(x); }
inline double exp(double x) { return std::exp(x); }
inline float hypot(float x, float y) { return std::hypot(x, y); }
inline double hypot(double x, double y) { return std::hypot(x, y); }
inline float sqrt(float x) { return std::sqrt(x); }
inline double sqrt(double x) { return std::sqrt(x); }

}  // namespace ref

// dmath's references: double precision at a float argument.

inline double ref_sin(float x) { return std::sin(static_cast<double>(x)); }
inline double ref_cos(float x) { return std::cos(static_cast<double>(x)); }
inline double ref_tan(float x) { return std::tan(static_cast<double>(x)); }
inline double ref_asin(float x) { return std::asin(static_cast<double>(x)); }
inline double ref_acos(float x) { return std::acos(static_cast<double>(x)); }
inline double ref_atan(float x) { return std::atan(static_cast<double>(x)); }
inline double ref_atan2(float y, float x) {
  return std::atan2(static_cast<double>(y), static_cast<double>(x));
}
inline double ref_sqrt(float x) { return std::sqrt(static_cast<double>(x)); }
// glibc's double exp is correctly rounded in practice (< 0.502 ulp of double).
inline double ref_exp(float x) { return std::exp(static_cast<double>(x)); }

/// Size of one float ulp at the magnitude of v (the spacing of floats in the
/// binade of v; 2^-149 in the subnormal range).
inline double float_ulp(double v) {
  const double a = std::fabs(v);
  if (a < 0x1p-126) {
    return 0x1p-149;
  }
  int ex = 0;
  (void)std::frexp(a, &ex);  // a = f * 2^ex, f in [0.5, 1)
  return std::ldexp(1.0, ex - 24);
}

/// |got - ref| in float ulps of ref. Both must be finite.
inline double ulp_error(float got, double ref) {
  return std::fabs(static_cast<double>(got) - ref) / float_ulp(ref);
}

/// The reference rounded to float (used to pin correctly rounded values).
inline float ref_round(double ref) { return static_cast<float>(ref); }

/// Deterministic 64-bit generator (splitmix64), no <random> involved.
struct SplitMix64 {
  std::uint64_t state;
  explicit SplitMix64(std::uint64_t seed) : state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint32_t next_u32() { return static_cast<std::uint32_t>(next() >> 32); }
  /// Uniform double in [0, 1) with 53 random bits.
  double next_unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }
};

inline std::uint32_t float_bits(float x) { return std::bit_cast<std::uint32_t>(x); }
inline float float_from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }

/// Next float toward +infinity / -infinity (finite, non-NaN inputs).
inline float next_up(float x) {
  if (x == 0.0f) {
    return float_from_bits(1u);
  }
  const std::uint32_t b = float_bits(x);
  return float_from_bits((b >> 31) != 0u ? b - 1u : b + 1u);
}
inline float next_down(float x) { return -next_up(-x); }

}  // namespace lockstep::test_support
