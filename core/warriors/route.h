// The warriors model, part 2: the route search and building (seed 000, "Path
// planning" steps 4-6: Route_AStar, Nav_EdgeCost, Route_Find, Route_Build).
// Costs are u16 in 1/16 m; additions wrap at 16 bits and only the final sum saturates.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "warriors/nav.h"

namespace lockstep::warriors {

/// The C records' search fields (f +0x16, g +0x18, parent +0x1c): scratch of one search. Parents
/// are reset at the start of each search; closed nodes' g are set to 0 at its end.
struct AStarScratch {
  std::vector<uint16_t> f, g, h, parent;
  std::vector<uint16_t> heap;    ///< node indices, a binary min-heap on f (at most 1000)
  std::vector<uint16_t> closed;  ///< at most 3000
  void resize(std::size_t nodes);
};

/// The 3D distance between two points x 16, truncated to an integer (u16 arithmetic follows).
uint16_t nav_distance16(Vec3 a, Vec3 b);
/// Nav_Heuristic (0x002517b0): nav_distance16 of the two nodes.
uint16_t nav_heuristic(const Level& level, uint16_t a, uint16_t b);
/// Nav_EdgeCost (0x00251890): g of the expanded node `at` + the step's cost for its link `link`,
/// saturating at 0xffff. `avoided`: the link's bit 31 (file or hazard), `use`: C +0x1f of `at`.
uint16_t nav_edge_cost(uint16_t g, uint16_t distance16, uint16_t kind, bool avoided, uint8_t use, uint16_t mask,
                       bool climb_filter);

struct AStarResult {
  bool found = false;
  uint16_t chain = 0;  ///< nodes on the parent chain from the start's node (walking order)
  uint32_t closed = 0, pushed = 0;
  const char* why = "";  ///< on failure: "heap full", "closed list full", "no path", "chain over 128"
};

/// Route_AStar (0x00251a70): from the destination's node `dest` to the start's node `start`, so
/// the parent links read in walking order from `start`. `cap`: the running total's cap (65000).
AStarResult route_astar(const Level& level, const NavState& state, AStarScratch& scratch, uint16_t start,
                        uint16_t dest, uint16_t mask, uint32_t cap = kCostCap);

/// A straight-line test for the route's cuts: the walkable line (mask 0) from a point to a node.
using LineTest = std::function<bool(Vec3 from, int32_t from_area, uint16_t to_node)>;

/// Route_Find (0x002511c8): the search, the mask widening (| 0x8c when the mask without 0x100 is not
/// 0xff) and the 0x80 re-search (its comparison of two g that read 0 keeps the first route).
AStarResult route_find(const Level& level, const NavState& state, AStarScratch& scratch, uint16_t start,
                       uint16_t dest, uint16_t mask);

/// Route_Build (0x002513a8): take a route slot (31 down), follow the parents from `start`, the
/// leading cut, the shortcuts 2-5 ahead, the trailing cut, raise the use counts. Returns the slot,
/// -1 when the pool is empty.
int32_t route_build(const Level& level, NavState& state, const AStarScratch& scratch, uint16_t start, uint16_t dest,
                    Vec3 start_point, int32_t start_area, Vec3 dest_point, int32_t dest_area, const LineTest& line);

/// Freeing a route (0x00251680): its nodes' use counts lowered, the slot free.
void route_free(const Level& level, NavState& state, int32_t slot);

}  // namespace lockstep::warriors
