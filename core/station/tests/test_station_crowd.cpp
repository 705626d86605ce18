// seed 002, Route, "Crowds" and the paragraph after it (issue 7): the crowd soft cost by direction, counted over
// the last few seconds, and the 2 s check of the next 15 m. docs/station.md "Crowd costs"; spec notes C1...
#include <catch2/catch.hpp>

#include <cmath>

#include "math_reference.h"
#include "station_test_util.h"

using namespace station_test;

namespace ref = lockstep::test_support::ref;

namespace {

constexpr float kCell = 0.7f;

// Sets the crowd field of floor 0 in [x0, x1] x [y0, y1] (cell centres) to a density (ped/m^2) of standing
// bodies, and of moving bodies walking along the unit u.
void set_crowd(StationModel& m, float w, float x0, float y0, float x1, float y1, float standing, float moving = 0,
               V2 u = {1, 0}) {
  CrowdField& cf = m.mutable_state().crowd[0];
  const int nx = static_cast<int>(std::floor(w / kCell)) + 1;
  REQUIRE(cf.standing.size() % static_cast<std::size_t>(nx) == 0);
  const int ny = static_cast<int>(cf.standing.size()) / nx;
  for (int iy = 0; iy < ny; ++iy)
    for (int ix = 0; ix < nx; ++ix) {
      const float cx = (static_cast<float>(ix) + 0.5f) * kCell, cy = (static_cast<float>(iy) + 0.5f) * kCell;
      if (cx < x0 || cx > x1 || cy < y0 || cy > y1) continue;
      const auto c = static_cast<std::size_t>(iy * nx + ix);
      cf.standing[c] = standing * kCell * kCell;
      cf.moving[c] = moving * kCell * kCell;
      cf.vx[c] = moving * kCell * kCell * u.x;
      cf.vy[c] = moving * kCell * kCell * u.y;
    }
}

// A 40 x 20 m hall, a goal portal at the east end, one walker spawned at (5, 10) on the first step.
Json east_hall(float src_x = 5) {
  Json j = hall(40, 20);
  j["portals"] = Json::array(
      {Json{{"id", "src"}, {"polygon", rect(src_x - 0.2f, 9.8f, src_x + 0.2f, 10.2f)}, {"mode", "spawn"}, {"count", 1}, {"target", "goal"}},
       Json{{"id", "goal"}, {"polygon", rect(38, 8, 40, 12)}, {"mode", "despawn"}}});
  return j;
}

std::vector<V2> path_of(const StationModel& m, uint32_t w) {
  std::vector<V2> p{m.state().walkers[w].pos};
  for (const V2& q : m.state().routes[w].waypoints) p.push_back(q);
  return p;
}

// Metres of the polyline inside the rectangle (sampled every 5 cm).
float metres_inside(const std::vector<V2>& p, float x0, float y0, float x1, float y1) {
  float in = 0;
  for (std::size_t k = 0; k + 1 < p.size(); ++k) {
    const V2 a = p[k], b = p[k + 1];
    const float len = ref::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
    const int n = static_cast<int>(len / 0.05f) + 1;
    for (int i = 0; i < n; ++i) {
      const float t = (static_cast<float>(i) + 0.5f) / static_cast<float>(n);
      const V2 q{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
      if (q.x >= x0 && q.x <= x1 && q.y >= y0 && q.y <= y1) in += len / static_cast<float>(n);
    }
  }
  return in;
}

// The spawned walker's first path with the field set before the first step.
template <class F>
std::vector<V2> first_path(F&& set, float src_x = 5) {
  auto m = make(east_hall(src_x));
  set(m);
  m.step({});
  REQUIRE(m.state().walkers.size() == 1u);
  return path_of(m, 0);
}

}  // namespace

TEST_CASE("seed 002 Crowds - 0.35 ped/m2, 2.5 x the excess per metre, at most 2", "[station][crowd]") {
  CHECK(crowd_cost_per_metre(0.0f) == 0.0f);
  CHECK(crowd_cost_per_metre(0.35f) == 0.0f);  // the Fruin walkway LOS B/C boundary costs nothing
  CHECK(crowd_cost_per_metre(0.75f) == 2.5f * (0.75f - 0.35f));
  CHECK(crowd_cost_per_metre(2.35f) == Approx(2.5f * 2.0f).epsilon(1e-6));  // an excess of 2
  CHECK(crowd_cost_per_metre(2.5f) == 2.5f * 2.0f);                          // past it: capped
  CHECK(crowd_cost_per_metre(9.0f) == 5.0f);          // capped at 2 ped/m^2 of excess
  CHECK(kFruinBCDensity == 0.35f);
  CHECK(kCrowdWeight == 2.5f);
  CHECK(kCrowdMaxExcess == 2.0f);
}

TEST_CASE("seed 002 Crowds - standing and oncoming count in full, same way a quarter", "[station][crowd]") {
  auto m = make(east_hall());
  const float area = 9.0f * kCell * kCell;  // C3: the 3 x 3 cells round a cell
  // One body in the cell holding (10.15, 10.15), nothing else near.
  set_crowd(m, 40, 10.0f, 10.0f, 10.3f, 10.3f, 1.0f / (kCell * kCell));
  const V2 p{10.15f, 10.15f};
  CHECK(m.felt_density(0, p, {1, 0}) * area == Approx(1.0f).epsilon(1e-6));
  CHECK(m.felt_density(0, p, {-1, 0}) * area == Approx(1.0f).epsilon(1e-6));
  set_crowd(m, 40, 10.0f, 10.0f, 10.3f, 10.3f, 0.0f, 1.0f / (kCell * kCell), {1, 0});  // one walking east
  CHECK(m.felt_density(0, p, {1, 0}) * area == Approx(kSameWayShare).epsilon(1e-6));
  CHECK(kSameWayShare == 0.25f);  // "People walking the same way count a quarter"
  CHECK(m.felt_density(0, p, {-1, 0}) * area == Approx(1.0f).epsilon(1e-6));   // oncoming: in full
  CHECK(m.felt_density(0, p, {0, 1}) * area == Approx(0.625f).epsilon(1e-6));   // crossing: between
  // The neighbouring cells feel it too (3 x 3), cells two away do not.
  CHECK(m.felt_density(0, {10.85f, 10.15f}, {-1, 0}) * area == Approx(1.0f).epsilon(1e-6));
  CHECK(m.felt_density(0, {11.55f, 10.15f}, {-1, 0}) == 0.0f);
}

TEST_CASE("seed 002 Crowds - counted over the last few seconds, then forgotten", "[station][crowd]") {
  // A walker's body enters the 3 s window a tick at a time, and is forgotten once it has gone (removed).
  Json j = hall(20, 10);
  j["portals"] = Json::array({Json{{"id", "goal"}, {"polygon", rect(18, 4, 20, 6)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {10.15f, 5.25f}}, {"destination", "goal"}}});
  j["script"] = Json::array({Json{{"tick", 200}, {"walker", 0}, {"kind", "remove"}}});
  auto m = make(j);
  const V2 p{10.15f, 5.25f};
  m.step(m.scripted_input());
  const float area = 9.0f * kCell * kCell;
  const float one = m.felt_density(0, p, {1, 0}) * area;
  CHECK(one > 0.0f);
  CHECK(one < 0.05f);  // one tick of a 3 s window
  run(m, 199);
  run(m, 20 * 60);  // a minute after it is gone
  for (const float v : m.state().crowd[0].standing) CHECK(v == 0.0f);
  for (const float v : m.state().crowd[0].moving) CHECK(v == 0.0f);
}

TEST_CASE("seed 002 Crowds - a standing crowd: round it when cheap, through when dear", "[station][crowd]") {
  // A 4 x 4 m knot at 2 ped/m^2 (2.5 x 1.65 = 4.1 m per metre): going round costs about a metre, so round.
  const auto round = first_path([](StationModel& m) { set_crowd(m, 40, 18, 8, 22, 12, 2.0f); });
  CHECK(metres_inside(round, 18, 8, 22, 12) == 0.0f);
  // A thin band across the hall (two cells at 1.2 ped/m^2: about 2 m of cost to cross) with a gap at the far
  // wall, about 5 m out of the way: through.
  const auto through = first_path([](StationModel& m) { set_crowd(m, 40, 19.6f, 0, 21, 18.6f, 1.2f); });
  CHECK(metres_inside(through, 19.6f, 0, 21, 18.6f) > 1.0f);
  float far = 0;
  for (const V2& q : through) far = std::max(far, std::fabs(q.y - 10.0f));
  CHECK(far < 3.0f);  // no trip to the gap
}

TEST_CASE("seed 002 Crowds - a same-way stream is joined, an oncoming one avoided", "[station][crowd]") {
  // A stream 16 m long, 4 m wide, 1.2 ped/m^2 on the walker's line. Going its way it feels 0.3 (< 0.35): free.
  const auto with = first_path([](StationModel& m) { set_crowd(m, 40, 12, 8, 28, 12, 0, 1.2f, {1, 0}); });
  CHECK(metres_inside(with, 12, 8, 28, 12) > 15.0f);
  // Coming the other way it feels 1.2: 2.1 per metre, 34 m of cost against a detour of a few metres.
  const auto against = first_path([](StationModel& m) { set_crowd(m, 40, 12, 8, 28, 12, 0, 1.2f, {-1, 0}); });
  CHECK(metres_inside(against, 12.7f, 8.7f, 27.3f, 11.3f) < 1.0f);
}

TEST_CASE("seed 002 Crowds - the crowd at the walker's own goal does not count", "[station][crowd]") {
  // A dense crowd standing right in front of the goal portal (within the 2 m free radius, C5): walked into.
  const auto own = first_path([](StationModel& m) { set_crowd(m, 40, 36.3f, 6, 38, 14, 3.0f); }, 22);
  CHECK(metres_inside(own, 36.3f, 6, 38, 14) > 1.0f);
  // The same crowd 4 m further from the goal is another crowd: walked round.
  const auto other = first_path([](StationModel& m) { set_crowd(m, 40, 32.3f, 6, 34, 14, 3.0f); }, 22);
  CHECK(metres_inside(other, 32.3f, 6, 34, 14) == 0.0f);
}

namespace {
// The first path of a walker spawned at (22, 10) (C5's queue) past a standing crowd in x 30.3 .. 36, y 6 .. 14 (3 ped/m^2
// in the field), with walkers placed standing on a 0.7 m lattice in x 30.5 .. x1, y 8.5 .. 11.3, bound for
// `bound` ("goal", the spawned walker's goal at x 38 .. 40, or "away").
std::vector<V2> path_past_standing(const char* bound, float x1) {
  Json j = east_hall(22);  // within the crowd's 20 m horizon (C6)
  j["portals"].push_back(Json{{"id", "away"}, {"polygon", rect(0, 0, 1, 1)}, {"mode", "despawn"}});
  Json ws = Json::array();
  for (float x = 30.5f; x <= x1 + 1e-3f; x += 0.7f)
    for (float y = 8.5f; y <= 11.31f; y += 0.7f) ws.push_back(Json{{"position", {x, y}}, {"destination", bound}});
  j["walkers"] = ws;
  auto m = make(j);
  set_crowd(m, 40, 30.3f, 6, 36, 14, 3.0f);
  m.step({});
  REQUIRE(m.state().walkers.size() == ws.size() + 1);
  return path_of(m, static_cast<uint32_t>(ws.size()));
}
}  // namespace

TEST_CASE("seed 002 Crowds - its queue: the standing crowd bound for its goal, reaching the free radius", "[station][crowd]") {
  // People bound for the walker's goal, standing in a chain from the goal's free patch (x >= 36) back to
  // x 30.5: its queue, walked into (straight through the middle), though it reaches 5.5 m past the patch.
  const auto queue = path_past_standing("goal", 35.4f);
  CHECK(metres_inside(queue, 30.3f, 8.5f, 36, 11.5f) > 4.0f);
  // The same people bound elsewhere are another crowd: walked round.
  const auto others = path_past_standing("away", 35.4f);
  CHECK(metres_inside(others, 31, 6.7f, 35.3f, 13.3f) == 0.0f);  // (its edge cells may be grazed)
  // Bound for the goal but standing 2 m short of its patch (x 30.5 .. 33.3, a gap of floor): walked round.
  const auto apart = path_past_standing("goal", 33.3f);
  CHECK(metres_inside(apart, 31, 6.7f, 35.3f, 13.3f) == 0.0f);
}

namespace {
// A placed walker from (5, 10) east to the goal; its path is planned at tick 0 with no crowd yet.
StationModel placed() {
  Json j = east_hall();
  j["portals"][0]["count"] = 0;
  j["walkers"] = Json::array({Json{{"position", {5, 10}}, {"destination", "goal"}, {"desired_speed", 1.0}}});
  return make(j);
}
}  // namespace

TEST_CASE("seed 002 Crowds - every 2 s: a crowd formed ahead rebuilds the path", "[station][crowd]") {
  CHECK(kCrowdCheckS == 2.0f);
  CHECK(kCrowdCheckM == 15.0f);
  auto m = placed();
  run(m, 30);
  // A knot forms 4..8 m ahead: nothing until the check at 2 s.
  set_crowd(m, 40, 11, 8, 15, 12, 2.5f);
  run(m, 8);  // 38 ticks
  CHECK(m.state().stats.crowd_rebuilds == 0u);
  run(m, 4);  // 42 ticks: the check at 2 s has run
  CHECK(m.state().stats.crowd_rebuilds == 1u);
  CHECK(metres_inside(path_of(m, 0), 11, 8, 15, 12) == 0.0f);  // now round the knot
  // The next check (4 s) finds no new growth: no second rebuild.
  run(m, 45);
  CHECK(m.state().stats.crowd_rebuilds == 1u);
}

TEST_CASE("seed 002 Crowds - no crowd ahead, or growth under 1.5 m: no rebuild", "[station][crowd]") {
  CHECK(kCrowdGrowthM == 1.5f);
  {
    auto m = placed();  // alone: its own trail never counts against it
    run(m, 400);
    CHECK(m.state().stats.crowd_rebuilds == 0u);
    CHECK(m.state().stats.rebuilt_paths == 0u);
  }
  // A band across the whole hall (no way round) at 0.45 ped/m^2: 0.25 per metre. 4 m of it is about 1 m of
  // growth: no rebuild; 12 m about 3 m: rebuilt (through, as there is no way round).
  for (const float len : {4.0f, 12.0f}) {
    auto m = placed();
    run(m, 37);
    const float x0 = m.state().walkers[0].pos.x + 3.0f;
    set_crowd(m, 40, x0, 0, x0 + len, 20, 0.45f);
    run(m, 6);
    CHECK(m.state().stats.crowd_rebuilds == (len > 6.0f ? 1u : 0u));
  }
}

TEST_CASE("seed 002 Crowds - a walker in recovery is not checked (the exemption hook)", "[station][crowd]") {
  Json j = east_hall();
  j["portals"][0]["count"] = 0;
  j["floors"][0]["obstacles"] = Json::array({rect(30, 1, 31, 2)});
  j["walkers"] = Json::array({Json{{"position", {5, 10}}, {"destination", "goal"}, {"desired_speed", 1.0}}});
  auto m = make(j);
  run(m, 30);
  m.mutable_state().walkers[0].ignore_blocker = 0;  // its recovery's muted obstacle
  m.mutable_state().walkers[0].ignore_s = 100.0f;
  CHECK(m.crowd_check_exempt(m.state().walkers[0]));
  set_crowd(m, 40, 11, 8, 15, 12, 2.5f);
  run(m, 12);
  CHECK(m.state().stats.crowd_rebuilds == 0u);
}

TEST_CASE("seed 002 Crowds - the field is the same whatever the walkers' order", "[station][crowd]") {
  // Two placed walkers in either order: the crowd field is bit for bit the same.
  auto two = [](bool swap) {
    Json j = east_hall();
    j["portals"][0]["count"] = 0;
    Json a = Json{{"position", {5, 10}}, {"destination", "goal"}, {"velocity", {1.0, 0.3}}};
    Json b = Json{{"position", {5.3f, 10.2f}}, {"destination", "goal"}, {"velocity", {1.1, -0.2}}};
    j["walkers"] = swap ? Json::array({b, a}) : Json::array({a, b});
    return make(j);
  };
  auto m1 = two(false), m2 = two(true);
  run(m1, 60);
  run(m2, 60);
  const auto& c1 = m1.state().crowd[0];
  const auto& c2 = m2.state().crowd[0];
  for (std::size_t k = 0; k < c1.vx.size(); ++k) {
    REQUIRE(bits(c1.standing[k]) == bits(c2.standing[k]));
    REQUIRE(bits(c1.moving[k]) == bits(c2.moving[k]));
    REQUIRE(bits(c1.vx[k]) == bits(c2.vx[k]));
    REQUIRE(bits(c1.vy[k]) == bits(c2.vy[k]));
  }
}
