// warriors navigation tests (navgeom): the geometry of the path data. Seed 000
// (../shared/seeds/000_f781e9935f3cbcaa.txt), "Path planning": the polygons
// and path flag 8, the walkable-line test (0x0024fbf8), "What blocks a line at
// a fence" (the runtime case Vermin's fence, with its numbers), the hazard
// spheres (0x00221f80), a node in a straight line (0x0024f290) and a point's
// area (0x00250708 / 0x00250760); 000-supplement.md, "A point in a hole" and
// "Nav data".
//
// Levels are built here in code. Expected values come from the spec's numbers
// and rules, computed here in double precision (never copied from the model's
// own output). Where the seed is silent the test names the port's choice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "math_reference.h"
#include "warriors/navgeom.h"

using namespace lockstep;
using namespace lockstep::warriors;

namespace ref = lockstep::test_support::ref;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// A rectangle polygon: (x0, y0), (x1, y0), (x1, y1), (x0, y1); edges bottom, right, top, left.
NavPolygon rect(float x0, float y0, float x1, float y1, uint16_t flags = 0) {
  NavPolygon p;
  p.points = {Vec3{x0, y0, 0}, Vec3{x1, y0, 0}, Vec3{x1, y1, 0}, Vec3{x0, y1, 0}};
  p.flags = flags;
  return p;
}

NavArea area_of(std::vector<NavPolygon> polys, uint16_t byte) {
  NavArea a;
  a.polygons = std::move(polys);
  a.area_byte = byte;
  a.graph = 1;
  return a;
}

/// Two collision triangles covering a rectangle at height z.
void add_ground(Level& lv, float x0, float y0, float x1, float y1, float z, uint8_t byte) {
  NavTriangle t1{Vec3{x0, y0, z}, Vec3{x1, y0, z}, Vec3{x1, y1, z}, byte, 0};
  NavTriangle t2{Vec3{x0, y0, z}, Vec3{x1, y1, z}, Vec3{x0, y1, z}, byte, 0};
  lv.triangles.push_back(t1);
  lv.triangles.push_back(t2);
}

/// The live state a level starts with (flags copied, no marks).
NavState state_of(const Level& lv) {
  NavState st;
  for (const auto& a : lv.areas)
    for (const auto& p : a.polygons) st.polygon_flags.push_back(p.flags);
  return st;
}

uint16_t& live_flags(const Level& lv, NavState& st, int32_t area, int32_t poly) {
  return st.polygon_flags[lv.polygon_index(area, poly)];
}

/// The parameters t in [0, 1) at which p -> q crosses the polygon's edges in plan (double).
std::vector<double> crossings(const NavPolygon& poly, Vec3 p, Vec3 q) {
  std::vector<double> out;
  const std::size_t n = poly.points.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 a = poly.points[i], b = poly.points[(i + 1) % n];
    const double dx = double(q.x) - p.x, dy = double(q.y) - p.y;
    const double ex = double(b.x) - a.x, ey = double(b.y) - a.y;
    const double den = dx * ey - dy * ex;
    if (den == 0) continue;
    const double wx = double(a.x) - p.x, wy = double(a.y) - p.y;
    const double t = (wx * ey - wy * ex) / den, s = (wx * dy - wy * dx) / den;
    if (t >= 0 && t < 1 && s >= 0 && s <= 1) out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---------------------------------------------------------------- Vermin's fence
// Seed, "What blocks a line at a fence": level99, checkpoint 3. The street's area
// (outline polygon 0) holds the fence's hole (4 vertices, flags 7, x 44.14..50.61,
// y 24.38..25.19) and fence door 2's hole (x 44.93..49.50, y 30.79..31.56, flags 7).
constexpr uint8_t kStreetByte = 5;
const Vec3 kVerminFrom{47.49f, 42.97f, 0};
const Vec3 kVerminTo{46.30f, 20.22f, 0};

Level street(bool with_fence = true) {
  Level lv;
  std::vector<NavPolygon> polys{rect(30, 10, 60, 60)};
  if (with_fence) polys.push_back(rect(44.14f, 24.38f, 50.61f, 25.19f, 7));
  polys.push_back(rect(44.93f, 30.79f, 49.50f, 31.56f, 7));
  lv.areas.push_back(area_of(polys, kStreetByte));
  add_ground(lv, 30, 10, 60, 60, 0, kStreetByte);
  lv.derive();
  return lv;
}
constexpr int32_t kFence = 1, kDoor = 2;

}  // namespace

TEST_CASE("Vermin's fence: the line crosses the fence hole and door 2's hole and is refused", "[warriors][nav]") {
  const Level lv = street();
  NavState st = state_of(lv);
  const NavGeom g(lv, st);

  // The seed's parameters, computed independently from the two holes' boxes.
  const auto fence = crossings(lv.areas[0].polygons[kFence], kVerminFrom, kVerminTo);
  const auto door = crossings(lv.areas[0].polygons[kDoor], kVerminFrom, kVerminTo);
  REQUIRE(fence.size() == 2);
  REQUIRE(door.size() == 2);
  CHECK(fence[0] == Approx(0.78).margin(0.005));
  CHECK(fence[1] == Approx(0.82).margin(0.005));
  CHECK(door[0] == Approx(0.50).margin(0.005));
  CHECK(door[1] == Approx(0.54).margin(0.005));
  CHECK(crossings(lv.areas[0].polygons[0], kVerminFrom, kVerminTo).empty());  // the outline is not crossed
  // The nearest (door, 0.50) and farthest (fence, 0.82) crossings are metres apart.
  const double len = ref::hypot(double(kVerminTo.x) - kVerminFrom.x, double(kVerminTo.y) - kVerminFrom.y);
  CHECK((fence[1] - door[0]) * len > 5.0);

  // Both ends lie in the street's area: a "union of polygons" test would let the line through.
  CHECK(g.find_area(kVerminFrom) == 0);
  CHECK(g.find_area(kVerminTo) == 0);
  const bool union_shortcut = g.find_area(kVerminFrom) >= 0 && g.find_area(kVerminFrom) == g.find_area(kVerminTo);
  CHECK(union_shortcut);
  // The real test refuses it (the mask of the route request's straight line is 0), and so
  // does a node's straight line.
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  CHECK_FALSE(g.node_line(0, kVerminFrom, kVerminTo));
  // The checkpoint's hazard count was 0: no sphere test.
  CHECK_FALSE(g.hazard_blocks(kVerminFrom, kVerminTo));
}

TEST_CASE("Vermin's fence: an opened door's hole drops out, the fence's still refuses", "[warriors][nav]") {
  const Level lv = street();
  NavState st = state_of(lv);
  const NavGeom g(lv, st);
  live_flags(lv, st, 0, kDoor) |= kPolyIgnored;  // door 2 opened (supplement, "Nav data")
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  CHECK_FALSE(g.node_line(0, kVerminFrom, kVerminTo));
  live_flags(lv, st, 0, kFence) |= kPolyIgnored;  // flag 8 on the fence too
  CHECK(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  CHECK(g.node_line(0, kVerminFrom, kVerminTo));
  live_flags(lv, st, 0, kDoor) = 7;  // the door closed again: refused
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  CHECK(g.polygon_flags(0, kDoor) == 7);
  CHECK(g.polygon_flags(0, kFence) == (7 | kPolyIgnored));
}

TEST_CASE("Vermin's fence: without the fence the line passes once door 2 is open", "[warriors][nav]") {
  const Level lv = street(false);
  NavState st = state_of(lv);
  const NavGeom g(lv, st);
  const int32_t door = 1;  // the only hole now
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0));  // door 2's hole: 0.50 and 0.54
  live_flags(lv, st, 0, door) |= kPolyIgnored;
  CHECK(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
}

TEST_CASE("The walkable-line mask takes polygons with any of its bits out of the test", "[warriors][nav]") {
  const Level lv = street();
  const NavState st = state_of(lv);
  const NavGeom g(lv, st);
  // Both holes have flags 7: a mask sharing a bit with 7 drops them, one that does not keeps them.
  CHECK(g.walkable_line(0, kVerminFrom, kVerminTo, kPolyDoorHole));
  CHECK(g.walkable_line(0, kVerminFrom, kVerminTo, 1));
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0x10));
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0x100));
  // The node line has no mask (0): flags 7 holes still cut it.
  CHECK_FALSE(g.node_line(0, kVerminFrom, kVerminTo));
}

TEST_CASE("The walkable line is refused when no polygon of the start area is tested", "[warriors][nav]") {
  Level lv;
  lv.areas.push_back(area_of({rect(0, 0, 10, 10, 2)}, 1));
  add_ground(lv, 0, 0, 10, 10, 0, 1);
  lv.derive();
  const NavState st = state_of(lv);
  const NavGeom g(lv, st);
  const Vec3 p{2, 2, 0}, q{8, 8, 0};
  CHECK(g.walkable_line(0, p, q, 0));       // the outline tested, no crossing, q in the area
  CHECK_FALSE(g.walkable_line(0, p, q, 2));  // the outline masked out: no such polygon
  CHECK_FALSE(g.walkable_line(1, p, q, 0));  // no such area
  CHECK_FALSE(g.walkable_line(-1, p, q, 0));
}

TEST_CASE("The walkable line reads the slab lists when a polygon has them", "[warriors][nav]") {
  // Choice (seed: "Edges come from the slab lists when the polygon has them"): the union of the
  // lists; an edge in no list is not tested, an index past the last edge is skipped.
  Level lv = street();
  auto& fence = lv.areas[0].polygons[kFence];
  NavState st = state_of(lv);
  live_flags(lv, st, 0, kDoor) |= kPolyIgnored;  // only the fence left in the way
  const NavGeom g(lv, st);
  fence.slabs = {{1}, {3}};  // the two short sides: the line crosses neither
  CHECK(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  fence.slabs = {{0}};  // the bottom only: one crossing, the nearest and the farthest the same point
  CHECK(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  fence.slabs = {{0}, {2}};  // the bottom and the top
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  fence.slabs = {{2, 0, 2}};  // repeated indices change nothing
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  fence.slabs = {{9}};  // past the last edge
  CHECK(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
  fence.slabs.clear();  // no lists: every edge
  CHECK_FALSE(g.walkable_line(0, kVerminFrom, kVerminTo, 0));
}

namespace {

/// Area A (0, byte 1) x 0..10 and area B (1, byte 2) x 10 + gap..20, y 0..10; B's triangles first
/// (so on the shared line x = 10 the ray's tie goes to B) unless a_first.
Level two_areas(float gap, bool a_first = false, bool hole_in_b = false) {
  Level lv;
  lv.areas.push_back(area_of({rect(0, 0, 10, 10)}, 1));
  std::vector<NavPolygon> b{rect(10 + gap, 0, 20, 10)};
  if (hole_in_b) b.push_back(rect(12, 4, 13, 6));
  lv.areas.push_back(area_of(b, 2));
  if (a_first) add_ground(lv, 0, 0, 10, 10, 0, 1);
  add_ground(lv, 10, 0, 20, 10, 0, 2);
  if (!a_first) add_ground(lv, 0, 0, 10, 10, 0, 1);
  lv.derive();
  return lv;
}

}  // namespace

TEST_CASE("A line into an adjacent area passes only when it leaves where it enters (0.02 m)", "[warriors][nav]") {
  const Vec3 p{5, 5, 0}, q{15, 5, 0};
  {
    const Level lv = two_areas(0);
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    REQUIRE(g.find_area(p) == 0);
    REQUIRE(g.find_area(q) == 1);
    CHECK(g.walkable_line(0, p, q, 0));  // the shared edge: one point
    CHECK(g.walkable_line(1, q, p, 0));  // and back
    CHECK_FALSE(g.node_line(0, p, q));  // a node's line crosses the outline
  }
  {
    const Level lv = two_areas(0.01f);  // 0.01 m apart: dist^2 1e-4 < 4e-4
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    REQUIRE(g.find_area(q) == 1);
    CHECK(g.walkable_line(0, p, q, 0));
  }
  {
    const Level lv = two_areas(0.03f);  // 0.03 m apart: dist^2 9e-4
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    REQUIRE(g.find_area(q) == 1);
    CHECK_FALSE(g.walkable_line(0, p, q, 0));
  }
  {
    const Level lv = two_areas(0, false, true);  // a hole in B between the shared edge and q
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    REQUIRE(g.find_area(q) == 1);
    CHECK_FALSE(g.walkable_line(0, p, q, 0));
    CHECK(g.walkable_line(0, p, Vec3{11.5f, 5, 0}, 0));  // stopping short of the hole
  }
  {
    const Level lv = two_areas(0);
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    CHECK_FALSE(g.walkable_line(0, p, Vec3{25, 5, 0}, 0));  // the end point has no area
  }
}

TEST_CASE("A crossing at exactly t = 1 is ignored: the end point's own area decides", "[warriors][nav]") {
  const Vec3 p{5, 5, 0}, on_edge{10, 5, 0};
  {
    // The ray's tie on the shared line goes to B: the line ends in B without a crossing.
    const Level lv = two_areas(0);
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    REQUIRE(g.find_area(on_edge) == 1);
    CHECK_FALSE(g.walkable_line(0, p, on_edge, 0));  // counted, t = 1 would have passed (one point)
    CHECK(g.walkable_line(0, p, Vec3{10.5f, 5, 0}, 0));  // a crossing at t < 1 passes
  }
  {
    const Level lv = two_areas(0, true);  // the tie goes to A
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    REQUIRE(g.find_area(on_edge) == 0);
    CHECK(g.walkable_line(0, p, on_edge, 0));
    CHECK(g.node_line(0, p, on_edge));  // the node line ignores t = 1 as well
  }
  {
    // The same inside one area: a line ending on a hole's edge.
    Level lv;
    lv.areas.push_back(area_of({rect(0, 0, 10, 10), rect(4, 4, 6, 6, 7)}, 1));
    add_ground(lv, 0, 0, 10, 10, 0, 1);
    lv.derive();
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    CHECK(g.walkable_line(0, Vec3{5, 1, 0}, Vec3{5, 4, 0}, 0));
    CHECK(g.node_line(0, Vec3{5, 1, 0}, Vec3{5, 4, 0}));
    CHECK_FALSE(g.walkable_line(0, Vec3{5, 1, 0}, Vec3{5, 4.5f, 0}, 0));  // into the hole
    // Choice: a crossing at t = 0 counts (a line starting on the hole's edge into it is refused).
    CHECK_FALSE(g.node_line(0, Vec3{5, 4, 0}, Vec3{5, 5, 0}));
  }
}

// ---------------------------------------------------------------- the hazard spheres

TEST_CASE("add_hazard fills the first free slot with the seed's record", "[warriors][nav]") {
  const Level lv;
  NavState st;
  const Vec3 c{1, 2, 3};
  const float r = 0.5f;
  CHECK(add_hazard(lv, st, c, r, 0) == 0);
  const Hazard& h = st.hazards[0];
  CHECK(h.in_use == 1);
  CHECK(h.word == 0);
  CHECK(h.centre == c);
  CHECK(h.near_sq == Approx(0.8 * 0.8));   // +0x30: (r + 0.3)^2
  CHECK(h.block_sq == Approx(1.3 * 1.3));  // +0x34: (r + 0.8)^2
  // Choice (+0x10 / +0x20, the box): the centre -+ (r + 0.8), the blocking reach.
  CHECK(h.box_min.x == Approx(1 - 1.3));
  CHECK(h.box_min.y == Approx(2 - 1.3));
  CHECK(h.box_min.z == Approx(3 - 1.3));
  CHECK(h.box_max.x == Approx(1 + 1.3));
  CHECK(h.box_max.y == Approx(2 + 1.3));
  CHECK(h.box_max.z == Approx(3 + 1.3));
  CHECK(st.hazard_count == 1);
  CHECK(add_hazard(lv, st, c, r, 7) == 1);
  CHECK(st.hazards[1].word == 7);
  CHECK(st.hazard_count == 2);
  remove_hazard(lv, st, 0);
  CHECK(st.hazard_count == 1);
  CHECK(st.hazards[0].in_use == 0);
  CHECK(add_hazard(lv, st, c, r, 0) == 0);  // the first free slot
  for (int i = 2; i < 64; ++i) CHECK(add_hazard(lv, st, c, r, 0) == i);
  CHECK(st.hazard_count == 64);
  CHECK(add_hazard(lv, st, c, r, 0) == -1);  // 64 slots
  CHECK(st.hazard_count == 64);
  remove_hazard(lv, st, 40);
  remove_hazard(lv, st, 40);  // a free slot: nothing
  CHECK(st.hazard_count == 63);
  CHECK(add_hazard(lv, st, c, r, 0) == 40);
}

TEST_CASE("Hazard spheres: no test while the count is 0", "[warriors][nav]") {
  const Level lv;
  NavState st;
  const NavGeom g(lv, st);
  REQUIRE(add_hazard(lv, st, Vec3{0, 0, 0}, 0.5f, 0) == 0);
  const Vec3 p{0, -5, 0}, q{0, 5, 0};  // straight through the centre
  CHECK(g.hazard_blocks(p, q));
  st.hazard_count = 0;  // the record still in use, the count 0 (0x00510170): no test
  CHECK_FALSE(g.hazard_blocks(p, q));
}

TEST_CASE("Hazard spheres: the box, the 3D distance r + 0.8 and the 45 degree heading", "[warriors][nav]") {
  const Level lv;
  NavState st;
  const NavGeom g(lv, st);
  const float r = 0.5f;  // block reach 1.3 m
  REQUIRE(add_hazard(lv, st, Vec3{0, 0, 0}, r, 0) == 0);

  SECTION("the distance, in 3D, at the points' own heights") {
    CHECK(g.hazard_blocks(Vec3{1.2f, -5, 0}, Vec3{1.2f, 5, 0}));        // 1.2 < 1.3
    CHECK_FALSE(g.hazard_blocks(Vec3{1.4f, -5, 0}, Vec3{1.4f, 5, 0}));  // 1.4 > 1.3
    // 0.5 m aside and 1.0 m up: sqrt(1.25) = 1.118; 1.25 m up: sqrt(1.8125) = 1.346.
    CHECK(g.hazard_blocks(Vec3{0.5f, -5, 1.0f}, Vec3{0.5f, 5, 1.0f}));
    CHECK_FALSE(g.hazard_blocks(Vec3{0.5f, -5, 1.25f}, Vec3{0.5f, 5, 1.25f}));
    // The nearest point of the segment, not of its line: a segment stopping 2 m short.
    CHECK_FALSE(g.hazard_blocks(Vec3{0, -6, 0}, Vec3{0, -2, 0}));
    CHECK(g.hazard_blocks(Vec3{0, -6, 0}, Vec3{0, -1.2f, 0}));
  }
  SECTION("the heading: (Q - P)/|Q - P| . (P - C)/|P - C| < -0.707") {
    // From P = (0, -1), 1 m from the centre (inside the reach), heading a degrees off the centre:
    // the cosine is -cos a.
    const Vec3 p{0, -1, 0};
    auto towards = [&](double a_deg) {
      const double a = a_deg * kPi / 180.0;
      return Vec3{static_cast<float>(5 * ref::sin(a)), static_cast<float>(-1 + 5 * ref::cos(a)), 0};
    };
    CHECK(g.hazard_blocks(p, towards(0)));
    CHECK(g.hazard_blocks(p, towards(40)));
    CHECK(g.hazard_blocks(p, towards(44)));
    CHECK_FALSE(g.hazard_blocks(p, towards(46)));
    CHECK_FALSE(g.hazard_blocks(p, towards(90)));
    // Heading away from the fire from inside its reach passes.
    CHECK_FALSE(g.hazard_blocks(p, Vec3{0, -6, 0}));
    CHECK_FALSE(g.hazard_blocks(Vec3{0.3f, 0.2f, 0}, Vec3{3, 4, 0}));
  }
  SECTION("the box (x, y and z) must meet the segment's box") {
    // A record whose box is smaller than its reach: the box test alone refuses.
    Hazard& h = st.hazards[0];
    h.box_min = Vec3{-0.1f, -0.1f, -0.1f};
    h.box_max = Vec3{0.1f, 0.1f, 0.1f};
    CHECK(g.hazard_blocks(Vec3{0.05f, -5, 0}, Vec3{0.05f, 5, 0}));
    CHECK_FALSE(g.hazard_blocks(Vec3{0.5f, -5, 0}, Vec3{0.5f, 5, 0}));  // x misses the box
    CHECK_FALSE(g.hazard_blocks(Vec3{0.05f, -5, 0.5f}, Vec3{0.05f, 5, 0.5f}));  // z misses
    CHECK(g.hazard_blocks(Vec3{0.05f, -5, -0.5f}, Vec3{0.05f, 5, 0.5f}));  // z spans it
  }
  SECTION("a freed sphere blocks nothing") {
    remove_hazard(lv, st, 0);
    CHECK(st.hazard_count == 0);
    CHECK_FALSE(g.hazard_blocks(Vec3{0, -5, 0}, Vec3{0, 5, 0}));
  }
}

TEST_CASE("An AI's straight line and a node's line refuse to run into a fire", "[warriors][nav]") {
  Level lv;
  lv.areas.push_back(area_of({rect(0, 0, 20, 20)}, 1));
  add_ground(lv, 0, 0, 20, 20, 0, 1);
  lv.derive();
  NavState st = state_of(lv);
  const NavGeom g(lv, st);
  const Vec3 p{2, 10, 0}, q{18, 10, 0};
  CHECK(g.walkable_line(0, p, q, 0));
  CHECK(g.node_line(0, p, q));
  const int32_t fire = add_hazard(lv, st, Vec3{10, 10.5f, 0}, 0.6f, 0);
  CHECK_FALSE(g.walkable_line(0, p, q, 0));
  CHECK_FALSE(g.node_line(0, p, q));
  CHECK(g.walkable_line(0, q, Vec3{19, 10, 0}, 0));  // walking away from it
  remove_hazard(lv, st, fire);
  CHECK(g.walkable_line(0, p, q, 0));
}

TEST_CASE("Hazard marks on links are counted across overlapping spheres", "[warriors][nav]") {
  Level lv;
  lv.areas.push_back(area_of({rect(-5, -5, 20, 20)}, 1));
  NavNode n0, n1, n2;
  n0.position = Vec3{0, 0, 0};
  n1.position = Vec3{10, 0, 0};
  n2.position = Vec3{10, 10, 0};
  n0.links = {NavLink{1, kLinkWalk, 0, false}};                                  // flat 0: 1 -> 0
  n1.links = {NavLink{0, kLinkWalk, 0, false}, NavLink{2, kLinkWalk, 0, false}};  // flat 1: 0 -> 1, 2: 2 -> 1
  n2.links = {NavLink{1, kLinkDoor, 0, true}};                                   // flat 3: 1 -> 2, file bit 31
  lv.nodes = {n0, n1, n2};
  lv.derive();
  REQUIRE(lv.link_count() == 4);
  NavState st = state_of(lv);
  REQUIRE(st.link_marks.empty());

  // Sphere A 0.5 m and sphere B 0.6 m from the edge 0 - 1 (both within r + 0.3 = 0.8).
  const int32_t a = add_hazard(lv, st, Vec3{5, 0.5f, 0}, 0.5f, 0);
  REQUIRE(st.link_marks.size() == 4);
  CHECK(st.link_marks[0] == 1);
  CHECK(st.link_marks[1] == 1);
  CHECK(st.link_marks[2] == 0);
  CHECK(st.link_marks[3] == 0);
  const int32_t b = add_hazard(lv, st, Vec3{6, -0.6f, 0}, 0.5f, 0);
  CHECK(st.link_marks[0] == 2);
  CHECK(st.link_marks[1] == 2);
  CHECK(link_avoided(lv, st, 0));
  CHECK(link_avoided(lv, st, 1));
  CHECK_FALSE(link_avoided(lv, st, 2));
  CHECK(link_avoided(lv, st, 3));  // the file's bit
  remove_hazard(lv, st, a);  // B still marks them
  CHECK(st.link_marks[0] == 1);
  CHECK(link_avoided(lv, st, 0));
  CHECK(link_avoided(lv, st, 1));
  remove_hazard(lv, st, b);  // the last one goes: released
  CHECK(st.link_marks[0] == 0);
  CHECK_FALSE(link_avoided(lv, st, 0));
  CHECK_FALSE(link_avoided(lv, st, 1));
  CHECK(link_avoided(lv, st, 3));
  CHECK_FALSE(link_avoided(lv, st, 99));  // no such link

  // The reach is r + 0.3 (not r): 0.75 m from the edge marks it, 0.85 m does not.
  const int32_t c = add_hazard(lv, st, Vec3{5, 0.75f, 0}, 0.5f, 0);
  CHECK(st.link_marks[0] == 1);
  CHECK(st.link_marks[2] == 0);
  remove_hazard(lv, st, c);
  add_hazard(lv, st, Vec3{5, 0.85f, 0}, 0.5f, 0);
  CHECK(st.link_marks[0] == 0);
  // The edge runs from the record's `from` node to its own: 0.7 m beside node 1 - 2 marks 2 and 3.
  add_hazard(lv, st, Vec3{10.7f, 5, 0}, 0.5f, 0);
  CHECK(st.link_marks[2] == 1);
  CHECK(st.link_marks[3] == 1);
  CHECK(st.link_marks[0] == 0);
}

// ---------------------------------------------------------------- a point's area

TEST_CASE("The ray's first hit decides the area: a walkway within 0.4 m above the point", "[warriors][nav]") {
  auto level = [](float walkway_z) {
    Level lv;
    lv.areas.push_back(area_of({rect(0, 0, 20, 20)}, 1));  // 0: the ground
    lv.areas.push_back(area_of({rect(5, 5, 10, 10)}, 2));  // 1: a walkway
    add_ground(lv, 0, 0, 20, 20, 0, 1);                    // triangles 0, 1
    add_ground(lv, 5, 5, 10, 10, walkway_z, 2);            // triangles 2, 3
    lv.derive();
    return lv;
  };
  {
    const Level lv = level(0.3f);  // less than 0.4 m above the ground
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    CHECK(g.find_area(Vec3{7, 7, 0}) == 1);  // under the walkway: its byte
    RayHit hit;
    REQUIRE(g.ray_down(Vec3{7, 7, 0.4f}, 4.0f, &hit));
    CHECK((hit.triangle == 2 || hit.triangle == 3));
    CHECK(hit.area_byte == 2);
    CHECK(hit.t == Approx(0.1).margin(1e-6));
    CHECK(hit.point.z == Approx(0.3).margin(1e-6));
    CHECK(g.find_area(Vec3{15, 15, 0}) == 0);  // beside it: the ground
  }
  {
    const Level lv = level(0.5f);  // more than 0.4 m above
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    CHECK(g.find_area(Vec3{7, 7, 0}) == 0);  // under it: the ground's byte
    CHECK(g.find_area(Vec3{7, 7, 0.5f}) == 1);  // on it
  }
  {
    const Level lv = level(2.0f);
    const NavState st = state_of(lv);
    const NavGeom g(lv, st);
    CHECK(g.find_area(Vec3{7, 7, 2.0f}) == 1);
    CHECK(g.find_area(Vec3{7, 7, 1.0f}) == 0);
    // 4 m from 0.4 m above: ground down to 3.6 m below the point.
    CHECK(g.find_area(Vec3{15, 15, 3.5f}) == 0);
    CHECK(g.find_area(Vec3{15, 15, 3.7f}) == -1);
    CHECK(g.find_area(Vec3{15, 15, -0.5f}) == -1);  // the ground above the ray's start
  }
}

TEST_CASE("ray_down: the nearest hit, ties by the lower triangle index, either winding, edges included",
          "[warriors][nav]") {
  Level lv;
  lv.triangles.push_back(NavTriangle{Vec3{0, 0, 0}, Vec3{10, 0, 0}, Vec3{0, 10, 0}, 3, 0});
  lv.triangles.push_back(NavTriangle{Vec3{0, 0, 0}, Vec3{0, 10, 0}, Vec3{10, 0, 0}, 4, 0x10});  // clockwise
  const NavState st;
  const NavGeom g(lv, st);
  RayHit hit;
  REQUIRE(g.ray_down(Vec3{2, 2, 1}, 4, &hit));
  CHECK(hit.triangle == 0);
  CHECK(hit.area_byte == 3);
  CHECK(hit.t == 1.0f);
  std::swap(lv.triangles[0], lv.triangles[1]);
  REQUIRE(g.ray_down(Vec3{2, 2, 1}, 4, &hit));
  CHECK(hit.triangle == 0);
  CHECK(hit.area_byte == 4);
  CHECK(hit.flags == 0x10);
  CHECK(g.ray_down(Vec3{5, 5, 1}, 4, &hit));  // on the hypotenuse
  CHECK(g.ray_down(Vec3{0, 0, 1}, 4, &hit));  // on a vertex
  CHECK_FALSE(g.ray_down(Vec3{5.1f, 5, 1}, 4, &hit));
  CHECK(g.ray_down(Vec3{2, 2, 4}, 4, &hit));  // t = 4: the ray's end included
  CHECK_FALSE(g.ray_down(Vec3{2, 2, 4.5f}, 4, &hit));
  // A raised triangle above the ground hit first, whatever its index.
  lv.triangles.push_back(NavTriangle{Vec3{0, 0, 0.5f}, Vec3{10, 0, 0.5f}, Vec3{0, 10, 0.5f}, 9, 0});
  REQUIRE(g.ray_down(Vec3{2, 2, 1}, 4, &hit));
  CHECK(hit.triangle == 2);
  CHECK(hit.t == 0.5f);
  // A sloped triangle: the height interpolated.
  Level slope;
  slope.triangles.push_back(NavTriangle{Vec3{0, 0, 0}, Vec3{10, 0, 1}, Vec3{0, 10, 0}, 1, 0});
  const NavGeom gs(slope, st);
  REQUIRE(gs.ray_down(Vec3{5, 2, 3}, 4, &hit));
  CHECK(hit.point.z == Approx(0.5).margin(1e-6));
  CHECK(hit.t == Approx(2.5).margin(1e-6));
}

TEST_CASE("Nav_FindAreaCandidate: byte, box widened by 0.35 m, vertex count, flag 8", "[warriors][nav]") {
  Level lv;
  lv.areas.push_back(area_of({rect(0, 0, 20, 20)}, 1));  // 0
  lv.areas.push_back(area_of({rect(0, 0, 20, 20)}, 1));  // 1: the same outline and byte
  lv.areas.push_back(area_of({rect(0, 0, 20, 20)}, 3));  // 2: another byte
  add_ground(lv, -5, -5, 25, 25, 0, 1);
  lv.derive();
  NavState st = state_of(lv);
  const NavGeom g(lv, st);
  CHECK(g.find_area_candidate(Vec3{10, 10, 0}) == 0);  // the first in list order
  CHECK(g.find_area_candidate(Vec3{20.3f, 10, 0}) == 0);  // within 0.35 m of the box
  CHECK(g.find_area(Vec3{20.3f, 10, 0}) == -1);           // but outside the outline
  CHECK(g.find_area_candidate(Vec3{20.4f, 10, 0}) == -1);
  CHECK(g.find_area_candidate(Vec3{10, -0.3f, 0}) == 0);
  CHECK(g.find_area_candidate(Vec3{10, -0.4f, 0}) == -1);
  live_flags(lv, st, 0, 0) |= kPolyIgnored;  // flag 8 on area 0's outline: the next one
  CHECK(g.find_area_candidate(Vec3{10, 10, 0}) == 1);
  CHECK(g.find_area(Vec3{10, 10, 0}) == 1);
  live_flags(lv, st, 1, 0) |= kPolyInsideSkip;  // 0x10 does not matter to the candidate
  CHECK(g.find_area_candidate(Vec3{10, 10, 0}) == 1);
  live_flags(lv, st, 1, 0) |= kPolyIgnored;
  CHECK(g.find_area_candidate(Vec3{10, 10, 0}) == -1);  // byte 3's area is never the ray's
  // No path data.
  Level bare;
  add_ground(bare, 0, 0, 20, 20, 0, 1);
  const NavState bs;
  CHECK(NavGeom(bare, bs).find_area_candidate(Vec3{10, 10, 0}) == -1);
  // A first path with no vertices is passed over (its box set by hand to hold the point).
  Level empty_first;
  empty_first.areas.push_back(area_of({NavPolygon{}}, 1));
  empty_first.areas.push_back(area_of({rect(0, 0, 20, 20)}, 1));
  add_ground(empty_first, 0, 0, 20, 20, 0, 1);
  empty_first.derive();
  auto& box = empty_first.areas[0].polygons[0];
  box.min_x = box.min_y = 0;
  box.max_x = box.max_y = 20;
  const NavState es = state_of(empty_first);
  CHECK(NavGeom(empty_first, es).find_area_candidate(Vec3{10, 10, 0}) == 1);
  // The polygon flags read the level's when the state has none.
  const NavState none;
  CHECK(NavGeom(lv, none).polygon_flags(0, 0) == 0);
  CHECK(NavGeom(street(), none).polygon_flags(0, kFence) == 7);
}

TEST_CASE("The inside test: outline minus holes, flags 8 and 0x10 skipped, the boundary walkable",
          "[warriors][nav]") {
  Level lv;
  lv.areas.push_back(area_of({rect(0, 0, 10, 10), rect(4, 4, 6, 6, 7)}, 1));
  // An L-shaped outline (even-odd in plan on a non-convex polygon).
  NavPolygon l;
  l.points = {Vec3{0, 0, 0}, Vec3{10, 0, 0}, Vec3{10, 4, 0}, Vec3{4, 4, 0}, Vec3{4, 10, 0}, Vec3{0, 10, 0}};
  lv.areas.push_back(area_of({l}, 2));
  add_ground(lv, 0, 0, 10, 10, 0, 1);
  lv.derive();
  NavState st = state_of(lv);
  const NavGeom g(lv, st);
  CHECK(g.inside_area(0, Vec3{2, 2, 0}));
  CHECK_FALSE(g.inside_area(0, Vec3{5, 5, 0}));   // in the hole
  CHECK_FALSE(g.inside_area(0, Vec3{11, 5, 0}));  // outside the outline
  CHECK(g.find_area(Vec3{2, 2, 0}) == 0);
  CHECK(g.find_area(Vec3{5, 5, 0}) == -1);  // the candidate, refused by the inside test
  // Choice (the seed gives no boundary rule): a point on an edge is on the walkable side.
  CHECK(g.inside_area(0, Vec3{10, 5, 0}));
  CHECK(g.inside_area(0, Vec3{0, 0, 0}));
  CHECK(g.inside_area(0, Vec3{5, 10, 0}));
  CHECK(g.inside_area(0, Vec3{4, 5, 0}));
  CHECK(g.inside_area(0, Vec3{6, 5, 0}));
  CHECK(g.inside_area(0, Vec3{5, 4, 0}));
  CHECK(g.inside_area(0, Vec3{5, 6, 0}));
  CHECK_FALSE(g.inside_area(0, Vec3{4.01f, 5, 0}));
  CHECK_FALSE(g.inside_area(0, Vec3{10.01f, 5, 0}));
  // Flags 0x10 or 8 on the hole: skipped.
  live_flags(lv, st, 0, 1) = 7 | kPolyInsideSkip;
  CHECK(g.inside_area(0, Vec3{5, 5, 0}));
  CHECK(g.find_area(Vec3{5, 5, 0}) == 0);
  live_flags(lv, st, 0, 1) = 7 | kPolyIgnored;
  CHECK(g.inside_area(0, Vec3{5, 5, 0}));
  live_flags(lv, st, 0, 1) = 7;
  // Choice: a skipped outline (0x10) sets no condition; the holes still do.
  live_flags(lv, st, 0, 0) = kPolyInsideSkip;
  CHECK(g.inside_area(0, Vec3{11, 5, 0}));
  CHECK_FALSE(g.inside_area(0, Vec3{5, 5, 0}));
  // The L.
  CHECK(g.inside_area(1, Vec3{2, 7, 0}));
  CHECK(g.inside_area(1, Vec3{7, 2, 0}));
  CHECK(g.inside_area(1, Vec3{2, 2, 0}));
  CHECK_FALSE(g.inside_area(1, Vec3{7, 7, 0}));
  CHECK_FALSE(g.inside_area(1, Vec3{-1, 2, 0}));
  CHECK_FALSE(g.inside_area(2, Vec3{2, 2, 0}));  // no such area
}

// ---------------------------------------------------------------- a point in a hole

TEST_CASE("A point in a hole: the point itself, then the nearest edge point, early under 0.18 m",
          "[warriors][nav]") {
  // Area A (0, byte 1): x, y 0..20 with a hole 8..12. Area B (1, byte 2): a strip x 7..8.05,
  // y 8.1..11 over the hole's left edge, its triangles first (the ray's tie goes to B), so a point
  // snapped onto that edge finds B and one snapped onto the bottom edge finds A.
  Level lv;
  lv.areas.push_back(area_of({rect(0, 0, 20, 20), rect(8, 8, 12, 12, 7)}, 1));
  lv.areas.push_back(area_of({rect(7, 8.1f, 8.05f, 11)}, 2));
  add_ground(lv, 7, 8.1f, 8.05f, 11, 0, 2);
  add_ground(lv, 0, 0, 20, 20, 0, 1);
  lv.derive();
  NavState st = state_of(lv);
  const NavGeom g(lv, st);
  // 1. The point itself.
  CHECK(g.find_area_with_fallbacks(Vec3{3, 3, 0}) == 0);
  CHECK(g.find_area_with_fallbacks(Vec3{7.5f, 10, 0}) == 1);
  // 2. The nearest edge point: (8.5, 10) is 0.5 m from the left edge, 2 m from the bottom one.
  CHECK(g.find_area(Vec3{8.5f, 10, 0}) == -1);  // a destination in a hole has no fallback
  CHECK(g.find_area_with_fallbacks(Vec3{8.5f, 10, 0}) == 1);
  // The first edge nearer than 0.18 m ends the search: (8.1, 8.17) is 0.17 m from the bottom
  // edge (read first) and 0.1 m from the left one.
  CHECK(g.find_area_with_fallbacks(Vec3{8.1f, 8.17f, 0}) == 0);
  // 0.19 m from the bottom edge: no early stop there, the left edge (0.1 m) is taken.
  CHECK(g.find_area_with_fallbacks(Vec3{8.1f, 8.19f, 0}) == 1);
  // Choice: polygons the inside test skips (8, 0x10) give no edge points either.
  live_flags(lv, st, 0, 1) = 7 | kPolyInsideSkip;
  CHECK(g.find_area_with_fallbacks(Vec3{8.5f, 10, 0}) == 0);  // no longer in a hole
}

TEST_CASE("A point in a hole: the edge point must be within 20 m", "[warriors][nav]") {
  Level lv;
  lv.areas.push_back(area_of({rect(-30, -30, 80, 80), rect(0, 0, 50, 50, 7)}, 1));
  add_ground(lv, -30, -30, 80, 80, 0, 1);
  lv.derive();
  const NavState st = state_of(lv);
  const NavGeom g(lv, st);
  CHECK(g.find_area(Vec3{25, 19.5f, 0}) == -1);
  CHECK(g.find_area_with_fallbacks(Vec3{25, 19.5f, 0}) == 0);   // 19.5 m from the bottom edge
  CHECK(g.find_area_with_fallbacks(Vec3{25, 20.5f, 0}) == -1);  // 20.5 m: none, and no probe
  CHECK(g.find_area_with_fallbacks(Vec3{25, 25, 0}) == -1);
}

TEST_CASE("A point in a hole: the eight probes 1 m away in the supplement's order", "[warriors][nav]") {
  // Area 0 (byte 1): 0..20 with a hole 8..12; the point (10, 10). Its nearest edge point (10, 8)
  // lies on a strip of byte 9 (no area), so step 2 finds nothing. Areas 1..8 (bytes 10..17) are
  // small squares around the eight probe points, in the supplement's order.
  const float probe[8][2] = {{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
  Level lv;
  lv.areas.push_back(area_of({rect(0, 0, 20, 20), rect(8, 8, 12, 12, 7)}, 1));
  for (int k = 0; k < 8; ++k) {
    const float x = 10 + probe[k][0], y = 10 + probe[k][1];
    lv.areas.push_back(area_of({rect(x - 0.3f, y - 0.3f, x + 0.3f, y + 0.3f)}, static_cast<uint16_t>(10 + k)));
    add_ground(lv, x - 0.3f, y - 0.3f, x + 0.3f, y + 0.3f, 0, static_cast<uint8_t>(10 + k));
  }
  add_ground(lv, 9, 7.8f, 11, 8.2f, 0, 9);
  add_ground(lv, 0, 0, 20, 20, 0, 1);
  lv.derive();
  NavState st = state_of(lv);
  const NavGeom g(lv, st);
  const Vec3 p{10, 10, 0};
  REQUIRE(g.find_area(p) == -1);
  REQUIRE(g.find_area(Vec3{10, 8, 0}) == -1);
  for (int k = 0; k < 8; ++k) {
    INFO("probe " << k);
    CHECK(g.find_area_with_fallbacks(p) == k + 1);
    live_flags(lv, st, k + 1, 0) |= kPolyIgnored;  // take this probe's area away
  }
  CHECK(g.find_area_with_fallbacks(p) == -1);
}
