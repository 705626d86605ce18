// Small float vectors for world quantities (single precision, like the
// originals). Every operation is one IEEE operation per component in a fixed
// order, so results are the same bits on every platform (-ffp-contract=off).
#pragma once

#include "lockstep/core/dmath.h"
#include "lockstep/core/reflect.h"

namespace lockstep {

struct Vec3 {
  float x = 0, y = 0, z = 0;

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x"}, s.x);
    v(FieldInfo{"y"}, s.y);
    v(FieldInfo{"z"}, s.z);
  }
  friend constexpr bool operator==(const Vec3&, const Vec3&) = default;
};

constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
constexpr Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
constexpr Vec3 operator/(Vec3 a, float s) { return {a.x / s, a.y / s, a.z / s}; }

/// Squared length, summed x, y, z in that order.
constexpr float sqr_length(Vec3 a) { return a.x * a.x + a.y * a.y + a.z * a.z; }
inline float length(Vec3 a) { return dmath::sqrt(sqr_length(a)); }
inline float distance(Vec3 a, Vec3 b) { return length(a - b); }
/// Squared length in the plan (x, z): the y-up worlds' horizontal plane.
constexpr float sqr_length_xz(Vec3 a) { return a.x * a.x + a.z * a.z; }
inline float length_xz(Vec3 a) { return dmath::sqrt(sqr_length_xz(a)); }

/// Unity's Vector3.normalized: the zero vector when the length is 1e-5 or less.
inline Vec3 normalized(Vec3 a) {
  const float m = length(a);
  return m > 1e-5f ? a / m : Vec3{};
}

}  // namespace lockstep
