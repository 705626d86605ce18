// seed 002, Route, in the model: walkers follow the 0.7 m grid's path (core/station/grid.h) round
// obstacles and concave blockers to their exit, without falling back on recovery.
#include <catch2/catch.hpp>

#include <cmath>

#include "math_reference.h"
#include "station_test_util.h"

using namespace station_test;

namespace ref = lockstep::test_support::ref;

namespace {
float dist_to_rect(V2 p, float x0, float y0, float x1, float y1) {
  const float dx = std::max({x0 - p.x, 0.0f, p.x - x1}), dy = std::max({y0 - p.y, 0.0f, p.y - y1});
  return ref::sqrt(dx * dx + dy * dy);
}
}  // namespace

TEST_CASE("seed 002 Route - the path steps round a concave obstacle to the exit behind it, no recovery needed",
          "[station][route]") {
  // The recovery test's cup (open toward the walker, the exit straight behind it), with the exit reachable: the
  // grid's path goes round the cup's outside, so the walker never enters it and never gets stuck.
  Json j = hall(30, 14);
  j["floors"][0]["obstacles"] = Json::array({Json::array({{12, 4}, {14, 4}, {14, 10}, {12, 10}, {12, 9}, {13, 9}, {13, 5}, {12, 5}})});
  j["portals"] = Json::array({Json{{"id", "end"}, {"polygon", rect(28, 6, 30, 8)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {6, 7}}, {"destination", "end"}}});
  auto m = make(j);
  m.step(m.scripted_input());
  REQUIRE(m.state().routes[0].waypoints.size() >= 2);  // corners round the cup, then the goal
  float closest = 1e9f;
  int k = 0;
  for (; k < 1200 && m.state().walkers[0].phase == Phase::Walking; ++k) {
    m.step(m.scripted_input());
    const auto& w = m.state().walkers[0];
    closest = std::min(closest, dist_to_rect(w.pos, 12, 4, 14, 10) - w.radius);
    CHECK_FALSE((w.pos.x > 12.0f && w.pos.x < 13.0f && w.pos.y > 5.0f && w.pos.y < 9.0f));  // never in the cup's mouth
  }
  CHECK(m.state().walkers[0].phase == Phase::Done);
  CHECK(m.state().walkers[0].unsticks == 0u);
  CHECK(closest > 0.0f);  // the body never touched the obstacle
  // The walk is not much longer than the way round: 24 m straight, about 26 m round; at 1.34 m/s with jitter 0.2.
  CHECK(k * 0.05 < 26.0 / (1.34 * 0.8) + 5.0);
}

TEST_CASE("seed 002 Route - a column in the way is passed with the comfort gap, not grazed", "[station][route]") {
  // "Steps within 0.35 m of a wall cost up to 3.5 times their length": a lone walker passing a 2 x 4 m column keeps
  // most of that gap (forces add their own push; the path's gap is the grid's).
  Json j = hall(40, 10);
  j["floors"][0]["obstacles"] = Json::array({rect(10, 3, 12, 7)});
  j["portals"] = Json::array({Json{{"id", "end"}, {"polygon", rect(38, 3, 40, 7)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {4, 5}}, {"destination", "end"}}});
  auto m = make(j);
  float closest = 1e9f;
  for (int k = 0; k < 1200 && m.state().walkers[0].phase == Phase::Walking; ++k) {
    m.step(m.scripted_input());
    const auto& w = m.state().walkers[0];
    closest = std::min(closest, dist_to_rect(w.pos, 10, 3, 12, 7) - w.radius);
  }
  CHECK(m.state().walkers[0].phase == Phase::Done);
  CHECK(m.state().walkers[0].unsticks == 0u);
  CHECK(closest > 0.2f);
}

TEST_CASE("station floors - outlines that only share an edge join into one floor (S4)", "[station][route]") {
  // Two 10 x 4 m rectangles meeting along x = 10 (no overlap): the shared edge is inside the union, not a wall,
  // so a walker crosses it without a refused step; the outer edges stay walls.
  Json j = hall(10, 4);
  j["floors"][0]["walkable"].push_back(rect(10, 0, 20, 4));
  j["portals"] = Json::array({Json{{"id", "end"}, {"polygon", rect(18, 0, 20, 4)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {2, 2}}, {"destination", "end"}}});
  auto m = make(j);
  for (const auto& w : m.floors()[0].walls) {
    const bool on_seam = w.a.x == 10.0f && w.b.x == 10.0f;
    CHECK_FALSE(on_seam);
  }
  for (int k = 0; k < 600 && m.state().walkers[0].phase == Phase::Walking; ++k) m.step(m.scripted_input());
  CHECK(m.state().walkers[0].phase == Phase::Done);
  CHECK(m.state().stats.refused_moves == 0u);
  // The outer boundary is still walled: the union is 20 x 4 m, a perimeter of 48 m.
  float len = 0;
  for (const auto& w : m.floors()[0].walls)
    if (w.kind == WallKind::Outline) len += ref::sqrt((w.b.x - w.a.x) * (w.b.x - w.a.x) + (w.b.y - w.a.y) * (w.b.y - w.a.y));
  CHECK(len == Approx(48.0f).margin(1e-3));
}

TEST_CASE("station floors - overlapping outlines keep the outer edges they share (S4)", "[station][route]") {
  // RiMEA 6's corner: a 12 x 2 m corridor and a 2 x 12 m one overlapping in the
  // square 10..12 x 0..2, so their bottom edges run along each other from x = 10
  // to 12, and their right edges from y = 0 to 2. Those pieces are the union's
  // boundary (floor on one side only) and stay walls, on whichever side of the
  // overlap they lie: the union's perimeter is 12 + 12 + 2 + 10 + 10 + 2 = 48 m.
  // (A piece whose middle lay on the other outline's edge once counted as inside
  // it: the bottom piece vanished from both outlines, and the corner had no wall.)
  const std::vector<Polygon> outlines = {{{0, 0}, {12, 0}, {12, 2}, {0, 2}}, {{10, 0}, {12, 0}, {12, 12}, {10, 12}}};
  for (const bool swap : {false, true}) {
    std::vector<Polygon> o = outlines;
    if (swap) std::swap(o[0], o[1]);
    std::vector<Wall> walls;
    outline_walls(o, walls);
    float len = 0, bottom = 0, right = 0;
    for (const auto& w : walls) {
      const float l = ref::sqrt((w.b.x - w.a.x) * (w.b.x - w.a.x) + (w.b.y - w.a.y) * (w.b.y - w.a.y));
      len += l;
      if (w.a.y == 0.0f && w.b.y == 0.0f && std::min(w.a.x, w.b.x) >= 10.0f) bottom += l;
      if (w.a.x == 12.0f && w.b.x == 12.0f && std::max(w.a.y, w.b.y) <= 2.0f) right += l;
    }
    CHECK(len == Approx(48.0f).margin(1e-3));
    CHECK(bottom == Approx(2.0f).margin(1e-3));  // once, not twice, not never
    CHECK(right == Approx(2.0f).margin(1e-3));
  }
  // The model and its routing grid see the same walls: a body 0.3 m from that
  // bottom edge is not clear of it at 0.35 m, and is at 0.25 m.
  Json j = hall(12, 2);
  j["floors"][0]["walkable"].push_back(rect(10, 0, 12, 12));
  j["portals"] = Json::array({Json{{"id", "end"}, {"polygon", rect(10, 11, 12, 12)}, {"mode", "despawn"}}});
  auto m = make(j);
  CHECK_FALSE(m.segment_clear(0, {10.5f, 0.3f}, {11.5f, 0.3f}, 0.35f));
  CHECK(m.segment_clear(0, {10.5f, 0.3f}, {11.5f, 0.3f}, 0.25f));
}
