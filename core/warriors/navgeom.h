// The warriors model, part 2: the geometry of the path data (seed 000, "Path
// planning": the walkable-line test, the hazard spheres, a node in a straight
// line, a point's area; supplement, "A point in a hole").
#pragma once

#include <cstdint>

#include "warriors/nav.h"

namespace lockstep::warriors {

/// What Nav_FindAreaCandidate's ray hit.
struct RayHit {
  int32_t triangle = -1;
  float t = 0;         ///< distance along the ray from its start
  Vec3 point;
  uint8_t area_byte = 0;
  uint8_t flags = 0;
};

/// Read-only geometry over a level and the live navigation state.
class NavGeom {
 public:
  NavGeom(const Level& level, const NavState& state) : level_(level), state_(state) {}

  /// The live flags (+0x48) of polygon p of area a.
  uint16_t polygon_flags(int32_t area, int32_t polygon) const;

  /// WorldManager_RayCast straight down from `from`, `length` long: the first triangle hit.
  bool ray_down(Vec3 from, float length, RayHit* hit) const;
  /// Nav_FindAreaCandidate (0x00250760): the ray from 0.4 m above p, 4 m down; the first area whose
  /// first path's area byte is the hit's, whose box widened by 0.35 m holds p in plan, whose vertex
  /// count is 1 or more and whose flags lack 8. -1 when none.
  int32_t find_area_candidate(Vec3 p) const;
  /// 0x0024ea60: p inside the area (inside the outline, outside every hole), polygons with flags 8
  /// or 0x10 skipped.
  bool inside_area(int32_t area, Vec3 p) const;
  /// Nav_FindArea (0x00250708): the candidate, then the inside test. -1 when none.
  int32_t find_area(Vec3 p) const;
  /// Human_GetNavPolygon's fallbacks (supplement, "A point in a hole"): the point itself; the
  /// nearest point on an edge of the candidate area's polygons within 20 m (stopping at the first
  /// nearer than 0.18 m); eight probes 1 m away in plan, (0,+1), (0,-1), (-1,0), (+1,0), (+1,+1),
  /// (-1,-1), (-1,+1), (+1,-1). -1 when none.
  int32_t find_area_with_fallbacks(Vec3 p) const;

  /// 0x00221f80: a hazard sphere blocks the segment p -> q.
  bool hazard_blocks(Vec3 p, Vec3 q) const;
  /// The walkable-line test (0x0024fbf8) from p (in `start_area`) to q with a polygon-flag mask.
  bool walkable_line(int32_t start_area, Vec3 p, Vec3 q, uint16_t mask) const;
  /// A node in a straight line (0x0024f290): no hazard sphere, and the segment crosses no edge of
  /// any of the area's polygons without flag 8 (mask 0).
  bool node_line(int32_t area, Vec3 p, Vec3 q) const;

 private:
  const Level& level_;
  const NavState& state_;
};

/// 0x002198b8(r, word, centre): add a hazard sphere in the first free slot; marks every link whose
/// edge passes within r + 0.3 of the centre avoided (counted). Returns the slot, -1 when all 64 are used.
int32_t add_hazard(const Level& level, NavState& state, Vec3 centre, float r, int32_t word);
/// 0x002199c0: remove the sphere in `slot`, releasing its marks.
void remove_hazard(const Level& level, NavState& state, int32_t slot);
/// Whether a link (flat index) is avoided: its file bit 31, or a hazard sphere's mark.
bool link_avoided(const Level& level, const NavState& state, uint32_t flat_link);

}  // namespace lockstep::warriors
