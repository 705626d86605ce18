// warriors tests (rules): the pure locomotion rules of seed 000
// (../shared/seeds/000_f781e9935f3cbcaa.txt, and 000-supplement.md) one by one:
// "Gaits and speeds", "Turning", "The corner speed" (MoveAction_TrialSpeed,
// MoveAction_CornerSpeed, Human_SimulateMove) and, in "Steering round humans"
// step 18, the confirmed Move_CornerSpeedLimit and Math_CircleRadius2D.
// Choices where the seed is silent: docs/spec-notes.md A3, A14-A17.
//
// Expected values come from the seed's numbers and formulas, recomputed here
// in double (ref_* below), never from the model's own output.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "lockstep/core/angle.h"
#include "math_reference.h"
#include "warriors_test_util.h"

using namespace wtest;

namespace ref = lockstep::test_support::ref;

namespace {

constexpr double kPiD = 3.14159265358979323846;
double rad(double deg) { return deg * kPiD / 180.0; }

// Rembrandt's speeds (seed 000, "Gaits and speeds", the table), as the record's floats.
constexpr float kSneakV = 1.585f, kWalkV = 1.629f, kJogV = 4.857f, kRunV = 7.801f, kSprintV = 10.245f;

double ref_speed(int g) {
  switch (g) {
    case 1: return kSneakV;
    case 2: return kWalkV;
    case 3: return kJogV;
    case 4: return kRunV;
    case 5: return kSprintV;
    default: return 0.0;
  }
}

/// Human_GetTurnRateForGait: 2.5 deg gait 5, 4 gait 4, 6 gait 3, 12 below; x (b + 1), / (1 - b) when b < 0.
double ref_rate(int g, int b) {
  const double w = g == 5 ? 2.5 : g == 4 ? 4.0 : g == 3 ? 6.0 : 12.0;
  const double r = rad(w);
  return b < 0 ? r / static_cast<double>(1 - b) : r * static_cast<double>(b + 1);
}

/// v(g) = 2R tan(w(g) / 2) / (1/30).
double ref_v(double r, int g, int b) { return 2.0 * r * ref::tan(ref_rate(g, b) / 2.0) * 30.0; }

/// Human_GaitForSpeed 0x0022aeb0: 0 below 0.5 m/s, else the nearest gait (the lower on a tie).
int ref_nearest(double s) {
  if (!(s >= 0.5)) return 0;
  int best = 1;
  for (int g = 2; g <= 5; ++g)
    if (std::fabs(s - ref_speed(g)) < std::fabs(s - ref_speed(best))) best = g;
  return best;
}

/// Move_CornerSpeedLimit, steps 3-5, as the seed's text gives them, for a radius R.
double ref_limit(double s, int b, double r) {
  const int g0 = ref_nearest(s);
  const double v = ref_v(r, g0, b);
  if (v >= s) return s;
  double best = v;
  for (int g = g0 - 1; g >= 1; --g) {
    const double v2 = std::min(ref_speed(g), ref_v(r, g, b));
    if (!(v2 >= best)) break;
    best = v2;
  }
  return std::min(s, best);
}

/// Math_CircleRadius2D: R = |d| / (2 |d^ . A|), d = X - P in plan; 0 for X = P or d^ . A = 0.
double ref_radius(Vec3 p, Vec3 x, Vec3 a) {
  const double dx = static_cast<double>(x.x) - p.x, dy = static_cast<double>(x.y) - p.y;
  const double len = ref::sqrt(dx * dx + dy * dy);
  if (len == 0.0) return 0.0;
  const double dot = (dx / len) * a.x + (dy / len) * a.y;
  if (dot == 0.0) return 0.0;
  return len / (2.0 * std::fabs(dot));
}

/// The right vector of heading h, facing x up: (cos h, -sin h, 0).
Vec3 ref_right(double h) { return Vec3{static_cast<float>(ref::cos(h)), static_cast<float>(-ref::sin(h)), 0.0f}; }

/// Plan heading of a segment (from +y toward +x).
double seg_heading(Vec3 a, Vec3 b) { return ref::atan2(static_cast<double>(b.x) - a.x, static_cast<double>(b.y) - a.y); }
double wrap(double a) {
  while (a > kPiD) a -= 2 * kPiD;
  while (a <= -kPiD) a += 2 * kPiD;
  return a;
}
double plan_dist(Vec3 a, Vec3 b) { return ref::hypot(static_cast<double>(b.x) - a.x, static_cast<double>(b.y) - a.y); }

/// One AI human (slot 0) at the origin, heading in degrees.
WarriorsModel one_ai(float heading_deg = 0, int boost = 0, int detail = 0) {
  return make(Json::parse(R"({"humans":[{"name":"a","position":[0,0,0],"heading":)" + std::to_string(heading_deg) +
                          R"(,"turn_boost":)" + std::to_string(boost) + R"(,"detail":)" + std::to_string(detail) + "}]}"));
}

/// A Human with the rows of Human_MaxTurn set directly.
Human hum(int gait, int boost = 0) {
  Human h;
  h.gait = gait;
  h.brain.turn_boost = boost;
  h.is_ai = 1;
  return h;
}

}  // namespace

// ------------------------------------------------------------ Gaits and speeds

TEST_CASE("seed 000 Gaits and speeds: Human_SpeedForGait gives Rembrandt's record speeds, 0 for gait 0",
          "[warriors][gaits]") {
  WarriorsModel m = one_ai();
  const ClassSpec& c = m.class_of(m.state().humans[0]);
  CHECK(c.name == "rembrandt");
  CHECK(speed_for_gait(c, kStand) == 0.0f);
  CHECK(speed_for_gait(c, kSneak) == 1.585f);
  CHECK(speed_for_gait(c, kWalk) == 1.629f);
  CHECK(speed_for_gait(c, kJog) == 4.857f);
  CHECK(speed_for_gait(c, kRun) == 7.801f);
  CHECK(speed_for_gait(c, kSprint) == 10.245f);
}

TEST_CASE("seed 000 Gaits and speeds: Human_SpeedForGait of a human with no anim record is 0 for every gait",
          "[warriors][gaits]") {
  ClassSpec c;
  c.name = "no_record";
  c.anim_record = false;
  for (int g = 0; g <= 5; ++g) {
    INFO("gait " << g);
    CHECK(speed_for_gait(c, g) == 0.0f);
  }
}

TEST_CASE("seed 000 Gaits and speeds: Human_GaitForSpeed 0x00221760 thresholds, at and just below each speed",
          "[warriors][gaits]") {
  ClassSpec c;  // Rembrandt's speeds
  auto below = [](float v) { return std::nextafter(v, 0.0f); };
  CHECK(gait_for_speed(c, 10.245f) == 5);
  CHECK(gait_for_speed(c, 25.0f) == 5);
  CHECK(gait_for_speed(c, below(10.245f)) == 4);
  CHECK(gait_for_speed(c, 7.801f) == 4);
  CHECK(gait_for_speed(c, below(7.801f)) == 3);
  CHECK(gait_for_speed(c, 4.857f) == 3);
  CHECK(gait_for_speed(c, below(4.857f)) == 2);
  CHECK(gait_for_speed(c, 1.629f) == 2);
  CHECK(gait_for_speed(c, below(1.629f)) == 0);
  // "2 the walk, else 0": the sneak's speed is not a gait of this mapping.
  CHECK(gait_for_speed(c, 1.585f) == 0);
  CHECK(gait_for_speed(c, 1.0f) == 0);
  CHECK(gait_for_speed(c, 0.0f) == 0);
}

TEST_CASE("seed 000 Move_CornerSpeedLimit step 3: Human_GaitForSpeed 0x0022aeb0 is 0 below 0.5 m/s, else the nearest",
          "[warriors][gaits]") {
  ClassSpec c;
  CHECK(nearest_gait_for_speed(c, 0.0f) == 0);
  CHECK(nearest_gait_for_speed(c, 0.3f) == 0);
  CHECK(nearest_gait_for_speed(c, std::nextafter(0.5f, 0.0f)) == 0);
  CHECK(nearest_gait_for_speed(c, 0.5f) == 1);
  CHECK(nearest_gait_for_speed(c, 1.0f) == 1);
  CHECK(nearest_gait_for_speed(c, 1.6f) == 1);   // 0.015 from the sneak, 0.029 from the walk
  CHECK(nearest_gait_for_speed(c, 1.62f) == 2);  // 0.035 from the sneak, 0.009 from the walk
  CHECK(nearest_gait_for_speed(c, 3.2f) == 2);   // walk-jog midpoint 3.243
  CHECK(nearest_gait_for_speed(c, 3.3f) == 3);
  CHECK(nearest_gait_for_speed(c, 6.2f) == 3);   // jog-run midpoint 6.329
  CHECK(nearest_gait_for_speed(c, 6.5f) == 4);
  CHECK(nearest_gait_for_speed(c, 7.0f) == 4);   // 0x00221760 would give 3 here
  CHECK(nearest_gait_for_speed(c, 9.0f) == 4);   // run-sprint midpoint 9.023
  CHECK(nearest_gait_for_speed(c, 9.1f) == 5);
  CHECK(nearest_gait_for_speed(c, 30.0f) == 5);
  for (int g = 1; g <= 5; ++g) CHECK(nearest_gait_for_speed(c, static_cast<float>(ref_speed(g))) == g);
  for (float v = 0.5f; v < 14.0f; v += 0.0625f) {
    INFO("v " << v);
    CHECK(nearest_gait_for_speed(c, v) == ref_nearest(v));
  }
}

// ------------------------------------------------------------ Turning

TEST_CASE("seed 000 Turning: Human_GetTurnRateForGait is 2.5, 4, 6 and 12 degrees per update", "[warriors][turning]") {
  CHECK(turn_rate_for_gait(5, 0) == Approx(rad(2.5)).margin(1e-6));
  CHECK(turn_rate_for_gait(4, 0) == Approx(rad(4.0)).margin(1e-6));
  CHECK(turn_rate_for_gait(3, 0) == Approx(rad(6.0)).margin(1e-6));
  CHECK(turn_rate_for_gait(2, 0) == Approx(rad(12.0)).margin(1e-6));
  CHECK(turn_rate_for_gait(1, 0) == Approx(rad(12.0)).margin(1e-6));
  CHECK(turn_rate_for_gait(0, 0) == Approx(rad(12.0)).margin(1e-6));
  // The seed's radians: 0.0436, 0.0698, 0.1047, 0.2094.
  CHECK(turn_rate_for_gait(5, 0) == Approx(0.0436).margin(1e-4));
  CHECK(turn_rate_for_gait(4, 0) == Approx(0.0698).margin(1e-4));
  CHECK(turn_rate_for_gait(3, 0) == Approx(0.1047).margin(1e-4));
  CHECK(turn_rate_for_gait(2, 0) == Approx(0.2094).margin(1e-4));
}

TEST_CASE("seed 000 Turning: the turn boost multiplies by b + 1, or divides by 1 - b when negative", "[warriors][turning]") {
  for (int g = 0; g <= 5; ++g) {
    for (int b = -3; b <= 3; ++b) {
      INFO("gait " << g << " boost " << b);
      CHECK(turn_rate_for_gait(g, b) == Approx(ref_rate(g, b)).margin(1e-6));
    }
    INFO("gait " << g);
    CHECK(turn_rate_for_gait(g, 1) == Approx(2.0 * turn_rate_for_gait(g, 0)).margin(1e-6));   // b = 1 doubles
    CHECK(turn_rate_for_gait(g, -1) == Approx(0.5 * turn_rate_for_gait(g, 0)).margin(1e-6));  // b = -1 halves
    CHECK(turn_rate_for_gait(g, 2) == Approx(3.0 * turn_rate_for_gait(g, 0)).margin(1e-6));
    CHECK(turn_rate_for_gait(g, -3) == Approx(0.25 * turn_rate_for_gait(g, 0)).margin(1e-6));
  }
}

TEST_CASE("seed 000 Turning: Human_MaxTurn AI words, rows tested top down, boost only on the gait and walk rows",
          "[warriors][turning]") {
  const double m = 1e-6;
  SECTION("turn-limited: fixed 4 or 6 degrees, no boost, above every other row") {
    Human h = hum(kSprint, 2);
    h.turn_limited = 4;
    h.wounded = 1;
    h.fight_stance = 1;
    CHECK(max_turn(h, false) == Approx(rad(4)).margin(m));
    h.turn_limited = 6;
    CHECK(max_turn(h, false) == Approx(rad(6)).margin(m));
    Human w = hum(kWalk, 3);
    w.turn_limited = 6;
    CHECK(max_turn(w, false) == Approx(rad(6)).margin(m));
  }
  SECTION("wounded: 1.5 x 0.25 = 0.375 degrees, even in a fight stance and boosted") {
    Human h = hum(kWalk, 0);
    h.wounded = 1;
    CHECK(max_turn(h, false) == Approx(rad(0.375)).margin(m));
    h.fight_stance = 1;
    h.brain.turn_boost = 3;
    CHECK(max_turn(h, false) == Approx(rad(0.375)).margin(m));
    h.gait = kSprint;
    h.grabbing = 1;
    CHECK(max_turn(h, false) == Approx(rad(0.375)).margin(m));
  }
  SECTION("grabbing, blocking or ducking: 1.5 degrees, no boost, above the gait rows") {
    Human h = hum(kRun, 2);
    h.grabbing = 1;
    CHECK(max_turn(h, false) == Approx(rad(1.5)).margin(m));
    h.gait = kWalk;
    h.fight_stance = 1;
    CHECK(max_turn(h, false) == Approx(rad(1.5)).margin(m));
  }
  SECTION("sprint 2.5, run 4, jog 6 degrees, boosted, above the fight stance") {
    CHECK(max_turn(hum(kSprint), false) == Approx(rad(2.5)).margin(m));
    CHECK(max_turn(hum(kRun), false) == Approx(rad(4)).margin(m));
    CHECK(max_turn(hum(kJog), false) == Approx(rad(6)).margin(m));
    CHECK(max_turn(hum(kSprint, 1), false) == Approx(rad(5)).margin(m));
    CHECK(max_turn(hum(kRun, 2), false) == Approx(rad(12)).margin(m));
    CHECK(max_turn(hum(kJog, -1), false) == Approx(rad(3)).margin(m));
    CHECK(max_turn(hum(kRun, -3), false) == Approx(rad(1)).margin(m));
    Human s = hum(kJog, 0);
    s.fight_stance = 1;
    s.held_flags = 1;
    CHECK(max_turn(s, false) == Approx(rad(6)).margin(m));
  }
  SECTION("fight stance: 24 degrees, not boosted, above the held flags") {
    Human h = hum(kWalk, 0);
    h.fight_stance = 1;
    CHECK(max_turn(h, false) == Approx(rad(24)).margin(m));
    h.brain.turn_boost = 2;
    CHECK(max_turn(h, false) == Approx(rad(24)).margin(m));
    h.brain.turn_boost = -2;
    CHECK(max_turn(h, false) == Approx(rad(24)).margin(m));
    h.held_flags = 1;
    CHECK(max_turn(h, false) == Approx(rad(24)).margin(m));
    h.gait = kStand;
    CHECK(max_turn(h, false) == Approx(rad(24)).margin(m));
  }
  SECTION("held flags 0x1000080: 2.5 x 0.25 = 0.625 degrees, not boosted") {
    Human h = hum(kWalk, 0);
    h.held_flags = 1;
    CHECK(max_turn(h, false) == Approx(rad(0.625)).margin(m));
    h.brain.turn_boost = 3;
    CHECK(max_turn(h, false) == Approx(rad(0.625)).margin(m));
  }
  SECTION("otherwise (walk, stand): 12 degrees, boosted") {
    CHECK(max_turn(hum(kWalk), false) == Approx(rad(12)).margin(m));
    CHECK(max_turn(hum(kStand), false) == Approx(rad(12)).margin(m));
    CHECK(max_turn(hum(kSneak), false) == Approx(rad(12)).margin(m));
    CHECK(max_turn(hum(kWalk, 1), false) == Approx(rad(24)).margin(m));
    CHECK(max_turn(hum(kStand, -1), false) == Approx(rad(6)).margin(m));
  }
  SECTION("at 30 Hz a walking AI turns 360 degrees per second, a running one 120, unboosted") {
    CHECK(30.0 * max_turn(hum(kWalk), false) == Approx(rad(360)).margin(1e-4));
    CHECK(30.0 * max_turn(hum(kRun), false) == Approx(rad(120)).margin(1e-4));
  }
}

TEST_CASE("seed 000 Turning and supplement Movement constants: Human_MaxTurn player words", "[warriors][turning]") {
  const double m = 1e-6;
  Human h = hum(kWalk, 0);
  h.has_pad = 1;
  h.is_ai = 0;
  CHECK(max_turn(h, true) == Approx(rad(20)).margin(m));  // otherwise: 20/12
  h.gait = kStand;
  CHECK(max_turn(h, true) == Approx(rad(20)).margin(m));
  h.gait = kJog;
  CHECK(max_turn(h, true) == Approx(rad(18)).margin(m));  // 18/6
  h.gait = kRun;
  CHECK(max_turn(h, true) == Approx(rad(18)).margin(m));  // 18/4
  h.gait = kSprint;
  CHECK(max_turn(h, true) == Approx(rad(16)).margin(m));  // 16/2.5
  Human st = h;
  st.gait = kWalk;
  st.fight_stance = 1;
  CHECK(max_turn(st, true) == Approx(rad(24)).margin(m));  // 24/24
  Human hf = h;
  hf.gait = kWalk;
  hf.held_flags = 1;
  CHECK(max_turn(hf, true) == Approx(rad(16 * 0.25)).margin(m));  // 0x005101b8 x 0.25
  Human gr = h;
  gr.grabbing = 1;
  CHECK(max_turn(gr, true) == Approx(rad(11)).margin(m));  // 11/1.5
  Human wd = h;
  wd.wounded = 1;
  wd.fight_stance = 1;
  CHECK(max_turn(wd, true) == Approx(rad(11 * 0.25)).margin(m));  // 0x005101b0 x 0.25
  Human tl = h;
  tl.turn_limited = 4;
  CHECK(max_turn(tl, true) == Approx(rad(4)).margin(m));  // both kinds
}

// ------------------------------------------------------------ Move_CornerSpeedLimit's geometry

TEST_CASE("seed 000 Steering step 18 Move_CornerSpeedLimit: the right vector A is facing x up",
          "[warriors][corner]") {
  auto check = [](double h) {
    const Vec3 r = right_of(static_cast<float>(h));
    INFO("heading " << h);
    const double fx = ref::sin(h), fy = ref::cos(h);
    CHECK(ref::sqrt(static_cast<double>(r.x) * r.x + static_cast<double>(r.y) * r.y + static_cast<double>(r.z) * r.z) ==
          Approx(1.0).margin(1e-6));
    CHECK(r.x * fx + r.y * fy == Approx(0.0).margin(1e-6));  // perpendicular to the facing
    CHECK(r.z == 0.0f);
    // Pointing right: facing x up = (fy, -fx, 0), clockwise from the facing seen from above.
    CHECK(r.x * fy - r.y * fx == Approx(1.0).margin(1e-6));
    CHECK(r.x == Approx(ref::cos(h)).margin(1e-6));
    CHECK(r.y == Approx(-ref::sin(h)).margin(1e-6));
  };
  for (double h = -3.1; h <= 3.1; h += 0.05) check(h);
  check(kPiD / 2);
  check(kPiD);
  check(-kPiD / 2);
  const Vec3 r0 = right_of(0.0f);
  CHECK(r0.x == Approx(1.0).margin(1e-6));
  CHECK(r0.y == Approx(0.0).margin(1e-6));
  const Vec3 r90 = right_of(static_cast<float>(kPiD / 2));
  CHECK(r90.x == Approx(0.0).margin(1e-6));
  CHECK(r90.y == Approx(-1.0).margin(1e-6));
}

TEST_CASE("seed 000 Steering step 18 Math_CircleRadius2D: R = |d| over 2 |d^ . A| in plan", "[warriors][corner]") {
  const Vec3 o{0, 0, 0}, ax{1, 0, 0};
  CHECK(circle_radius_2d(o, Vec3{1, 1, 0}, ax) == Approx(1.0).margin(1e-6));
  CHECK(circle_radius_2d(o, Vec3{2, 0, 0}, ax) == Approx(1.0).margin(1e-6));
  CHECK(circle_radius_2d(o, Vec3{3, 4, 0}, ax) == Approx(5.0 / 1.2).margin(1e-5));
  CHECK(circle_radius_2d(o, Vec3{-3, 4, 0}, ax) == Approx(5.0 / 1.2).margin(1e-5));  // |d^ . A|: either side
  CHECK(circle_radius_2d(o, Vec3{3, -4, 0}, ax) == Approx(5.0 / 1.2).margin(1e-5));
  // In plan: the height of X (and of P) does not count.
  CHECK(circle_radius_2d(o, Vec3{1, 1, 7}, ax) == Approx(1.0).margin(1e-6));
  CHECK(circle_radius_2d(Vec3{0, 0, -3}, Vec3{2, 0, 5}, ax) == Approx(1.0).margin(1e-6));
  // Against the formula in double, with other P and A, and the circle's defining property:
  // the centre C = P + R A (on X's side) is R from X.
  struct Case {
    Vec3 p, x;
    float h;
  };
  const Case cases[] = {{{1, 2, 0}, {4, 6, 0}, 0.3f},     {{-5, 3, 1}, {-2, -1, 0}, -1.2f},
                        {{10, 10, 0}, {10.5f, 13, 0}, 2.5f}, {{0, 0, 0}, {0.2f, 0.01f, 0}, 0.0f},
                        {{2, -7, 0}, {-8, 1, 0}, 1.0f}};
  for (const Case& k : cases) {
    const Vec3 a = right_of(k.h);
    const double r = ref_radius(k.p, k.x, a);
    INFO("P " << k.p.x << "," << k.p.y << " X " << k.x.x << "," << k.x.y << " h " << k.h);
    REQUIRE(r > 0.0);
    const float got = circle_radius_2d(k.p, k.x, a);
    CHECK(got == Approx(r).epsilon(1e-5));
    const double side = ((k.x.x - k.p.x) * a.x + (k.x.y - k.p.y) * a.y) >= 0 ? 1.0 : -1.0;
    const double cx = k.p.x + side * r * a.x, cy = k.p.y + side * r * a.y;
    CHECK(ref::hypot(k.x.x - cx, k.x.y - cy) == Approx(r).epsilon(1e-5));
  }
}

TEST_CASE("seed 000 Steering step 18 Math_CircleRadius2D: 0 when X = P or X dead ahead or behind",
          "[warriors][corner]") {
  const Vec3 ax{1, 0, 0};
  CHECK(circle_radius_2d(Vec3{0, 0, 0}, Vec3{0, 0, 0}, ax) == 0.0f);
  CHECK(circle_radius_2d(Vec3{3, -2, 0}, Vec3{3, -2, 5}, ax) == 0.0f);  // same point in plan
  CHECK(circle_radius_2d(Vec3{0, 0, 0}, Vec3{0, 5, 0}, ax) == 0.0f);   // dead ahead: d^ . A = 0 exactly
  CHECK(circle_radius_2d(Vec3{0, 0, 0}, Vec3{0, -5, 0}, ax) == 0.0f);  // dead behind
  CHECK(circle_radius_2d(Vec3{4, 1, 0}, Vec3{4, 9, 0}, ax) == 0.0f);
  CHECK(circle_radius_2d(Vec3{0, 0, 0}, Vec3{0, 5, 0}, right_of(0.0f)) == 0.0f);  // A14: the human facing +y
}

TEST_CASE("seed 000 Steering step 18 Move_CornerSpeedLimit step 2: v(g) = 2R tan(w(g)/2) / (1/30)",
          "[warriors][corner]") {
  for (float r : {0.05f, 0.5f, 1.0f, 3.0f, 4.1666665f, 10.0f, 40.0f}) {
    for (int g = 0; g <= 5; ++g) {
      for (int b = -2; b <= 2; ++b) {
        INFO("R " << r << " gait " << g << " boost " << b);
        CHECK(corner_speed_for_gait(r, g, b) == Approx(ref_v(r, g, b)).epsilon(1e-4));
      }
    }
  }
  CHECK(corner_speed_for_gait(0.0f, 4, 0) == 0.0f);
  // A16: tan, not sin; at 24 degrees (walk, boost 1) they differ by 2.2 %.
  const double tan_v = ref_v(1.0, 2, 1), sin_v = 2.0 * ref::sin(rad(24) / 2) * 30.0;
  CHECK(std::fabs(tan_v - sin_v) / tan_v > 0.02);
  CHECK(corner_speed_for_gait(1.0f, 2, 1) == Approx(tan_v).epsilon(1e-4));
}

// ------------------------------------------------------------ Move_CornerSpeedLimit

namespace {
/// The radius at which gait g (unboosted) allows v m/s: v = 2R tan(w/2) x 30.
double radius_for(double v, int g) { return v / (2.0 * ref::tan(ref_rate(g, 0) / 2.0) * 30.0); }
/// corner_speed_limit at radius R: P the origin, A = +x, X = (2R, 0) (d^ . A = 1, so the radius is |d| / 2).
float limit_at(const ClassSpec& c, int b, float s, double r) {
  return corner_speed_limit(c, b, s, Vec3{1, 0, 0}, Vec3{0, 0, 0}, Vec3{static_cast<float>(2.0 * r), 0, 0});
}
}  // namespace

TEST_CASE("seed 000 Steering step 18 Move_CornerSpeedLimit: s itself when v(g0) covers it", "[warriors][corner]") {
  ClassSpec c;
  // Run (g0 4), R 10 m: v(4) = 20.95 m/s >= 7.801: s exactly.
  CHECK(limit_at(c, 0, 7.801f, 10.0) == 7.801f);
  CHECK(ref_v(10.0, 4, 0) > 7.801);
  // s = 7.0: g0 is the nearest gait (4, not 0x00221760's 3); v(4) = 7.5 covers it.
  CHECK(limit_at(c, 0, 7.0f, radius_for(7.5, 4)) == 7.0f);
  // Sprint at a gentle bend.
  CHECK(limit_at(c, 0, 10.245f, radius_for(11.0, 5)) == 10.245f);
  // Below 0.5 m/s g0 = 0 (12 degrees).
  CHECK(limit_at(c, 0, 0.3f, 1.0) == 0.3f);
}

TEST_CASE("seed 000 Steering step 18 Move_CornerSpeedLimit: stepping down the gaits while a lower gait allows as much",
          "[warriors][corner]") {
  ClassSpec c;
  SECTION("run, v(4) = 5: the jog allows min(4.857, 7.5) = 4.857 < 5, so 5 (no step)") {
    const double r = radius_for(5.0, 4);
    CHECK(limit_at(c, 0, kRunV, r) == Approx(5.0).epsilon(1e-5));
  }
  SECTION("run, v(4) = 3: the jog allows v(3) = 4.50, the walk only 1.629: v(3)") {
    const double r = radius_for(3.0, 4);
    const double v3 = ref_v(r, 3, 0);
    REQUIRE(v3 > 3.0);
    REQUIRE(v3 < kJogV);
    CHECK(limit_at(c, 0, kRunV, r) == Approx(v3).epsilon(1e-5));
  }
  SECTION("run, v(4) = 1: jog 1.50, walk min(1.629, 3.01) = 1.629, sneak 1.585 less: the walk speed") {
    const double r = radius_for(1.0, 4);
    CHECK(limit_at(c, 0, kRunV, r) == Approx(static_cast<double>(kWalkV)).epsilon(1e-6));
  }
  SECTION("run, v(4) = 0.3: jog 0.45, walk 0.90, sneak 0.90 (equal, goes on): v(2)") {
    const double r = radius_for(0.3, 4);
    CHECK(limit_at(c, 0, kRunV, r) == Approx(ref_v(r, 2, 0)).epsilon(1e-5));
  }
  SECTION("not capped by g0's speed: s = 8.5 (g0 4), v(4) = 8.0 gives 8.0, above the run's 7.801") {
    const double r = radius_for(8.0, 4);
    CHECK(limit_at(c, 0, 8.5f, r) == Approx(8.0).epsilon(1e-5));
  }
  SECTION("g0 is the nearest gait: s = 7.0 with v(4) = 5 < 7 <= v(3) = 7.5 gives 5, not 7") {
    const double r = radius_for(5.0, 4);
    REQUIRE(ref_v(r, 3, 0) >= 7.0);
    CHECK(limit_at(c, 0, 7.0f, r) == Approx(5.0).epsilon(1e-5));
  }
  SECTION("sprint, v(5) = 2: run 3.2, jog 4.8 (< 4.857), walk 1.629: v(3)") {
    const double r = radius_for(2.0, 5);
    CHECK(limit_at(c, 0, kSprintV, r) == Approx(ref_v(r, 3, 0)).epsilon(1e-5));
  }
  SECTION("the boost raises every v(g)") {
    const double r = radius_for(3.0, 4);
    CHECK(limit_at(c, 1, kRunV, r) == Approx(ref_limit(kRunV, 1, r)).epsilon(1e-5));
    CHECK(limit_at(c, 1, kRunV, r) == Approx(6.0).epsilon(2e-3));  // v(4) doubles (tan nearly linear)
  }
}

TEST_CASE("seed 000 Steering step 18 Move_CornerSpeedLimit: the documented rule on a sweep of radii and speeds",
          "[warriors][corner]") {
  ClassSpec c;
  const float speeds[] = {0.2f, 0.6f, 1.0f, 1.585f, 1.629f, 2.3f, 3.429f, 4.857f, 5.5f, 7.0f, 7.801f, 8.5f, 10.245f, 12.0f};
  int checked = 0;
  for (int b = -1; b <= 2; ++b) {
    for (float s : speeds) {
      for (double r = 0.02; r < 60.0; r *= 1.23) {
        INFO("s " << s << " boost " << b << " R " << r);
        CHECK(limit_at(c, b, s, r) == Approx(ref_limit(s, b, r)).epsilon(1e-4));
        ++checked;
      }
    }
  }
  CHECK(checked > 1000);
  // With a general P, A and X: the radius from Math_CircleRadius2D.
  const Vec3 p{3, -1, 0}, x{5, 2.5f, 0};
  for (float h : {0.2f, 1.1f, -2.0f}) {
    const Vec3 a = right_of(h);
    const double r = ref_radius(p, x, a);
    for (float s : speeds) {
      INFO("s " << s << " h " << h);
      CHECK(corner_speed_limit(c, 0, s, a, p, x) == Approx(ref_limit(s, 0, r)).epsilon(1e-4));
    }
  }
}

TEST_CASE("seed 000 Steering step 18 Move_CornerSpeedLimit step 5: 0 only when R = 0 or s <= 0", "[warriors][corner]") {
  ClassSpec c;
  const Vec3 ax{1, 0, 0}, o{0, 0, 0};
  // R = 0: X = P, or X dead ahead.
  CHECK(corner_speed_limit(c, 0, 7.801f, ax, o, o) == 0.0f);
  CHECK(corner_speed_limit(c, 0, 7.801f, ax, o, Vec3{0, 5, 0}) == 0.0f);
  CHECK(corner_speed_limit(c, 0, 1.629f, ax, o, Vec3{0, -5, 0}) == 0.0f);
  CHECK(corner_speed_limit(c, 2, 10.245f, ax, o, Vec3{0, 5, 0}) == 0.0f);
  // s <= 0: min(s, best) <= 0.
  CHECK(corner_speed_limit(c, 0, 0.0f, ax, o, Vec3{1, 1, 0}) <= 0.0f);
  CHECK(corner_speed_limit(c, 0, -1.0f, ax, o, Vec3{1, 1, 0}) <= -1.0f);
  CHECK(corner_speed_limit(c, 0, 0.0f, ax, o, o) == 0.0f);
  // Otherwise never 0, however tight: the best of the tried gaits.
  CHECK(limit_at(c, 0, kRunV, 0.001) > 0.0f);
  CHECK(limit_at(c, 0, kRunV, 0.001) == Approx(ref_v(0.001, 2, 0)).epsilon(1e-4));
}

// ------------------------------------------------------------ MoveAction_TrialSpeed

TEST_CASE("seed 000 The corner speed MoveAction_TrialSpeed: open floor gives max(min(limit, trial), walk)",
          "[warriors][corner][trial]") {
  const ClassSpec rem;  // Rembrandt's speeds
  auto expect = [&](float heading_deg, float trial, Vec3 from, Vec3 to) {
    const double h = rad(heading_deg);
    const double r = ref_radius(from, to, ref_right(h));
    return std::max(std::min(ref_limit(trial, 0, r), static_cast<double>(trial)), static_cast<double>(kWalkV));
  };
  SECTION("a gentle bend: the limit is the trial itself") {
    WarriorsModel m = one_ai(0);
    CHECK(m.trial_speed(0, 0.0f, kRunV, Vec3{0, 0, 0}, Vec3{3, 4, 0}) == kRunV);
  }
  SECTION("R = 1: the jog's v(3) = 3.14") {
    WarriorsModel m = one_ai(0);
    const float got = m.trial_speed(0, 0.0f, kRunV, Vec3{0, 0, 0}, Vec3{1, 1, 0});
    CHECK(got == Approx(ref_v(1.0, 3, 0)).epsilon(1e-5));
    CHECK(got == Approx(expect(0, kRunV, Vec3{0, 0, 0}, Vec3{1, 1, 0})).epsilon(1e-5));
  }
  SECTION("the human's own facing gives A, whatever `from` is") {
    WarriorsModel m = one_ai(90);
    // A = right_of(90 deg) = (0, -1): |d^ . A| = 0.8, R = 3.125, v(4) = 6.55 < 7.801, the jog only 4.857.
    const float got = m.trial_speed(0, 0.0f, kRunV, Vec3{0, 0, 0}, Vec3{3, 4, 0});
    CHECK(got == Approx(ref_v(3.125, 4, 0)).epsilon(1e-5));
    CHECK(got == Approx(expect(90, kRunV, Vec3{0, 0, 0}, Vec3{3, 4, 0})).epsilon(1e-5));
    const float moved = m.trial_speed(0, 5.0f, kRunV, Vec3{10, -4, 0}, Vec3{13, 0, 0});
    CHECK(moved == Approx(got).epsilon(1e-5));
  }
  SECTION("a limit below the walk gives the walk") {
    WarriorsModel m = one_ai(0);
    CHECK(m.trial_speed(0, 0.0f, kRunV, Vec3{0, 0, 0}, Vec3{0.2f, 0.01f, 0}) == kWalkV);
    CHECK(expect(0, kRunV, Vec3{0, 0, 0}, Vec3{0.2f, 0.01f, 0}) == static_cast<double>(kWalkV));
  }
  SECTION("a trial below the walk gives the walk") {
    WarriorsModel m = one_ai(0);
    CHECK(m.trial_speed(0, 0.0f, 1.0f, Vec3{0, 0, 0}, Vec3{3, 4, 0}) == kWalkV);
    CHECK(m.trial_speed(0, 0.0f, 0.0f, Vec3{0, 0, 0}, Vec3{3, 4, 0}) == kWalkV);
  }
  SECTION("the first trial passes on the open floor: one simulation") {
    WarriorsModel m = one_ai(0, 0, 2);
    const uint64_t before = m.counters().trial_simulations;
    CHECK(m.trial_speed(0, 3.0f, kRunV, Vec3{0, 0, 0}, Vec3{1, 1, 0}) == Approx(ref_v(1.0, 3, 0)).epsilon(1e-5));
    CHECK(m.counters().trial_simulations == before + 1);
  }
  SECTION("a sweep of targets and trials") {
    for (float hd : {0.0f, 30.0f, -75.0f, 160.0f}) {
      WarriorsModel m = one_ai(hd);
      for (float trial : {1.0f, 2.3f, 4.857f, 7.801f, 10.245f}) {
        for (Vec3 to : {Vec3{3, 4, 0}, Vec3{1, 1, 0}, Vec3{-2, 0.5f, 0}, Vec3{0.6f, -0.4f, 0}, Vec3{8, 20, 0}}) {
          const double e = expect(hd, trial, Vec3{0, 0, 0}, to);
          if (std::fabs(ref_radius(Vec3{0, 0, 0}, to, ref_right(rad(hd)))) < 1e-9) continue;
          INFO("heading " << hd << " trial " << trial << " to " << to.x << "," << to.y);
          CHECK(m.trial_speed(0, 2.0f, trial, Vec3{0, 0, 0}, to) == Approx(e).epsilon(1e-4));
        }
      }
    }
  }
}

TEST_CASE("seed 000 The corner speed MoveAction_TrialSpeed: a target dead ahead gives the walk speed (spec-notes A14)",
          "[warriors][corner][trial]") {
  WarriorsModel m = one_ai(0);
  // Facing +y, A = (1, 0): d^ . A = 0 exactly, R = 0, the limit 0, so the trial is the walk.
  CHECK(m.trial_speed(0, 0.0f, kRunV, Vec3{0, 0, 0}, Vec3{0, 5, 0}) == kWalkV);
  CHECK(m.trial_speed(0, 7.0f, kSprintV, Vec3{0, 0, 0}, Vec3{0, 30, 0}) == kWalkV);
  CHECK(m.trial_speed(0, 0.0f, kJogV, Vec3{2, 1, 0}, Vec3{2, 9, 0}) == kWalkV);
}

// ------------------------------------------------------------ MoveAction_CornerSpeed

namespace {
/// The seed's braking distance, squared: t = (c1 - c2) / 32, d = c1 t - 16 t^2.
double ref_brake_sq(double c1, double c2) {
  const double t = (c1 - c2) / 32.0;
  const double d = c1 * t - 16.0 * t * t;
  return d * d;
}
MovePoints pts_of(std::initializer_list<Vec3> ps) {
  MovePoints p;
  for (const Vec3& v : ps) p.p[static_cast<std::size_t>(p.n++)] = v;
  return p;
}
}  // namespace

TEST_CASE("seed 000 The corner speed MoveAction_CornerSpeed: corner 1 only beyond 0.35 m in plan, else the cap",
          "[warriors][corner]") {
  WarriorsModel m = one_ai(0);
  Action a;
  a.type = 1;
  SECTION("points 0, 1 apart: corner 1 is the trial speed, corner 2 the cap, no braking") {
    // R = 1: the trial speed of a run is v(3) = 3.14.
    m.corner_speed(0, a, kRunV, pts_of({Vec3{0, 0, 0}, Vec3{1, 1, 0}}));
    CHECK(a.corner1 == Approx(ref_v(1.0, 3, 0)).epsilon(1e-5));
    CHECK(a.corner2 == kRunV);
    CHECK(a.brake_sq == 0.0f);
  }
  SECTION("0.34 m apart (0.3, 0.16): corner 1 is the cap, even where the trial would be the walk") {
    m.corner_speed(0, a, kRunV, pts_of({Vec3{0, 0, 0}, Vec3{0.3f, 0.16f, 0}}));
    CHECK(a.corner1 == kRunV);
    CHECK(a.corner2 == kRunV);
    CHECK(a.brake_sq == 0.0f);
  }
  SECTION("0.36 m apart (0.3, 0.2): the trial speed, here the walk (R = 0.217)") {
    m.corner_speed(0, a, kRunV, pts_of({Vec3{0, 0, 0}, Vec3{0.3f, 0.2f, 0}}));
    const double r = ref_radius(Vec3{0, 0, 0}, Vec3{0.3f, 0.2f, 0}, Vec3{1, 0, 0});
    CHECK(a.corner1 == Approx(std::max(ref_limit(kRunV, 0, r), static_cast<double>(kWalkV))).epsilon(1e-5));
    CHECK(a.corner1 < kRunV);
  }
  SECTION("in plan (spec-notes A15): 0.3 m in plan but 5 m up is not apart") {
    m.corner_speed(0, a, kRunV, pts_of({Vec3{0, 0, 0}, Vec3{0.3f, 0, 5}}));
    CHECK(a.corner1 == kRunV);
    CHECK(a.corner2 == kRunV);
  }
  SECTION("one point only: both corners are the cap") {
    m.corner_speed(0, a, kJogV, pts_of({Vec3{0, 0, 0}}));
    CHECK(a.corner1 == kJogV);
    CHECK(a.corner2 == kJogV);
    CHECK(a.brake_sq == 0.0f);
  }
}

TEST_CASE("seed 000 The corner speed MoveAction_CornerSpeed: corner 2 with 3 points, and the braking distance",
          "[warriors][corner]") {
  WarriorsModel m = one_ai(0);
  Action a;
  a.type = 1;
  SECTION("a sharp second corner: corner 2 = TrialSpeed(v, corner 1, points 1, 2), brake_sq = d squared") {
    // Corner 1: (0,0) -> (3,4), R = 4.17, the run passes: 7.801. Corner 2: (3,4) -> (4,5), A still the
    // human's right vector (1, 0): R = 1, v(3) = 3.14.
    m.corner_speed(0, a, kRunV, pts_of({Vec3{0, 0, 0}, Vec3{3, 4, 0}, Vec3{4, 5, 0}}));
    CHECK(a.corner1 == kRunV);
    const double c2 = ref_v(1.0, 3, 0);
    CHECK(a.corner2 == Approx(c2).epsilon(1e-5));
    CHECK(a.brake_sq == Approx(ref_brake_sq(kRunV, c2)).epsilon(1e-4));
    // And the formula on the stored corners themselves.
    CHECK(a.brake_sq == Approx(ref_brake_sq(a.corner1, a.corner2)).epsilon(1e-5));
    // t = (7.801 - 3.1445) / 32 = 0.1455 s, d = 0.7964 m.
    CHECK(ref::sqrt(static_cast<double>(a.brake_sq)) == Approx(0.7964).margin(1e-3));
  }
  SECTION("corner 2's trial starts from corner 1, not from the cap") {
    // Corner 1 limited to v(3) = 3.14 (R = 1); corner 2 a gentle bend passes its trial, corner 1.
    m.corner_speed(0, a, kRunV, pts_of({Vec3{0, 0, 0}, Vec3{1, 1, 0}, Vec3{4, 5, 0}}));
    const double c1 = ref_v(1.0, 3, 0);
    CHECK(a.corner1 == Approx(c1).epsilon(1e-5));
    CHECK(a.corner2 == Approx(c1).epsilon(1e-5));
    CHECK(a.brake_sq == 0.0f);  // corner 2 is not below corner 1
  }
  SECTION("points 1, 2 within 0.35 m: corner 2 is the cap, no braking") {
    m.corner_speed(0, a, kRunV, pts_of({Vec3{0, 0, 0}, Vec3{1, 1, 0}, Vec3{1.2f, 1.1f, 0}}));
    CHECK(a.corner2 == kRunV);
    CHECK(a.brake_sq == 0.0f);
  }
  SECTION("a cap below the walk: corner 1 is at least the walk, corner 2 (the cap) below it brakes") {
    m.corner_speed(0, a, 1.0f, pts_of({Vec3{0, 0, 0}, Vec3{3, 4, 0}}));
    CHECK(a.corner1 == kWalkV);
    CHECK(a.corner2 == 1.0f);
    CHECK(a.brake_sq == Approx(ref_brake_sq(kWalkV, 1.0)).epsilon(1e-4));
  }
}

// ------------------------------------------------------------ Human_SimulateMove

TEST_CASE("seed 000 The corner speed Human_SimulateMove: heading straight at the target records one point",
          "[warriors][simulate]") {
  WarriorsModel m = one_ai(0);  // facing +y
  SECTION("from rest the speed starts at min(trial, 2)") {
    const auto p = m.simulate_move(0, Vec3{0, 0, 0}, Vec3{0, 20, 0}, 0.0f, kRunV, 4, 10);
    REQUIRE(p.size() == 1);
    CHECK(plan_dist(Vec3{0, 0, 0}, p[0]) == Approx(2.0 / 30.0).margin(1e-6));
    CHECK(p[0].x == Approx(0.0).margin(1e-6));
    const auto q = m.simulate_move(0, Vec3{0, 0, 0}, Vec3{0, 20, 0}, 0.0f, 1.0f, 7, 10);
    REQUIRE(q.size() == 1);
    CHECK(plan_dist(Vec3{0, 0, 0}, q[0]) == Approx(1.0 / 30.0).margin(1e-6));
  }
  SECTION("speeding up: +8/30, and +24/30 more while over 2 m/s short (A17)") {
    const auto p = m.simulate_move(0, Vec3{0, 0, 0}, Vec3{0, 20, 0}, 5.0f, kRunV, 5, 10);
    REQUIRE(p.size() == 1);
    CHECK(plan_dist(Vec3{0, 0, 0}, p[0]) == Approx((5.0 + 32.0 / 30.0) / 30.0).margin(1e-6));
    const auto q = m.simulate_move(0, Vec3{0, 0, 0}, Vec3{0, 20, 0}, 7.0f, kRunV, 5, 10);
    REQUIRE(q.size() == 1);
    CHECK(plan_dist(Vec3{0, 0, 0}, q[0]) == Approx((7.0 + 8.0 / 30.0) / 30.0).margin(1e-6));
    const auto r = m.simulate_move(0, Vec3{0, 0, 0}, Vec3{0, 20, 0}, 7.7f, kRunV, 5, 10);
    REQUIRE(r.size() == 1);
    CHECK(plan_dist(Vec3{0, 0, 0}, r[0]) == Approx(kRunV / 30.0).margin(1e-6));  // never past the trial
  }
  SECTION("slowing down: -32/30, never below the trial") {
    const auto p = m.simulate_move(0, Vec3{0, 0, 0}, Vec3{0, 20, 0}, 9.0f, kRunV, 4, 10);
    REQUIRE(p.size() == 1);
    CHECK(plan_dist(Vec3{0, 0, 0}, p[0]) == Approx((9.0 - 32.0 / 30.0) / 30.0).margin(1e-6));
    const auto q = m.simulate_move(0, Vec3{0, 0, 0}, Vec3{0, 20, 0}, 8.0f, kRunV, 4, 10);
    REQUIRE(q.size() == 1);
    CHECK(plan_dist(Vec3{0, 0, 0}, q[0]) == Approx(kRunV / 30.0).margin(1e-6));
  }
}

TEST_CASE("seed 000 The corner speed Human_SimulateMove: at most n points, k sub-steps apart", "[warriors][simulate]") {
  WarriorsModel m = one_ai(0);
  const Vec3 from{0, 0, 0};
  // A target 170 degrees off, 100 m away, at a sprint (2.5 degrees a sub-step): 40 sub-steps turn
  // 100 degrees, never aligned, never near: every one of the n points is recorded.
  const Vec3 to{static_cast<float>(100 * ref::sin(rad(170))), static_cast<float>(100 * ref::cos(rad(170))), 0};
  const auto p10 = m.simulate_move(0, from, to, kSprintV, kSprintV, 4, 10);
  CHECK(p10.size() == 10);
  const auto p7 = m.simulate_move(0, from, to, kSprintV, kSprintV, 4, 7);
  CHECK(p7.size() == 7);
  // Points are k sub-steps apart: the k = 4 points are every 4th point of k = 1.
  const auto p1 = m.simulate_move(0, from, to, kSprintV, kSprintV, 1, 40);
  REQUIRE(p1.size() == 40);
  for (std::size_t i = 0; i < p10.size(); ++i) {
    INFO("point " << i);
    CHECK(p10[i].x == Approx(p1[4 * i + 3].x).margin(1e-5));
    CHECK(p10[i].y == Approx(p1[4 * i + 3].y).margin(1e-5));
  }
  // At a constant sprint each sub-step is 10.245 / 30 m, so k sub-steps span at most 4 of them.
  for (std::size_t i = 1; i < p1.size(); ++i) {
    INFO("sub-step " << i);
    CHECK(plan_dist(p1[i - 1], p1[i]) == Approx(kSprintV / 30.0).margin(1e-5));
  }
  CHECK(plan_dist(from, p10[0]) <= 4.0 * kSprintV / 30.0 + 1e-5);
  CHECK(plan_dist(from, p10[0]) > 3.9 * kSprintV / 30.0);  // nearly straight: 2.5 degrees a sub-step
  for (std::size_t i = 1; i < p10.size(); ++i) CHECK(plan_dist(p10[i - 1], p10[i]) <= 4.0 * kSprintV / 30.0 + 1e-5);
}

TEST_CASE("seed 000 The corner speed Human_SimulateMove: a 90 degree turn at the walk, at most the turn step a sub-step",
          "[warriors][simulate]") {
  const Vec3 from{0, 0, 0}, to{30, 0, 0};  // facing +y, the target 90 degrees to the right
  auto run = [&](int boost, float trial, double step_rad) {
    WarriorsModel m = one_ai(0, boost);
    const auto p = m.simulate_move(0, from, to, 0.0f, trial, 1, 40);
    INFO("boost " << boost << " trial " << trial);
    REQUIRE(p.size() > 1);
    CHECK(p.size() < 40);  // stops early once aligned
    // The turn comes before the move (A17): the first sub-step already turned by the full step.
    CHECK(seg_heading(from, p[0]) == Approx(step_rad).margin(1e-5));
    double prev = seg_heading(from, p[0]);
    for (std::size_t i = 1; i < p.size(); ++i) {
      const double hcur = seg_heading(p[i - 1], p[i]);
      INFO("sub-step " << i);
      CHECK(wrap(hcur - prev) <= step_rad + 1e-5);
      CHECK(wrap(hcur - prev) >= -1e-5);  // always toward the target, never overshooting
      prev = hcur;
    }
    // Stopped within 0.005 rad of the direction to the target.
    CHECK(std::fabs(wrap(seg_heading(p.back(), to) - prev)) < 0.005 + 1e-6);
    // And not before: at the point before the last the heading was not yet within 0.005 rad.
    const std::size_t j = p.size() - 2;
    const double hj = seg_heading(j == 0 ? from : p[j - 1], p[j]);
    CHECK(std::fabs(wrap(seg_heading(p[j], to) - hj)) >= 0.005 - 1e-6);
    return p.size();
  };
  // Walk (gait 2): 12 degrees, 90 / 12 = 7.5 sub-steps: 8 points.
  CHECK(run(0, kWalkV, rad(12)) == 8);
  // Boost 1: 24 degrees, 4 sub-steps.
  CHECK(run(1, kWalkV, rad(24)) == 4);
  // A trial at the run turns at the run's 4 degrees (A17: the gait of the trial speed).
  CHECK(run(0, kRunV, rad(4)) >= 22);
}
