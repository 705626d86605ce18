// Plan geometry for the station model: 2D float points, polygons and
// segments. Every operation is a fixed sequence of IEEE operations
// (-ffp-contract=off), so results are the same bits everywhere.
#pragma once

#include <cstdint>
#include <vector>

#include "lockstep/core/dmath.h"
#include "lockstep/core/reflect.h"

namespace lockstep::station {

/// A point or vector in the plan, metres. JSON: [x, y].
struct V2 {
  float x = 0, y = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x"}, s.x);
    v(FieldInfo{"y"}, s.y);
  }
  friend constexpr bool operator==(const V2&, const V2&) = default;
};

constexpr V2 operator+(V2 a, V2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr V2 operator-(V2 a, V2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr V2 operator*(V2 a, float s) { return {a.x * s, a.y * s}; }
constexpr float dot(V2 a, V2 b) { return a.x * b.x + a.y * b.y; }
constexpr float cross(V2 a, V2 b) { return a.x * b.y - a.y * b.x; }
constexpr float sqr_length(V2 a) { return a.x * a.x + a.y * a.y; }
inline float length(V2 a) { return dmath::sqrt(sqr_length(a)); }
/// The vector turned a quarter turn counter-clockwise: "left" of a heading.
constexpr V2 left_of(V2 a) { return {-a.y, a.x}; }
/// Unit vector, or zero when the length is 1e-6 m or less.
inline V2 unit(V2 a) {
  const float m = length(a);
  return m > 1e-6f ? V2{a.x / m, a.y / m} : V2{};
}
/// `a` turned by `angle` rad counter-clockwise.
inline V2 rotated(V2 a, float angle) {
  float s = 0, c = 1;
  dmath::sincos(angle, &s, &c);
  return {a.x * c - a.y * s, a.x * s + a.y * c};
}

using Polygon = std::vector<V2>;

/// Closest point to p on the segment a-b.
inline V2 closest_on_segment(V2 p, V2 a, V2 b) {
  const V2 ab = b - a;
  const float l2 = sqr_length(ab);
  if (!(l2 > 0.0f)) return a;
  float t = dot(p - a, ab) / l2;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return a + ab * t;
}

/// Squared distance from p to the segment a-b (a == b allowed).
inline float point_segment_sqr_distance(V2 p, V2 a, V2 b) { return sqr_length(closest_on_segment(p, a, b) - p); }

/// Even-odd point in polygon (a point exactly on an edge may land either side,
/// but always the same side for the same bits).
inline bool inside(const Polygon& poly, V2 p) {
  bool in = false;
  const std::size_t n = poly.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const V2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y)) {
      const float xc = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
      if (p.x < xc) in = !in;
    }
  }
  return in;
}

/// Closest point to p on the boundary of poly.
inline V2 closest_on_boundary(const Polygon& poly, V2 p) {
  V2 best = poly.empty() ? p : poly[0];
  float bd = -1.0f;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const V2 q = closest_on_segment(p, poly[i], poly[(i + 1) % n]);
    const float d = sqr_length(q - p);
    if (bd < 0.0f || d < bd) {
      bd = d;
      best = q;
    }
  }
  return best;
}

/// Signed area (positive counter-clockwise).
inline float signed_area(const Polygon& poly) {
  float a = 0.0f;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) a += cross(poly[i], poly[(i + 1) % n]);
  return a * 0.5f;
}

/// Vertex centroid (the mean of the corners): a point to nudge a drive point inward.
inline V2 vertex_mean(const Polygon& poly) {
  V2 s{};
  for (const V2& q : poly) s = s + q;
  const float n = static_cast<float>(poly.size() ? poly.size() : 1);
  return {s.x / n, s.y / n};
}

/// Do the closed segments p-q and a-b share a point? (Orientation tests; collinear overlaps count.)
inline bool segments_cross(V2 p, V2 q, V2 a, V2 b) {
  const float d1 = cross(q - p, a - p), d2 = cross(q - p, b - p);
  const float d3 = cross(b - a, p - a), d4 = cross(b - a, q - a);
  if (((d1 > 0.0f && d2 < 0.0f) || (d1 < 0.0f && d2 > 0.0f)) && ((d3 > 0.0f && d4 < 0.0f) || (d3 < 0.0f && d4 > 0.0f)))
    return true;
  auto on = [](V2 s, V2 e, V2 r) {
    return (r.x >= (s.x < e.x ? s.x : e.x)) && (r.x <= (s.x < e.x ? e.x : s.x)) && (r.y >= (s.y < e.y ? s.y : e.y)) &&
           (r.y <= (s.y < e.y ? e.y : s.y));
  };
  if (d1 == 0.0f && on(p, q, a)) return true;
  if (d2 == 0.0f && on(p, q, b)) return true;
  if (d3 == 0.0f && on(a, b, p)) return true;
  if (d4 == 0.0f && on(a, b, q)) return true;
  return false;
}

/// Squared distance between the segments p-q and a-b.
inline float segment_sqr_distance(V2 p, V2 q, V2 a, V2 b) {
  if (segments_cross(p, q, a, b)) return 0.0f;
  const float d1 = sqr_length(closest_on_segment(p, a, b) - p);
  const float d2 = sqr_length(closest_on_segment(q, a, b) - q);
  const float d3 = sqr_length(closest_on_segment(a, p, q) - a);
  const float d4 = sqr_length(closest_on_segment(b, p, q) - b);
  float m = d1 < d2 ? d1 : d2;
  m = m < d3 ? m : d3;
  return m < d4 ? m : d4;
}

}  // namespace lockstep::station
