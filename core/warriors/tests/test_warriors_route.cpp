// warriors navigation tests (route): seed 000, "Path planning" steps 4-6 (Route_AStar,
// Nav_EdgeCost, Route_Find, Route_Build, the route pool). Every graph is built here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "warriors/route.h"

namespace {

using namespace lockstep;
using namespace lockstep::warriors;

/// A small level: nodes and their D records, the live state and one search scratch.
struct Graph {
  Level level;
  NavState state;
  AStarScratch s;

  uint16_t node(float x, float y = 0, float z = 0) {
    NavNode n;
    n.position = Vec3{x, y, z};
    level.nodes.push_back(n);
    return static_cast<uint16_t>(level.nodes.size() - 1);
  }
  /// The walking step from -> to: a D record on `to` naming `from`.
  void step(uint16_t from, uint16_t to, uint16_t kind = kLinkWalk, bool avoid = false) {
    NavLink l;
    l.from = from;
    l.kind = kind;
    l.avoid = avoid;
    level.nodes[to].links.push_back(l);
  }
  /// Derived data and a fresh state (no marks, no use counts, no routes).
  void ready() {
    level.derive();
    state = NavState{};
    state.node_use.assign(level.nodes.size(), 0);
    state.link_marks.assign(level.link_count(), 0);
  }
  AStarResult astar(uint16_t start, uint16_t dest, uint16_t mask = kMaskAll, uint32_t cap = kCostCap) {
    return route_astar(level, state, s, start, dest, mask, cap);
  }
  /// The parent chain from `start` (walking order).
  std::vector<uint16_t> chain(uint16_t start) const {
    std::vector<uint16_t> c;
    for (uint16_t p = start; p != kNoNode && c.size() < 300; p = s.parent[p]) c.push_back(p);
    return c;
  }
  std::vector<uint16_t> route_nodes(int32_t slot) const {
    const Route& r = state.routes[static_cast<std::size_t>(slot)];
    return std::vector<uint16_t>(r.nodes.begin(), r.nodes.begin() + r.count);
  }
};

bool why_is(const AStarResult& r, const char* why) { return std::strcmp(r.why, why) == 0; }

using V = std::vector<uint16_t>;

}  // namespace

// ---------------------------------------------------------------- distances and Nav_EdgeCost

TEST_CASE("route, nav_distance16: the 3D distance x 16, truncated to an integer", "[warriors][route]") {
  CHECK(nav_distance16({0, 0, 0}, {1, 2, 2}) == 48);
  CHECK(nav_distance16({0, 0, 0}, {0, 0, 3.5f}) == 56);          // the height counts
  CHECK(nav_distance16({1, 1, 1}, {1, 1, 1}) == 0);
  CHECK(nav_distance16({0, 0, 0}, {1.03125f, 0, 0}) == 16);      // 16.5 truncated
  CHECK(nav_distance16({0, 0, 0}, {0.0625f, 0, 0}) == 1);
  CHECK(nav_distance16({0, 0, 0}, {0.06f, 0, 0}) == 0);          // 0.96 truncated
  CHECK(nav_distance16({-3, 0, 0}, {0, -4, 0}) == 80);
  Graph g;
  const uint16_t a = g.node(0, 0, 0), b = g.node(3, 4, 12);
  g.ready();
  CHECK(nav_heuristic(g.level, a, b) == 208);  // 13 m
  CHECK(nav_heuristic(g.level, b, a) == 208);
}

TEST_CASE("route, nav_distance16, choice: above 65535 the low 16 bits are kept as a u16 store keeps them",
          "[warriors][route]") {
  CHECK(nav_distance16({0, 0, 0}, {4095.9375f, 0, 0}) == 65535);
  CHECK(nav_distance16({0, 0, 0}, {4096.0f, 0, 0}) == 0);   // 65536
  CHECK(nav_distance16({0, 0, 0}, {4100.0f, 0, 0}) == 64);  // 65600
}

TEST_CASE("route, Nav_EdgeCost: g plus the distance for a plain step", "[warriors][route]") {
  CHECK(nav_edge_cost(100, 48, kLinkWalk, false, 0, kMaskAll, false) == 148);
  CHECK(nav_edge_cost(100, 48, kLinkWalk, false, 0, kMaskAll, true) == 148);
  CHECK(nav_edge_cost(0, 0, kLinkJoint, false, 0, kMaskAll, true) == 0);
  CHECK(nav_edge_cost(7, 48, kLinkDoor, false, 0, kMaskAll, true) == 55);
}

TEST_CASE("route, Nav_EdgeCost, ClimbFilter: +200 for 8, else +320 for 0x80, else +80 for 4", "[warriors][route]") {
  auto cost = [](uint16_t kind, bool avoided = false, uint16_t mask = kMaskAll, bool filter = true) {
    return nav_edge_cost(0, 100, kind, avoided, 0, mask, filter);
  };
  CHECK(cost(kLinkClimb) == 300);
  CHECK(cost(kLinkLedge) == 420);
  CHECK(cost(kLinkJump) == 180);
  CHECK(cost(kLinkClimb | kLinkLedge) == 300);  // 8 is tested first
  CHECK(cost(kLinkClimb | kLinkJump) == 300);
  CHECK(cost(kLinkLedge | kLinkJump) == 420);   // 0x80 before 4
  CHECK(cost(kLinkWalk) == 100);
  CHECK(cost(kLinkDoor) == 100);
  CHECK(cost(kLinkCharge) == 100);
  // The 0x40 + avoid exception is on the kind-4 branch only.
  CHECK(cost(kLinkJump | kLinkCharge, true) == 1700);   // no +80, the avoid bit's 1600
  CHECK(cost(kLinkJump | kLinkCharge, false) == 180);   // 0x40 without the avoid bit: +80
  CHECK(cost(kLinkJump, true) == 1780);                 // avoid without 0x40: +80 and +1600
  CHECK(cost(kLinkClimb | kLinkCharge, true) == 1900);  // 200 + 1600
  CHECK(cost(kLinkLedge | kLinkCharge, true) == 2020);  // 320 + 1600
  // Off without the script's ClimbFilter(on), and off while the mask has 0x100.
  for (uint16_t k : {kLinkClimb, kLinkLedge, kLinkJump}) {
    CHECK(cost(k, false, kMaskAll, false) == 100);
    CHECK(cost(k, false, 0x1ff, true) == 100);
    CHECK(cost(k, false, kMaskNoClimbFilter, true) == 100);
    CHECK(cost(k, true, 0x1ff, true) == 1700);  // the avoid bit still counts
  }
}

TEST_CASE("route, Nav_EdgeCost: the avoid bit adds 1600", "[warriors][route]") {
  CHECK(nav_edge_cost(10, 48, kLinkWalk, true, 0, kMaskAll, false) == 1658);
  CHECK(nav_edge_cost(10, 48, kLinkDoor, true, 0, kMaskAll, true) == 1658);
}

TEST_CASE("route, Nav_EdgeCost: a use count u of the expanded node adds 40u - 8, nothing at 0", "[warriors][route]") {
  CHECK(nav_edge_cost(0, 100, kLinkWalk, false, 0, kMaskAll, false) == 100);
  CHECK(nav_edge_cost(0, 100, kLinkWalk, false, 1, kMaskAll, false) == 132);
  CHECK(nav_edge_cost(0, 100, kLinkWalk, false, 2, kMaskAll, false) == 172);
  CHECK(nav_edge_cost(0, 100, kLinkWalk, false, 3, kMaskAll, false) == 212);
  CHECK(nav_edge_cost(0, 100, kLinkWalk, false, 255, kMaskAll, false) == 10292);
  // All four terms together: 100 + 200 + 1600 + 72.
  CHECK(nav_edge_cost(5, 100, kLinkClimb, true, 2, kMaskAll, true) == 1977);
}

TEST_CASE("route, Nav_EdgeCost: each addition to the step's cost wraps at 16 bits", "[warriors][route]") {
  // 65435 + 1600 = 67035 wraps to 1499, so g + cost stays far from saturating.
  CHECK(nav_edge_cost(0, 65435, kLinkWalk, true, 0, kMaskAll, false) == 1499);
  CHECK(nav_edge_cost(1000, 65435, kLinkWalk, true, 0, kMaskAll, false) == 2499);
  CHECK(nav_edge_cost(0, 65535, kLinkClimb, false, 0, kMaskAll, true) == 199);           // + 200
  CHECK(nav_edge_cost(0, 65400, kLinkLedge, true, 0, kMaskAll, true) == 1784);           // + 320, + 1600
  CHECK(nav_edge_cost(0, 60000, kLinkWalk, false, 255, kMaskAll, false) == 4656);        // + 10192
  CHECK(nav_edge_cost(0, 65535, kLinkWalk, false, 1, kMaskAll, false) == 31);            // + 32
  CHECK(nav_edge_cost(100, 65500, kLinkJump, false, 0, kMaskAll, true) == 144);          // + 80 wraps to 44
}

TEST_CASE("route, Nav_EdgeCost: only g + the step's cost saturates at 0xffff", "[warriors][route]") {
  CHECK(nav_edge_cost(65000, 1000, kLinkWalk, false, 0, kMaskAll, false) == 0xffff);
  CHECK(nav_edge_cost(0xffff, 0, kLinkWalk, false, 0, kMaskAll, false) == 0xffff);
  CHECK(nav_edge_cost(0xffff, 0xffff, kLinkWalk, false, 0, kMaskAll, false) == 0xffff);
  CHECK(nav_edge_cost(60000, 5535, kLinkWalk, false, 0, kMaskAll, false) == 65535);
  CHECK(nav_edge_cost(60000, 5534, kLinkWalk, false, 0, kMaskAll, false) == 65534);
  CHECK(nav_edge_cost(64000, 0, kLinkWalk, true, 0, kMaskAll, false) == 65535);  // 65600
}

// ---------------------------------------------------------------- Route_AStar

TEST_CASE("route, Route_AStar: a D record on N naming M is the step M to N, parents read in walking order",
          "[warriors][route]") {
  Graph g;
  const uint16_t a = g.node(0), b = g.node(10), c = g.node(20);
  g.step(a, b);
  g.step(b, c);  // one-way: a -> b -> c
  g.ready();
  AStarResult r = g.astar(a, c);
  CHECK(r.found);
  CHECK(r.chain == 3);
  CHECK(g.chain(a) == V{a, b, c});
  CHECK(g.s.closed == V{c, b, a});  // expanded from the destination
  CHECK(g.s.f[a] == 320);           // 20 m; h of the start is 0
  r = g.astar(c, a);  // the other way has no records
  CHECK_FALSE(r.found);
  CHECK(why_is(r, "no path"));
  CHECK(g.s.closed == V{a});
  // The start's node as the destination's: one node.
  r = g.astar(b, b);
  CHECK(r.found);
  CHECK(r.chain == 1);
  CHECK(g.chain(b) == V{b});
}

TEST_CASE("route, Route_AStar: the 65000 cap is on the running total, a new g of 64999 is taken and 65000 skipped",
          "[warriors][route]") {
  for (const bool over : {false, true}) {
    Graph g;
    const uint16_t d = g.node(0), m = g.node(2000);                // 32000
    const uint16_t s = g.node(over ? 4062.5f : 4062.4375f);        // + 33000 or + 32999
    g.step(s, m);
    g.step(m, d);
    g.ready();
    REQUIRE(nav_heuristic(g.level, m, s) == (over ? 33000 : 32999));
    const AStarResult r = g.astar(s, d);
    CHECK(r.found == !over);
    if (!over) CHECK(g.s.f[s] == 64999);
    if (over) CHECK(why_is(r, "no path"));
  }
  // One step alone, and the cap argument.
  for (const bool over : {false, true}) {
    Graph g;
    const uint16_t d = g.node(0), s = g.node(over ? 4062.5f : 4062.4375f);
    g.step(s, d);
    g.ready();
    CHECK(g.astar(s, d).found == !over);
  }
  for (const bool over : {false, true}) {
    Graph g;
    const uint16_t d = g.node(0), s = g.node(over ? 6.25f : 6.1875f);  // 100 or 99
    g.step(s, d);
    g.ready();
    CHECK(g.astar(s, d, kMaskAll, 100).found == !over);
  }
}

TEST_CASE("route, Route_AStar: a g + cost saturated at 0xffff is over the cap", "[warriors][route]") {
  Graph g;
  const uint16_t d = g.node(0), m = g.node(4000), s = g.node(8000);  // 64000 + 64000
  g.step(s, m);
  g.step(m, d);
  g.ready();
  REQUIRE(nav_edge_cost(64000, 64000, kLinkWalk, false, 0, kMaskAll, false) == 0xffff);
  const AStarResult r = g.astar(s, d);  // a wrapped 128000 would read 62464, under the cap
  CHECK_FALSE(r.found);
  CHECK(why_is(r, "no path"));
  CHECK(g.s.closed == V{d, m});
}

TEST_CASE("route, Route_AStar: equal f keep the older heap entry above, so it pops first", "[warriors][route]") {
  // S (0,0), D (4,4), A (4,0), B (0,4): both A and B have g 64, h 64, f 128, and S f 128 from either.
  for (const bool b_first : {true, false}) {
    Graph g;
    const uint16_t s = g.node(0, 0), d = g.node(4, 4), a = g.node(4, 0), b = g.node(0, 4);
    if (b_first) {
      g.step(b, d);
      g.step(a, d);
    } else {
      g.step(a, d);
      g.step(b, d);
    }
    g.step(s, a);
    g.step(s, b);
    g.ready();
    const AStarResult r = g.astar(s, d);
    REQUIRE(r.found);
    REQUIRE(g.s.f[a] == 128);
    REQUIRE(g.s.f[b] == 128);
    // The one pushed first pops first; S (pushed later with the same f) waits below the other;
    // the other then finds S on the heap with a g no larger than its own and leaves it.
    const uint16_t first = b_first ? b : a, second = b_first ? a : b;
    CHECK(g.s.closed == V{d, first, second, s});
    CHECK(g.s.parent[s] == first);
    CHECK(g.chain(s) == V{s, first, d});
    CHECK(g.s.f[s] == 128);
  }
}

TEST_CASE("route, Route_AStar: a node on the heap takes a smaller new g, its parent, and is sifted up",
          "[warriors][route]") {
  Graph g;
  const uint16_t d = g.node(0), k = g.node(5), m = g.node(10), s = g.node(20);
  g.step(m, d, kLinkWalk, true);  // m -> d avoided: g 160 + 1600
  g.step(k, d);                   // k -> d: g 80
  g.step(m, k);                   // m -> k: 80 + 80
  g.step(s, m);
  g.ready();
  const AStarResult r = g.astar(s, d);
  REQUIRE(r.found);
  CHECK(g.s.closed == V{d, k, m, s});
  CHECK(g.chain(s) == V{s, m, k, d});
  CHECK(g.s.f[s] == 320);
  CHECK(r.pushed == 4);  // d, m, k, s: the update is a sift-up, not a push
}

TEST_CASE("route, Route_AStar: a record whose flags share nothing with the mask is skipped", "[warriors][route]") {
  struct Case {
    uint16_t kind, mask;
    bool found;
  };
  for (const Case c : {Case{kLinkDoor, 0xef, false}, Case{kLinkDoor, 0x10, true}, Case{0x11, 0x01, true},
                       Case{kLinkWalk, kMaskNoClimbFilter, false}, Case{kLinkLedge, 0x7f, false},
                       Case{kLinkLedge, kMaskAll, true}, Case{kLinkCharge, 0xbf, false}, Case{kLinkWalk, 0, false}}) {
    Graph g;
    const uint16_t d = g.node(0), s = g.node(1);
    g.step(s, d, c.kind);
    g.ready();
    INFO("kind " << c.kind << " mask " << c.mask);
    CHECK(g.astar(s, d, c.mask).found == c.found);
  }
}

TEST_CASE("route, Route_AStar: 0xfabc in g is the closed mark, whoever wrote it", "[warriors][route]") {
  SECTION("a g left from an earlier search") {
    for (const uint16_t left : {uint16_t{0xfabc}, uint16_t{0xfabb}, uint16_t{1}}) {
      Graph g;
      const uint16_t s = g.node(0), m = g.node(1), d = g.node(2);
      g.step(s, m);
      g.step(m, d);
      g.ready();
      g.s.resize(g.level.nodes.size());
      g.s.g[m] = left;  // the scratch keeps g between searches; a node off the heap is pushed whatever it says
      const AStarResult r = g.astar(s, d);
      INFO("left g " << left);
      CHECK(r.found == (left != 0xfabc));
      if (left == 0xfabc) {
        CHECK(g.s.closed == V{d});
        CHECK(g.s.g[m] == 0xfabc);  // not closed by this search, so not cleared
      } else {
        CHECK(g.chain(s) == V{s, m, d});
      }
    }
  }
  SECTION("a node on the heap whose new g is exactly 0xfabc reads closed") {
    // D (0), B (1955.875), A = the start (3911.75). A -> D avoided: 62588 + 1600 = 64188 = 0xfabc;
    // B -> D: 31294, f 62588, so B pops first and offers A a g of 62588, but A's g reads closed.
    Graph g;
    const uint16_t d = g.node(0), b = g.node(1955.875f), a = g.node(3911.75f);
    g.step(a, d, kLinkWalk, true);
    g.step(b, d);
    g.step(a, b);
    g.ready();
    const AStarResult r = g.astar(a, d);
    REQUIRE(r.found);
    CHECK(g.s.closed == V{d, b, a});
    CHECK(g.chain(a) == V{a, d});  // not the cheaper a -> b -> d
    CHECK(g.s.f[a] == 0xfabc);
    // One unit less on the avoided step and the cheaper way is taken.
    Graph h;
    const uint16_t d2 = h.node(0), b2 = h.node(1955.875f), a2 = h.node(3911.6875f);
    h.step(a2, d2, kLinkWalk, true);
    h.step(b2, d2);
    h.step(a2, b2);
    h.ready();
    REQUIRE(h.astar(a2, d2).found);
    CHECK(h.chain(a2) == V{a2, b2, d2});
  }
}

TEST_CASE("route, PathNodes_ClearOpenMarks: after the search every closed node's g is 0, the start's included",
          "[warriors][route]") {
  SECTION("success") {
    Graph g;
    const uint16_t d = g.node(0), s = g.node(1), e = g.node(0, 50);
    g.step(s, d);
    g.step(e, d);
    g.ready();
    g.s.resize(g.level.nodes.size());
    std::fill(g.s.g.begin(), g.s.g.end(), uint16_t{0x1234});
    const AStarResult r = g.astar(s, d);
    REQUIRE(r.found);
    CHECK(g.s.closed == V{d, s});
    CHECK(g.s.g[d] == 0);
    CHECK(g.s.g[s] == 0);      // its g (16) was put back, then cleared
    CHECK(g.s.f[s] == 16);     // f is not cleared
    CHECK(g.s.g[e] == 800);    // still on the heap: keeps its g
    CHECK(g.s.heap == V{e});
  }
  SECTION("failure") {
    Graph g;
    const uint16_t d = g.node(0), a = g.node(1), b = g.node(2), s = g.node(9, 9);
    g.step(a, d);
    g.step(b, a);
    g.ready();
    const AStarResult r = g.astar(s, d);
    REQUIRE_FALSE(r.found);
    CHECK(r.closed == 3);
    for (const uint16_t c : g.s.closed) CHECK(g.s.g[c] == 0);
    CHECK(g.s.closed == V{d, a, b});
  }
}

TEST_CASE("route, Route_AStar: a chain of 128 nodes is a route, one of 129 fails", "[warriors][route]") {
  for (const int count : {128, 129}) {
    Graph g;
    for (int i = 0; i < count; ++i) g.node(static_cast<float>(i));
    for (int i = 1; i < count; ++i) g.step(static_cast<uint16_t>(i), static_cast<uint16_t>(i - 1));
    g.ready();
    const uint16_t s = static_cast<uint16_t>(count - 1);
    const AStarResult r = g.astar(s, 0);
    INFO("nodes " << count);
    CHECK(r.chain == count);
    CHECK(r.found == (count == 128));
    CHECK(why_is(r, count == 128 ? "" : "chain over 128"));
    CHECK(r.closed == static_cast<uint32_t>(count));
    for (const uint16_t c : g.s.closed) CHECK(g.s.g[c] == 0);  // the start's included
  }
}

TEST_CASE("route, Route_AStar: the heap holds at most 1000 entries, a push onto a full heap fails the search",
          "[warriors][route]") {
  for (const int around : {1000, 1001}) {
    Graph g;
    const uint16_t d = g.node(0, 0, 0), s = g.node(0, 0, 500);  // s: reached by nothing
    for (int i = 0; i < around; ++i) {
      const uint16_t m = g.node(static_cast<float>(1 + i % 40), static_cast<float>(i / 40));
      g.step(m, d);
    }
    g.ready();
    const AStarResult r = g.astar(s, d);
    INFO("neighbours " << around);
    CHECK_FALSE(r.found);
    if (around == 1000) {
      CHECK(why_is(r, "no path"));
      CHECK(r.pushed == 1001);
      CHECK(r.closed == 1001);
    } else {
      CHECK(why_is(r, "heap full"));
      CHECK(r.pushed == 1001);  // d, then 1000 neighbours
      CHECK(r.closed == 1);
      CHECK(g.s.heap.size() == 1000);
      // Choice: the refused node's fields were written before the push.
      CHECK(g.s.parent[static_cast<uint16_t>(g.level.nodes.size() - 1)] == d);
    }
  }
}

TEST_CASE("route, Route_AStar: the closed list holds at most 3000 nodes, a full list fails the search",
          "[warriors][route]") {
  for (const int count : {3000, 3001}) {
    Graph g;
    for (int i = 0; i < count; ++i) g.node(static_cast<float>(i));
    for (int i = 1; i < count; ++i) g.step(static_cast<uint16_t>(i), static_cast<uint16_t>(i - 1));
    const uint16_t s = g.node(0, 10);  // reached by nothing
    g.ready();
    const AStarResult r = g.astar(s, 0);
    INFO("chain " << count);
    CHECK_FALSE(r.found);
    CHECK(r.closed == 3000);
    CHECK(why_is(r, count == 3000 ? "no path" : "closed list full"));
    for (const uint16_t c : g.s.closed) CHECK(g.s.g[c] == 0);
  }
}

TEST_CASE("route, Route_AStar: the use count of the expanded node, the one the step enters, costs 40u - 8",
          "[warriors][route]") {
  SECTION("on a line") {
    Graph g;
    const uint16_t d = g.node(0), m = g.node(1), s = g.node(2);
    g.step(s, m);
    g.step(m, d);
    g.ready();
    REQUIRE(g.astar(s, d).found);
    CHECK(g.s.f[s] == 32);
    g.state.node_use[m] = 1;  // s -> m: +32
    g.state.node_use[d] = 2;  // m -> d: +72
    g.state.node_use[s] = 9;  // s enters nothing
    REQUIRE(g.astar(s, d).found);
    CHECK(g.s.f[s] == 136);
  }
  SECTION("it spreads routes over parallel ways") {
    Graph g;
    const uint16_t d = g.node(0, 0), l = g.node(1, 1), r = g.node(1, -1), s = g.node(2, 0);
    g.step(l, d);
    g.step(r, d);
    g.step(s, l);
    g.step(s, r);
    g.ready();
    REQUIRE(g.astar(s, d).found);
    CHECK(g.chain(s) == V{s, l, d});  // the tie goes to the older entry
    g.state.node_use[l] = 1;
    REQUIRE(g.astar(s, d).found);
    CHECK(g.chain(s) == V{s, r, d});
  }
}

TEST_CASE("route, Route_AStar: the ClimbFilter terms on the graph, 0x40 with the avoid bit spared, 0x100 off",
          "[warriors][route]") {
  struct Case {
    uint16_t kind;
    bool avoid, filter;
    uint16_t mask, f;
  };
  for (const Case c : {Case{kLinkClimb, false, true, kMaskAll, 216}, Case{kLinkClimb, false, false, kMaskAll, 16},
                       Case{kLinkClimb, false, true, 0x1ff, 16}, Case{kLinkLedge, false, true, kMaskAll, 336},
                       Case{kLinkJump, false, true, kMaskAll, 96}, Case{kLinkJump, true, true, kMaskAll, 1696},
                       Case{kLinkJump | kLinkCharge, true, true, kMaskAll, 1616},
                       Case{kLinkJump | kLinkCharge, false, true, kMaskAll, 96},
                       Case{kLinkJump, true, true, 0x1ff, 1616}}) {
    Graph g;
    const uint16_t d = g.node(0), s = g.node(1);
    g.step(s, d, c.kind, c.avoid);
    g.ready();
    g.level.climb_filter = c.filter;
    INFO("kind " << c.kind << " avoid " << c.avoid << " filter " << c.filter << " mask " << c.mask);
    REQUIRE(g.astar(s, d, c.mask).found);
    CHECK(g.s.f[s] == c.f);
  }
}

TEST_CASE("route, Route_AStar: the avoid bit is the file's bit or a hazard mark on the record's flat link",
          "[warriors][route]") {
  Graph g;
  const uint16_t x = g.node(50, 50), y = g.node(60, 60), d = g.node(0), s = g.node(1);
  g.step(y, x);
  g.step(d, x);  // x's records: flat 0, 1
  g.step(y, d);  // d's records: flat 2 (y), 3 (s)
  g.step(s, d);
  g.ready();
  REQUIRE(g.level.nodes[d].first_link == 2);
  REQUIRE(g.astar(s, d).found);
  CHECK(g.s.f[s] == 16);
  g.state.link_marks[2] = 1;  // another record of d
  REQUIRE(g.astar(s, d).found);
  CHECK(g.s.f[s] == 16);
  g.state.link_marks[3] = 2;  // counted marks: any count avoids
  REQUIRE(g.astar(s, d).found);
  CHECK(g.s.f[s] == 1616);
  g.level.nodes[d].links[1].avoid = true;  // file bit and mark: once
  REQUIRE(g.astar(s, d).found);
  CHECK(g.s.f[s] == 1616);
  g.state.link_marks.clear();  // no marks at all
  REQUIRE(g.astar(s, d).found);
  CHECK(g.s.f[s] == 1616);
  g.level.nodes[d].links[1].avoid = false;
  REQUIRE(g.astar(s, d).found);
  CHECK(g.s.f[s] == 16);
}

// ---------------------------------------------------------------- Route_Find

TEST_CASE("route, Route_Find: a failed search is retried with mask | 0x8c only when the mask without 0x100 is not 0xff",
          "[warriors][route]") {
  struct Case {
    uint16_t kind, mask;
    bool found;
  };
  for (const Case c : {Case{kLinkClimb, 0x13, true}, Case{kLinkClimb, 0x113, true}, Case{kLinkJump, 0x13, true},
                       Case{kLinkLedge, 0x01, true}, Case{kLinkCharge, 0xbf, false}, Case{kLinkDoor, 0x0f, false},
                       Case{0x200, kMaskAll, false}, Case{0x200, 0x1ff, false}}) {
    Graph g;
    const uint16_t d = g.node(0), s = g.node(1);
    g.step(s, d, c.kind);
    g.ready();
    INFO("kind " << c.kind << " mask " << c.mask);
    CHECK_FALSE(g.astar(s, d, c.mask).found);
    const AStarResult r = route_find(g.level, g.state, g.s, s, d, c.mask);
    CHECK(r.found == c.found);
    if (c.found) CHECK(g.chain(s) == V{s, d});
  }
  // 0xff (0x1ff) is never retried; | 0x8c would change nothing there, so the one search's result stands.
  Graph g;
  const uint16_t d = g.node(0), s = g.node(1), m = g.node(0, 1);
  g.step(m, d);
  g.step(s, m, 0x200);
  g.ready();
  for (const uint16_t mask : {uint16_t{0xff}, uint16_t{0x1ff}}) {
    const AStarResult one = g.astar(s, d, mask);
    const AStarResult r = route_find(g.level, g.state, g.s, s, d, mask);
    CHECK_FALSE(r.found);
    CHECK(r.closed == one.closed);
    CHECK(r.pushed == one.pushed);
    CHECK(g.s.closed == V{d, m});
  }
}

TEST_CASE("route, Route_Find: over a 0x80 ledge a second search runs without 0x80 under the first route's f, "
          "and the first route is kept",
          "[warriors][route]") {
  // D (0,0), S (2,0): S -> D a 0x80 ledge, 32 + 320. W (1,12) walks around: 192 + 192 = 384.
  auto make = [](Graph& g) {
    const uint16_t d = g.node(0, 0), s = g.node(2, 0), w = g.node(1, 12);
    g.step(s, d, kLinkLedge);
    g.step(w, d);
    g.step(s, w);
    g.ready();
    g.level.climb_filter = true;
    return std::array<uint16_t, 3>{d, s, w};
  };
  Graph g;
  const auto [d, s, w] = make(g);
  const AStarResult r = route_find(g.level, g.state, g.s, s, d, kMaskAll);
  REQUIRE(r.found);
  CHECK(r.chain == 2);
  CHECK(g.chain(s) == V{s, d});  // the first route, over the ledge
  // The second search ran: its closed list and g values are in the scratch. Under the cap (352)
  // the walk around (384) is cut off, so it closed d and w and never reached s.
  CHECK(g.s.closed == V{d, w});
  Graph replay;
  make(replay);
  REQUIRE(replay.astar(s, d, kMaskAll).found);
  const uint32_t cap = replay.s.f[s];
  CHECK(cap == 352);
  const AStarResult second = replay.astar(s, d, 0x7f, cap);
  CHECK_FALSE(second.found);
  CHECK(g.s.closed == replay.s.closed);
  CHECK(g.s.g == replay.s.g);
  CHECK(g.s.f == replay.s.f);
  // Without the cap the second search would have found the walk.
  Graph nocap;
  make(nocap);
  CHECK(nocap.astar(s, d, 0x7f).found);
  CHECK(nocap.chain(s) == V{s, w, d});

  SECTION("no second search without ClimbFilter(on), with 0x100 in the mask, or without 0x80 in the mask") {
    Graph h;
    make(h);
    h.level.climb_filter = false;
    REQUIRE(route_find(h.level, h.state, h.s, s, d, kMaskAll).found);
    CHECK(h.s.closed == V{d, s});
    Graph k;
    make(k);
    REQUIRE(route_find(k.level, k.state, k.s, s, d, 0x1ff).found);
    CHECK(k.s.closed == V{d, s});
    CHECK(k.chain(s) == V{s, d});
    Graph m;
    make(m);
    REQUIRE(route_find(m.level, m.state, m.s, s, d, 0x7f).found);  // the walk, no 0x80 step
    CHECK(m.chain(s) == V{s, w, d});
    CHECK(m.s.closed == V{d, w, s});
  }
  SECTION("a route that crosses no 0x80 link is not searched again") {
    Graph h;
    make(h);
    h.level.nodes[d].links[0].kind = kLinkWalk;
    REQUIRE(route_find(h.level, h.state, h.s, s, d, kMaskAll).found);
    CHECK(h.s.closed == V{d, s});
  }
}

// ---------------------------------------------------------------- Route_Build

namespace {

/// A straight chain n0 -> n1 -> ... with the parents set as a search leaves them (start n0).
Graph line_graph(int count) {
  Graph g;
  for (int i = 0; i < count; ++i) g.node(static_cast<float>(i));
  for (int i = 1; i < count; ++i) g.step(static_cast<uint16_t>(i - 1), static_cast<uint16_t>(i));
  g.ready();
  g.s.resize(g.level.nodes.size());
  for (int i = 0; i + 1 < count; ++i) g.s.parent[static_cast<std::size_t>(i)] = static_cast<uint16_t>(i + 1);
  return g;
}

const LineTest kNever = [](Vec3, int32_t, uint16_t) { return false; };

int32_t build(Graph& g, uint16_t start, uint16_t dest, const LineTest& line = kNever) {
  return route_build(g.level, g.state, g.s, start, dest, Vec3{-1, 0, 0}, 7, Vec3{100, 0, 0}, 9, line);
}

}  // namespace

TEST_CASE("route, Route_Build: routes come from the pool from slot 31 down, -1 when all 32 are used",
          "[warriors][route]") {
  Graph g = line_graph(3);
  for (int i = 31; i >= 0; --i) CHECK(build(g, 0, 2) == i);
  CHECK(build(g, 0, 2) == -1);
  CHECK(g.state.node_use == std::vector<uint8_t>{32, 32, 32});
  route_free(g.level, g.state, 5);
  CHECK(g.state.routes[5].in_use == 0);
  CHECK(build(g, 0, 2) == 5);
  route_free(g.level, g.state, 5);
  route_free(g.level, g.state, 31);
  CHECK(build(g, 0, 2) == 31);
  CHECK(build(g, 0, 2) == 5);
  CHECK(build(g, 0, 2) == -1);
}

TEST_CASE("route, Route_Build: the route follows the parents, fields as the record holds them", "[warriors][route]") {
  Graph g;
  const uint16_t d = g.node(0), a = g.node(1), s = g.node(2);
  g.step(s, a);
  g.step(a, d);
  g.ready();
  REQUIRE(g.astar(s, d).found);
  const int32_t slot = build(g, s, d);
  REQUIRE(slot == 31);
  const Route& r = g.state.routes[31];
  CHECK(r.in_use == 1);
  CHECK(r.count == 3);
  CHECK(g.route_nodes(31) == V{s, a, d});
  CHECK(r.nodes[3] == 0);
  CHECK(r.start_node == s);
  CHECK(r.last_node == d);  // choice: the destination's node
  CHECK(r.dest_area == 9);
}

TEST_CASE("route, Route_Build: the leading cut moves the first node along the parents while the start point "
          "sees the next node",
          "[warriors][route]") {
  SECTION("stops at the first node the start point does not see") {
    Graph g = line_graph(5);
    std::vector<uint16_t> asked;
    const LineTest line = [&](Vec3 from, int32_t area, uint16_t to) {
      if (area == 9) return false;  // the trailing cut's calls
      CHECK(area == 7);
      CHECK(from == Vec3{-1, 0, 0});
      asked.push_back(to);
      return to == 1 || to == 2 || to == 4;
    };
    const int32_t slot = build(g, 0, 4, line);
    CHECK(asked == V{1, 2, 3});
    CHECK(g.route_nodes(slot) == V{2, 3, 4});
    CHECK(g.state.routes[static_cast<std::size_t>(slot)].start_node == 0);
    CHECK(g.state.node_use == std::vector<uint8_t>{0, 0, 1, 1, 1});
  }
  SECTION("it may stop on the destination's node") {
    Graph g = line_graph(5);
    int trailing = 0;
    const LineTest line = [&](Vec3, int32_t area, uint16_t) {
      if (area == 9) ++trailing;
      return true;
    };
    const int32_t slot = build(g, 0, 4, line);
    CHECK(g.route_nodes(slot) == V{4});
    CHECK(trailing == 0);  // one node left: no trailing cut
  }
}

TEST_CASE("route, Route_Build: shortcuts go to the farthest of the nodes 2 to 5 ahead whose D records name the node, "
          "never to the last",
          "[warriors][route]") {
  SECTION("a long chain") {
    Graph g = line_graph(10);
    // From n0: n2 and n3 name n0 (n3 by a ledge: any kind, whatever the mask), n6 is 6 ahead.
    g.step(0, 2);
    g.step(0, 3, kLinkLedge);
    g.step(0, 6);
    // From n3: n7 -> n3 is the wrong way; n6 names n3 by a door with the avoid bit.
    g.step(7, 3);
    g.step(3, 6, kLinkDoor, true);
    // From n6: n9 is the last node.
    g.step(6, 9);
    g.ready();
    const int32_t slot = build(g, 0, 9);
    CHECK(g.route_nodes(slot) == V{0, 3, 6, 7, 8, 9});
    CHECK(g.state.node_use == std::vector<uint8_t>{1, 0, 0, 1, 0, 0, 1, 1, 1, 1});
  }
  SECTION("four nodes: only node 2 ahead is ever tried from the first") {
    for (const bool to_two : {false, true}) {
      Graph g = line_graph(4);
      g.step(0, 3);  // the last node
      if (to_two) g.step(0, 2, 0x100);
      g.ready();
      const int32_t slot = build(g, 0, 3);
      CHECK(g.route_nodes(slot) == (to_two ? V{0, 2, 3} : V{0, 1, 2, 3}));
    }
  }
  SECTION("it moves on to the new next node") {
    Graph g = line_graph(12);
    g.step(0, 5);   // n0 -> n5
    g.step(1, 4);   // skipped over: never tried
    g.step(5, 10);  // n5 -> n10
    g.ready();
    const int32_t slot = build(g, 0, 11);
    CHECK(g.route_nodes(slot) == V{0, 5, 10, 11});
  }
}

TEST_CASE("route, Route_Build: the trailing cut drops the last node while the destination point sees the one "
          "before it",
          "[warriors][route]") {
  SECTION("from the destination, in its area") {
    Graph g = line_graph(6);
    std::vector<uint16_t> asked;
    const LineTest line = [&](Vec3 from, int32_t area, uint16_t to) {
      if (area == 7) return false;  // the leading cut's calls
      CHECK(area == 9);
      CHECK(from == Vec3{100, 0, 0});
      asked.push_back(to);
      return to == 4 || to == 3 || to == 1;
    };
    const int32_t slot = build(g, 0, 5, line);
    CHECK(asked == V{4, 3, 2});
    CHECK(g.route_nodes(slot) == V{0, 1, 2, 3});
    CHECK(g.state.routes[static_cast<std::size_t>(slot)].last_node == 5);
    CHECK(g.state.node_use == std::vector<uint8_t>{1, 1, 1, 1, 0, 0});
  }
  SECTION("one node is always left") {
    Graph g = line_graph(6);
    std::vector<uint16_t> asked;
    const LineTest line = [&](Vec3, int32_t area, uint16_t to) {
      if (area == 7) return false;
      asked.push_back(to);
      return true;
    };
    const int32_t slot = build(g, 0, 5, line);
    CHECK(asked == V{4, 3, 2, 1, 0});
    CHECK(g.route_nodes(slot) == V{0});
  }
}

TEST_CASE("route, Route_Build and route_free: use counts are raised for the route's nodes and lowered on freeing",
          "[warriors][route]") {
  Graph g = line_graph(5);
  const LineTest lead = [](Vec3, int32_t area, uint16_t to) { return area == 7 && to == 1; };
  const int32_t a = build(g, 0, 4, lead);  // 1 2 3 4
  const int32_t b = build(g, 0, 4);        // 0 1 2 3 4
  CHECK(g.state.node_use == std::vector<uint8_t>{1, 2, 2, 2, 2});
  route_free(g.level, g.state, a);
  CHECK(g.state.node_use == std::vector<uint8_t>{1, 1, 1, 1, 1});
  CHECK(g.state.routes[static_cast<std::size_t>(a)].in_use == 0);
  route_free(g.level, g.state, a);  // already free: nothing
  CHECK(g.state.node_use == std::vector<uint8_t>{1, 1, 1, 1, 1});
  route_free(g.level, g.state, b);
  CHECK(g.state.node_use == std::vector<uint8_t>{0, 0, 0, 0, 0});
  // The raised counts feed the next search's costs (40u - 8 on steps into them).
  const int32_t c = build(g, 0, 4);
  g.s.resize(g.level.nodes.size());
  Graph fresh = line_graph(5);
  REQUIRE(route_astar(fresh.level, fresh.state, fresh.s, 0, 4, kMaskAll).found);
  REQUIRE(route_astar(g.level, g.state, g.s, 0, 4, kMaskAll).found);
  CHECK(fresh.s.f[0] == 64);
  CHECK(g.s.f[0] == 64 + 4 * 32);
  route_free(g.level, g.state, c);
}

TEST_CASE("route, Route_Find then Route_Build on a small grid", "[warriors][route]") {
  // A 4 x 4 grid, 1 m apart, walked both ways; from corner (0,0) to corner (3,3).
  Graph g;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) g.node(static_cast<float>(x), static_cast<float>(y));
  auto id = [](int x, int y) { return static_cast<uint16_t>(y * 4 + x); };
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      if (x + 1 < 4) {
        g.step(id(x, y), id(x + 1, y));
        g.step(id(x + 1, y), id(x, y));
      }
      if (y + 1 < 4) {
        g.step(id(x, y), id(x, y + 1));
        g.step(id(x, y + 1), id(x, y));
      }
    }
  g.ready();
  const AStarResult r = route_find(g.level, g.state, g.s, id(0, 0), id(3, 3), kMaskAll);
  REQUIRE(r.found);
  CHECK(r.chain == 7);
  CHECK(g.s.f[id(0, 0)] == 96);
  const std::vector<uint16_t> c = g.chain(id(0, 0));
  const int32_t slot = build(g, id(0, 0), id(3, 3));
  REQUIRE(slot == 31);
  // Shortcuts only along D records: a grid has none 2 ahead, so the route is the chain.
  CHECK(g.route_nodes(slot) == c);
  for (std::size_t i = 0; i < g.level.nodes.size(); ++i)
    CHECK(g.state.node_use[i] == (std::find(c.begin(), c.end(), static_cast<uint16_t>(i)) != c.end() ? 1 : 0));
}
