// warriors navigation tests (follow): the route request and route following.
// Seed 000 (../shared/seeds/000_f781e9935f3cbcaa.txt): "Path planning" steps
// 1-3 (the route request 0x0029a8c0), "Following a route" (Route_Follow
// 0x0029aa88 steps 1-7, Route_SkipReachable 0x0029b4b8 with its turn test that
// never refuses, "When the straight line is tested", "Link kinds"), "The move
// action" Update steps 2, 3 and 5, "How a climb ends" (the arrival flag
// +0x11d), "The corner speed" (MoveAction_CollectPoints 0x002fbd18).
// 000-supplement.md: "Waypoint claims", "A point in a hole", "Nav data".
//
// Every level is built here as scenario JSON (docs/warriors-level.md). Expected
// routes, nodes and reasons are worked out by hand from the spec's rules and the
// level's geometry (written next to each check), never copied from the model's
// own output. Where the seed is silent the test says it pins the port's choice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lockstep/core/hash.h"
#include "math_reference.h"
#include "warriors/navgeom.h"
#include "warriors_test_util.h"

using namespace wtest;

namespace ref = lockstep::test_support::ref;

namespace {

constexpr uint32_t kPoolTop = kRoutePool - 1;  // Route_Build takes slots from 31 down

// ---------------------------------------------------------------- level JSON

Json pts_rect(double x0, double y0, double x1, double y1, double z = 0) {
  return Json::array({Json::array({x0, y0, z}), Json::array({x1, y0, z}), Json::array({x1, y1, z}), Json::array({x0, y1, z})});
}

Json poly_rect(double x0, double y0, double x1, double y1, int flags = 0, double z = 0) {
  Json p;
  p["points"] = pts_rect(x0, y0, x1, y1, z);
  if (flags != 0) p["flags"] = flags;
  return p;
}

Json empty_level() {
  Json l;
  l["areas"] = Json::array();
  l["nodes"] = Json::array();
  l["triangles"] = Json::array();
  l["doors"] = Json::array();
  return l;
}

void add_area(Json& l, std::vector<Json> polys, int byte, int graph = 1) {
  Json a;
  a["area_byte"] = byte;
  a["graph"] = graph;
  a["polygons"] = polys;
  l["areas"].push_back(a);
}

/// Two collision triangles covering a rectangle at height z with an area byte.
void add_ground(Json& l, double x0, double y0, double x1, double y1, double z, int byte) {
  l["triangles"].push_back(Json{{"a", {x0, y0, z}}, {"b", {x1, y0, z}}, {"c", {x1, y1, z}}, {"area_byte", byte}});
  l["triangles"].push_back(Json{{"a", {x0, y0, z}}, {"b", {x1, y1, z}}, {"c", {x0, y1, z}}, {"area_byte", byte}});
}

int add_node(Json& l, double x, double y, int area = 0, double z = 0) {
  l["nodes"].push_back(Json{{"position", {x, y, z}}, {"area", area}, {"links", Json::array()}});
  return static_cast<int>(l["nodes"].size()) - 1;
}

/// The walking step from -> to: a D record on `to` naming `from` (and to -> from when both).
void add_link(Json& l, int from, int to, int kind = 1, bool both = true, bool avoid = false, int door = 0) {
  Json rec{{"from", from}, {"kind", kind}};
  if (avoid) rec["avoid"] = true;
  if (door != 0) rec["door"] = door;
  l["nodes"][static_cast<std::size_t>(to)]["links"].push_back(rec);
  if (both) add_link(l, to, from, kind, false, avoid, door);
}

Json human_j(const std::string& name, double x, double y, double z = 0, double heading = 0) {
  return Json{{"name", name}, {"position", {x, y, z}}, {"heading", heading}};
}

WarriorsModel scene(const Json& level, const std::vector<Json>& humans, const Json& script = Json::array()) {
  Json j;
  j["seed"] = 1;
  j["level"] = level;
  j["humans"] = humans;
  j["script"] = script;
  return make(j);
}

// ---------------------------------------------------------------- the wall room
// One area (outline 0..20 x 0..20, area byte 1) with one hole: a wall x 4..16, y 8..10 (flags 3).
// Nodes (kind-1 links both ways): 0 (2,3) south-west, 1 (2,15) north-west, 2 (10,15) north,
// 3 (10,3) south, 4 (10,11) just north of the wall (linked to 2 only). 3-0, 0-1, 1-2, 4-2.
// The way round the wall is the west gap x 0..4.
enum WallNode { kSW = 0, kNW = 1, kN = 2, kS = 3, kBehind = 4 };

Json wall_level(int graph = 1) {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 20, 20), poly_rect(4, 8, 16, 10, 3)}, 1, graph);
  add_ground(l, 0, 0, 20, 20, 0, 1);
  add_node(l, 2, 3);
  add_node(l, 2, 15);
  add_node(l, 10, 15);
  add_node(l, 10, 3);
  add_node(l, 10, 11);
  add_link(l, kS, kSW);
  add_link(l, kSW, kNW);
  add_link(l, kNW, kN);
  add_link(l, kBehind, kN);
  return l;
}

// ---------------------------------------------------------------- the door room
// One area (0..20 x 0..20). A wall across it at y 9..12: hole W1 x 0.5..8.9 (flags 3), the door's
// hole x 9..11 (flags 7: 4 a door's hole), W2 x 11.1..19.5 (flags 3). Nodes 0 (10,8) south of the
// door and 1 (10,13) north of it; the link between them both ways, `kind` (0x10 a door), avoid
// bit, door number 1. Door 1 is the hole, polygon 2.
constexpr int kDoorNumber = 1;
constexpr int kDoorHole = 2;

Json door_level(int kind = kLinkDoor, bool avoid = true, int door = kDoorNumber) {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 20, 20), poly_rect(0.5, 9, 8.9, 12, 3), poly_rect(9, 9, 11, 12, 7), poly_rect(11.1, 9, 19.5, 12, 3)}, 1);
  add_ground(l, 0, 0, 20, 20, 0, 1);
  add_node(l, 10, 8);
  add_node(l, 10, 13);
  add_link(l, 0, 1, kind, true, avoid, door);
  l["doors"].push_back(Json{{"number", kDoorNumber}, {"area", 0}, {"hole", kDoorHole}, {"open", false}});
  return l;
}

// ---------------------------------------------------------------- helpers

Command door_cmd(int32_t number, bool open) {
  Command c;
  c.kind = CommandKind::Door;
  c.field = open ? 1 : 0;
  c.value = number;
  return c;
}

Brain& brain(WarriorsModel& m, int slot) { return human(m, slot).brain; }
const Route& route_of(const WarriorsModel& m, int32_t pool) { return m.state().nav.routes[static_cast<std::size_t>(pool)]; }

std::vector<int> route_nodes(const WarriorsModel& m, int32_t pool) {
  const Route& r = route_of(m, pool);
  std::vector<int> v;
  for (int32_t i = 0; i < r.count; ++i) v.push_back(r.nodes[static_cast<std::size_t>(i)]);
  return v;
}

Vec3 node_pos(const WarriorsModel& m, int n) { return m.level().nodes[static_cast<std::size_t>(n)].position; }

int routes_in_use(const WarriorsModel& m) {
  int k = 0;
  for (const auto& r : m.state().nav.routes) k += r.in_use ? 1 : 0;
  return k;
}

bool all_use_zero(const WarriorsModel& m) {
  const auto& u = m.state().nav.node_use;
  return std::all_of(u.begin(), u.end(), [](uint8_t v) { return v == 0; });
}

/// The claim table's entry for a node: the human holding it, -1 none.
int32_t holder(const WarriorsModel& m, int node) {
  for (const auto& c : m.state().nav.claims)
    if (c.node == node) return c.human;
  return -1;
}

int claims_of(const WarriorsModel& m, int32_t slot) {
  int k = 0;
  for (const auto& c : m.state().nav.claims) k += (c.node >= 0 && c.human == slot) ? 1 : 0;
  return k;
}

/// A route put in pool slot `pool` by hand and given to a human, as Route_Build and RouteState_Init
/// leave it (the nodes' use counts raised; the first waypoint current, radius 0.25). Lets
/// Route_Follow's steps be driven on a chosen route.
void install_route(WarriorsModel& m, int32_t slot, const std::vector<int>& nodes, int32_t pool = kPoolTop) {
  State& st = m.mutable_state();
  Route& r = st.nav.routes[static_cast<std::size_t>(pool)];
  REQUIRE(r.in_use == 0);
  r = Route{};
  r.count = static_cast<int32_t>(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    r.nodes[i] = static_cast<uint16_t>(nodes[i]);
    ++st.nav.node_use[static_cast<std::size_t>(nodes[i])];
  }
  r.start_node = static_cast<uint16_t>(nodes.front());
  r.last_node = static_cast<uint16_t>(nodes.back());
  r.dest_area = 0;
  r.in_use = 1;
  Brain& b = human(m, slot).brain;
  b.route.route = pool;
  b.route.index = 0;
  b.route.radius = 0.25f;
  b.aim = node_pos(m, nodes.front());
  b.aim_radius = 0.25f;
}

/// Every route in use belongs to exactly one human, and the use counts are the routes' node counts.
void check_pool_consistent(const WarriorsModel& m) {
  std::vector<int> owners(kRoutePool, 0);
  for (const auto& h : m.state().humans)
    if (h.in_use && h.brain.route.route >= 0) ++owners[static_cast<std::size_t>(h.brain.route.route)];
  std::vector<int> use(m.level().nodes.size(), 0);
  for (uint32_t k = 0; k < kRoutePool; ++k) {
    const Route& r = m.state().nav.routes[k];
    INFO("pool slot " << k);
    CHECK(owners[k] == (r.in_use ? 1 : 0));
    if (r.in_use)
      for (int32_t i = 0; i < r.count; ++i) ++use[r.nodes[static_cast<std::size_t>(i)]];
  }
  for (std::size_t n = 0; n < use.size(); ++n) {
    INFO("node " << n);
    CHECK(static_cast<int>(m.state().nav.node_use[n]) == use[n]);
  }
}

double plan_dist(Vec3 a, Vec3 b) { return ref::hypot(double(a.x) - b.x, double(a.y) - b.y); }

/// Steps until the human is not busy (a turn on the spot plays): while he is, the move action
/// returns at its first test and nothing else of it runs (The move action, step 1).
void settle(WarriorsModel& m, int slot) {
  for (int k = 0; k < 60 && m.busy(human(m, slot)); ++k) m.step(m.scripted_input());
  REQUIRE_FALSE(m.busy(human(m, slot)));
}

}  // namespace

// ============================================================ Path planning: the route request

TEST_CASE("Path planning step 1, no polygon for the human - +0x284 = 1 and the move ends", "[warriors][follow]") {
  // The human stands 30 m off the level: the ray down finds no triangle, so no area, and none of
  // the fallbacks (an edge of the candidate area, eight 1 m probes) yields one.
  WarriorsModel m = scene(wall_level(), {human_j("a", 50, 50)});
  CHECK(m.human_area(0) == -1);
  CHECK(m.route_request(0, Vec3{10, 17, 0}) == 2);
  CHECK(brain(m, 0).fail_reason == kFailNoRoute);
  CHECK(brain(m, 0).route.route == -1);

  WarriorsModel s = scene(wall_level(), {human_j("a", 50, 50)});
  step_with(s, move_command(0, Vec3{10, 17, 0}, kWalk, 0.5f));
  CHECK(brain(s, 0).queue_count == 0);  // Start returned done (2)
  CHECK(brain(s, 0).fail_reason == kFailNoRoute);
  CHECK(routes_in_use(s) == 0);
}

TEST_CASE("Path planning step 1 and A point in a hole, a human in a hole finds his polygon by the fallback", "[warriors][follow]") {
  // Supplement, "A point in a hole": the point itself fails (inside the wall's hole), then the
  // nearest point on an edge within 20 m is tried, which lies on the area's side.
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 8.1)});
  CHECK(m.find_area(Vec3{10, 8.1f, 0}) == -1);  // Nav_FindArea of the point itself: none
  CHECK(m.human_area(0) == 0);
}

TEST_CASE("Path planning step 2, a clear straight line makes no route and the human walks straight", "[warriors][follow]") {
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 2)});
  const Vec3 dest{18, 5, 0};  // south of the wall: nothing in between
  CHECK(m.route_request(0, dest) == 0);
  CHECK(brain(m, 0).route.route == -1);
  CHECK(brain(m, 0).fail_reason == kFailNone);
  CHECK(routes_in_use(m) == 0);

  WarriorsModel s = scene(wall_level(), {human_j("a", 10, 2)});
  step_with(s, move_command(0, dest, kWalk, 0.5f));
  const Brain& b = brain(s, 0);
  REQUIRE(b.queue_count == 1);
  CHECK(b.route.route == -1);
  CHECK(b.aim == dest);  // straight at the point, with the move's own radius
  CHECK(b.aim_radius == 0.5f);
  const double want = ref::atan2(8.0, 3.0);  // heading from +y toward +x of (8, 3)
  CHECK(double(b.move_heading) == Approx(want).margin(1e-5));
  CHECK(routes_in_use(s) == 0);
  CHECK(all_use_zero(s));
}

TEST_CASE("Path planning step 2, a destination in a hole has no fallback - +0x284 = 1 and the move ends", "[warriors][follow]") {
  // (10, 9) lies inside the wall's hole. The straight line from (10, 2) crosses the hole's edge, and
  // the destination's area is Nav_FindArea of the point itself, with no fallback: none.
  const Vec3 dest{10, 9, 0};
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 2)});
  CHECK(m.find_area(dest) == -1);
  CHECK(m.route_request(0, dest) == 2);
  CHECK(brain(m, 0).fail_reason == kFailNoRoute);
  CHECK(routes_in_use(m) == 0);

  WarriorsModel s = scene(wall_level(), {human_j("a", 10, 2)});
  step_with(s, move_command(0, dest, kWalk, 0.5f));
  CHECK(brain(s, 0).queue_count == 0);
  CHECK(brain(s, 0).fail_reason == kFailNoRoute);
  CHECK(routes_in_use(s) == 0);
}

namespace {
// Two areas with a 0.5 m gap between them (area 0 x 0..10, byte 1; area 1 x 10.5..20, byte 2), so a
// line from one to the other leaves one area 0.5 m before it enters the next and is refused. One
// node each, 0 (8,5) in area 0 and 1 (12.5,5) in area 1, joined by kind-2 links both ways.
Json two_areas(int graph0, int graph1) {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 10, 10)}, 1, graph0);
  add_area(l, {poly_rect(10.5, 0, 20, 10)}, 2, graph1);
  add_ground(l, 0, 0, 10.25, 10, 0, 1);
  add_ground(l, 10.25, 0, 20, 10, 0, 2);
  add_node(l, 8, 5, 0);
  add_node(l, 12.5, 5, 1);
  add_link(l, 0, 1, kLinkJoint);
  return l;
}
}  // namespace

TEST_CASE("Path planning step 3, two polygons must both be on the graph, else +0x284 = 1", "[warriors][follow]") {
  const Vec3 dest{18, 5, 0};
  {
    WarriorsModel m = scene(two_areas(1, 1), {human_j("a", 2, 5)});
    CHECK(m.human_area(0) == 0);
    CHECK(m.find_area(dest) == 1);
    CHECK_FALSE(m.can_walk_straight(0, dest));
    // Both on the graph: start node 0, destination node 1, a route 0 -> 1 (the leading cut is
    // refused by the gap, and so is the trailing one).
    REQUIRE(m.route_request(0, dest) == 1);
    CHECK(route_nodes(m, brain(m, 0).route.route) == std::vector<int>{0, 1});
  }
  for (auto [g0, g1] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{0, 0}}) {
    INFO("graph " << g0 << ", " << g1);
    WarriorsModel m = scene(two_areas(g0, g1), {human_j("a", 2, 5)});
    CHECK(m.route_request(0, dest) == 2);
    CHECK(brain(m, 0).fail_reason == kFailNoRoute);
    CHECK(brain(m, 0).route.route == -1);
    CHECK(routes_in_use(m) == 0);
    CHECK(all_use_zero(m));
  }
}

TEST_CASE("Path planning step 3, both ends in one polygon need not be on the graph", "[warriors][follow]") {
  WarriorsModel m = scene(wall_level(0), {human_j("a", 10, 7.5)});
  CHECK(m.route_request(0, Vec3{10, 17, 0}) == 1);
  CHECK(brain(m, 0).fail_reason == kFailNone);
}

TEST_CASE("Path planning steps 2-6, a blocked line makes a route from pool slot 31 with its first waypoint at +0x90",
          "[warriors][follow]") {
  // Human (10, 7.5) just south of the wall, destination (10, 17). Start node: the nearest of the
  // area's nodes he reaches in a straight line: node 4 (10, 11) is nearer (3.5 m) but behind the
  // wall, so node 3 (10, 3) at 4.5 m. Destination node: node 2 (10, 15) at 2 m. A* gives the chain
  // 3, 0, 1, 2. Leading cut: (10, 7.5) sees node 0 (2, 3) (the segment stays below y 8) but not
  // node 1 (2, 15) (it meets y 8 at x 9.47, inside the wall 4..16): the route starts at node 0.
  // No shortcut (node 2 is the last). Trailing cut: (10, 17) sees node 1, so node 2 goes; it does
  // not see node 0 (y 10 at x 6): the route is 0, 1.
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5), human_j("b", 10, 7.0)});
  REQUIRE(m.route_request(0, Vec3{10, 17, 0}) == 1);
  const Brain& b = brain(m, 0);
  CHECK(b.route.route == static_cast<int32_t>(kPoolTop));
  const Route& r = route_of(m, kPoolTop);
  CHECK(r.in_use == 1);
  CHECK(route_nodes(m, kPoolTop) == std::vector<int>{kSW, kNW});
  CHECK(r.start_node == kS);  // +0x104: the start's node, before the cuts (node 4 passed over)
  CHECK(b.route.index == 0);
  CHECK(b.route.radius == 0.25f);
  CHECK(b.aim == (Vec3{2, 3, 0}));  // brain +0x90: the first waypoint's point
  CHECK(b.aim_radius == 0.25f);     // +0x118
  CHECK(b.fail_reason == kFailNone);
  // Use counts (C +0x1f) raised on the route's nodes only.
  const auto& use = m.state().nav.node_use;
  CHECK(use[kSW] == 1);
  CHECK(use[kNW] == 1);
  CHECK(use[kN] == 0);
  CHECK(use[kS] == 0);
  CHECK(use[kBehind] == 0);

  // A second request takes the next slot down (30); both routes raise the counts.
  REQUIRE(m.route_request(1, Vec3{10, 17, 0}) == 1);
  CHECK(brain(m, 1).route.route == static_cast<int32_t>(kPoolTop) - 1);
  CHECK(route_nodes(m, kPoolTop - 1) == std::vector<int>{kSW, kNW});
  CHECK(use[kSW] == 2);
  CHECK(use[kNW] == 2);

  // Freeing lowers them again.
  m.release_route(0);
  m.release_route(1);
  CHECK(routes_in_use(m) == 0);
  CHECK(all_use_zero(m));
  CHECK(brain(m, 0).route.route == -1);
}

TEST_CASE("Path planning step 3, the destination's node is the nearest it reaches - a nearer node behind the wall is passed over",
          "[warriors][follow]") {
  // The mirror case: human (10, 17), destination (10, 7.5). Start node 2 (10, 15). Destination
  // node: node 4 (10, 11) is 3.5 m away but behind the wall; node 3 (10, 3) at 4.5 m is reached.
  // Chain 2, 1, 0, 3; leading cut to node 1 (the start sees (2, 15) but not (2, 3)); trailing cut:
  // (10, 7.5) sees node 0, so node 3 goes, not node 1. Route 1, 0. (Had node 4 been taken, the
  // chain 2, 4 would be cut to the single node 4.)
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 17)});
  REQUIRE(m.route_request(0, Vec3{10, 7.5f, 0}) == 1);
  CHECK(route_nodes(m, brain(m, 0).route.route) == std::vector<int>{kNW, kSW});
  CHECK(route_of(m, brain(m, 0).route.route).start_node == kN);
}

namespace {
// The wall room with `blockers` extra nodes just north of the wall, all nearer to a human at
// (10, 7.9) than the reachable node R (10, 3.5) south of it, and unreachable from him.
// Nodes: 0 R (10, 3.5), 1 (2, 3), 2 (2, 15), 3 D (10, 15); R-1-2-3 kind 1; then the blockers at
// (8.6 + 0.1 k, 10.2): at most 2.75 m from him, R is 4.4 m.
Json blockers_level(int blockers) {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 20, 20), poly_rect(4, 8, 16, 10, 3)}, 1);
  add_ground(l, 0, 0, 20, 20, 0, 1);
  add_node(l, 10, 3.5);
  add_node(l, 2, 3);
  add_node(l, 2, 15);
  add_node(l, 10, 15);
  add_link(l, 0, 1);
  add_link(l, 1, 2);
  add_link(l, 2, 3);
  for (int k = 0; k < blockers; ++k) add_node(l, 8.6 + 0.1 * k, 10.2);
  return l;
}
}  // namespace

TEST_CASE("Path planning step 3, the end-node search tries up to 30 nodes by distance", "[warriors][follow]") {
  {
    // 29 nearer nodes behind the wall: R is the 30th by distance, still tried.
    WarriorsModel m = scene(blockers_level(29), {human_j("a", 10, 7.9)});
    REQUIRE(m.route_request(0, Vec3{10, 17, 0}) == 1);
    CHECK(route_of(m, brain(m, 0).route.route).start_node == 0);
  }
  {
    // 30 nearer nodes: R would be the 31st, never tried: no start node, +0x284 = 1.
    WarriorsModel m = scene(blockers_level(30), {human_j("a", 10, 7.9)});
    CHECK(m.route_request(0, Vec3{10, 17, 0}) == 2);
    CHECK(brain(m, 0).fail_reason == kFailNoRoute);
    CHECK(routes_in_use(m) == 0);
    CHECK(all_use_zero(m));
  }
}

// ============================================================ Following a route

TEST_CASE("Following a route step 2, Route_SkipReachable runs on the 7th call - the skip counter goes 0..6", "[warriors][follow]") {
  // The route 0 (2, 3), 1 (2, 15) installed. From (10, 7.5) waypoint 1 is behind the wall: the
  // test refuses and the counter restarts.
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  install_route(m, 0, {kSW, kNW});
  RouteState& rs = brain(m, 0).route;
  for (int call = 1; call <= 20; ++call) {
    INFO("call " << call);
    CHECK(m.route_follow(0) == 1);
    CHECK(rs.skip == call % 7);  // 1..6, then 0 on the 7th call
    CHECK(rs.index == 0);
    CHECK(rs.move_on == 0);
  }

  // From (3, 5) waypoint 1 is in sight (the line meets y 8 at x 2.7, west of the wall): the 7th
  // call skips waypoint 0 and Route_Advance makes waypoint 1 current at once.
  WarriorsModel s = scene(wall_level(), {human_j("a", 3, 5)});
  install_route(s, 0, {kSW, kNW});
  RouteState& ss = brain(s, 0).route;
  for (int call = 1; call <= 6; ++call) {
    INFO("call " << call);
    CHECK(s.route_follow(0) == 1);
    CHECK(ss.index == 0);
    CHECK(ss.skip == call);
  }
  CHECK(s.route_follow(0) == 1);
  CHECK(ss.index == 1);
  CHECK(ss.skip == 0);
  CHECK(ss.move_on == 0);
  CHECK(ss.radius == 0.25f);
  CHECK(brain(s, 0).aim == (Vec3{2, 15, 0}));
  CHECK(brain(s, 0).aim_radius == 0.25f);
}

namespace {
// An open room (no holes) with a chain of nodes: 0 (2, 2), 1 (2, 12), 2 (2.5, 3), 3 (12, 12),
// 4 (12, 2). Links: 0-1 kind k01, 1-2 kind k12, 1-3 kind k13, 3-4 kind 1; all both ways.
Json open_level(int k01 = 1, int k12 = 1, int k13 = 1) {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 20, 20)}, 1);
  add_ground(l, 0, 0, 20, 20, 0, 1);
  add_node(l, 2, 2);
  add_node(l, 2, 12);
  add_node(l, 2.5, 3);
  add_node(l, 12, 12);
  add_node(l, 12, 2);
  add_link(l, 0, 1, k01);
  add_link(l, 1, 2, k12);
  add_link(l, 1, 3, k13);
  add_link(l, 3, 4);
  return l;
}
}  // namespace

TEST_CASE("Following a route, Route_SkipReachable skips only between kind 1 or 2 legs (flags & 3), never the last waypoint",
          "[warriors][follow]") {
  // Route 0, 1, 3 in an open room: every line is walkable, so only the kinds decide.
  struct Case {
    int kind;
    bool skip;
  };
  for (Case c : {Case{kLinkWalk, true}, Case{kLinkJoint, true}, Case{kLinkWalk | kLinkJoint, true},
                 Case{kLinkDoor | kLinkWalk, true},  // flags & 3 is 1: the seed's test is the word & 3
                 Case{kLinkJump, false}, Case{kLinkClimb, false}, Case{kLinkDoor, false}, Case{kLinkCharge, false},
                 Case{kLinkLedge, false}}) {
    INFO("kind " << c.kind);
    // The kind on the leg into waypoint 1 (0 -> 1): waypoint 0 (in = kind 1 for i = 0, out = it)
    // and waypoint 1 (in = it, out = kind 1) are skipped alike.
    {
      WarriorsModel m = scene(open_level(c.kind, 1, 1), {human_j("a", 2, 1)});
      install_route(m, 0, {0, 1, 3});
      CHECK(m.leg_flags(kPoolTop, 1) == c.kind);
      CHECK(m.skip_reachable(0, 0) == c.skip);
      CHECK(m.skip_reachable(0, 1) == c.skip);
      CHECK_FALSE(m.skip_reachable(0, 2));  // the last waypoint
    }
    // The kind on the leg out of waypoint 1 (1 -> 3).
    {
      WarriorsModel m = scene(open_level(1, 1, c.kind), {human_j("a", 2, 1)});
      install_route(m, 0, {0, 1, 3});
      CHECK(m.skip_reachable(0, 0));
      CHECK(m.skip_reachable(0, 1) == c.skip);
    }
  }
  // The line decides between kind-1 legs: from behind the wall waypoint 1's next node is not seen.
  WarriorsModel w = scene(wall_level(), {human_j("a", 10, 7.5)});
  install_route(w, 0, {kS, kSW, kNW});
  CHECK(w.skip_reachable(0, 0));        // from (10, 7.5) node 0 (2, 3) is in sight
  CHECK_FALSE(w.skip_reachable(0, 1));  // node 1 (2, 15) is behind the wall
}

TEST_CASE("Following a route, Route_SkipReachable's turn test never refuses - a 5 m leg and a turn back are still skipped",
          "[warriors][follow]") {
  // Route 0 (2, 2), 1 (2, 12), 2 (2.5, 3): the leg into waypoint 1 is 10 m (over 5 m) and the leg
  // out turns back by about 177 degrees (cos about -1 < cos 135 = -0.707). The code compares the
  // leg in with itself (cos 1), so the skip goes ahead; a port must not add a turn limit.
  WarriorsModel m = scene(open_level(), {human_j("a", 2, 10)});
  install_route(m, 0, {0, 1, 2});
  const Vec3 a = node_pos(m, 0), b = node_pos(m, 1), c = node_pos(m, 2);
  const double in_len = ref::hypot(double(b.x) - a.x, double(b.y) - a.y);
  REQUIRE(in_len > 5.0);
  const double cosang = ((double(b.x) - a.x) * (double(c.x) - b.x) + (double(b.y) - a.y) * (double(c.y) - b.y)) /
                        (in_len * ref::hypot(double(c.x) - b.x, double(c.y) - b.y));
  REQUIRE(cosang < -0.707);
  CHECK(m.skip_reachable(0, 1));
}

TEST_CASE("Following a route step 3, Route_Advance releases claims except over a kind 4 leg, sets radius 0.25 and the aim",
          "[warriors][follow]") {
  // Route 0, 1, 3 with the leg 1 -> 3 of kind 4 (a jump): waypoint 1 is not skipped (its out leg is
  // kind 4) and waypoint 3 is entered by kind 4.
  WarriorsModel m = scene(open_level(1, 1, kLinkJump), {human_j("a", 2, 1)});
  install_route(m, 0, {0, 1, 3});
  RouteState& rs = brain(m, 0).route;
  REQUIRE(m.claim_waypoint(0, 0));
  CHECK(holder(m, 0) == 0);
  rs.skip = 4;
  rs.climb_fails = 3;
  rs.held = 1;
  rs.move_on = 1;
  rs.radius = 0.0f;
  brain(m, 0).aim_radius = 0.0f;
  REQUIRE(m.route_advance(0));
  CHECK(rs.index == 1);
  CHECK(rs.leg_new == 1);
  CHECK(rs.move_on == 0);
  CHECK(rs.skip == 0);
  CHECK(rs.climb_fails == 0);
  CHECK(rs.held == 0);
  CHECK(rs.radius == 0.25f);
  CHECK(brain(m, 0).aim == node_pos(m, 1));
  CHECK(brain(m, 0).aim_radius == 0.25f);
  CHECK(claims_of(m, 0) == 0);  // the leg into waypoint 1 is kind 1: released
  CHECK(holder(m, 0) == -1);

  REQUIRE(m.claim_waypoint(0, 1));
  REQUIRE(m.route_advance(0));
  CHECK(rs.index == 2);
  CHECK(brain(m, 0).aim == node_pos(m, 3));
  CHECK(holder(m, 1) == 0);  // the leg into waypoint 2 is kind 4: claims kept
  CHECK(claims_of(m, 0) == 1);
}

TEST_CASE("Following a route step 3, past the last waypoint the route is freed and Route_Follow returns 1", "[warriors][follow]") {
  WarriorsModel m = scene(wall_level(), {human_j("a", 2, 14.9)});
  install_route(m, 0, {kSW, kNW});
  RouteState& rs = brain(m, 0).route;
  rs.index = 1;
  rs.move_on = 1;
  CHECK(m.state().nav.node_use[kSW] == 1);
  CHECK(m.route_follow(0) == 1);  // go on straight to the destination
  CHECK(brain(m, 0).route.route == -1);
  CHECK(route_of(m, kPoolTop).in_use == 0);
  CHECK(all_use_zero(m));  // use counts lowered
}

TEST_CASE("Following a route, in the move action the human goes straight to the destination once past the last waypoint",
          "[warriors][follow]") {
  // The wall room's route 0, 1 from (10, 7.5) to (10, 17). He is put at node 1 with the route's
  // index there; his arrival sets +0x11d and the next update moves the route on past its end.
  const Vec3 dest{10, 17, 0};
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  settle(m, 0);
  REQUIRE(brain(m, 0).route.route == static_cast<int32_t>(kPoolTop));
  Brain& b = brain(m, 0);
  b.route.index = 1;
  b.aim = node_pos(m, kNW);
  b.aim_radius = 0.25f;
  human(m, 0).position = Vec3{2.1f, 15.1f, 0};
  m.check_move_arrival(0);
  REQUIRE(b.arrived == 1);
  m.step(m.scripted_input());
  CHECK(b.arrived == 0);
  REQUIRE(b.queue_count == 1);  // the move goes on
  CHECK(b.route.route == -1);
  CHECK(b.aim == dest);
  CHECK(b.aim_radius == 0.5f);
  CHECK(routes_in_use(m) == 0);
  CHECK(all_use_zero(m));
}

// ============================================================ How a climb ends: the arrival flag

TEST_CASE("How a climb ends, Brain_CheckMoveArrival sets +0x11d at the waypoint and the next update clears it and moves on",
          "[warriors][follow]") {
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  step_with(m, move_command(0, Vec3{10, 17, 0}, kWalk, 0.5f));
  settle(m, 0);  // he turns on the spot toward the waypoint first
  Brain& b = brain(m, 0);
  REQUIRE(b.route.route == static_cast<int32_t>(kPoolTop));
  REQUIRE(b.route.index == 0);
  REQUIRE(b.aim == (Vec3{2, 3, 0}));
  REQUIRE(b.aim_radius == 0.25f);
  // 0.36 m from the waypoint: outside its 0.25 m radius, no flag.
  human(m, 0).position = Vec3{2.3f, 3.2f, 0};
  m.check_move_arrival(0);
  CHECK(b.arrived == 0);
  // 0.14 m: inside, the flag is set.
  human(m, 0).position = Vec3{2.1f, 3.1f, 0};
  m.check_move_arrival(0);
  CHECK(b.arrived == 1);
  // Only the move action clears it: the arrival test does not, wherever he stands.
  human(m, 0).position = Vec3{5, 5, 0};
  m.check_move_arrival(0);
  CHECK(b.arrived == 1);
  human(m, 0).position = Vec3{2.1f, 3.1f, 0};
  // The next update: MoveAction_Update clears it and asks the route to move on; Route_Advance makes
  // waypoint 1 (2, 15) current (it is the last, so not skipped).
  m.step(m.scripted_input());
  CHECK(b.route.route == static_cast<int32_t>(kPoolTop));
  CHECK(b.route.index == 1);
  CHECK(b.route.leg_new == 1);  // N19: the new leg is read on the update after the one that moved on
  CHECK(b.aim == (Vec3{2, 15, 0}));
  CHECK(b.aim_radius == 0.25f);
  CHECK(b.arrived == 0);  // 12 m from the new waypoint: not set again by this update's move
  REQUIRE(b.queue_count == 1);
  // He turns on the spot toward (2, 15) first (busy: the follower does not run); the first update he
  // is free, the new-leg step reads the walked kind-1 leg and clears the flag.
  for (int k = 0; k < 60 && b.route.leg_new == 1; ++k) m.step(m.scripted_input());
  CHECK(b.route.leg_new == 0);
  CHECK(b.route.index == 1);
}

TEST_CASE("How a climb ends, without a move in front Brain_CheckMoveArrival leaves +0x11d alone", "[warriors][follow]") {
  WarriorsModel m = scene(wall_level(), {human_j("a", 2, 3)});
  Brain& b = brain(m, 0);
  b.aim = Vec3{2, 3, 0};
  b.aim_radius = 0.25f;
  m.check_move_arrival(0);
  CHECK(b.arrived == 0);
}

TEST_CASE("How a climb ends, walking the wall room the route only moves on and the move arrives with its route returned",
          "[warriors][follow]") {
  const Vec3 dest{10, 17, 0};
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  Brain& b = brain(m, 0);
  REQUIRE(b.route.route >= 0);
  int last_index = 0;
  bool ended = false;
  for (int t = 0; t < 900 && !ended; ++t) {
    const int32_t before = b.route.route >= 0 ? b.route.index : -1;
    m.step(m.scripted_input());
    check_pool_consistent(m);
    if (b.route.route >= 0) {
      CHECK(b.route.index >= before);  // the index only moves on
      last_index = b.route.index;
    }
    ended = b.queue_count == 0;
  }
  CHECK(ended);
  CHECK(last_index == 1);
  CHECK(b.fail_reason == kFailNone);
  CHECK(plan_dist(human(m, 0).position, dest) <= 0.5 + 1e-4);
  CHECK(routes_in_use(m) == 0);
  CHECK(all_use_zero(m));
}

namespace {
// An area with a fence across it (a hole of flags 7, x 2..18, y 9.8..10.2) and a climb pair over it:
// 0 A (10, 9.5) south, 1 B (10, 10.5) north (kind 8 both ways), 2 C (14, 16) (kind 1 with B).
Json fence_level() {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 20, 20), poly_rect(2, 9.8, 18, 10.2, 7)}, 1);
  add_ground(l, 0, 0, 20, 20, 0, 1);
  add_node(l, 10, 9.5);
  add_node(l, 10, 10.5);
  add_node(l, 14, 16);
  add_link(l, 0, 1, kLinkClimb);
  add_link(l, 1, 2);
  return l;
}

/// A move already started on a route given by hand (what move_start leaves, without its own request).
Action started_move(const WarriorsModel& m, int slot, Vec3 point, float radius = 0.5f) {
  const Human& h = m.state().humans[static_cast<std::size_t>(slot)];
  Action a;
  a.type = 1;
  a.point = point;
  a.radius = radius;
  a.gait = kWalk;
  a.speed = speed_for_gait(m.class_of(h), kWalk);
  a.started = 1;
  a.stuck_point = h.position;
  a.saved_aim = point;
  return a;
}
}  // namespace

TEST_CASE("How a climb ends, the climb sets +0x11d and the first update after it moves the route past the far node",
          "[warriors][follow]") {
  WarriorsModel m = scene(fence_level(), {human_j("a", 10, 8)});
  install_route(m, 0, {0, 1, 2});
  REQUIRE(m.queue_action(0, started_move(m, 0, Vec3{17, 18, 0})));
  Human& h = human(m, 0);
  Brain& b = h.brain;
  int t = 0;
  for (; t < 300 && h.action != kActClimb; ++t) m.step(m.scripted_input());
  REQUIRE(h.action == kActClimb);
  // The climb started on the update the route moved on to B (the leg into it is kind 8): it set the
  // arrival flag itself, and the route state is 3 (climbing, kind 8).
  CHECK(b.route.index == 1);
  CHECK(b.route.state == 3);
  CHECK(b.arrived == 1);
  const int32_t skip = b.route.skip;
  const int32_t updates = b.queue[0].updates;
  // While the clips play he is busy: the move action returns at its first test, so the flag stays,
  // the route stays on B, and neither the skip counter nor the action's count moves.
  int busy_updates = 1;
  while (h.action == kActClimb && busy_updates < 200) {
    m.step(m.scripted_input());
    ++busy_updates;
    if (h.action == kActClimb) {
      CHECK(b.arrived == 1);
      CHECK(b.route.index == 1);
      CHECK(b.route.skip == skip);
      CHECK(b.queue[0].updates == updates);
    }
  }
  REQUIRE(h.action != kActClimb);
  CHECK(b.route.index == 1);
  // The first update after the climb: +0x11d cleared, the state back to 0, and Route_Advance makes
  // the waypoint after the far node (C) current: B was passed without being walked to.
  m.step(m.scripted_input());
  CHECK(b.arrived == 0);
  CHECK(b.route.state == 0);
  REQUIRE(b.route.route >= 0);
  CHECK(b.route.index == 2);
  CHECK(b.aim == node_pos(m, 2));
  CHECK(b.aim_radius == 0.25f);
  CHECK(b.queue_count == 1);
  CHECK(b.fail_reason == kFailNone);
}

// ============================================================ Waypoint claims (supplement)

namespace {
// An open room with nodes 0 (10, 10) and 1 (10, 2), kind-1 links both ways.
Json claim_level(int extra_nodes = 0) {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 20, 20)}, 1);
  add_ground(l, 0, 0, 20, 20, 0, 1);
  add_node(l, 10, 10);
  add_node(l, 10, 2);
  add_link(l, 0, 1);
  for (int k = 0; k < extra_nodes; ++k) add_node(l, 1 + 0.4 * k, 18);
  return l;
}
}  // namespace

TEST_CASE("Waypoint claims, the nearer of two humans keeps the node and the other is refused", "[warriors][follow]") {
  // a 3 m from node 0, b 1 m.
  WarriorsModel m = scene(claim_level(), {human_j("a", 10, 13), human_j("b", 10, 11)});
  for (const auto& c : m.state().nav.claims) CHECK(c.node == -1);  // a level starts with no claims
  CHECK(m.claim_waypoint(0, 0));        // free: a takes it
  CHECK(holder(m, 0) == 0);
  CHECK(m.claim_waypoint(0, 0));        // his own: still his
  CHECK(m.claim_waypoint(1, 0));        // b is nearer: b keeps it
  CHECK(holder(m, 0) == 1);
  CHECK_FALSE(m.claim_waypoint(0, 0));  // a is refused this update
  CHECK(holder(m, 0) == 1);
  // b walks away (5 m): a is now the nearer and takes it on a later update.
  human(m, 1).position = Vec3{10, 15, 0};
  CHECK(m.claim_waypoint(0, 0));
  CHECK(holder(m, 0) == 0);
  CHECK_FALSE(m.claim_waypoint(1, 0));
  // Port's choice (the supplement names no tie): at equal distances the holder keeps it.
  human(m, 1).position = Vec3{10, 7, 0};  // 3 m, as a
  CHECK_FALSE(m.claim_waypoint(1, 0));
  CHECK(holder(m, 0) == 0);
}

TEST_CASE("Waypoint claims and Route_Follow step 5, a refused human is held and within 2 m stopped at the waypoint",
          "[warriors][follow]") {
  WarriorsModel m = scene(claim_level(), {human_j("a", 10, 13), human_j("b", 10, 11)});
  install_route(m, 0, {0, 1}, kPoolTop);
  install_route(m, 1, {0, 1}, kPoolTop - 1);
  // b (1 m) follows first and claims node 0.
  CHECK(m.route_follow(1) == 1);
  CHECK(brain(m, 1).route.held == 0);
  CHECK(holder(m, 0) == 1);
  // a (3 m) is refused and held, but more than 2 m away he keeps walking.
  Brain& a = brain(m, 0);
  a.move_speed = 1.629f;
  CHECK(m.route_follow(0) == 1);
  CHECK(a.route.held == 1);
  CHECK(a.aim_radius == 0.25f);
  CHECK(a.move_speed == 1.629f);
  // a at 1.8 m (b still nearer at 1 m): held, the aim is the node's point with radius 0, the move
  // stopped (speed 0, heading his facing), and Route_Follow returns 0.
  human(m, 0).position = Vec3{10, 11.8f, 0};
  human(m, 0).heading = 1.0f;
  a.aim = Vec3{0, 0, 0};
  CHECK(m.route_follow(0) == 0);
  CHECK(a.route.held == 1);
  CHECK(a.aim == (Vec3{10, 10, 0}));
  CHECK(a.aim_radius == 0.0f);
  CHECK(a.move_speed == 0.0f);
  CHECK(a.move_heading == 1.0f);
  // b moves on (Route_Advance): his claims are released, and a's next claim is granted.
  brain(m, 1).route.move_on = 1;
  CHECK(m.route_follow(1) == 1);
  CHECK(brain(m, 1).route.index == 1);
  CHECK(holder(m, 0) == -1);  // b's claim released
  CHECK(m.route_follow(0) == 1);
  CHECK(a.route.held == 0);
  CHECK(holder(m, 0) == 0);
}

TEST_CASE("Following a route step 5, at detail level 2 or more no claim is made and nobody is held", "[warriors][follow]") {
  WarriorsModel m = scene(claim_level(), {human_j("a", 10, 11.8), human_j("b", 10, 11)});
  install_route(m, 0, {0, 1}, kPoolTop);
  REQUIRE(m.claim_waypoint(1, 0));  // b, nearer, holds node 0
  for (int detail : {2, 3}) {
    INFO("detail " << detail);
    human(m, 0).detail = detail;
    brain(m, 0).move_speed = 1.629f;
    CHECK(m.route_follow(0) == 1);
    CHECK(brain(m, 0).route.held == 0);
    CHECK(brain(m, 0).move_speed == 1.629f);
    CHECK(holder(m, 0) == 1);
    CHECK(claims_of(m, 0) == 0);
  }
  human(m, 0).detail = 1;  // below 2 the claim is tried, refused, and he is held
  CHECK(m.route_follow(0) == 0);
  CHECK(brain(m, 0).route.held == 1);
}

TEST_CASE("Waypoint claims, in the move action a held human stands at the waypoint", "[warriors][follow]") {
  // Both on one route through node 0; b is nearer and holds it. a (1.8 m) is held: his update ends
  // at Route_Follow with the aim on the node, radius 0, speed 0.
  WarriorsModel m = scene(claim_level(), {human_j("a", 10, 11.8), human_j("b", 10, 11)});
  install_route(m, 0, {0, 1}, kPoolTop);
  install_route(m, 1, {0, 1}, kPoolTop - 1);
  REQUIRE(m.claim_waypoint(1, 0));
  // The move action: the route request at Start would plan its own route in the open room, so the
  // move is queued already started, with the installed route.
  Action act;
  act.type = 1;
  act.point = Vec3{10, 1, 0};
  act.radius = 0.5f;
  act.gait = kWalk;
  act.speed = 1.629f;
  act.started = 1;
  REQUIRE(m.queue_action(0, act));
  m.think(0);
  const Brain& a = brain(m, 0);
  CHECK(a.route.held == 1);
  CHECK(a.aim == (Vec3{10, 10, 0}));
  CHECK(a.aim_radius == 0.0f);
  CHECK(a.move_speed == 0.0f);
  CHECK(a.queue_count == 1);
}

TEST_CASE("Waypoint claims, a full 40-entry table refuses a new node (port's choice)", "[warriors][follow]") {
  // 42 nodes: b claims 40 of them (nodes 2..41), filling the table; a's claim on node 0 has no entry.
  WarriorsModel m = scene(claim_level(40), {human_j("a", 10, 13), human_j("b", 1, 17)});
  for (int n = 2; n < 42; ++n) REQUIRE(m.claim_waypoint(1, n));
  CHECK(claims_of(m, 1) == static_cast<int>(kClaimSlots));
  CHECK_FALSE(m.claim_waypoint(0, 0));
  CHECK(holder(m, 0) == -1);
  // A node already in the table is still contested by distance: node 2 (1, 18) is 1 m from b and
  // 10.3 m from a, so b keeps it; node 41 (16.6, 18) is 8.3 m from a and 15.6 m from b, so a takes it.
  CHECK_FALSE(m.claim_waypoint(0, 2));
  CHECK(m.claim_waypoint(0, 41));
  CHECK(holder(m, 41) == 0);
  // Once b's claims are released (he moves on), a's claim on node 0 is granted.
  m.release_claims(1);
  CHECK(claims_of(m, 1) == 0);
  CHECK(m.claim_waypoint(0, 0));
}

// ============================================================ Link kinds

TEST_CASE("Following a route step 6 and Link kinds, a closed door (0x10 with the avoid bit) is refused with +0x284 = 4",
          "[warriors][follow]") {
  // Human (4, 3) to (4, 17): the straight line meets the wall W1. Start node 0 (10, 8) (7.8 m, in
  // sight), destination node 1 (10, 13) (7.2 m, in sight); the leading cut (4, 3) -> (10, 13) meets
  // W1 at y 9 (x 7.6) and the trailing cut (4, 17) -> (10, 8) at y 12 (x 7.33): the route is 0, 1.
  const Vec3 dest{4, 17, 0};
  WarriorsModel m = scene(door_level(), {human_j("a", 4, 3)});
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  Brain& b = brain(m, 0);
  REQUIRE(b.route.route == static_cast<int32_t>(kPoolTop));
  CHECK(route_nodes(m, kPoolTop) == std::vector<int>{0, 1});
  CHECK(m.leg_flags(kPoolTop, 1) == kLinkDoor);
  CHECK(m.leg_avoided(kPoolTop, 1));
  int ended_at = -1;
  int32_t index_before_end = -1;
  for (int t = 0; t < 900 && ended_at < 0; ++t) {
    index_before_end = b.route.index;
    m.step(m.scripted_input());
    if (b.queue_count == 0) ended_at = t;
  }
  REQUIRE(ended_at >= 0);
  // N19: it ended on the update after the one that moved on to the door's far node.
  CHECK(index_before_end == 1);
  CHECK(b.fail_reason == kFailDoor);
  CHECK(plan_dist(human(m, 0).position, Vec3{10, 8, 0}) < 0.5);  // at the door, not through it
  CHECK(routes_in_use(m) == 0);
  CHECK(all_use_zero(m));
}

TEST_CASE("Following a route step 6 and Link kinds, after open_door the door's hole has flag 8 and the leg is walked",
          "[warriors][follow]") {
  const Vec3 dest{4, 17, 0};
  const uint32_t hole_flat = 2;  // area 0: outline 0, W1 1, the door's hole 2
  for (int how = 0; how < 3; ++how) {
    INFO((how == 0 ? "set_door_open" : how == 1 ? "the open_door command" : "the script's open_door"));
    Json script = Json::array();
    if (how == 2) script.push_back(Json{{"tick", 0}, {"human", "a"}, {"command", "open_door"}, {"value", kDoorNumber}});
    WarriorsModel m = scene(door_level(), {human_j("a", 4, 3)}, script);
    REQUIRE(m.state().nav.polygon_flags[hole_flat] == 7);
    if (how == 0) m.set_door_open(kDoorNumber, true);
    if (how == 1) step_with(m, door_cmd(kDoorNumber, true));
    if (how == 2) m.step(m.scripted_input());
    CHECK(m.state().nav.polygon_flags[hole_flat] == (7 | kPolyIgnored));
    step_with(m, move_command(0, dest, kWalk, 0.5f));
    Brain& b = brain(m, 0);
    REQUIRE(b.route.route >= 0);  // W1 still blocks the straight line
    CHECK(route_nodes(m, b.route.route) == std::vector<int>{0, 1});
    CHECK_FALSE(m.leg_avoided(b.route.route, 1));  // an open door's records no longer count the bit
    bool walked = false;
    int ended_at = -1;
    for (int t = 0; t < 1200 && ended_at < 0; ++t) {
      m.step(m.scripted_input());
      if (b.route.route >= 0 && b.route.index == 1 && b.route.leg_new == 0) walked = true;
      if (b.queue_count == 0) ended_at = t;
    }
    CHECK(walked);
    REQUIRE(ended_at >= 0);
    CHECK(b.fail_reason == kFailNone);
    CHECK(plan_dist(human(m, 0).position, dest) <= 0.5 + 1e-4);  // arrived through the door
    CHECK(routes_in_use(m) == 0);
    CHECK(all_use_zero(m));
  }
}

TEST_CASE("Following a route step 6 and Link kinds, a kind 2 link with the avoid bit (not a door) is refused with +0x284 = 2",
          "[warriors][follow]") {
  const Vec3 dest{4, 17, 0};
  WarriorsModel m = scene(door_level(kLinkJoint, true, 0), {human_j("a", 4, 3)});
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  Brain& b = brain(m, 0);
  REQUIRE(b.route.route >= 0);
  CHECK(m.leg_flags(b.route.route, 1) == kLinkJoint);
  int ended_at = -1;
  for (int t = 0; t < 900 && ended_at < 0; ++t) {
    m.step(m.scripted_input());
    if (b.queue_count == 0) ended_at = t;
  }
  REQUIRE(ended_at >= 0);
  CHECK(b.fail_reason == kFailEdge);
  CHECK(plan_dist(human(m, 0).position, Vec3{10, 8, 0}) < 0.5);
  CHECK(routes_in_use(m) == 0);
  CHECK(all_use_zero(m));
}

TEST_CASE("Following a route step 6, the new-leg check runs through Route_Follow directly - refused returns 2", "[warriors][follow]") {
  // The door room's route installed at waypoint 0, the human at node 0; "move on now" set.
  for (bool open : {false, true}) {
    INFO("door open " << open);
    WarriorsModel m = scene(door_level(), {human_j("a", 10, 8)});
    if (open) m.set_door_open(kDoorNumber, true);
    install_route(m, 0, {0, 1});
    Brain& b = brain(m, 0);
    b.route.move_on = 1;
    // The call that moves on does not read the new leg (N19): keep walking, the leg still new.
    CHECK(m.route_follow(0) == 1);
    CHECK(b.route.index == 1);
    CHECK(b.route.leg_new == 1);
    CHECK(b.fail_reason == kFailNone);
    const int32_t r = m.route_follow(0);
    CHECK(b.route.index == 1);
    if (open) {
      CHECK(r == 1);
      CHECK(b.route.leg_new == 0);
      CHECK(b.fail_reason == kFailNone);
    } else {
      CHECK(r == 2);
      CHECK(b.fail_reason == kFailDoor);
    }
  }
}

// ============================================================ The move action, steps 2, 3 and 5

namespace {
struct DropRun {
  int32_t drop_update = -1;     ///< the action's update count on the update the route was dropped
  int32_t visible_update = -1;  ///< the first update whose think saw the final point
  double dist_to_waypoint = 0;  ///< at the drop, from the current waypoint
  int32_t index = -1;           ///< the human's slot index (+0x92)
};

/// The wall room walk (10, 7.5) -> (10, 17) by a human in slot `slot` (the others idle in a corner).
DropRun drop_run(int slot) {
  std::vector<Json> humans;
  for (int k = 0; k < slot; ++k) humans.push_back(human_j("idle" + std::to_string(k), 19.0, 19.0 - 0.8 * k));
  humans.push_back(human_j("a", 10, 7.5));
  const Vec3 dest{10, 17, 0};
  WarriorsModel m = scene(wall_level(), humans);
  step_with(m, move_command(static_cast<uint32_t>(slot), dest, kWalk, 0.5f));
  Brain& b = brain(m, slot);
  REQUIRE(b.route.route >= 0);
  DropRun out;
  out.index = human(m, slot).index;
  for (int t = 0; t < 900; ++t) {
    // What the next update's think sees: his position now.
    const bool vis = m.can_walk_straight(slot, dest);
    const Vec3 wp = node_pos(m, route_nodes(m, b.route.route)[static_cast<std::size_t>(b.route.index)]);
    const int32_t index = b.route.index;
    m.step(m.scripted_input());
    REQUIRE(b.queue_count == 1);
    const int32_t upd = b.queue[0].updates;
    if (vis && out.visible_update < 0) out.visible_update = upd;
    if (b.route.route < 0) {
      out.drop_update = upd;
      out.dist_to_waypoint = plan_dist(human(m, slot).position, wp);
      CHECK(index == 1);
      break;
    }
  }
  return out;
}
}  // namespace

TEST_CASE("The move action step 2, every 30 updates offset by the index, a route whose final point is in sight is dropped",
          "[warriors][follow]") {
  const DropRun r0 = drop_run(0);
  const DropRun r7 = drop_run(7);
  for (const DropRun* r : {&r0, &r7}) {
    INFO("slot index " << r->index);
    REQUIRE(r->drop_update > 0);
    REQUIRE(r->visible_update > 0);
    // Not before the point is in sight, and at most 30 updates after.
    CHECK(r->drop_update >= r->visible_update);
    CHECK(r->drop_update < r->visible_update + 30);
    // Dropped by step 2, not by arriving: still well short of the route's last waypoint.
    CHECK(r->dist_to_waypoint > 1.0);
  }
  CHECK(r0.index == 0);
  CHECK(r7.index == 7);
  // The same walk, the check offset by the human's index: the drops are 7 updates apart modulo 30.
  const int32_t d = ((r7.drop_update - r0.drop_update) % 30 + 30) % 30;
  CHECK((d == 7 || d == 23));
  // The port's reading of the phase: the check runs when (updates + index) is a multiple of 30.
  CHECK((r0.drop_update + r0.index) % 30 == 0);
  CHECK((r7.drop_update + r7.index) % 30 == 0);
}

TEST_CASE("The move action step 3, with a route the move is done within its radius and the route goes back to the pool",
          "[warriors][follow]") {
  const Vec3 dest{10, 17, 0};
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  Brain& b = brain(m, 0);
  REQUIRE(b.route.route == static_cast<int32_t>(kPoolTop));
  run(m, 5);
  REQUIRE(b.route.route >= 0);
  human(m, 0).position = Vec3{10.3f, 16.7f, 0};  // 0.42 m from the destination, in plan
  m.step(m.scripted_input());
  CHECK(b.queue_count == 0);
  CHECK(b.fail_reason == kFailNone);
  CHECK(b.route.route == -1);
  CHECK(routes_in_use(m) == 0);
  CHECK(all_use_zero(m));
}

TEST_CASE("The move action step 5, the 31-update re-check tests the current waypoint, not the destination", "[warriors][follow]") {
  // The wall room walk: for its first 93 updates he heads for waypoint 0 (2, 3) or 1, always in
  // sight, while the destination (10, 17) stays behind the wall: three re-checks pass.
  const Vec3 dest{10, 17, 0};
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  Brain& b = brain(m, 0);
  // Busy updates (his first turn on the spot) are not counted by the action.
  for (int t = 0; t < 300 && b.queue[0].updates < 93; ++t) {
    CHECK_FALSE(m.can_walk_straight(0, dest));
    m.step(m.scripted_input());
    REQUIRE(b.queue_count == 1);
    REQUIRE(b.route.route >= 0);
  }
  CHECK(b.queue[0].updates == 93);
  CHECK(m.counters().move_done_straight == 0);
}

TEST_CASE("The move action step 5, a waypoint that goes out of sight ends the move within 31 updates with +0x284 left at 0",
          "[warriors][follow]") {
  // The door room with the door open: once the route is on waypoint 1 (10, 13), through the door,
  // the door is closed. Its hole cuts the line from him (y < 12) to the waypoint, so the next
  // re-check fails: done, +0x284 = 0 (the goal plans again).
  const Vec3 dest{4, 17, 0};
  WarriorsModel m = scene(door_level(), {human_j("a", 4, 3)});
  m.set_door_open(kDoorNumber, true);
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  Brain& b = brain(m, 0);
  REQUIRE(b.route.route >= 0);
  int t = 0;
  // On waypoint 1 with its leg read (walked through the open door: "the leg is new" back to 0).
  for (; t < 900 && !(b.route.route >= 0 && b.route.index == 1 && b.route.leg_new == 0); ++t) m.step(m.scripted_input());
  REQUIRE(b.route.index == 1);
  REQUIRE(b.queue_count == 1);
  REQUIRE(human(m, 0).position.y < 9.0f);
  m.set_door_open(kDoorNumber, false);
  const int32_t closed_at = b.queue[0].updates;
  const uint64_t straight_before = m.counters().move_done_straight;
  int32_t last_updates = closed_at;
  for (int k = 0; k < 60 && b.queue_count == 1; ++k) {
    last_updates = b.queue[0].updates;
    m.step(m.scripted_input());
  }
  CHECK(b.queue_count == 0);
  CHECK(last_updates + 1 - closed_at <= 31);
  CHECK(b.fail_reason == kFailNone);
  CHECK(m.counters().move_done_straight == straight_before + 1);
  CHECK(human(m, 0).position.y < 12.0f);  // he never got through
  CHECK(routes_in_use(m) == 0);
  CHECK(all_use_zero(m));
}

// ============================================================ The corner speed: MoveAction_CollectPoints

TEST_CASE("The corner speed, MoveAction_CollectPoints lists the waypoints from the current one, claiming each, then the destination",
          "[warriors][follow]") {
  const Vec3 dest{18, 18, 0};
  Action a;
  a.type = 1;
  a.point = dest;
  a.radius = 0.5f;
  const Vec3 me{2, 1, 0};
  {
    // No route: the position, then the destination.
    WarriorsModel m = scene(open_level(), {human_j("a", 2, 1)});
    const MovePoints p = m.collect_points(0, a, dest);
    REQUIRE(p.n == 2);
    CHECK(p.p[0] == me);
    CHECK(p.p[1] == dest);
  }
  {
    // Route 0, 1, 3 at waypoint 0: the position, waypoints 0 and 1 (claimed); no room for more.
    WarriorsModel m = scene(open_level(), {human_j("a", 2, 1)});
    install_route(m, 0, {0, 1, 3});
    const MovePoints p = m.collect_points(0, a, node_pos(m, 0));
    REQUIRE(p.n == 3);
    CHECK(p.p[0] == me);
    CHECK(p.p[1] == node_pos(m, 0));
    CHECK(p.p[2] == node_pos(m, 1));
    CHECK(holder(m, 0) == 0);
    CHECK(holder(m, 1) == 0);
    CHECK(holder(m, 3) == -1);
  }
  {
    // At the last waypoint: the position, waypoint 2 (node 3), then the destination.
    WarriorsModel m = scene(open_level(), {human_j("a", 2, 1)});
    install_route(m, 0, {0, 1, 3});
    brain(m, 0).route.index = 2;
    const MovePoints p = m.collect_points(0, a, node_pos(m, 3));
    REQUIRE(p.n == 3);
    CHECK(p.p[1] == node_pos(m, 3));
    CHECK(p.p[2] == dest);
    CHECK(holder(m, 3) == 0);
  }
}

TEST_CASE("The corner speed, MoveAction_CollectPoints stops before a waypoint entered by kind 4 or 0x80", "[warriors][follow]") {
  const Vec3 dest{18, 18, 0};
  Action a;
  a.type = 1;
  a.point = dest;
  for (int kind : std::vector<int>{kLinkJump, kLinkLedge, kLinkJump | kLinkWalk}) {
    INFO("kind " << kind);
    {
      // The leg into waypoint 1 is of this kind: the list is the position and waypoint 0 only.
      WarriorsModel m = scene(open_level(kind), {human_j("a", 2, 1)});
      install_route(m, 0, {0, 1, 3});
      const MovePoints p = m.collect_points(0, a, node_pos(m, 0));
      REQUIRE(p.n == 2);
      CHECK(p.p[1] == node_pos(m, 0));
      CHECK(holder(m, 0) == 0);
      CHECK(holder(m, 1) == -1);  // not listed, not claimed
    }
    {
      // The current waypoint itself entered by it: nothing but the position.
      WarriorsModel m = scene(open_level(kind), {human_j("a", 2, 1)});
      install_route(m, 0, {0, 1, 3});
      brain(m, 0).route.index = 1;
      const MovePoints p = m.collect_points(0, a, node_pos(m, 1));
      CHECK(p.n == 1);
      CHECK(holder(m, 1) == -1);
    }
  }
}

TEST_CASE("The corner speed, MoveAction_CollectPoints ends after a waypoint entered by exactly 0x10 or 0x40", "[warriors][follow]") {
  const Vec3 dest{18, 18, 0};
  Action a;
  a.type = 1;
  a.point = dest;
  struct Case {
    int kind;
    bool last;
  };
  for (Case c : {Case{kLinkDoor, true}, Case{kLinkCharge, true}, Case{kLinkDoor | kLinkWalk, false},
                 Case{kLinkCharge | kLinkWalk, false}}) {
    INFO("kind " << c.kind);
    // Route 0, 1, 3 at waypoint 1, entered by this kind: waypoint 1, then waypoint 2 (node 3) only
    // when the kind is not exactly 0x10 or 0x40.
    WarriorsModel m = scene(open_level(c.kind), {human_j("a", 2, 1)});
    install_route(m, 0, {0, 1, 3});
    brain(m, 0).route.index = 1;
    const MovePoints p = m.collect_points(0, a, node_pos(m, 1));
    CHECK(p.p[1] == node_pos(m, 1));
    CHECK(holder(m, 1) == 0);
    if (c.last) {
      CHECK(p.n == 2);
      CHECK(holder(m, 3) == -1);
    } else {
      REQUIRE(p.n == 3);
      CHECK(p.p[2] == node_pos(m, 3));
      CHECK(holder(m, 3) == 0);
    }
  }
}

// ============================================================ A full scenario: the street

TEST_CASE("Following a route, the street fixture runs deterministically, moves end for documented reasons and no route leaks",
          "[warriors][follow]") {
  WarriorsModel a = fixture("street");
  WarriorsModel b = fixture("street");
  const int32_t n = static_cast<int32_t>(a.scenario().humans.size());
  std::vector<int> ends(static_cast<std::size_t>(n), 0), arrivals(static_cast<std::size_t>(n), 0);
  std::vector<int> routed(static_cast<std::size_t>(n), 0);
  std::vector<int32_t> prev_queue(static_cast<std::size_t>(n), 0);
  for (uint64_t t = 0; t < a.scenario().ticks; ++t) {
    a.step(a.scripted_input());
    b.step(b.scripted_input());
    REQUIRE(hash_state(a.state()) == hash_state(b.state()));
    check_pool_consistent(a);
    for (int32_t s = 0; s < n; ++s) {
      const Human& h = a.state().humans[static_cast<std::size_t>(s)];
      if (h.brain.route.route >= 0) routed[static_cast<std::size_t>(s)] = 1;
      if (prev_queue[static_cast<std::size_t>(s)] > 0 && h.brain.queue_count == 0) {
        // A move ended (the script queues one move each).
        ++ends[static_cast<std::size_t>(s)];
        const ScriptSpec* cmd = nullptr;
        for (const auto& sc : a.scenario().script)
          if (sc.human == a.scenario().humans[static_cast<std::size_t>(s)].name) cmd = &sc;
        REQUIRE(cmd != nullptr);
        const Vec3 dest{cmd->point[0], cmd->point[1], cmd->point[2]};
        const bool arrived = plan_dist(h.position, dest) <= double(cmd->radius) + 1e-4;
        INFO("human " << s << " ended at tick " << t << " reason " << h.brain.fail_reason);
        if (arrived) {
          ++arrivals[static_cast<std::size_t>(s)];
          CHECK(h.brain.fail_reason == kFailNone);
        } else {
          // Seed, brain +0x284: 1 no polygon or no route, 2 or 4 an edge it cannot take, 3 stuck;
          // 0 a failed re-check (the goal plans again).
          CHECK(h.brain.fail_reason >= kFailNone);
          CHECK(h.brain.fail_reason <= kFailDoor);
        }
        CHECK(h.brain.route.route == -1);
      }
      prev_queue[static_cast<std::size_t>(s)] = h.brain.queue_count;
    }
    bool idle = true;
    for (int32_t s = 0; s < n; ++s) idle = idle && a.state().humans[static_cast<std::size_t>(s)].brain.queue_count == 0;
    if (idle) {
      CHECK(routes_in_use(a) == 0);
      CHECK(all_use_zero(a));
    }
  }
  for (int32_t s = 0; s < n; ++s) {
    INFO("human " << s << " (" << a.scenario().humans[static_cast<std::size_t>(s)].name << ") routed " << routed[static_cast<std::size_t>(s)]
                  << " ends " << ends[static_cast<std::size_t>(s)] << " arrivals " << arrivals[static_cast<std::size_t>(s)]
                  << " reason " << a.state().humans[static_cast<std::size_t>(s)].brain.fail_reason);
    CHECK(ends[static_cast<std::size_t>(s)] == 1);  // every move ends within the 30 s
  }
  // No leak: after all the moves ended, every route is back in the pool and every use count is 0.
  CHECK(routes_in_use(a) == 0);
  for (const auto& r : a.state().nav.routes) CHECK(r.in_use == 0);
  CHECK(all_use_zero(a));
}

TEST_CASE("Path planning step 6 and Following a route, the street crowd keeps the route pool consistent every update",
          "[warriors][follow]") {
  // 60 humans sent round the street again and again: every route in use belongs to one human, the use
  // counts are the routes' nodes, at most 32 routes exist, and a move that ends has no route.
  WarriorsModel a = fixture("street_crowd");
  const std::size_t n = a.scenario().humans.size();
  std::vector<int32_t> prev(n, 0);
  int ended = 0, routed = 0;
  for (uint64_t t = 0; t < a.scenario().ticks; ++t) {
    a.step(a.scripted_input());
    check_pool_consistent(a);
    for (std::size_t s = 0; s < n; ++s) {
      const Brain& b = a.state().humans[s].brain;
      routed += b.route.route >= 0 ? 1 : 0;
      if (b.queue_count < prev[s]) {
        ++ended;
        if (b.queue_count == 0) CHECK(b.route.route == -1);
      }
      prev[s] = b.queue_count;
    }
  }
  CHECK(ended > 0);
  CHECK(routed > 0);
}

// ============================================================ The review's rules (second read against the seed)

TEST_CASE("Supplement Arrival, the distance less one update's travel (speed / 30) within the radius, 3D beyond 1 m",
          "[warriors][follow]") {
  // Brain_CheckMoveArrival with the supplement's rule: d = the 3D distance, or the plan distance when the 3D one is
  // <= 1 m; +0x11d is set when d - speed / 30 <= the radius +0x118. The wall room's waypoint 0 is (2, 3, 0), r 0.25.
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  step_with(m, move_command(0, Vec3{10, 17, 0}, kWalk, 0.5f));
  settle(m, 0);
  Brain& b = brain(m, 0);
  REQUIRE(b.aim == (Vec3{2, 3, 0}));
  REQUIRE(b.aim_radius == 0.25f);
  auto test = [&](Vec3 p, float speed) {
    b.arrived = 0;
    human(m, 0).position = p;
    human(m, 0).speed = speed;
    m.check_move_arrival(0);
    return b.arrived;
  };
  CHECK(test(Vec3{2, 3.4f, 0}, 0.0f) == 0);     // 0.4 m, standing: 0.4 > 0.25
  CHECK(test(Vec3{2, 3.4f, 0}, 6.0f) == 1);     // 0.4 - 0.2 = 0.2 <= 0.25
  CHECK(test(Vec3{2, 3.4f, 0}, 4.0f) == 0);     // 0.4 - 0.133 = 0.267 > 0.25
  CHECK(test(Vec3{2, 3.4f, 0.9f}, 6.0f) == 1);  // 3D 0.985 <= 1 m: the plan distance 0.4 counts
  CHECK(test(Vec3{2, 3.4f, 1.2f}, 6.0f) == 0);  // 3D 1.265 > 1 m: 1.265 - 0.2 > 0.25
  CHECK(test(Vec3{2, 3.1f, 1.2f}, 30.0f) == 1); // 3D 1.204 - 1.0 = 0.204 <= 0.25
}

namespace {
float class_of_speed(WarriorsModel& m, int slot, int32_t gait) { return speed_for_gait(m.class_of(human(m, slot)), gait); }

// A line of nodes 0 (5, 5), 1 (5, 8) [, 2 (5, 14)] in an open 0..20 room; the leg 0 -> 1 of `kind`.
Json leg_level(int kind, bool avoid = false, double z1 = 0, bool third = false, int pair = -1) {
  Json l = empty_level();
  add_area(l, {poly_rect(0, 0, 20, 20)}, 1);
  add_ground(l, 0, 0, 20, 20, 0, 1);
  add_node(l, 5, 5);
  add_node(l, 5, 8, 0, z1);
  add_link(l, 0, 1, kind, false, avoid);
  if (third) {
    add_node(l, 5, 14);
    add_link(l, 1, 2);
  }
  if (pair >= 0) l["nodes"][1]["pair"] = pair;
  return l;
}
}  // namespace

TEST_CASE("The climb, the climb handler runs on at gait 4 and gives up after 31 failed updates", "[warriors][follow]") {
  // Seed, The climb (0x0029b848): each update it aims at the waypoint (+0x90), heading +0x110, +0x11c = 1, turns the
  // body and calls Climb_TryStart; on failure it runs on at gait 4 and tries again, giving up (move done) after 31
  // failed updates. The far node (5, 8) is 3 m away: out of the probes' 1.5 m reach (N11), so every try fails.
  WarriorsModel m = scene(leg_level(kLinkClimb), {human_j("a", 5, 5)});
  install_route(m, 0, {0, 1});
  Brain& b = brain(m, 0);
  b.route.move_on = 1;
  REQUIRE(m.route_follow(0) == 1);  // moves on to waypoint 1; its leg is read on the next call (N19)
  REQUIRE(b.route.index == 1);
  for (int k = 1; k <= 31; ++k) {
    human(m, 0).position = Vec3{5, 5, 0};  // held where he stands: the tries keep failing
    const int32_t r = m.route_follow(0);
    INFO("try " << k);
    CHECK(b.route.climb_fails == k);
    if (k < 31) {
      CHECK(r == 0);
      CHECK(b.aim == (Vec3{5, 8, 0}));
      CHECK(b.strafe == 1);
      CHECK(b.move_speed == class_of_speed(m, 0, kRun));
      CHECK(human(m, 0).action != kActClimb);
    } else {
      CHECK(r == 2);  // the 31st failure gives up: the move is done
    }
  }
}

TEST_CASE("The climb, Route_TryClimbNear - a fast climber above gait 3 climbs early within 4.5 m, state 3 for 0x80 too",
          "[warriors][follow]") {
  // Seed, The climb: "When the next leg is 8 or 0x80, a human with flag 0x2 (a fast climber) whose gait is above 3
  // starts the climb early, within 4.5 m (3D) of the next waypoint: on success the state is 3, the route moves on
  // at once, +0x11d = 1 and the leg is new = 0." He stands 0.6 m short of waypoint 0, 1.4 m from waypoint 1 (in the
  // probes' reach).
  for (int kind : {int(kLinkClimb), int(kLinkLedge)}) {
    for (int variant = 0; variant < 3; ++variant) {  // 0 fast climber at a run, 1 not a fast climber, 2 gait 3
      INFO("kind " << kind << " variant " << variant);
      WarriorsModel m = scene(leg_level(kind), {human_j("a", 5, 6.6)});
      install_route(m, 0, {0, 1});
      human(m, 0).fast_climber = variant != 1;
      human(m, 0).gait = variant == 2 ? kJog : kRun;
      Brain& b = brain(m, 0);
      const int32_t r = m.route_follow(0);
      if (variant == 0) {
        CHECK(r == 0);
        CHECK(human(m, 0).action == kActClimb);
        CHECK(b.route.state == 3);
        CHECK(b.route.index == 1);
        CHECK(b.route.leg_new == 0);
        CHECK(b.arrived == 1);
      } else {
        CHECK(r == 1);  // keeps walking to waypoint 0
        CHECK(human(m, 0).action != kActClimb);
        CHECK(b.route.index == 0);
      }
    }
  }
}

TEST_CASE("The climb, a climb that starts sets the leg is new back to 0 and state 3 or 4 by kind", "[warriors][follow]") {
  // Seed, The speed and the legs: "Once a climb has started (+0x12 = 0)"; The climb: state 3 (kind 8) or 4 (0x80).
  for (int kind : {int(kLinkClimb), int(kLinkLedge)}) {
    WarriorsModel m = scene(leg_level(kind), {human_j("a", 5, 6.8)});
    install_route(m, 0, {0, 1});
    Brain& b = brain(m, 0);
    b.route.move_on = 1;
    REQUIRE(m.route_follow(0) == 1);
    REQUIRE(b.route.leg_new == 1);
    CHECK(m.route_follow(0) == 0);
    CHECK(human(m, 0).action == kActClimb);
    CHECK(b.route.state == (kind == kLinkClimb ? 3 : 4));
    CHECK(b.route.leg_new == 0);
  }
}

TEST_CASE("Route_Follow step 5, busy links - a jump leg within 1 m of its line, 2 m in height, 4 m ahead; a ledge within 0.5 m",
          "[warriors][follow]") {
  // Seed, step 5: the out link and then the in link must not be busy: kind 4 Route_IsLinkBusy (0x0029a3f0: someone
  // within 1 m in plan of the segment and 2 m in height, within 4 m of the follower and ahead of him), kind 0x80
  // (0x0029a6c8: someone within 0.5 m of the waypoint); other kinds are never busy. Busy -> held = 1, and within
  // 2 m of the waypoint the move is stopped and Route_Follow returns 0.
  struct Case {
    int kind;
    Vec3 other;
    bool busy;
    const char* what;
  };
  const Case cases[] = {
      {kLinkJump, Vec3{5.5f, 7.0f, 0}, true, "on the jump's line, 2 m ahead"},
      {kLinkJump, Vec3{6.2f, 7.0f, 0}, false, "1.2 m to the side of the line"},
      {kLinkJump, Vec3{5.0f, 7.0f, 2.5f}, false, "2.5 m above the line"},
      {kLinkJump, Vec3{5.0f, 4.0f, 0}, false, "behind him (the segment's start is his waypoint)"},
      {kLinkJump, Vec3{5.0f, 7.95f, 0}, true, "at the landing, 2.95 m ahead"},
      {kLinkLedge, Vec3{5.0f, 8.45f, 0}, true, "0.45 m from the ledge's top node"},
      {kLinkLedge, Vec3{5.0f, 8.6f, 0}, false, "0.6 m from it"},
      {kLinkWalk, Vec3{5.0f, 6.5f, 0}, false, "a walked link is never busy"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    WarriorsModel m = scene(leg_level(c.kind), {human_j("a", 5, 5), human_j("b", c.other.x, c.other.y, c.other.z)});
    install_route(m, 0, {0, 1});
    Brain& b = brain(m, 0);
    const int32_t r = m.route_follow(0);
    CHECK(b.route.held == (c.busy ? 1 : 0));
    if (c.busy) {
      CHECK(r == 0);  // within 2 m of waypoint 0: stopped at it
      CHECK(b.aim == (Vec3{5, 5, 0}));
      CHECK(b.aim_radius == 0.0f);
      CHECK(b.move_speed == 0.0f);
    } else {
      CHECK(r == 1);
    }
  }
}

TEST_CASE("Giving way, Route_IsJumpLegClear and Route_IsClimbLegClear push a standing blocker aside (issue 18), a moving one "
          "is not pushed",
          "[warriors][follow][giveway]") {
  // Seed, Giving way: "his front action a MoveTo with a speed +0x114 above 0 -> blocked, no push (he is moving
  // anyway); otherwise ... Brain_PushAside as in the table, and blocked". The follower waits at least one update.
  for (int kind : {kLinkJump, kLinkLedge}) {
    for (bool moving : {false, true}) {
      INFO("kind " << kind << (moving ? " moving" : " standing"));
      const Vec3 at = kind == kLinkJump ? Vec3{5.5f, 7.0f, 0} : Vec3{5.0f, 8.45f, 0};
      WarriorsModel m = scene(leg_level(kind), {human_j("a", 5, 5), human_j("b", at.x, at.y, at.z)});
      install_route(m, 0, {0, 1});
      if (moving) {
        m.apply_command(move_command(1, Vec3{15, 15, 0}, 2, 0.5f));
        brain(m, 1).move_speed = 1.629f;
      }
      CHECK(m.route_follow(0) == 0);
      CHECK(brain(m, 0).route.held == 1);
      const Brain& ob = brain(m, 1);
      if (moving) {
        CHECK(ob.queue_count == 1);
        CHECK(ob.queue[0].type == 1);
      } else {
        REQUIRE(ob.queue_count == 1);
        CHECK(ob.queue[0].type == kActGiveWay);
        CHECK(ob.queue[0].look_at == 0);
      }
    }
  }
}

TEST_CASE("Supplement Jump legs, landing within 1.5 m of the landing waypoint carries on at once, farther ends the move",
          "[warriors][follow]") {
  // Route_Follow step 1 with the route state 1 (jumping) or 2 (dropping): within 1.5 m (3D) of the landing waypoint
  // the action carries on (N20: the route moves on past it), otherwise the move ends to be planned again (2).
  for (int state : {1, 2}) {
    for (double off : {1.4, 1.6}) {
      INFO("state " << state << " landed " << off << " m off");
      WarriorsModel m = scene(leg_level(kLinkJump, false, 0, true), {human_j("a", 5 + off, 8)});
      install_route(m, 0, {0, 1, 2});
      Brain& b = brain(m, 0);
      b.route.index = 1;
      b.route.leg_new = 0;
      b.route.state = state;
      const int32_t r = m.route_follow(0);
      if (off < 1.5) {
        CHECK(r == 1);
        CHECK(b.route.index == 2);
        CHECK(b.route.state == 0);
      } else {
        CHECK(r == 2);
        CHECK(b.route.index == 1);
        CHECK(b.route.state == 0);
      }
    }
  }
}

TEST_CASE("Supplement Jump legs, the landing point is the take-off projected onto the pair line, not clamped", "[warriors][follow]") {
  // Node 1 (5, 8, -2) lands the jump; its pair node 2 (5, 14, 0) gives the line through both (N21). The
  // take-off (4, y, 0) projects at t = ((y - 8) * 6 + 2 * 2) / (36 + 4) along (0, 6, 2): from y 5, t = -0.35
  // gives (5, 5.9, -2.7) (before the node, not clamped); from y 16, t = 1.3 gives (5, 15.8, 0.6) (past the pair).
  struct Case { double y; Vec3 expect; };
  for (const Case& c : {Case{5, Vec3{5, 5.9f, -2.7f}}, Case{16, Vec3{5, 15.8f, 0.6f}}}) {
    INFO("take-off y " << c.y);
    Json lv = leg_level(kLinkJump, false, -2, true, 2);
    WarriorsModel m = scene(lv, {human_j("a", 4, c.y)});
    install_route(m, 0, {0, 1, 2});
    Brain& b = brain(m, 0);
    b.route.index = 1;
    b.route.leg_new = 1;
    CHECK(m.jump_leg(0) == 0);
    const Vec3 to = human(m, 0).leg_to;
    CHECK(to.x == Approx(c.expect.x).margin(1e-5));
    CHECK(to.y == Approx(c.expect.y).margin(1e-5));
    CHECK(to.z == Approx(c.expect.z).margin(1e-5));
  }
}

TEST_CASE("Link kinds, the charge (0x40 with the avoid bit) runs at the door and breaks it open, then walks through",
          "[warriors][follow]") {
  // Seed, Link kinds: "any, avoid bit set, 0x40: the charge at a breakable door or pane"; supplement: kind 0x40 is
  // given by a breakable door, and opening sets flag 8 on its hole (N13). The door room with the door link a charge.
  const Vec3 dest{4, 17, 0};
  WarriorsModel m = scene(door_level(kLinkCharge, true), {human_j("a", 4, 3)});
  step_with(m, move_command(0, dest, kWalk, 0.5f));
  Brain& b = brain(m, 0);
  REQUIRE(b.route.route == static_cast<int32_t>(kPoolTop));
  REQUIRE(route_nodes(m, kPoolTop) == std::vector<int>{0, 1});
  const std::size_t hole = 2;  // the door's hole (polygon 2)
  REQUIRE((m.state().nav.polygon_flags[hole] & 8) == 0);
  bool ran = false, broke = false;
  int t = 0;
  for (; t < 900 && b.queue_count > 0; ++t) {
    const bool was_open = (m.state().nav.polygon_flags[hole] & 8) != 0;
    m.step(m.scripted_input());
    if (b.route.route >= 0 && b.route.index == 1 && b.route.leg_new == 1 && b.move_speed > 0.0f)
      ran = ran || b.move_speed == class_of_speed(m, 0, kRun);
    if (!was_open && (m.state().nav.polygon_flags[hole] & 8) != 0) {
      broke = true;
      CHECK(plan_dist(human(m, 0).position, Vec3{10, 13, 0}) <= 0.5);  // broken open on reaching the waypoint
    }
  }
  CHECK(ran);     // he charged at a run
  CHECK(broke);   // the door broke open
  CHECK(b.queue_count == 0);
  CHECK(b.fail_reason == kFailNone);
  CHECK(plan_dist(human(m, 0).position, dest) <= 0.5 + 1e-4);
  CHECK(!m.leg_avoided(kPoolTop, 1));  // the link no longer counts its avoid bit
}

TEST_CASE("Route_Follow step 6, a walked link marked by a hazard sphere is refused with +0x284 = 2", "[warriors][follow]") {
  // Hazard spheres mark links within r + 0.3 m avoided; a walked (kind 1) leg with the avoid bit is refused: 2.
  WarriorsModel m = scene(leg_level(kLinkWalk, false, 0, true), {human_j("a", 5, 5)});
  install_route(m, 0, {0, 1, 2});
  add_hazard(m.scenario().level, m.mutable_state().nav, Vec3{5.2f, 6.5f, 0}, 0.5f, 0);
  Brain& b = brain(m, 0);
  REQUIRE(m.leg_avoided(kPoolTop, 1));
  b.route.move_on = 1;
  REQUIRE(m.route_follow(0) == 1);  // moved on to waypoint 1; the leg read on the next call
  CHECK(m.route_follow(0) == 2);
  CHECK(b.fail_reason == kFailEdge);
}

TEST_CASE("Waypoint claims, N18 - a claim outlives the move that made it and a nearer human takes it over", "[warriors][follow]") {
  // Supplement: claims are released on moving on (not over kind 4) and by a level reset; a move that ends does not
  // release them (N18). The nearer of two humans keeps a node, so a stale claim gives way to anyone nearer.
  WarriorsModel m = scene(leg_level(kLinkWalk, false, 0, true), {human_j("a", 5, 5.1), human_j("b", 8, 8)});
  install_route(m, 0, {0, 1, 2});
  REQUIRE(m.route_follow(0) == 1);
  REQUIRE(holder(m, 0) == 0);
  m.release_route(0);  // the move ends: the route goes back to the pool
  CHECK(holder(m, 0) == 0);  // the claim stays
  // b is 4.24 m from node 0 and a 0.1 m: a keeps it.
  install_route(m, 1, {0, 1, 2}, kPoolTop - 1);
  CHECK(m.route_follow(1) == 1);
  CHECK(brain(m, 1).route.held == 1);
  CHECK(holder(m, 0) == 0);
  // a walks away (to 9, 9): b is nearer now and takes the node.
  human(m, 0).position = Vec3{9, 9, 0};
  human(m, 1).position = Vec3{5, 6, 0};
  CHECK(m.route_follow(1) == 1);
  CHECK(holder(m, 0) == 1);
  CHECK(brain(m, 1).route.held == 0);
}

TEST_CASE("Path planning step 6, N23 - with all 32 routes in use the request fails with +0x284 = 1", "[warriors][follow]") {
  // The wall room: (10, 7.5) to (10, 17) needs a route (the wall is in the way). Every pool slot taken: none built.
  WarriorsModel m = scene(wall_level(), {human_j("a", 10, 7.5)});
  for (auto& r : m.mutable_state().nav.routes) r.in_use = 1;
  step_with(m, move_command(0, Vec3{10, 17, 0}, kWalk, 0.5f));
  for (int k = 0; k < 5 && brain(m, 0).queue_count > 0; ++k) m.step(m.scripted_input());
  CHECK(brain(m, 0).queue_count == 0);
  CHECK(brain(m, 0).route.route == -1);
  CHECK(brain(m, 0).fail_reason == kFailNoRoute);
}
