// The headway (docs/station-forces.md, "Headway"; spec notes S20-S22): the
// body gap to the walker ahead, the speed it allows (gap / T), the cap that
// no push overrides, the stuck timer while held, and the sight rules that
// go with it (follow a queue, overtake only through an open line).
#include <catch2/catch.hpp>

#include <cmath>

#include "math_reference.h"
#include "station_test_util.h"

using namespace station_test;

namespace ref = lockstep::test_support::ref;

namespace {

constexpr float kT = 0.42f;  // the time gap the docs give (S62)
constexpr double kFrontBack = 0.375;  // two bodies of radius 0.25 front to back: 2 x 0.75 r (the body's shape, S28)
constexpr double kSwept = -1.0;  // a case's expectation: the swept gap along A's direction

/// A 30 x 6 m hall with exits at both ends.
Json two_way_hall() {
  Json j = hall(30, 6);
  j["portals"] = Json::array({Json{{"id", "east"}, {"polygon", rect(28, 0, 30, 6)}, {"mode", "despawn"}},
                              Json{{"id", "west"}, {"polygon", rect(0, 0, 2, 6)}, {"mode", "despawn"}}});
  return j;
}

Json walker(float x, float y, const char* dest, float v0 = 1.3f, float vx = 0.0f) {
  return Json{{"position", {x, y}}, {"velocity", {vx, 0.0}}, {"destination", dest}, {"desired_speed", v0}, {"radius", 0.25}};
}

}  // namespace

TEST_CASE("station headway - the swept gap to the nearest walker ahead going my way", "[station][headway]") {
  // A at (10, 3) heads east at 1.3 m/s. B moves east at the same speed, so
  // sight only follows (no sidestep or overtake turns A's direction away). The
  // headway is measured in the planning phase from the positions at the tick's
  // start: how far A's body moves east before it touches B's, a - D sqrt(1 -
  // s^2 / l^2) with a and s B's offset along and across A's heading, l = 0.7
  // (0.2 + 0.2), 0.7 of the two half-widths (S61; S59: both walk at their
  // desired speed, so each is 0.8 r across) and D = 0.375 the two half-depths
  // (S28: 0.75 r each), capped at 3 m. Straight ahead that is the centre
  // distance less D; to the side it is more (the zipper: a body half to the
  // side lets one close up); from l across on, B does not hold A at all.
  struct Case {
    const char* what;
    float bx, by;
    const char* bdest;  // B's direction: toward its exit, whatever its velocity
    double expect;
  };
  const Case cases[] = {
      {"straight ahead, going my way", 11.2f, 3.0f, "east", 1.2 - kFrontBack},
      // Sight's follow turns A toward B's line (at most 0.25 rad), so the
      // expectation is taken along A's direction after the step (kSwept).
      {"ahead and 0.35 m to the side", 11.2f, 3.35f, "east", kSwept},
      {"ahead and 0.2 m to the other side", 11.2f, 2.8f, "east", kSwept},
      {"ahead and 0.3 m to the other side", 11.2f, 2.7f, "east", kSwept},
      {"2 m ahead and 0.38 m to the side", 12.0f, 3.38f, "east", kSwept},
      // The follow turns A by its most (0.25 rad) and leaves B 0.30 m across:
      // inside the two half-widths (0.4 m) but beside the headway's corridor
      // (0.28 m), so B does not hold A (before model version 18 it did).
      {"0.3 m ahead and 0.39 m to the side: beside the headway's corridor", 10.3f, 3.39f, "east", kSwept},
      // Turned the same way, 0.27 m across: just inside it.
      {"0.35 m ahead and 0.37 m to the side: at the corridor's edge", 10.35f, 3.37f, "east", kSwept},
      {"0.2 m ahead and 0.15 m to the side: already touching diagonally", 10.2f, 3.15f, "east", 0.0},
      {"ahead and 0.6 m to the side: beside my line", 11.2f, 3.6f, "east", 3.0},
      {"ahead, facing the other way (walking backward)", 11.2f, 3.0f, "west", 3.0},
      {"behind me", 8.8f, 3.0f, "east", 3.0},
      {"4.5 m ahead: beyond the 3 m looked for", 14.5f, 3.0f, "east", 3.0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Json j = two_way_hall();
    j["walkers"] = Json::array({walker(10, 3, "east", 1.3f, 1.3f), walker(c.bx, c.by, c.bdest, 1.3f, 1.3f)});
    auto m = make(j);
    m.step({});
    const auto& a = m.state().walkers[0];
    if (c.expect != kSwept) {
      CHECK(a.headway == Approx(c.expect).margin(1e-5));
      continue;
    }
    const double ex = a.dir.x, ey = a.dir.y, dx = c.bx - 10.0, dy = c.by - 3.0;
    const double along = dx * ex + dy * ey, across = -dx * ey + dy * ex;
    INFO("across A's direction " << across);
    REQUIRE(std::fabs(across) < 0.4);
    if (std::fabs(across) >= 0.28) {  // outside the headway's corridor (S61)
      CHECK(a.headway == 3.0f);
      continue;
    }
    // A's direction is turned by the follow yaw, so B's extent along it is a
    // little more than B's half-depth: wd - (wd - 0.75 r) (e_A.e_B)^2, wd = 0.2.
    const auto& b = m.state().walkers[1];
    const double cab = ex * b.dir.x + ey * b.dir.y;
    const double depth = 0.1875 + (0.2 - (0.2 - 0.1875) * cab * cab);
    CHECK(a.headway == Approx(along - depth * ref::sqrt(1.0 - across * across / (0.28 * 0.28))).margin(1e-5));
    // Never less than the centre distance less the two depths (more the
    // further to the side: the zipper).
    CHECK(a.headway >= ref::sqrt(dx * dx + dy * dy) - depth - 1e-5);
  }
  SECTION("a wall between us is not a headway") {
    Json j = two_way_hall();
    j["floors"][0]["walls"] = Json::array({Json{{"x0", 10.6}, {"y0", 2.0}, {"x1", 10.6}, {"y1", 4.0}}});
    j["walkers"] = Json::array({walker(10, 3, "east", 1.3f, 1.3f), walker(11.2f, 3, "east", 1.3f, 1.3f)});
    auto m = make(j);
    m.step({});
    CHECK(m.state().walkers[0].headway == 3.0f);
  }
}

TEST_CASE("station headway - closing on a slow walker ahead: held at gap / T, never touching", "[station][headway]") {
  // Single file (a corridor 1 m wide, no room to pass): B walks east at
  // 0.2 m/s (the speed floor); A comes up behind at 1.3 m/s. The headway slows
  // A to B's pace at a gap of about 0.2 x 0.35 = 0.07 m; the bodies (0.375 m
  // front to back, S28) never overlap.
  Json j = hall(30, 1);
  j["portals"] = Json::array({Json{{"id", "east"}, {"polygon", rect(28, 0, 30, 1)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({walker(6, 0.5f, "east", 1.3f, 1.3f), walker(9, 0.5f, "east", 0.2f, 0.2f)});
  auto m = make(j);
  float least = 1e9f;
  for (int k = 0; k < 400; ++k) {  // 20 s
    m.step({});
    const auto& a = m.state().walkers[0];
    const auto& b = m.state().walkers[1];
    least = std::min(least, length(b.pos - a.pos) - static_cast<float>(kFrontBack));
    // The cap: along its direction A is never faster than its headway allows.
    CHECK(a.vel.x * a.dir.x + a.vel.y * a.dir.y <= a.headway / kT + 1e-4f);
  }
  const auto& a = m.state().walkers[0];
  const auto& b = m.state().walkers[1];
  INFO("least gap " << least << ", final gap " << length(b.pos - a.pos) - kFrontBack);
  CHECK(least >= 0.0f);                          // never touching
  CHECK(a.pos.x < b.pos.x);                      // never passed
  // At B's pace (B itself a little over its 0.2 m/s: the push from behind is
  // HFV's), at the gap that pace allows.
  CHECK(a.vel.x == Approx(b.vel.x).margin(0.02));
  CHECK(a.vel.x < 0.35f);
  CHECK(length(b.pos - a.pos) - kFrontBack == Approx(a.vel.x * kT).margin(0.02));
}

TEST_CASE("station headway - a push from behind never makes a held walker faster than its headway", "[station][headway]") {
  // RiMEA 4's corridor at 3 persons/m^2: every walker, every tick, walks along
  // its direction no faster than gap / T (the collision-free speed cap; seed
  // 002: same-direction repulsion does not push the queue backward, and the
  // push from behind does not run the crowd forward either).
  auto m = make(fixture("station/rimea4_d300.json"));
  int held = 0;
  for (int k = 0; k < 100; ++k) {
    m.step(m.scripted_input());
    for (const auto& w : m.state().walkers) {
      if (w.phase != Phase::Walking) continue;
      const float along = w.vel.x * w.dir.x + w.vel.y * w.dir.y;
      if (!(along <= w.headway / kT + 1e-4f)) {
        FAIL_CHECK("tick " << k << ": along " << along << " > headway " << w.headway << " / T");
      }
      if (w.headway < 0.1f) ++held;
    }
  }
  CHECK(held > 0);  // the crowd is dense enough to be held
}

TEST_CASE("seed 002 Recovery - waiting behind someone runs the stuck timer at a quarter rate (S20)", "[station][headway][recovery]") {
  // A wall closes a 1 m corridor at x = 12, the exit beyond it (no path: both drive
  // straight at it). B presses against the wall; A stands 0.55 m behind B
  // (centres). Neither makes progress. B has nobody ahead: its timer runs at
  // the full rate. A's timer runs at a quarter rate on every tick that starts
  // with A held by B (its headway below half of v0 x T), and at the full rate
  // on the others: its first (the 3 m of nobody seen), and one where sight
  // has turned it past B.
  Json j = hall(30, 1);  // single file
  j["floors"][0]["walls"] = Json::array({Json{{"x0", 12}, {"y0", 0}, {"x1", 12}, {"y1", 1}}});
  j["portals"] = Json::array({Json{{"id", "east"}, {"polygon", rect(28, 0, 30, 1)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({walker(11.7f, 0.5f, "east"), walker(11.15f, 0.5f, "east")});
  auto m = make(j);
  const auto& b = m.state().walkers[0];
  const auto& a = m.state().walkers[1];
  int held = 0;
  for (int k = 0; k < 50; ++k) {  // 2.5 s: before B's first recovery at 3 s
    const float hw = a.headway, before = a.stuck_s;
    m.step({});
    const bool is_held = hw < 0.5f * a.desired_speed * kT;
    held += is_held ? 1 : 0;
    INFO("tick " << k << ": A's headway " << hw << ", its timer " << before << " -> " << a.stuck_s);
    CHECK(a.stuck_s - before == Approx(is_held ? 0.0125 : 0.05).margin(1e-5));
  }
  INFO("A headway " << a.headway << " stuck " << a.stuck_s << "; B headway " << b.headway << " stuck " << b.stuck_s);
  CHECK(held >= 45);  // held from its third tick on
  CHECK(b.headway == 3.0f);
  CHECK(b.stuck_s == Approx(2.5).margin(0.01));
}

TEST_CASE("station sight - follow: someone going my way whom my walking body would touch turns me; 0.8 r wide each (S59)",
          "[station][sight][headway]") {
  // Sight's follow (S21) turns me toward the line behind the walker ahead only
  // when my body would walk into theirs: lateral offset s within the two
  // half-widths, which for two walkers at their desired speed are 0.8 r each
  // (S59): 0.2 + 0.2 = 0.4 m. B walks east 2 m ahead of A at the same 1.3 m/s
  // (not slower: no overtake). At 0.3 m to the side A turns toward B's line by
  // atan2(0.3, 2); at 0.45 m it keeps its own (with discs of r it would turn
  // by atan2(0.45, 2)).
  struct Case {
    float side;
    double yaw;
  };
  for (const Case c : {Case{0.3f, ref::atan2(0.3, 2.0)}, Case{0.45f, 0.0}, Case{-0.3f, -ref::atan2(0.3, 2.0)}}) {
    INFO("B " << c.side << " m to A's left");
    Json j = two_way_hall();
    j["walkers"] = Json::array({walker(10, 3, "east", 1.3f, 1.3f), walker(12, 3 + c.side, "east", 1.3f, 1.3f)});
    auto m = make(j);
    m.step({});
    CHECK(m.state().walkers[0].sight_yaw == Approx(c.yaw).margin(1e-4));
  }
}

TEST_CASE("station sight - an overtake only through an open line; otherwise follow (S22)", "[station][sight][headway]") {
  // A slow walker S ahead of a fast one F, both going east. Alone, F passes S
  // on the left (keep right). With a third walker L walking slowly in F's
  // passing line, the line is closed: F falls in behind S instead.
  for (bool blocked : {false, true}) {
    INFO((blocked ? "passing line closed" : "passing line open"));
    Json j = hall(40, 10);
    j["portals"] = Json::array({Json{{"id", "east"}, {"polygon", rect(38, 0, 40, 10)}, {"mode", "despawn"}}});
    Json ws = Json::array({walker(8, 5, "east", 0.6f, 0.6f), walker(6.5f, 5, "east", 1.5f, 1.5f)});
    if (blocked) ws.push_back(walker(8.2f, 5.6f, "east", 0.6f, 0.6f));
    j["walkers"] = ws;
    auto m = make(j);
    m.step({});
    const float yaw = m.state().walkers[1].sight_yaw;
    if (blocked) {
      CHECK(std::fabs(yaw) <= 0.25f + 1e-6f);  // follow: at most the follow yaw
    } else {
      CHECK(yaw > 0.25f);  // a pass to the left, more than a follow
    }
  }
}

TEST_CASE("station walls - a wall in the way slows to the wall gap over T; a door's sides beside the body do not",
          "[station][headway][walls]") {
  // docs/station-forces.md, "Walls steer; what is in the way slows".
  SECTION("a wall across the way: the speed along the heading is at most the gap / T, and the body stops short") {
    // A wall closes a 4 m corridor at x = 12 and the exit lies beyond it: no
    // path, so the walker drives straight at the wall.
    Json j = hall(30, 4);
    j["floors"][0]["walls"] = Json::array({Json{{"x0", 12}, {"y0", 0}, {"x1", 12}, {"y1", 4}}});
    j["portals"] = Json::array({Json{{"id", "east"}, {"polygon", rect(28, 0, 30, 4)}, {"mode", "despawn"}}});
    j["walkers"] = Json::array({walker(8, 2, "east", 1.34f)});
    auto m = make(j);
    const float r = 0.75f * m.state().walkers[0].radius;  // the body's half-depth (S28)
    float slowest_gap = 1e9f;
    for (int k = 0; k < 100; ++k) {  // 5 s: before the first recovery
      const float gap = 12.0f - r - m.state().walkers[0].pos.x;  // the wall gap at the tick's start
      m.step({});
      const auto& w = m.state().walkers[0];
      CHECK(w.vel.x <= gap / kT + 1e-4f);
      slowest_gap = std::min(slowest_gap, 12.0f - r - w.pos.x);
    }
    CHECK(slowest_gap >= 0.0f);  // never touched
    CHECK(slowest_gap < 0.01f);  // but came up to it
    CHECK(m.state().stats.refused_moves == 0u);
  }
  SECTION("a 0.6 m gap in a thin wall, 2 r + 0.1: a walker at rest 0.3 m before it passes") {
    // With the soft force of the door's two ends acting against the heading
    // (the law before model version 3) the walker stood 0.35 m short of it.
    Json j = hall(8, 6);
    j["floors"][0]["walls"] = Json::array({Json{{"x0", 4}, {"y0", 0}, {"x1", 4}, {"y1", 2.7}}, Json{{"x0", 4}, {"y0", 3.3}, {"x1", 4}, {"y1", 6}}});
    j["portals"] = Json::array({Json{{"id", "far"}, {"polygon", rect(7.5, 0.5, 8, 5.5)}, {"mode", "despawn"}}});
    j["walkers"] = Json::array({Json{{"position", {3.7, 3}}, {"destination", "far"}, {"desired_speed", 1.34}}});
    auto m = make(j);
    REQUIRE(m.state().walkers[0].radius == 0.25f);
    run(m, 200);  // 10 s
    CHECK(m.state().walkers[0].phase == Phase::Done);
  }
}

TEST_CASE("station headway - the standing gap: stopped 0.2 m short of the one ahead in the open, closed up beside a wall (S61)",
          "[station][headway]") {
  // A row of people bound east stands across the way at x = 11.7, shoulder to
  // shoulder (0.5 m apart: nobody passes; the test puts each back at rest in
  // its place after every tick); all but B stand 5 cm further on, so that B is
  // the nearest ahead of A, whom A follows (with the row's others level with B,
  // sight's tie between equally near bodies picks the one on the right, and A
  // drifts toward it). A comes up behind the one on its line, B,
  // from 1.5 m back and stops. In the open (a hall 6 m wide, A on its middle line, 3 m from either
  // side) A stands g0 = 0.2 m short: its speed (headway - g0 (1 - v / v0)) / T
  // goes to zero at a headway of g0. In a corridor 1 m wide A walks with a wall
  // 0.5 m to either side, within r + 0.3 m across its heading (t_room = 1): the
  // standing gap is dropped and A closes up to B.
  for (const float width : {6.0f, 1.0f}) {
    INFO("hall " << width << " m wide");
    Json j = hall(30, width);
    const float y = width / 2;
    j["portals"] = Json::array({Json{{"id", "east"}, {"polygon", rect(28, 0, 30, width)}, {"mode", "despawn"}}});
    j["walkers"] = Json::array({walker(10.2f, y, "east")});
    std::vector<float> row;
    for (float r = y; r > 0.25f; r -= 0.5f) row.push_back(r);
    for (float r = y + 0.5f; r < width - 0.25f; r += 0.5f) row.push_back(r);
    std::vector<float> row_x;
    for (const float r : row) row_x.push_back(r == y ? 11.7f : 11.75f);
    for (std::size_t q = 0; q < row.size(); ++q) j["walkers"].push_back(walker(row_x[q], row[q], "east"));
    auto m = make(j);
    for (int k = 0; k < 100; ++k) {  // 5 s
      m.step({});
      auto st = m.state();
      for (std::size_t q = 0; q < row.size(); ++q) st.walkers[q + 1].pos = V2{row_x[q], row[q]}, st.walkers[q + 1].vel = V2{};
      m.set_state(st);
    }
    const auto& a = m.state().walkers[0];
    const auto& b = m.state().walkers[1];
    INFO("A at " << a.pos.x << ", " << a.pos.y << " at " << length(a.vel) << " m/s, headway " << a.headway << "; B at " << b.pos.x);
    CHECK(std::fabs(a.vel.x) < 0.05f);  // no longer closing in
    if (width > 2.0f) {
      CHECK(a.headway >= 0.2f - 5e-3f);  // a few mm of overshoot as the relaxation brings it to rest
      CHECK(a.headway <= 0.2f + 0.03f);
    } else {
      CHECK(a.headway < 0.03f);
    }
  }
}

TEST_CASE("station headway - following at a walker's pace: the gap v T + g0 (1 - v / v0), g0 fading as it walks (S61)",
          "[station][headway]") {
  // A (v0 0.65 m/s) follows B, who walks east at 0.5 m/s, on the middle line
  // of a hall 6 m wide (no wall within reach across: t_room = 0). B is a pacer:
  // the test sets it to 0.5 m/s along the line after every tick, so that no
  // push from A speeds it up. It is not slower than A's v0 by the overtaking
  // margin (0.2 m/s, S21), so A stays behind. A's steady speed is B's, and the gap it keeps is the one at
  // which (gap - g0 (1 - v / v0)) / T = v: 0.5 x 0.42 + 0.2 x (1 - 0.5 / 0.65)
  // = 0.256 m. A standing gap that did not fade would keep 0.41 m, no standing
  // gap 0.21 m, and version 18's T = 0.40 s 0.246 m.
  Json j = two_way_hall();
  j["walkers"] = Json::array({walker(6, 3, "east", 0.65f, 0.5f), walker(7, 3, "east", 0.5f, 0.5f)});
  auto m = make(j);
  double gap_sum = 0, v_sum = 0;
  int n = 0;
  for (int k = 0; k < 300; ++k) {  // 15 s; the last 5 s averaged
    m.step({});
    auto st = m.state();
    st.walkers[1].pos = V2{7.0f + 0.5f * 0.05f * static_cast<float>(k + 1), 3.0f}, st.walkers[1].vel = V2{0.5f, 0.0f};
    m.set_state(st);
    const auto& a = m.state().walkers[0];
    const auto& b = m.state().walkers[1];
    if (k >= 200) gap_sum += a.headway, v_sum += a.vel.x, ++n;
    REQUIRE(a.pos.x < b.pos.x);  // never passes
  }
  const double gap = gap_sum / n, v = v_sum / n;
  INFO("A's mean headway " << gap << " at " << v << " m/s");
  CHECK(v == Approx(0.5).margin(0.02));
  CHECK(gap == Approx(v * kT + 0.2 * (1.0 - v / 0.65)).margin(0.006));
}
