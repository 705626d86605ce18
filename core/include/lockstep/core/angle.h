// lockstep::angle — deterministic heading conventions (header-only).
//
// Convention used by the game specs (z up, plan = (x, y)):
//   * a *heading* h is measured from +y ("north") toward +x ("east"), i.e.
//     clockwise seen from above; positive turns are to the right;
//   * the unit direction of heading h is (dx, dy) = (sin h, cos h);
//   * the heading of a plan vector (dx, dy) is atan2(dx, dy) (note the
//     argument order: x first);
//   * so heading 0 = +y, kHalfPi = +x, kPi = -y, -kHalfPi = -x.
// Unity-style worlds (y up, plan = (x, z), yaw measured from +z toward +x):
// the same functions apply unchanged with (dx, dy) := (dx, dz), i.e.
// heading_of(dx, dz) is the yaw and dir_of(yaw, &dx, &dz) its direction.
//
// Wrapping. Angles are reduced modulo kTwoPi, the float nearest 2*pi
// (0x40C90FDB = 2 * kPi exactly), NOT modulo the real number 2*pi:
//   wrap_pi(a)  = a - k * kTwoPi, k the integer putting it in (-kPi, kPi];
//   wrap_2pi(a) = a - k * kTwoPi, k the integer putting it in [0, kTwoPi).
// The residue is computed exactly (integer arithmetic for |a| > 9), so
// wrap_pi never rounds: its result is exactly a - k*kTwoPi, it is the identity
// on (-kPi, kPi], maps -kPi to kPi, and works for every finite float
// without loops. wrap_2pi rounds once (a negative residue plus kTwoPi), and a
// result that rounds up to kTwoPi is returned as +0. This choice makes the
// angle set closed under the constants that atan2 returns (+-kPi,
// +-kHalfPi); the price is that kTwoPi exceeds 2*pi by 1.75e-7, so for
// |a| > kPi the result differs from the true residue modulo 2*pi by
// |k| * 1.75e-7, which is always less than half an ulp of the input a itself
// (the input's own rounding uncertainty is larger).
// NaN and +-inf give the canonical NaN (0x7fc00000).
//
// Everything is built from lockstep::dmath, exact float operations, integer
// arithmetic and single roundings; no expression here has the a*b+c shape
// whose result an FMA contraction could change.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "lockstep/core/dmath.h"

namespace lockstep::angle {

namespace detail {

inline constexpr std::uint32_t kAbsMask = 0x7fffffffu;
inline constexpr std::uint32_t kInfBits = 0x7f800000u;
inline constexpr std::uint32_t kPiBits = 0x40490fdbu;   // kPi
inline constexpr std::uint32_t kNineBits = 0x41100000u;  // 9.0f
// kPi = kPiUnits * 2^-22 and kTwoPi = kTwoPiUnits * 2^-22, exactly.
inline constexpr std::int64_t kPiUnits = 0xC90FDB;
inline constexpr std::int64_t kTwoPiUnits = 2 * kPiUnits;
inline constexpr float kUnit = 0x1p-22f;

inline float canonical_nan() { return std::bit_cast<float>(0x7fc00000u); }

// kPow2Mod[s] = 2^s mod kTwoPiUnits, for s = 0..127.
constexpr std::array<std::uint32_t, 128> make_pow2_mod() {
  std::array<std::uint32_t, 128> t{};
  std::uint64_t v = 1;
  for (std::size_t s = 0; s < t.size(); ++s) {
    t[s] = static_cast<std::uint32_t>(v);
    v = (v * 2u) % static_cast<std::uint64_t>(kTwoPiUnits);
  }
  return t;
}
inline constexpr std::array<std::uint32_t, 128> kPow2Mod = make_pow2_mod();

// Exact wrap of a finite float with |a| > 9 into (-kPi, kPi]. |a| = m * 2^e
// with e >= -20, so |a| = (m * 2^(e+22)) units of 2^-22, and the residue
// modulo kTwoPiUnits is (m * (2^(e+22) mod kTwoPiUnits)) mod kTwoPiUnits.
inline float wrap_pi_large(std::uint32_t bits) {
  const std::uint32_t ab = bits & kAbsMask;
  const std::uint64_t m = (ab & 0x7fffffu) | 0x800000u;
  const int s = static_cast<int>(ab >> 23) - 128;  // e + 22, in [2, 126]
  const std::uint64_t mod = static_cast<std::uint64_t>(kTwoPiUnits);
  std::int64_t r = static_cast<std::int64_t>((m * kPow2Mod[static_cast<std::size_t>(s)]) % mod);
  if ((bits >> 31) != 0u && r != 0) {
    r = kTwoPiUnits - r;  // residue of -|a|
  }
  if (r > kPiUnits) {
    r -= kTwoPiUnits;  // now in (-kPiUnits, kPiUnits]
  }
  return static_cast<float>(r) * kUnit;  // |r| < 2^24: exact
}

}  // namespace detail

/// Wraps a to (-kPi, kPi] modulo kTwoPi, exactly (see the header comment).
/// Identity on (-kPi, kPi] (including -0); wrap_pi(-kPi) = kPi;
/// wrap_pi(kTwoPi) = 0. NaN, +-inf -> canonical NaN.
inline float wrap_pi(float a) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(a);
  const std::uint32_t ab = bits & detail::kAbsMask;
  if (ab >= detail::kInfBits) {
    return detail::canonical_nan();
  }
  if (ab < detail::kPiBits) {
    return a;
  }
  if (ab == detail::kPiBits) {
    return dmath::kPi;
  }
  if (ab <= detail::kNineBits) {
    // kPi < |a| <= 9: one period; a -+ kTwoPi is exact (both are multiples
    // of 2^-22 and the difference is below 4 in magnitude).
    return a > 0.0f ? a - dmath::kTwoPi : a + dmath::kTwoPi;
  }
  return detail::wrap_pi_large(bits);
}

/// Wraps a to [0, kTwoPi) modulo kTwoPi: the exact residue rounded to the
/// nearest float (one rounding); a residue that rounds to kTwoPi gives +0.
/// -0 -> +0. NaN, +-inf -> canonical NaN.
inline float wrap_2pi(float a) {
  const float w = wrap_pi(a);
  if (w != w) {
    return w;
  }
  if (w > 0.0f) {
    return w;
  }
  if (w == 0.0f) {
    return 0.0f;  // also turns -0 into +0
  }
  const float r = w + dmath::kTwoPi;  // in (kPi, kTwoPi] after rounding
  return r < dmath::kTwoPi ? r : 0.0f;
}

/// Heading of the plan vector (dx, dy): atan2(dx, dy) wrapped to
/// (-kPi, kPi]. heading_of(0, 1) = 0 (north), heading_of(1, 0) = kHalfPi
/// (east), heading_of(-1, 0) = -kHalfPi, heading_of(+-0, -1) = kPi (south),
/// heading_of(0, 0) = 0. NaN component -> canonical NaN.
inline float heading_of(float dx, float dy) { return wrap_pi(dmath::atan2(dx, dy)); }

/// heading_of through dmath::atan2_fast: the same conventions and bound, one
/// division (not always the same bits as heading_of).
inline float heading_of_fast(float dx, float dy) { return wrap_pi(dmath::atan2_fast(dx, dy)); }

/// Unit direction of heading h: *dx = sin(h), *dy = cos(h) (via
/// dmath::sincos, so bit-identical to calling sin and cos separately).
inline void dir_of(float h, float* dx, float* dy) { dmath::sincos(h, dx, dy); }

/// Signed shortest turn from heading `from` to heading `to`, in (-kPi, kPi]:
/// wrap_pi(to - from), where to - from is rounded to float once. Positive
/// means clockwise (toward the right). An exact half turn gives +kPi.
inline float heading_delta(float from, float to) { return wrap_pi(to - from); }

/// Turns from `from` toward `to` by at most max_step (>= 0) along the
/// shortest way; the result is wrapped to (-kPi, kPi]. If
/// |heading_delta(from, to)| <= max_step the result is wrap_pi(to) exactly.
/// Never overshoots: heading_delta(result, to) has the same sign as
/// heading_delta(from, to) or is zero. max_step < 0 is treated as 0; NaN in
/// any argument -> canonical NaN.
inline float turn_toward(float from, float to, float max_step) {
  const float d = heading_delta(from, to);
  if (d != d || max_step != max_step) {
    return detail::canonical_nan();
  }
  const float step = max_step > 0.0f ? max_step : 0.0f;
  const float target = wrap_pi(to);
  const float ad = d < 0.0f ? -d : d;
  if (ad <= step) {
    return target;
  }
  const float r = wrap_pi(d > 0.0f ? from + step : from - step);
  const float rem = heading_delta(r, to);
  if ((d > 0.0f && rem < 0.0f) || (d < 0.0f && rem > 0.0f)) {
    return target;  // rounding of from +- step crossed the target
  }
  return r;
}

/// Degrees to radians: (float)(deg * (pi/180 as double)), one rounding of a
/// double product. deg_to_rad(180) = kPi, deg_to_rad(90) = kHalfPi,
/// deg_to_rad(360) = kTwoPi.
inline float deg_to_rad(float deg) {
  return static_cast<float>(static_cast<double>(deg) * 0x1.1df46a2529d39p-6);
}

/// Radians to degrees: (float)(rad * (180/pi as double)).
/// rad_to_deg(kPi) = 180, rad_to_deg(kHalfPi) = 90.
inline float rad_to_deg(float rad) {
  return static_cast<float>(static_cast<double>(rad) * 0x1.ca5dc1a63c1f8p+5);
}

}  // namespace lockstep::angle
