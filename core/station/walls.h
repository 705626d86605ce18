// A floor's walls, one rule for the station model and its routing grid
// (seed 002, "Behaviours": walls and outside-of-floor count as blockers; spec
// note S4: a floor is the union of its walkable outlines).
#pragma once

#include <cstdint>
#include <vector>

#include "station/geom.h"

namespace lockstep::station {

/// Flight: a stair's side wall; Landing: a stair's far edge on the floor being
/// left (seed 002: "The far edge of a flight is a wall on the floor being
/// left"); GateMouth: a fare gate's mouth, a wall to all but the walker bound
/// through that gate (S45), and not to the routing grid; for these,
/// `blocker` is the zone's index.
enum class WallKind : uint8_t { Outline = 0, Obstacle = 1, Hole = 2, Void = 3, Extra = 4, Flight = 5, Landing = 6, GateMouth = 7 };

struct Wall {
  V2 a, b;
  WallKind kind = WallKind::Outline;
  int32_t blocker = -1;  ///< floor-local blocker index (obstacles, then holes, then voids); -1 outline/extra
};

/// The boundary of the union of `outlines` (S4), appended to `out` as
/// WallKind::Outline pieces, outline by outline and edge by edge. An edge is
/// split where other outlines' edges cross it or run along it; a piece is a
/// wall unless the floor lies on both sides of it (the points 1 mm either
/// side of its middle both on the floor: inside another outline, or an edge
/// two outlines share). Where two outlines' edges run along each other on the
/// union's boundary, the earlier outline's piece is the wall, once.
void outline_walls(const std::vector<Polygon>& outlines, std::vector<Wall>& out);

/// Drops the Outline pieces of `walls` that run along the segment a-b (on its
/// line, their middle on it): before a wall is added along it, so that it is
/// one wall, not two.
void drop_outline_along(std::vector<Wall>& walls, V2 a, V2 b);

/// Every edge of `solid` (closed), appended to `out` with `kind` and `blocker`.
void solid_walls(const Polygon& solid, WallKind kind, int32_t blocker, std::vector<Wall>& out);

}  // namespace lockstep::station
