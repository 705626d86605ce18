// A floor's walls: docs in walls.h.
#include "station/walls.h"

#include <algorithm>

namespace lockstep::station {

namespace {

// The parts of the edge a-b of walkable outline `self` that are the union's
// boundary (S4): split where other outlines' edges cross it or run along it, and
// keep a piece unless the floor lies on both sides of it (inside another
// outline, or two outlines that share the edge) or an earlier outline's edge
// runs along it (the same wall once).
void outline_pieces(const std::vector<Polygon>& outlines, std::size_t self, V2 a, V2 b, std::vector<Wall>& out) {
  std::vector<float> ts = {0.0f, 1.0f};
  const V2 ab = b - a;
  const float ab2 = sqr_length(ab);
  for (std::size_t o = 0; o < outlines.size(); ++o) {
    if (o == self) continue;
    const auto& poly = outlines[o];
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const V2 c = poly[i], d = poly[(i + 1) % poly.size()];
      const V2 cd = d - c;
      const float den = cross(ab, cd);
      if (den == 0.0f) {
        // Parallel: on the same line, the other edge's ends split this one.
        if (cross(c - a, ab) == 0.0f && ab2 > 0.0f)
          for (const V2 e : {c, d}) {
            const float t = dot(e - a, ab) / ab2;
            if (t > 0.0f && t < 1.0f) ts.push_back(t);
          }
        continue;
      }
      const float t = cross(c - a, cd) / den;
      const float u = cross(c - a, ab) / den;
      if (t > 0.0f && t < 1.0f && u >= 0.0f && u <= 1.0f) ts.push_back(t);
    }
  }
  std::sort(ts.begin(), ts.end());
  const V2 n = left_of(unit(ab)) * 1e-3f;  // 1 mm either side of the edge
  auto floor_at = [&](V2 p) {
    for (const auto& poly : outlines)
      if (inside(poly, p)) return true;
    return false;
  };
  for (std::size_t k = 0; k + 1 < ts.size(); ++k) {
    if (!(ts[k + 1] > ts[k])) continue;
    const V2 p = a + ab * ts[k], q = a + ab * ts[k + 1];
    const V2 mid = (p + q) * 0.5f;
    // Inside the union (floor on both sides) it is no wall. A piece that runs
    // along an edge of an earlier outline is that outline's wall already: one
    // copy, not two pushes. (Whether `mid` is inside another outline is no
    // test: on that outline's own edge the crossing rule answers either way.)
    if (floor_at(mid + n) && floor_at(mid - n)) continue;
    bool twin = false;
    for (std::size_t o = 0; o < self && !twin; ++o) {
      const auto& poly = outlines[o];
      for (std::size_t i = 0; i < poly.size() && !twin; ++i)
        twin = cross(poly[(i + 1) % poly.size()] - poly[i], ab) == 0.0f &&
               point_segment_sqr_distance(mid, poly[i], poly[(i + 1) % poly.size()]) <= 1e-10f;
    }
    if (!twin) out.push_back(Wall{p, q, WallKind::Outline, -1});
  }
}

}  // namespace

void outline_walls(const std::vector<Polygon>& outlines, std::vector<Wall>& out) {
  for (std::size_t k = 0; k < outlines.size(); ++k) {
    const auto& poly = outlines[k];
    for (std::size_t i = 0; i < poly.size(); ++i) outline_pieces(outlines, k, poly[i], poly[(i + 1) % poly.size()], out);
  }
}

void drop_outline_along(std::vector<Wall>& walls, V2 a, V2 b) {
  std::vector<Wall> kept;
  kept.reserve(walls.size());
  for (const Wall& w : walls) {
    const V2 mid = (w.a + w.b) * 0.5f;
    const bool along = w.kind == WallKind::Outline && cross(b - a, w.b - w.a) == 0.0f && point_segment_sqr_distance(mid, a, b) <= 1e-10f;
    if (!along) kept.push_back(w);
  }
  walls.swap(kept);
}

void solid_walls(const Polygon& solid, WallKind kind, int32_t blocker, std::vector<Wall>& out) {
  for (std::size_t i = 0; i < solid.size(); ++i) out.push_back(Wall{solid[i], solid[(i + 1) % solid.size()], kind, blocker});
}

}  // namespace lockstep::station
