// The geometry of the path data (seed 000, "Path planning": the walkable-line
// test 0x0024fbf8, the hazard spheres 0x00221f80, a node in a straight line
// 0x0024f290, a point's area 0x00250708 / 0x00250760 and the inside test
// 0x0024ea60; supplement, "A point in a hole" and "Nav data").
//
// Numerics (docs/numerics.md): float only, every expression written out in a
// fixed order (no helper that the compiler could reassociate), square roots by
// dmath. Loops run over vectors and fixed arrays in index order; ties keep the
// first found.
//
// Choices where the seed is silent (each named where it is made):
//  * ray_down: a two-sided test (either winding is hit), a triangle edge or
//    vertex counts as a hit (barycentric u, v >= 0, u + v <= 1, tested on the
//    numerators against the determinant), a triangle vertical in plan (determinant 0) is never hit, t in [0, length] inclusive,
//    equal t keep the lower triangle index. The hit's height is interpolated
//    from the vertices (a flat triangle gives its own z exactly).
//  * inside test: the even-odd rule in plan over each polygon separately; a
//    point on an edge of a polygon counts as on the walkable side (inside an
//    outline, outside a hole). A skipped outline (flags 8 or 0x10) sets no
//    condition.
//  * the segment-edge crossing (0x0024e938): t in [0, 1) on the segment, the
//    edge's own parameter in [0, 1] (its end points included), parallel edges
//    (determinant 0) never cross.
//  * slab lists: the union of the lists, read in order (an index repeated is
//    harmless: the nearest keeps the first, the farthest the first; an index
//    past the last edge is skipped); an edge in no list is not tested.
//  * "no such polygon" of the walkable-line test: no polygon passing the flags
//    and the box test. A crossing whose end area gives no crossing is refused.
//    The two crossing points are compared in 3D (z interpolated, 0x0024e938).
//  * a point in a hole, step 2: the polygons the inside test reads (flags 8 and
//    0x10 skipped), every edge (no slabs), in order; distance in plan; the edge
//    point keeps the point's own height; "within 20 m" is d^2 < 400.
//  * hazard spheres: the box is centre -+ (r + 0.8); "within" is strict; a
//    segment of no length or starting at the centre has no heading (passes);
//    links are marked when their edge (from node to own node, 3D) passes
//    strictly within r + 0.3; a removed record is cleared whole.
#include "warriors/navgeom.h"

#include <algorithm>

namespace lockstep::warriors {

namespace {

constexpr float kRayLift = 0.4f;         // Nav_FindAreaCandidate: 0.4 m above the point
constexpr float kRayLength = 4.0f;       // ... 4 m down
constexpr float kAreaBoxWiden = 0.35f;   // ... the area box widened by 0.35 m
constexpr float kJoinSq = 0.0004f;       // the walkable-line test: crossings within 0.02 m
constexpr float kHeadingCos = -0.707f;   // 0x00221f80: heading within 45 degrees of the centre
constexpr float kHazardNear = 0.3f;      // +0x30: (r + 0.3)^2, the link marks
constexpr float kHazardBlock = 0.8f;     // +0x34: (r + 0.8)^2, the line test
constexpr float kSnapMaxSq = 400.0f;     // "A point in a hole" 2: within 20 m
constexpr float kSnapEarlySq = 0.18f * 0.18f;  // ... stopping at the first edge nearer than 0.18 m

/// Squared 3D distance from c to the nearest point of the segment a -> b (0x00336d28).
float segment_dist_sq(Vec3 a, Vec3 b, Vec3 c) {
  const Vec3 d = b - a;
  const Vec3 w = c - a;
  const float len2 = sqr_length(d);
  float t = 0.0f;
  if (len2 > 0.0f) {
    const float dot = w.x * d.x + w.y * d.y + w.z * d.z;
    t = dot / len2;
    if (t < 0.0f) t = 0.0f;
    if (t > 1.0f) t = 1.0f;
  }
  const Vec3 n = a + d * t;
  return sqr_length(c - n);
}

/// The segment p -> q crossed in plan with the edge a -> b (0x0024e938): the segment parameter in
/// [0, 1) and the edge's in [0, 1].
bool cross_plan(Vec3 p, Vec3 q, Vec3 a, Vec3 b, float* t_out) {
  const float dx = q.x - p.x, dy = q.y - p.y;
  const float ex = b.x - a.x, ey = b.y - a.y;
  const float denom = dx * ey - dy * ex;
  if (denom == 0.0f) return false;
  const float wx = a.x - p.x, wy = a.y - p.y;
  const float t = (wx * ey - wy * ex) / denom;
  if (!(t >= 0.0f && t < 1.0f)) return false;
  const float s = (wx * dy - wy * dx) / denom;
  if (!(s >= 0.0f && s <= 1.0f)) return false;
  *t_out = t;
  return true;
}

/// The point at parameter t on p -> q (z interpolated like x and y).
Vec3 at_param(Vec3 p, Vec3 q, float t) {
  return Vec3{p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t, p.z + (q.z - p.z) * t};
}

/// Whether the polygon's plan box meets the segment's plan box (inclusive).
bool box_meets_segment(const NavPolygon& poly, Vec3 p, Vec3 q) {
  const float sx0 = std::min(p.x, q.x), sx1 = std::max(p.x, q.x);
  const float sy0 = std::min(p.y, q.y), sy1 = std::max(p.y, q.y);
  return sx0 <= poly.max_x && sx1 >= poly.min_x && sy0 <= poly.max_y && sy1 >= poly.min_y;
}

/// Calls f(edge index) for the edges the crossing test reads: the slab lists' (in order) when the
/// polygon has them, else every edge.
template <class F>
void for_each_tested_edge(const NavPolygon& poly, F&& f) {
  const std::size_t n = poly.points.size();
  if (n == 0) return;
  if (poly.slabs.empty()) {
    for (std::size_t e = 0; e < n; ++e) f(e);
    return;
  }
  for (const auto& slab : poly.slabs)
    for (const uint16_t e : slab)
      if (e < n) f(static_cast<std::size_t>(e));
}

enum class Where { kOutside, kInside, kOnEdge };

/// The even-odd rule in plan for one polygon; a point on an edge is reported apart.
Where locate(const NavPolygon& poly, Vec3 p) {
  const std::size_t n = poly.points.size();
  bool inside = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 a = poly.points[i];
    const Vec3 b = poly.points[i + 1 == n ? 0 : i + 1];
    const float cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross == 0.0f && p.x >= std::min(a.x, b.x) && p.x <= std::max(a.x, b.x) && p.y >= std::min(a.y, b.y) &&
        p.y <= std::max(a.y, b.y))
      return Where::kOnEdge;
    if ((a.y > p.y) != (b.y > p.y)) {
      const float xc = a.x + ((p.y - a.y) * (b.x - a.x)) / (b.y - a.y);
      if (p.x < xc) inside = !inside;
    }
  }
  return inside ? Where::kInside : Where::kOutside;
}

}  // namespace

uint16_t NavGeom::polygon_flags(int32_t area, int32_t polygon) const {
  const uint32_t i = level_.polygon_index(area, polygon);
  if (i < state_.polygon_flags.size()) return state_.polygon_flags[i];
  return level_.areas[static_cast<std::size_t>(area)].polygons[static_cast<std::size_t>(polygon)].flags;
}

bool NavGeom::ray_down(Vec3 from, float length, RayHit* hit) const {
  bool found = false;
  RayHit best;
  for (std::size_t i = 0; i < level_.triangles.size(); ++i) {
    const NavTriangle& tri = level_.triangles[i];
    const Vec3 e1 = tri.b - tri.a;
    const Vec3 e2 = tri.c - tri.a;
    // Moller-Trumbore with the direction (0, 0, -1): the determinant and the barycentric
    // coordinates reduce to plan cross products. The inside test is made on the numerators
    // against the determinant (no division first), so a point on an edge is not lost to rounding.
    const float det = e1.x * e2.y - e1.y * e2.x;
    if (det == 0.0f) continue;
    const float sx = from.x - tri.a.x, sy = from.y - tri.a.y;
    const float un = sx * e2.y - sy * e2.x;
    const float vn = e1.x * sy - e1.y * sx;
    const float sum = un + vn;
    const bool in = det > 0.0f ? (un >= 0.0f && vn >= 0.0f && sum <= det) : (un <= 0.0f && vn <= 0.0f && sum >= det);
    if (!in) continue;
    const float u = un / det, v = vn / det;
    const float z = (tri.a.z + u * e1.z) + v * e2.z;
    const float t = from.z - z;
    if (!(t >= 0.0f && t <= length)) continue;
    if (found && !(t < best.t)) continue;
    found = true;
    best.triangle = static_cast<int32_t>(i);
    best.t = t;
    best.point = Vec3{from.x, from.y, z};
    best.area_byte = tri.area_byte;
    best.flags = tri.flags;
  }
  if (found && hit) *hit = best;
  return found;
}

int32_t NavGeom::find_area_candidate(Vec3 p) const {
  if (level_.areas.empty()) return -1;
  RayHit hit;
  if (!ray_down(Vec3{p.x, p.y, p.z + kRayLift}, kRayLength, &hit)) return -1;
  for (std::size_t a = 0; a < level_.areas.size(); ++a) {
    const NavArea& area = level_.areas[a];
    if (area.polygons.empty()) continue;
    const NavPolygon& outline = area.polygons[0];
    if (area.area_byte != hit.area_byte) continue;
    if (!(p.x >= outline.min_x - kAreaBoxWiden && p.x <= outline.max_x + kAreaBoxWiden &&
          p.y >= outline.min_y - kAreaBoxWiden && p.y <= outline.max_y + kAreaBoxWiden))
      continue;
    if (outline.points.empty()) continue;
    if (polygon_flags(static_cast<int32_t>(a), 0) & kPolyIgnored) continue;
    return static_cast<int32_t>(a);
  }
  return -1;
}

bool NavGeom::inside_area(int32_t area, Vec3 p) const {
  if (area < 0 || static_cast<std::size_t>(area) >= level_.areas.size()) return false;
  const NavArea& ar = level_.areas[static_cast<std::size_t>(area)];
  for (std::size_t k = 0; k < ar.polygons.size(); ++k) {
    if (polygon_flags(area, static_cast<int32_t>(k)) & (kPolyIgnored | kPolyInsideSkip)) continue;
    const Where w = locate(ar.polygons[k], p);
    if (k == 0) {
      if (w == Where::kOutside) return false;  // outside the outline
    } else if (w == Where::kInside) {
      return false;  // in a hole
    }
  }
  return true;
}

int32_t NavGeom::find_area(Vec3 p) const {
  const int32_t c = find_area_candidate(p);
  if (c < 0) return -1;
  return inside_area(c, p) ? c : -1;
}

int32_t NavGeom::find_area_with_fallbacks(Vec3 p) const {
  // 1. The point itself.
  const int32_t own = find_area(p);
  if (own >= 0) return own;
  // 2. The nearest point (in plan, at the point's own height) on an edge of the candidate area's
  // polygons within 20 m, stopping at the first edge nearer than 0.18 m; the polygons the inside
  // test reads (flags 8 and 0x10 skipped), every edge (not the slab lists), in order.
  const int32_t cand = find_area_candidate(p);
  if (cand >= 0) {
    const NavArea& ar = level_.areas[static_cast<std::size_t>(cand)];
    bool have = false;
    float best_sq = kSnapMaxSq;
    Vec3 best;
    for (std::size_t k = 0; k < ar.polygons.size(); ++k) {
      if (polygon_flags(cand, static_cast<int32_t>(k)) & (kPolyIgnored | kPolyInsideSkip)) continue;
      const NavPolygon& poly = ar.polygons[k];
      const std::size_t n = poly.points.size();
      bool early = false;
      for (std::size_t i = 0; i < n; ++i) {
        const Vec3 a = poly.points[i];
        const Vec3 b = poly.points[i + 1 == n ? 0 : i + 1];
        const float ex = b.x - a.x, ey = b.y - a.y;
        const float len2 = ex * ex + ey * ey;
        float t = 0.0f;
        if (len2 > 0.0f) {
          t = ((p.x - a.x) * ex + (p.y - a.y) * ey) / len2;
          if (t < 0.0f) t = 0.0f;
          if (t > 1.0f) t = 1.0f;
        }
        const Vec3 c{a.x + ex * t, a.y + ey * t, p.z};
        const float dx = c.x - p.x, dy = c.y - p.y;
        const float d2 = dx * dx + dy * dy;
        if (d2 < best_sq) {
          best_sq = d2;
          best = c;
          have = true;
          if (d2 < kSnapEarlySq) {
            early = true;
            break;
          }
        }
      }
      if (early) break;
    }
    if (have) {
      const int32_t snapped = find_area(best);
      if (snapped >= 0) return snapped;
    }
  }
  // 3. Eight probes 1 m away in plan.
  static constexpr float kProbe[8][2] = {{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
  for (const auto& d : kProbe) {
    const int32_t a = find_area(Vec3{p.x + d[0], p.y + d[1], p.z});
    if (a >= 0) return a;
  }
  return -1;
}

bool NavGeom::hazard_blocks(Vec3 p, Vec3 q) const {
  if (state_.hazard_count == 0) return false;
  const float sx0 = std::min(p.x, q.x), sx1 = std::max(p.x, q.x);
  const float sy0 = std::min(p.y, q.y), sy1 = std::max(p.y, q.y);
  const float sz0 = std::min(p.z, q.z), sz1 = std::max(p.z, q.z);
  for (const Hazard& h : state_.hazards) {
    if (!h.in_use) continue;
    if (!(sx0 <= h.box_max.x && sx1 >= h.box_min.x && sy0 <= h.box_max.y && sy1 >= h.box_min.y &&
          sz0 <= h.box_max.z && sz1 >= h.box_min.z))
      continue;
    if (!(segment_dist_sq(p, q, h.centre) < h.block_sq)) continue;
    // Heading at it: (Q - P)/|Q - P| . (P - C)/|P - C| < -0.707. A segment of no length, or one
    // starting at the centre, has no heading and is not blocked.
    const Vec3 d = q - p;
    const Vec3 w = p - h.centre;
    const float ld = length(d), lw = length(w);
    if (!(ld > 0.0f) || !(lw > 0.0f)) continue;
    const Vec3 du = d / ld;
    const Vec3 wu = w / lw;
    const float cosine = du.x * wu.x + du.y * wu.y + du.z * wu.z;
    if (cosine < kHeadingCos) return true;
  }
  return false;
}

namespace {

/// The crossing scan of the walkable-line test's steps 2 and 4 over one area's polygons.
struct Scan {
  bool any_polygon = false;  ///< a polygon passed the flags and the box test
  bool found = false;
  float t = 0;
  Vec3 point;
};

}  // namespace

bool NavGeom::walkable_line(int32_t start_area, Vec3 p, Vec3 q, uint16_t mask) const {
  // 1. The hazard spheres.
  if (hazard_blocks(p, q)) return false;
  if (start_area < 0 || static_cast<std::size_t>(start_area) >= level_.areas.size()) return false;
  const uint16_t skip = static_cast<uint16_t>(kPolyIgnored | mask);
  auto scan = [&](int32_t area, bool farthest) {
    Scan s;
    const NavArea& ar = level_.areas[static_cast<std::size_t>(area)];
    for (std::size_t k = 0; k < ar.polygons.size(); ++k) {
      if (polygon_flags(area, static_cast<int32_t>(k)) & skip) continue;
      const NavPolygon& poly = ar.polygons[k];
      if (!box_meets_segment(poly, p, q)) continue;
      s.any_polygon = true;
      const std::size_t n = poly.points.size();
      for_each_tested_edge(poly, [&](std::size_t e) {
        float t = 0;
        if (!cross_plan(p, q, poly.points[e], poly.points[e + 1 == n ? 0 : e + 1], &t)) return;
        if (s.found && !(farthest ? t > s.t : t < s.t)) return;
        s.found = true;
        s.t = t;
      });
    }
    if (s.found) s.point = at_param(p, q, s.t);
    return s;
  };
  // 2. The start area's polygons: the nearest crossing.
  const Scan first = scan(start_area, false);
  if (!first.any_polygon) return false;
  // 3. No crossing: the end point's area must be the start's.
  if (!first.found) return find_area(q) == start_area;
  // 4. A crossing: the end point's area, its farthest crossing, within 0.02 m of the nearest.
  const int32_t end_area = find_area(q);
  if (end_area < 0) return false;
  const Scan last = scan(end_area, true);
  if (!last.found) return false;
  const Vec3 d = last.point - first.point;
  return sqr_length(d) < kJoinSq;
}

bool NavGeom::node_line(int32_t area, Vec3 p, Vec3 q) const {
  if (hazard_blocks(p, q)) return false;
  if (area < 0 || static_cast<std::size_t>(area) >= level_.areas.size()) return false;
  const NavArea& ar = level_.areas[static_cast<std::size_t>(area)];
  for (std::size_t k = 0; k < ar.polygons.size(); ++k) {
    if (polygon_flags(area, static_cast<int32_t>(k)) & kPolyIgnored) continue;  // the mask is 0
    const NavPolygon& poly = ar.polygons[k];
    if (!box_meets_segment(poly, p, q)) continue;
    const std::size_t n = poly.points.size();
    bool crossed = false;
    for_each_tested_edge(poly, [&](std::size_t e) {
      float t = 0;
      if (!crossed && cross_plan(p, q, poly.points[e], poly.points[e + 1 == n ? 0 : e + 1], &t)) crossed = true;
    });
    if (crossed) return false;
  }
  return true;
}

namespace {

/// Calls f(flat link index) for every D record whose edge (its `from` node's position to the
/// position of the node it lives on) passes within the sphere's r + 0.3 (3D, strictly).
template <class F>
void for_each_marked_link(const Level& level, const Hazard& h, F&& f) {
  for (const NavNode& node : level.nodes)
    for (std::size_t k = 0; k < node.links.size(); ++k) {
      const NavLink& link = node.links[k];
      if (link.from >= level.nodes.size()) continue;
      const Vec3 from = level.nodes[link.from].position;
      if (segment_dist_sq(from, node.position, h.centre) < h.near_sq)
        f(static_cast<std::size_t>(node.first_link) + k);
    }
}

}  // namespace

int32_t add_hazard(const Level& level, NavState& state, Vec3 centre, float r, int32_t word) {
  int32_t slot = -1;
  for (std::size_t i = 0; i < state.hazards.size(); ++i)
    if (!state.hazards[i].in_use) {
      slot = static_cast<int32_t>(i);
      break;
    }
  if (slot < 0) return -1;
  Hazard& h = state.hazards[static_cast<std::size_t>(slot)];
  const float near_r = r + kHazardNear;
  const float block_r = r + kHazardBlock;
  h = Hazard{};
  h.centre = centre;
  h.box_min = Vec3{centre.x - block_r, centre.y - block_r, centre.z - block_r};
  h.box_max = Vec3{centre.x + block_r, centre.y + block_r, centre.z + block_r};
  h.near_sq = near_r * near_r;
  h.block_sq = block_r * block_r;
  h.word = word;
  h.in_use = 1;
  ++state.hazard_count;
  const std::size_t links = level.link_count();
  if (state.link_marks.size() < links) state.link_marks.resize(links, 0);
  for_each_marked_link(level, h, [&](std::size_t flat) {
    if (flat < state.link_marks.size() && state.link_marks[flat] < 0xff) ++state.link_marks[flat];
  });
  return slot;
}

void remove_hazard(const Level& level, NavState& state, int32_t slot) {
  if (slot < 0 || static_cast<std::size_t>(slot) >= state.hazards.size()) return;
  Hazard& h = state.hazards[static_cast<std::size_t>(slot)];
  if (!h.in_use) return;
  for_each_marked_link(level, h, [&](std::size_t flat) {
    if (flat < state.link_marks.size() && state.link_marks[flat] > 0) --state.link_marks[flat];
  });
  h = Hazard{};
  if (state.hazard_count > 0) --state.hazard_count;
}

bool link_avoided(const Level& level, const NavState& state, uint32_t flat_link) {
  if (flat_link < state.link_marks.size() && state.link_marks[flat_link] > 0) return true;
  // The owner: the last node whose first link is at or before flat_link (first_link ascends).
  const auto it = std::partition_point(level.nodes.begin(), level.nodes.end(), [&](const NavNode& n) {
    return static_cast<uint32_t>(n.first_link) <= flat_link;
  });
  if (it == level.nodes.begin()) return false;
  const NavNode& owner = *(it - 1);
  const uint32_t k = flat_link - static_cast<uint32_t>(owner.first_link);
  if (k >= owner.links.size()) return false;
  // The file's bit 31 as it stands (an opened door clears it for its records, nav.h).
  return link_file_avoid(level, state, owner.links[k]);
}

}  // namespace lockstep::warriors
