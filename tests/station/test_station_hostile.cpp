// Hostile inputs to the station model (issue 13): a scenario, an input or a
// restored state that cannot be used is an InputError naming its place, never
// a crash, a hang or undefined behaviour. Limits: docs/station.md, "Limits";
// spec note S23. Each case is made by a small generator here.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>

#include "lockstep/core/model.h"
#include "station_test_util.h"

using namespace station_test;

namespace {

// The error message for a scenario, or "" when it loads.
std::string load_error(const Json& j) {
  try {
    JsonReader r("bad.json");
    (void)StationModel::load_scenario(j, r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A 20 x 10 m hall: a street portal spawning into a despawn portal, one placed walker, an area.
Json base() {
  Json j = hall(20, 10);
  j["portals"] = Json::array({Json{{"id", "street_a"}, {"polygon", rect(0, 0, 2, 10)}, {"mode", "both"}, {"count", 5},
                                   {"rate_per_min", 60}},
                              Json{{"id", "b"}, {"polygon", rect(18, 0, 20, 10)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {5, 5}}, {"destination", "b"}}});
  j["areas"] = Json::array({Json{{"id", "mid"}, {"polygon", rect(8, 2, 12, 8)}}});
  return j;
}

template <class Edit>
Json with(Edit edit) {
  Json j = base();
  edit(j);
  return j;
}

constexpr float kHuge = 3e38f;  // finite, and a float

}  // namespace

// ---------------------------------------------------------------- integer conversions

TEST_CASE("station hostile - the walker and wall grids clip any coordinate however far to a cell of the grid",
          "[station][hostile]") {
  // CellGrid::cx/cy converted (x - x0) / cell to an int before clipping: a
  // position of 3e38 was an out-of-range conversion (INT_MIN on x86-64, then a
  // negative cell index and a write before the walker grid: the crash).
  CellGrid g;
  g.x0 = -1.0f, g.y0 = -1.0f, g.cell = 2.0f, g.nx = 5, g.ny = 3;
  // Read at run time (a constant would let the compiler fold the conversion its own way).
  volatile float far = kHuge, nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  volatile float beyond = 3e9f;  // beyond int32
  CHECK(g.cx(far) == 4);
  CHECK(g.cx(-far) == 0);
  CHECK(g.cy(far) == 2);
  CHECK(g.cy(-far) == 0);
  CHECK(g.cx(nan) == 0);
  CHECK(g.cx(inf) == 4);
  CHECK(g.cx(beyond) == 4);
  // Inside the grid, the cell it always was: the truncation of (x - x0) / cell.
  CHECK(g.cx(-1.0f) == 0);
  CHECK(g.cx(0.99f) == 0);
  CHECK(g.cx(1.0f) == 1);
  CHECK(g.cx(7.99f) == 4);
  CHECK(g.cx(9.0f) == 4);
  CHECK(g.cy(2.5f) == 1);
  const CellGrid::Box b = g.box(-far, -far, far, far);
  CHECK(b.x0 == 0);
  CHECK(b.x1 == 4);
  CHECK(b.y0 == 0);
  CHECK(b.y1 == 2);
}

TEST_CASE("station hostile - the force sums cannot overflow (a pile of 2600 bodies pushes the walker beside it away)",
          "[station][hostile][forces]") {
  // Every pair term is clamped at 1e6 m/s^2 (2^52 fixed-point units); an int64
  // sum overflowed after 2,048 of them (undefined behaviour; on x86-64 it
  // wrapped, and the pile pulled the walker into itself). A scenario may place
  // that many bodies in a pile (distinct spots is all it asks).
  Json j = hall(20, 10);
  j["portals"] = Json::array({Json{{"id", "west"}, {"polygon", rect(0, 0, 2, 10)}, {"mode", "despawn"}}});
  Json ws = Json::array({Json{{"position", {5, 5}}, {"destination", "west"}, {"radius", 1.0}}});
  for (int a = 0; a < 51; ++a)
    for (int b = 0; b < 51; ++b)  // 0.4 x 0.8 m just east of the walker: every pair term is at the clamp
      ws.push_back(Json{{"position", {5.05 + 0.008 * a, 4.6 + 0.016 * b}}, {"destination", "west"}, {"radius", 1.0}});
  j["walkers"] = ws;
  auto m = make(j);
  REQUIRE(m.state().walkers.size() == 2602u);
  m.step({});
  const Walker& w = m.state().walkers[0];
  CHECK(w.vel.x < 0.0f);  // pushed west, away from the pile (the wrapped sum pushed it east, into the pile)
  CHECK(w.pos.x < 5.0f);
  CHECK(length(w.vel) <= 1.3f * w.desired_speed * 1.0001f);
}

TEST_CASE("station hostile - a floor of coordinates near 3e38 is refused by its span with the message's numbers in range",
          "[station][hostile][scenario]") {
  // The span message converted the span (6e38 m) to an int64: out of range.
  const std::string e = load_error(with([](Json& j) {
    j["floors"][0]["walkable"][0] = Json::array({{-kHuge, -kHuge}, {kHuge, -kHuge}, {kHuge, kHuge}, {-kHuge, kHuge}});
  }));
  CHECK_THAT(e, Catch::StartsWith("bad.json: $.floors[0].walkable: the floor spans more than 10^15 x more than 10^15 m"));
  // The grid's own check, for its other users.
  GridInput gi;
  gi.walkable.push_back(GridPolygon{{{-kHuge, -kHuge}, {kHuge, -kHuge}, {kHuge, kHuge}, {-kHuge, kHuge}}});
  CHECK_THROWS_WITH(NavGrid(gi), Catch::Contains("the floor needs more than 10^15 cells"));
}
