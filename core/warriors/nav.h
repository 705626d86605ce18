// The warriors model, part 2: the level's navigation data (seed 000, "Path
// planning", "A point in a hole", "Following a route"; supplement, "Nav data").
//
// Static level data (loaded from the scenario's "level", docs/warriors-level.md)
// lives in `Level`; what changes while the game runs (polygon flags of opened
// doors, avoid marks of hazard spheres, node use counts, the route pool, the
// claim table) lives in the state's `nav` subsystem (`NavState`).
//
// Units and axes as the model: metres, z up, plan (x, y).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/core/reflect.h"
#include "lockstep/core/vec.h"

namespace lockstep::warriors {

// ---------------------------------------------------------------- constants
inline constexpr uint16_t kPolyDoorHole = 4;     ///< polygon +0x48: a door's hole
inline constexpr uint16_t kPolyIgnored = 8;      ///< polygon +0x48: out of every test (an opened door's hole)
inline constexpr uint16_t kPolyInsideSkip = 0x10;  ///< polygon +0x48: skipped by the inside test

inline constexpr uint32_t kLinkAvoid = 0x80000000u;  ///< D record bit 31
inline constexpr uint16_t kLinkWalk = 1, kLinkJoint = 2, kLinkJump = 4, kLinkClimb = 8, kLinkDoor = 0x10,
                          kLinkCharge = 0x40, kLinkLedge = 0x80;
inline constexpr uint16_t kMaskAll = 0xff;       ///< the edge mask every human has (route state +0x14)
inline constexpr uint16_t kMaskNoClimbFilter = 0x100;

inline constexpr uint16_t kNoNode = 0xffff;      ///< C +0x1c: no parent
inline constexpr uint16_t kClosedMark = 0xfabc;  ///< Route_AStar: g of a closed node
inline constexpr uint32_t kCostCap = 65000;      ///< 0x005105a4: the cap on the running total
inline constexpr uint32_t kHeapMax = 1000;       ///< PathHeap_Push
inline constexpr uint32_t kClosedMax = 3000;     ///< PathList_Add
inline constexpr uint32_t kRouteMaxNodes = 128;  ///< 0x110 bytes less the count and three words
inline constexpr uint32_t kRoutePool = 32;       ///< 0x006ca250, taken from slot 31 down
inline constexpr uint32_t kClaimSlots = 40;      ///< 0x006ce978
inline constexpr uint32_t kHazardSlots = 64;     ///< 0x0065ff50
inline constexpr uint32_t kNodeSearchMax = 30;   ///< the end-node search tries up to 30 by distance

// ---------------------------------------------------------------- level data

/// One path polygon: an area's outline or one of its holes.
struct NavPolygon {
  std::vector<Vec3> points;   ///< vertices in order; edge i runs from point i to point i + 1 (closing)
  uint16_t flags = 0;         ///< +0x48 (initial; the state's copy is the live one)
  /// Slab lists (up to 16), each a list of edge indices; empty: every edge is tested.
  std::vector<std::vector<uint16_t>> slabs;
  // Derived at load: the plan bounding box.
  float min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"points"}, s.points);
    v(FieldInfo{"flags", 0x48}, s.flags);
    v(FieldInfo{"slabs"}, s.slabs);
  }
};

/// An area: the outline (its first path) and its holes.
struct NavArea {
  std::vector<NavPolygon> polygons;  ///< [0] the outline, then the holes (the list from polygon +0x20)
  uint16_t area_byte = 0;            ///< first path +0x4a: the collision triangles' area byte that finds it
  int16_t graph = 0;                 ///< first path s16 +0x02: non-zero when the area is on the route graph
  /// A record, derived at load from the nodes (grouped by area): the area's route nodes.
  int32_t first_node = 0;
  int32_t node_count = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"polygons"}, s.polygons);
    v(FieldInfo{"area_byte", 0x4a}, s.area_byte);
    v(FieldInfo{"graph", 0x02}, s.graph);
  }
};

/// A D record: on the node it enters, naming the node it comes from (the step from -> this node).
/// The original packs it in one word: the flags (kind) in the low 16 bits, a 13-bit door number
/// above them, the avoid bit at bit 31 (`word()`).
struct NavLink {
  uint16_t from = 0;
  uint16_t kind = kLinkWalk;  ///< the flags: 1, 2, 4, 8, 0x10, 0x40, 0x80 (may combine)
  uint16_t door = 0;          ///< the 13-bit door number
  bool avoid = false;         ///< bit 31 in the file
  uint32_t word() const {
    return static_cast<uint32_t>(kind) | (static_cast<uint32_t>(door & 0x1fffu) << 16) | (avoid ? kLinkAvoid : 0u);
  }
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"from"}, s.from);
    v(FieldInfo{"kind"}, s.kind);
    v(FieldInfo{"door"}, s.door);
    v(FieldInfo{"avoid"}, s.avoid);
  }
};

/// A C record's static part.
struct NavNode {
  Vec3 position;
  int32_t area = 0;              ///< the area (polygon) the node lies in
  uint16_t pair = kNoNode;       ///< the paired node (a jump's other end)
  std::vector<NavLink> links;    ///< its D records, in file order
  int32_t first_link = 0;        ///< derived: index of links[0] in the level's flat link numbering
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"position"}, s.position);
    v(FieldInfo{"area"}, s.area);
    v(FieldInfo{"pair"}, s.pair);
    v(FieldInfo{"links"}, s.links);
  }
};

/// A collision triangle, for Nav_FindAreaCandidate's ray.
struct NavTriangle {
  Vec3 a, b, c;
  uint8_t area_byte = 0;  ///< triangle byte +0x09: the hit's +0x2e
  uint8_t flags = 0;      ///< bit 4 (0x10): "under cover" (Ground_ProbeBelow)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"a"}, s.a);
    v(FieldInfo{"b"}, s.b);
    v(FieldInfo{"c"}, s.c);
    v(FieldInfo{"area_byte"}, s.area_byte);
    v(FieldInfo{"flags"}, s.flags);
  }
};

/// A door: its number (the D records' 13-bit door number) and its hole.
struct NavDoor {
  uint32_t number = 0;
  int32_t area = 0;
  int32_t hole = 1;  ///< polygon index within the area (a hole, > 0)
  bool open = false;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"number"}, s.number);
    v(FieldInfo{"area"}, s.area);
    v(FieldInfo{"hole"}, s.hole);
    v(FieldInfo{"open"}, s.open);
  }
};

/// A hazard sphere present at the start (a fire).
struct NavHazardSpec {
  Vec3 centre;
  float radius = 0.5f;
  int32_t word = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"centre"}, s.centre);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"word"}, s.word);
  }
};

/// The level: the path data and what the navigation reads of the world.
struct Level {
  std::vector<NavArea> areas;
  std::vector<NavNode> nodes;
  std::vector<NavTriangle> triangles;
  std::vector<NavDoor> doors;
  std::vector<NavHazardSpec> hazards;
  bool climb_filter = false;  ///< 0x0051059c: the script's ClimbFilter(on)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"areas"}, s.areas);
    v(FieldInfo{"nodes"}, s.nodes);
    v(FieldInfo{"triangles"}, s.triangles);
    v(FieldInfo{"doors"}, s.doors);
    v(FieldInfo{"hazards"}, s.hazards);
    v(FieldInfo{"climb_filter"}, s.climb_filter);
  }
  bool empty() const { return areas.empty(); }
  /// Derived data (boxes, flat link numbering); called by the loader after validation.
  void derive();
  /// The total number of polygons and of links (flat numbering: area by area, node by node).
  uint32_t polygon_count() const;
  uint32_t link_count() const;
  /// Flat index of polygon p of area a.
  uint32_t polygon_index(int32_t area, int32_t polygon) const;
};

// ---------------------------------------------------------------- state

/// One hazard sphere record (0x40 bytes at 0x0065ff50).
struct Hazard {
  Vec3 centre;          ///< +0x00
  Vec3 box_min;         ///< +0x10
  Vec3 box_max;         ///< +0x20
  float near_sq = 0;    ///< +0x30: (r + 0.3)^2
  float block_sq = 0;   ///< +0x34: (r + 0.8)^2
  int32_t word = 0;     ///< +0x38
  int32_t in_use = 0;   ///< +0x3c
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"centre", 0x00}, s.centre);
    v(FieldInfo{"box_min", 0x10}, s.box_min);
    v(FieldInfo{"box_max", 0x20}, s.box_max);
    v(FieldInfo{"near_sq", 0x30}, s.near_sq);
    v(FieldInfo{"block_sq", 0x34}, s.block_sq);
    v(FieldInfo{"word", 0x38}, s.word);
    v(FieldInfo{"in_use", 0x3c}, s.in_use);
  }
};

/// A route (0x110 bytes, pool at 0x006ca250).
struct Route {
  int32_t count = 0;                       ///< +0x00
  std::array<uint16_t, kRouteMaxNodes> nodes{};  ///< +0x04: node indices in walking order
  uint16_t start_node = kNoNode;           ///< +0x104
  uint16_t last_node = kNoNode;            ///< +0x108
  int32_t dest_area = -1;                  ///< +0x10c
  int32_t in_use = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"count", 0x00}, s.count);
    v(FieldInfo{"nodes", 0x04}, s.nodes);
    v(FieldInfo{"start_node", 0x104}, s.start_node);
    v(FieldInfo{"last_node", 0x108}, s.last_node);
    v(FieldInfo{"dest_area", 0x10c}, s.dest_area);
    v(FieldInfo{"in_use"}, s.in_use);
  }
};

/// A waypoint claim (0x006ce978, supplement "Waypoint claims").
struct Claim {
  int32_t node = -1;
  int32_t human = -1;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"node"}, s.node);
    v(FieldInfo{"human"}, s.human);
  }
};

/// What changes in the navigation while the game runs.
struct NavState {
  int32_t hazard_count = 0;                     ///< 0x00510170
  std::array<Hazard, kHazardSlots> hazards{};   ///< 0x0065ff50
  std::vector<uint16_t> polygon_flags;          ///< +0x48 of every polygon (flat), live
  std::vector<uint8_t> link_marks;              ///< per link (flat): hazard spheres marking it avoided
  std::vector<uint8_t> node_use;                ///< C +0x1f: routes through each node
  /// The C records' search fields, kept between searches as the original keeps them (only the
  /// parents are reset by a search; its closed nodes' g are zeroed at its end; N10).
  std::vector<uint16_t> node_f, node_g, node_h, node_parent;
  std::array<Route, kRoutePool> routes{};
  std::array<Claim, kClaimSlots> claims{};
  std::vector<uint8_t> door_open;               ///< per level door: opened (its hole has flag 8)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"hazard_count"}, s.hazard_count);
    v(FieldInfo{"hazards"}, s.hazards);
    v(FieldInfo{"polygon_flags", 0x48}, s.polygon_flags);
    v(FieldInfo{"link_marks"}, s.link_marks);
    v(FieldInfo{"node_use", 0x1f}, s.node_use);
    v(FieldInfo{"node_f", 0x16}, s.node_f);
    v(FieldInfo{"node_g", 0x18}, s.node_g);
    v(FieldInfo{"node_h"}, s.node_h);
    v(FieldInfo{"node_parent", 0x1c}, s.node_parent);
    v(FieldInfo{"routes"}, s.routes);
    v(FieldInfo{"claims"}, s.claims);
    v(FieldInfo{"door_open"}, s.door_open);
  }
  /// The state a level starts with: its polygons' flags, no marks, no routes, no claims, its doors
  /// as the level says, its hazard spheres added.
  static NavState initial(const Level& level);
};

/// Open or close door `door` (an index into the level's doors): flag 8 on its hole, set or cleared.
void set_door(const Level& level, NavState& state, int32_t door, bool open);
/// A D record's bit 31 as it stands: the file's avoid bit, which an opened door clears for the
/// records carrying its number (docs/spec-notes.md, part 2).
bool link_file_avoid(const Level& level, const NavState& state, const NavLink& link);

}  // namespace lockstep::warriors
