// warriors tests (actions): the brain's think, the move action and its corner
// speed, the move-to-human footwork (MoveMelee), PickSide over the neighbour
// sectors, and the seed's runtime case. Seed 000
// (../shared/seeds/000_f781e9935f3cbcaa.txt): the intro paragraphs, "The move
// action" (Start, Update steps 1-9, "The speed and the legs", "Nothing keeps a
// move going between actions"), "The corner speed", "The move-to-human action
// (MoveMelee)" and "Neighbour sectors"; 000-supplement.md for the constants;
// docs/spec-notes.md, table "Seed 000", rows A1, A2, A4, A9-A13, A19-A24, A26.
//
// Expected values come from the spec's numbers and rules, computed here in
// double precision (never copied from the model's own output).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "lockstep/core/angle.h"
#include "lockstep/core/hash.h"
#include "math_reference.h"
#include "warriors_test_util.h"

using namespace wtest;

namespace ref = lockstep::test_support::ref;

namespace {

// Rembrandt's clip speeds (seed 000, "Gaits and speeds").
constexpr float kWalkV = 1.629f;
constexpr float kRunV = 7.801f;

constexpr double kPi = 3.14159265358979323846;
constexpr double kUp = 1.0 / 30.0;          // one update (supplement: 1/30 s)
constexpr double kBrakeStep = 32.0 * kUp;   // Speed control step 5: -32 m/s^2
constexpr double kFastStep = 32.0 * kUp;    // step 4: +32 m/s^2 while more than 2 m/s short
constexpr double kSlowStep = 8.0 * kUp;     // step 4: +8 m/s^2

float rad(double d) { return static_cast<float>(d * kPi / 180.0); }
double deg(float r) { return static_cast<double>(r) * 180.0 / kPi; }

/// The clock of A1: the update at tick n runs at (n + 1) * 1000 / 30 ms, truncated.
int32_t now_at(int64_t tick) { return static_cast<int32_t>((tick + 1) * 1000 / 30); }

/// A point `dist` metres from `from` at heading `hdeg` (degrees from +y toward +x).
Vec3 at_bearing(Vec3 from, double hdeg, double dist) {
  const double h = hdeg * kPi / 180.0;
  return Vec3{static_cast<float>(from.x + dist * ref::sin(h)), static_cast<float>(from.y + dist * ref::cos(h)), from.z};
}

double plan_dist(Vec3 a, Vec3 b) {
  const double dx = static_cast<double>(a.x) - b.x, dy = static_cast<double>(a.y) - b.y;
  return ref::sqrt(dx * dx + dy * dy);
}
double dist3_sq(Vec3 a, Vec3 b) {
  const double dx = static_cast<double>(a.x) - b.x, dy = static_cast<double>(a.y) - b.y,
               dz = static_cast<double>(a.z) - b.z;
  return dx * dx + dy * dy + dz * dz;
}
/// The heading from a to b in degrees (from +y toward +x).
double bearing_deg(Vec3 a, Vec3 b) { return ref::atan2(static_cast<double>(b.x) - a.x, static_cast<double>(b.y) - a.y) * 180.0 / kPi; }
/// An angle in degrees wrapped to (-180, 180].
double wrap_deg(double a) {
  while (a > 180.0) a -= 360.0;
  while (a <= -180.0) a += 360.0;
  return a;
}

Json human_json(const std::string& name, Vec3 p, double heading_deg, const std::string& cls = "rembrandt") {
  return Json{{"name", name}, {"class", cls}, {"position", {p.x, p.y, p.z}}, {"heading", heading_deg}};
}

/// A scenario: the given humans and a few extra classes.
///   slow9 / slow11: walk 0.09 / 0.11 m/s (61 updates cover 0.18 / 0.22 m);
///   nostance6 / nostance7: class +0x11b 6 / 7 ("no stance").
WarriorsModel scene(const std::vector<Json>& humans, uint64_t seed = 1) {
  Json j;
  j["seed"] = seed;
  j["classes"] = Json::parse(R"([
    {"name": "slow9", "sneak": 0.05, "walk": 0.09},
    {"name": "slow11", "sneak": 0.05, "walk": 0.11},
    {"name": "nostance6", "kind": 6},
    {"name": "nostance7", "kind": 7}])");
  j["flags"] = Json::parse(R"([{"name": "f", "position": [0.5, 20, 0], "heading": 0}])");
  j["humans"] = humans;
  return make(j);
}

/// One AI "a" at `p` facing `heading_deg`.
WarriorsModel one_ai(Vec3 p = Vec3{0, 0, 0}, double heading_deg = 0, const std::string& cls = "rembrandt",
                     uint64_t seed = 1) {
  return scene({human_json("a", p, heading_deg, cls)}, seed);
}

Command melee(uint32_t who, int32_t target, float near_d, float far_d, int32_t limit_ms = 10000, int32_t delay_ms = 0) {
  Command c;
  c.human = who;
  c.kind = CommandKind::MoveToHuman;
  c.target = target;
  c.near_dist = near_d;
  c.far_dist = far_d;
  c.limit_ms = limit_ms;
  c.delay_ms = delay_ms;
  return c;
}

Command goal(uint32_t who, const std::string& name, Vec3 p, int32_t gait, float radius) {
  Command c;
  c.human = who;
  c.kind = CommandKind::Goal;
  c.goal = goal_index(name);
  c.point = p;
  c.gait = gait;
  c.radius = radius;
  return c;
}

Command set_field(uint32_t who, SetField f, int32_t v) {
  Command c;
  c.human = who;
  c.kind = CommandKind::Set;
  c.field = static_cast<int32_t>(f);
  c.value = v;
  return c;
}

Command stop(uint32_t who) {
  Command c;
  c.human = who;
  c.kind = CommandKind::Stop;
  return c;
}

Brain& brain(WarriorsModel& m, int slot) { return human(m, slot).brain; }
Action& front(WarriorsModel& m, int slot) { return brain(m, slot).queue[0]; }

/// The first draw of GoalMoveToFlag's Random_IntRange(0, 250) for a scenario seed.
int32_t first_flag_delay(uint64_t seed) {
  WarriorsModel p = one_ai(Vec3{0, 0, 0}, 0, "rembrandt", seed);
  p.apply_command(goal(0, "MoveToFlag", Vec3{0.5f, 20, 0}, 2, 0.5f));
  REQUIRE(p.state().humans[0].brain.queue_count == 1);
  return p.state().humans[0].brain.queue[0].delay_ms;
}

/// How many thinks, the first at tick `first_tick`, leave a start delay counting
/// (Action_Update: the time since the brain's previous think, one tick earlier,
/// comes off; it returns while any is left).
int zero_thinks(int32_t delay_ms, int64_t first_tick) {
  int n = 0;
  int32_t left = delay_ms;
  for (int64_t t = first_tick;; ++t) {
    left -= now_at(t) - (t == 0 ? 0 : now_at(t - 1));
    if (left <= 0) return n;
    ++n;
  }
}

}  // namespace

// ============================================================ the think

TEST_CASE("think, Brain_StopMove: every think starts by asking speed 0 along the human's facing", "[warriors][think]") {
  WarriorsModel m = one_ai(Vec3{2, 3, 0}, 37);
  Human& h = human(m, 0);
  h.brain.move_speed = 5.0f;
  h.brain.move_heading = 2.5f;
  m.step(m.scripted_input());
  CHECK(h.brain.move_speed == 0.0f);
  CHECK(h.brain.move_heading == h.heading);
  CHECK(deg(h.heading) == Approx(37.0).margin(1e-4));
  CHECK(h.position == (Vec3{2, 3, 0}));  // nothing asks him to move or turn
  CHECK(h.speed == 0.0f);

  // The same while a queued move still counts its start delay.
  step_with(m, move_command(0, Vec3{2, 30, 0}, 4, 0.5f, 500));
  h.brain.move_speed = 7.0f;
  h.brain.move_heading = -1.0f;
  m.step(m.scripted_input());
  CHECK(h.brain.queue_count == 1);
  CHECK(h.brain.queue[0].started == 0);
  CHECK(h.brain.move_speed == 0.0f);
  CHECK(h.brain.move_heading == h.heading);
}

TEST_CASE("think, Action_Update: a start delay within one update (33 ms) starts the move in the same think",
          "[warriors][think]") {
  // A1: the first think runs at 33 ms and sees 33 ms since the brain's creation.
  const Vec3 p = at_bearing(Vec3{0, 0, 0}, 5, 10);  // 5 degrees off: no turn on the spot
  for (int32_t delay : {0, 1, 20, 33}) {
    INFO("delay " << delay);
    WarriorsModel m = one_ai();
    step_with(m, move_command(0, p, 2, 0.5f, delay));
    CHECK(front(m, 0).started == 1);
    CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
    CHECK(human(m, 0).speed == Approx(kWalkV).margin(1e-6));  // the walk starts at once
  }
  WarriorsModel m = one_ai();
  step_with(m, move_command(0, p, 2, 0.5f, 34));
  CHECK(front(m, 0).started == 0);
  CHECK(front(m, 0).delay_ms == 1);  // 34 - 33 left
  CHECK(brain(m, 0).move_speed == 0.0f);
  m.step(m.scripted_input());
  CHECK(front(m, 0).started == 1);
  CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
}

TEST_CASE("think, Action_Update and A1: a 250 ms start delay leaves exactly 7 thinks at speed 0", "[warriors][think]") {
  WarriorsModel m = one_ai();
  const Vec3 p = at_bearing(Vec3{0, 0, 0}, 5, 10);
  const Command c = move_command(0, p, 2, 0.5f, 250);
  for (int t = 0; t < 7; ++t) {
    INFO("think " << t);
    if (t == 0) step_with(m, c);
    else m.step(m.scripted_input());
    // The updates run at 33, 66, 100, 133, 166, 200, 233 ms: all under 250.
    CHECK(front(m, 0).started == 0);
    CHECK(front(m, 0).delay_ms == 250 - now_at(t));
    CHECK(brain(m, 0).move_speed == 0.0f);
    CHECK(human(m, 0).position == (Vec3{0, 0, 0}));
  }
  m.step(m.scripted_input());  // 266 ms: the delay is used up, Start and Update run
  CHECK(front(m, 0).started == 1);
  CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
}

TEST_CASE("think, Action_Update: the time since the previous think comes off the delay at any phase of the clock",
          "[warriors][think]") {
  // Queued at tick 30: the thinks at 1033, 1066 and 1100 ms see 33, 33 and 34 ms since the one before.
  const Vec3 p = at_bearing(Vec3{0, 0, 0}, 5, 10);
  for (int32_t delay : {33, 66, 67, 100, 101}) {
    INFO("delay " << delay);
    WarriorsModel m = one_ai();
    run(m, 30);
    step_with(m, move_command(0, p, 2, 0.5f, delay));
    int zero = 0;
    while (front(m, 0).started == 0) {
      CHECK(brain(m, 0).move_speed == 0.0f);
      ++zero;
      REQUIRE(zero < 20);
      m.step(m.scripted_input());
    }
    CHECK(zero == zero_thinks(delay, 30));
    CHECK(zero == (delay <= 33 ? 0 : delay <= 66 ? 1 : delay <= 100 ? 2 : 3));
  }
}

TEST_CASE("goal MoveToFlag, A24: the start delay is Random_IntRange(0, 250), varies by seed, is fixed by the seed",
          "[warriors][think]") {
  std::set<int32_t> seen;
  int32_t lo = 1000, hi = -1;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    const int32_t d = first_flag_delay(seed);
    REQUIRE(d >= 0);
    REQUIRE(d <= 250);
    seen.insert(d);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
    if (seed % 40 == 0) CHECK(first_flag_delay(seed) == d);  // the same seed draws the same delay
  }
  CHECK(seen.size() > 100);  // 400 draws over 251 values
  CHECK(lo <= 10);
  CHECK(hi >= 240);

  // Successive goals draw again; the draws stay in range.
  WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0, "rembrandt", 7);
  std::set<int32_t> again;
  for (int i = 0; i < 20; ++i) {
    m.apply_command(goal(0, "MoveToFlag", Vec3{0.5f, 20, 0}, 2, 0.5f));
    const int32_t d = front(m, 0).delay_ms;
    CHECK(d >= 0);
    CHECK(d <= 250);
    again.insert(d);
  }
  CHECK(again.size() > 5);

  // Only MoveToFlag draws a delay (A24); a goal with a fixed gait starts at once.
  for (const char* g : {"EngageEnemy", "Scatter", "MoveToPosition", "PedFlag"}) {
    INFO(g);
    WarriorsModel k = one_ai();
    k.apply_command(goal(0, g, Vec3{0.5f, 20, 0}, 2, 0.5f));
    CHECK(front(k, 0).delay_ms == 0);
  }
}

TEST_CASE("goal MoveToFlag, Nothing keeps a move going: a draw within one update starts in the same think, a long one "
          "stands for 7 thinks",
          "[warriors][think]") {
  uint64_t short_seed = 0, long_seed = 0;
  for (uint64_t s = 1; s < 3000 && (short_seed == 0 || long_seed == 0); ++s) {
    const int32_t d = first_flag_delay(s);
    if (short_seed == 0 && d <= 33) short_seed = s;
    if (long_seed == 0 && d > 233) long_seed = s;
  }
  REQUIRE(short_seed != 0);
  REQUIRE(long_seed != 0);
  for (uint64_t s : {short_seed, long_seed}) {
    const int32_t d = first_flag_delay(s);
    INFO("seed " << s << " delay " << d);
    WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0, "rembrandt", s);
    step_with(m, goal(0, "MoveToFlag", Vec3{0.5f, 20, 0}, 2, 0.5f));
    int zero = 0;
    while (brain(m, 0).move_speed == 0.0f) {
      ++zero;
      REQUIRE(zero < 20);
      m.step(m.scripted_input());
    }
    CHECK(zero == zero_thinks(d, 0));
    CHECK(zero == (d <= 33 ? 0 : 7));
    CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
  }
}

// ============================================================ the move action: Start

TEST_CASE("move Start, A10: done within 0.1 m in 3D, the action removed and nothing moving", "[warriors][move]") {
  WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0);
  step_with(m, move_command(0, Vec3{0.05f, 0.05f, 0}, 4, 0.0f));
  CHECK(brain(m, 0).queue_count == 0);
  CHECK(brain(m, 0).move_speed == 0.0f);
  CHECK(human(m, 0).position == (Vec3{0, 0, 0}));
  CHECK(human(m, 0).speed == 0.0f);
  CHECK(human(m, 0).heading == 0.0f);
  CHECK(human(m, 0).action != kActTurnOnSpot);
  CHECK(brain(m, 0).fail_reason == 0);

  // 3D, height included: 0.06 m in plan and 0.07 m up is 0.092 m (done); 0.09 m up is 0.108 m (not done).
  Action a;
  a.type = 1;
  a.radius = 0.0f;
  a.point = Vec3{0, 0.06f, 0.07f};
  CHECK(m.move_start(0, a) == 2);
  a.point = Vec3{0, 0.06f, 0.09f};
  CHECK(m.move_start(0, a) == 0);
  a.point = Vec3{0.0f, -0.099f, 0.0f};
  CHECK(m.move_start(0, a) == 2);
  a.point = Vec3{0.0f, -0.101f, 0.0f};
  CHECK(m.move_start(0, a) == 0);
}

TEST_CASE("move Start, A9: done when the human is within the radius in plan, height ignored", "[warriors][move]") {
  WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0);
  Action a;
  a.type = 1;
  a.point = Vec3{3, 0, 5};
  a.radius = 3.5f;
  CHECK(m.move_start(0, a) == 2);
  a.point = Vec3{0, 3, 0};
  a.radius = 2.9f;
  CHECK(m.move_start(0, a) == 0);

  step_with(m, move_command(0, Vec3{-2, 2, 0}, 2, 3.0f));  // 2.83 m in plan, radius 3
  CHECK(brain(m, 0).queue_count == 0);
  CHECK(human(m, 0).position == (Vec3{0, 0, 0}));
  CHECK(brain(m, 0).move_speed == 0.0f);
}

TEST_CASE("move Start: writes the point to the brain's aim +0x90 and the radius to +0x118", "[warriors][move]") {
  WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0);
  Action a;
  a.type = 1;
  a.point = Vec3{1, 10, 0};
  a.radius = 0.7f;
  REQUIRE(m.move_start(0, a) == 0);
  CHECK(brain(m, 0).aim == (Vec3{1, 10, 0}));
  CHECK(brain(m, 0).aim_radius == 0.7f);
  CHECK(brain(m, 0).fail_reason == 0);
  // And through a think (Update step 7 writes them again).
  WarriorsModel k = one_ai(Vec3{0, 0, 0}, 0);
  step_with(k, move_command(0, Vec3{-1, 12, 0}, 2, 0.4f));
  CHECK(brain(k, 0).aim == (Vec3{-1, 12, 0}));
  CHECK(brain(k, 0).aim_radius == 0.4f);
  CHECK(brain(k, 0).queue_count == 1);
}

// ============================================================ the move action: Update steps 7 and 8

TEST_CASE("move Update step 7: the heading +0x110 is the direction to the aim", "[warriors][move]") {
  WarriorsModel m = one_ai(Vec3{1, 2, 0}, 0);
  step_with(m, move_command(0, Vec3{4, 6, 0}, 2, 0.5f));
  CHECK(deg(brain(m, 0).move_heading) == Approx(ref::atan2(3.0, 4.0) * 180.0 / kPi).margin(1e-3));
  CHECK(brain(m, 0).aim == (Vec3{4, 6, 0}));

  WarriorsModel k = one_ai(Vec3{0, 0, 0}, 90);
  step_with(k, move_command(0, Vec3{-3, -3, 0}, 2, 0.5f));
  CHECK(deg(brain(k, 0).move_heading) == Approx(-135.0).margin(1e-3));
}

TEST_CASE("move Update step 8: stopped and more than 30 degrees off, he turns on the spot at speed 0, within 30 he "
          "starts at once",
          "[warriors][move]") {
  for (double off : {40.0, 31.0, -31.0, -90.0}) {
    INFO("off " << off);
    WarriorsModel m = one_ai();
    step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, off, 10), 2, 0.5f));
    CHECK(brain(m, 0).move_speed == 0.0f);
    CHECK(deg(brain(m, 0).move_heading) == Approx(off).margin(1e-3));
    CHECK(human(m, 0).speed == 0.0f);
    CHECK(human(m, 0).action == kActTurnOnSpot);  // the control's turn on the spot (A4)
    CHECK(human(m, 0).clip == kClipTurnOnSpot);
    CHECK(deg(human(m, 0).heading) == Approx(off > 0 ? 12.0 : -12.0).margin(1e-3));
    CHECK(human(m, 0).position == (Vec3{0, 0, 0}));
  }
  for (double off : {20.0, 29.0, -20.0, 0.5}) {
    INFO("off " << off);
    WarriorsModel m = one_ai();
    step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, off, 10), 2, 0.5f));
    CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));  // the corner speed, capped by the walk
    CHECK(human(m, 0).speed == Approx(kWalkV).margin(1e-6));
    CHECK(human(m, 0).action != kActTurnOnSpot);
    CHECK(plan_dist(human(m, 0).position, Vec3{0, 0, 0}) == Approx(kWalkV / 30.0).margin(1e-5));
  }
  // "While stopped": already moving, 40 degrees off asks the corner speed (here the walk).
  WarriorsModel m = one_ai();
  human(m, 0).speed = kWalkV;
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 40, 10), 2, 0.5f));
  CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
}

TEST_CASE("move Update step 8, The corner speed: a run into a tight corner asks the corner speed, stepping the gait "
          "down",
          "[warriors][move]") {
  // Running at 7.801 m/s facing +y, the point 3 m to his right: the circle tangent to his facing through
  // it has R = 3 / (2 x 1) = 1.5 m. Move_CornerSpeedLimit: the run's 4 degrees allow
  // 2R tan(2 deg) x 30 = 3.14 m/s, the jog's 6 degrees min(4.857, 2R tan(3 deg) x 30 = 4.717), the
  // walk's 12 degrees only min(1.629, 9.46) = 1.629 < 4.717: the best is the jog's 4.717 m/s, which
  // the trial keeps (the floor is open) and the move asks for, below the run's cap.
  WarriorsModel m = one_ai();
  human(m, 0).speed = kRunV;
  step_with(m, move_command(0, Vec3{3, 0, 0}, 4, 0.5f));
  const double r = 1.5;
  const double jog_limit = 2.0 * r * ref::tan(3.0 * kPi / 180.0) * 30.0;
  CHECK(brain(m, 0).move_speed == Approx(jog_limit).margin(1e-3));
  CHECK(front(m, 0).corner1 == Approx(jog_limit).margin(1e-3));  // +0x0c
  CHECK(front(m, 0).brake_sq == 0.0f);                           // no second corner: +0x48 = 0

  // A gentle corner (the point 5 degrees off, 10 m) allows more than the run: the run's own speed.
  WarriorsModel k = one_ai();
  human(k, 0).speed = kRunV;
  step_with(k, move_command(0, at_bearing(Vec3{0, 0, 0}, 5, 10), 4, 0.5f));
  CHECK(brain(k, 0).move_speed == Approx(kRunV).margin(1e-6));
}

// ============================================================ the corner speed's recompute rule

TEST_CASE("The corner speed: recomputed when the counter +0x4c runs past 0, every 11 updates on a straight run",
          "[warriors][move]") {
  WarriorsModel m = one_ai();
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 0.6, 200), 4, 0.5f));
  std::vector<int> at;
  uint64_t last = m.counters().corner_recomputes;
  CHECK(last == 1);  // the first update: the counter starts at 0 and runs past it
  at.push_back(0);
  for (int t = 1; t < 45; ++t) {
    m.step(m.scripted_input());
    if (m.counters().corner_recomputes != last) at.push_back(t);
    last = m.counters().corner_recomputes;
  }
  REQUIRE(brain(m, 0).queue_count == 1);
  // After a recompute the counter is 10 (the first corner's speed is above 0): ten updates count it
  // down to 0 and the eleventh runs past it.
  CHECK(at == (std::vector<int>{0, 11, 22, 33, 44}));
  CHECK(front(m, 0).corner_count == 10);
}

TEST_CASE("The corner speed: recomputed at once when the aim moved more than 0.07 m (0.005 squared) from the saved aim",
          "[warriors][move]") {
  WarriorsModel m = one_ai();
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 0.6, 200), 4, 0.5f));
  std::vector<int> at = {0};
  uint64_t last = m.counters().corner_recomputes;
  for (int t = 1; t < 21; ++t) {
    if (t == 4) front(m, 0).point.x += 0.1f;   // 0.1 m from the saved aim: at once
    if (t == 6) front(m, 0).point.x += 0.05f;  // 0.05 m: not yet
    if (t == 8) front(m, 0).point.x += 0.05f;  // 0.1 m from the aim saved at tick 4: at once
    m.step(m.scripted_input());
    if (m.counters().corner_recomputes != last) at.push_back(t);
    last = m.counters().corner_recomputes;
  }
  CHECK(at == (std::vector<int>{0, 4, 8, 19}));
  CHECK(front(m, 0).saved_aim == front(m, 0).point);  // +0x20: the aim at the last recompute

  // Either side of 0.005 squared: 0.069 m (0.00476) waits, 0.072 m (0.00518) recomputes; in 3D.
  for (float dz : {0.069f, 0.072f}) {
    INFO("moved " << dz);
    WarriorsModel k = one_ai();
    step_with(k, move_command(0, at_bearing(Vec3{0, 0, 0}, 0.6, 200), 4, 0.5f));
    run(k, 3);
    const uint64_t before = k.counters().corner_recomputes;
    front(k, 0).point.z += dz;
    k.step(k.scripted_input());
    CHECK(k.counters().corner_recomputes - before == (dz > 0.0707f ? 1u : 0u));
  }
}

// ============================================================ step 5: the floor test

TEST_CASE("move Update step 5: a destination on a floor above or below ends the move", "[warriors][move]") {
  // Within 1 m in plan, more than 1.5 m away in 3D, within 20 degrees of straight up or down.
  const double t19 = ref::tan(19.0 * kPi / 180.0);
  for (Vec3 p : {Vec3{0.3f, 0, 2}, Vec3{0.3f, 0, -2}, Vec3{0, -0.5f, 3}, Vec3{static_cast<float>(2 * t19), 0, 2}}) {
    INFO("point " << p.x << " " << p.y << " " << p.z);
    WarriorsModel m = one_ai();
    step_with(m, move_command(0, p, 2, 0.1f));
    CHECK(brain(m, 0).queue_count == 0);
    CHECK(m.counters().move_done_floor == 1);
    CHECK(brain(m, 0).fail_reason == 0);
    CHECK(brain(m, 0).move_speed == 0.0f);
  }
}

TEST_CASE("move Update step 5: no floor end when airborne, 25 degrees off vertical, beyond 1 m in plan or within 1.5 m "
          "in 3D",
          "[warriors][move]") {
  const double t25 = ref::tan(25.0 * kPi / 180.0);
  struct Case {
    const char* what;
    Vec3 p;
    bool airborne;
  };
  const Case cases[] = {
      {"airborne", Vec3{0.3f, 0, 2}, true},
      {"25 degrees off vertical", Vec3{static_cast<float>(2 * t25), 0, 2}, false},
      {"1.1 m in plan", Vec3{1.1f, 0, 4}, false},
      {"1.41 m in 3D", Vec3{0.2f, 0, 1.4f}, false},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    WarriorsModel m = one_ai();
    human(m, 0).airborne = c.airborne ? 1 : 0;
    step_with(m, move_command(0, c.p, 2, 0.1f));
    CHECK(brain(m, 0).queue_count == 1);
    CHECK(m.counters().move_done_floor == 0);
  }
}

// ============================================================ step 9: stuck

TEST_CASE("move Update step 9: 61 updates asking speed with less than 0.2 m covered fail with +0x284 = 3",
          "[warriors][move]") {
  // Walk 0.09 m/s: 60 updates cover 60 x 0.09 / 30 = 0.18 m.
  WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0, "slow9");
  const Vec3 p = at_bearing(Vec3{0, 0, 0}, 0.6, 50);
  for (int t = 0; t < 60; ++t) {
    if (t == 0) step_with(m, move_command(0, p, 2, 0.5f));
    else m.step(m.scripted_input());
    REQUIRE(brain(m, 0).queue_count == 1);
    CHECK(brain(m, 0).move_speed > 0.0f);
    CHECK(brain(m, 0).fail_reason == 0);
  }
  CHECK(plan_dist(human(m, 0).position, Vec3{0, 0, 0}) == Approx(0.18).margin(1e-4));
  m.step(m.scripted_input());  // the 61st
  CHECK(brain(m, 0).queue_count == 0);
  CHECK(brain(m, 0).fail_reason == kFailStuck);
  CHECK(m.counters().move_done_stuck == 1);
  m.step(m.scripted_input());
  CHECK(brain(m, 0).move_speed == 0.0f);  // nothing keeps it going
}

TEST_CASE("move Update step 9: covering 0.2 m or more restarts the count without failing", "[warriors][move]") {
  // Walk 0.11 m/s: each 61-update window covers at least 0.22 m.
  WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0, "slow11");
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 0.6, 50), 2, 0.5f));
  run(m, 59);  // 60 updates
  const Vec3 at61 = human(m, 0).position;
  CHECK(plan_dist(at61, Vec3{0, 0, 0}) == Approx(0.22).margin(1e-4));
  m.step(m.scripted_input());  // the 61st: 0.22 m covered
  REQUIRE(brain(m, 0).queue_count == 1);
  CHECK(front(m, 0).stuck_count == 0);       // +0x4e: the count restarts
  CHECK(front(m, 0).stuck_point == at61);    // from where this update found him
  run(m, 200);
  CHECK(brain(m, 0).queue_count == 1);
  CHECK(brain(m, 0).fail_reason == 0);
  CHECK(m.counters().move_done_stuck == 0);
}

TEST_CASE("move Update step 9: held in place he fails on the 61st update, and the distance is 3D, so a climb counts",
          "[warriors][move]") {
  const Vec3 p = at_bearing(Vec3{0, 0, 0}, 0.6, 50);
  SECTION("held at the start point") {
    WarriorsModel m = one_ai();
    for (int t = 0; t < 61; ++t) {
      human(m, 0).position = Vec3{0, 0, 0};
      if (t == 0) step_with(m, move_command(0, p, 2, 0.5f));
      else m.step(m.scripted_input());
      if (t < 60) REQUIRE(brain(m, 0).queue_count == 1);
    }
    CHECK(brain(m, 0).queue_count == 0);
    CHECK(brain(m, 0).fail_reason == kFailStuck);
  }
  SECTION("held in plan while rising 5 mm per update: 0.3 m in 3D") {
    WarriorsModel m = one_ai();
    for (int t = 0; t < 130; ++t) {
      human(m, 0).position = Vec3{0, 0, 0.005f * static_cast<float>(t)};
      if (t == 0) step_with(m, move_command(0, p, 2, 0.5f));
      else m.step(m.scripted_input());
      REQUIRE(brain(m, 0).queue_count == 1);
    }
    CHECK(brain(m, 0).fail_reason == 0);
  }
}

TEST_CASE("move Update step 9: an update asking speed 0 resets the stuck count", "[warriors][move]") {
  WarriorsModel m = one_ai(Vec3{0, 0, 0}, 0, "slow9");
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 0.6, 50), 2, 0.5f));
  run(m, 29);  // 30 updates asking speed
  REQUIRE(brain(m, 0).queue_count == 1);
  // Stopped and turned 90 degrees away: the next update asks speed 0 (step 8) and he turns on the spot.
  human(m, 0).speed = 0.0f;
  human(m, 0).heading = rad(90.6);
  m.step(m.scripted_input());
  CHECK(brain(m, 0).move_speed == 0.0f);
  CHECK(front(m, 0).stuck_count == 0);
  // Without the reset the 61st asking update (tick 60) would fail; it does not.
  for (int t = 31; t <= 61; ++t) m.step(m.scripted_input());
  CHECK(brain(m, 0).queue_count == 1);
  CHECK(brain(m, 0).fail_reason == 0);
  // Still stuck at 0.09 m/s: it fails later.
  for (int t = 0; t < 80 && brain(m, 0).queue_count == 1; ++t) m.step(m.scripted_input());
  CHECK(brain(m, 0).queue_count == 0);
  CHECK(brain(m, 0).fail_reason == kFailStuck);
}

// ============================================================ arrival and what follows

TEST_CASE("move Update step 1, A9: the move ends within its radius, the arrival flag +0x11d is set, the next move's "
          "Update clears it",
          "[warriors][move]") {
  WarriorsModel m = one_ai();
  const Vec3 p = Vec3{0.3f, 6, 0};
  step_with(m, move_command(0, p, 2, 0.5f));
  double d_before = 0;
  for (int t = 1; t < 200 && brain(m, 0).queue_count == 1; ++t) {
    d_before = plan_dist(human(m, 0).position, p);  // where this update's think finds him
    m.step(m.scripted_input());
    if (brain(m, 0).queue_count == 1) REQUIRE(d_before > 0.5);  // outside the radius: kept
  }
  REQUIRE(brain(m, 0).queue_count == 0);
  CHECK(d_before <= 0.5);  // where the ending think found him
  CHECK(d_before > 0.5 - kWalkV / 30.0 - 1e-4);
  CHECK(brain(m, 0).arrived == 1);
  CHECK(m.counters().move_done_arrived == 1);
  CHECK(brain(m, 0).move_speed == 0.0f);  // the ending think asks for nothing
  CHECK(brain(m, 0).fail_reason == 0);

  step_with(m, move_command(0, Vec3{0.6f, 20, 0}, 2, 0.5f));
  CHECK(brain(m, 0).arrived == 0);
  CHECK(brain(m, 0).queue_count == 1);  // not ended at once by a stale flag
  CHECK(brain(m, 0).move_speed > 0.0f);
}

TEST_CASE("Nothing keeps a move going: after the move ends each think asks speed 0 and the control slows at -32 m/s2",
          "[warriors][move]") {
  WarriorsModel m = one_ai();
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 0.6, 30), 4, 1.0f));
  float v = human(m, 0).speed;
  for (int t = 0; t < 300 && brain(m, 0).queue_count == 1; ++t) {
    v = human(m, 0).speed;
    m.step(m.scripted_input());
  }
  REQUIRE(brain(m, 0).queue_count == 0);
  CHECK(v == Approx(kRunV).margin(1e-5));  // at the run when it ended
  double expect = std::max(0.0, static_cast<double>(v) - kBrakeStep);
  CHECK(human(m, 0).speed == Approx(expect).margin(1e-4));
  for (int t = 0; t < 10; ++t) {
    m.step(m.scripted_input());
    expect = std::max(0.0, expect - kBrakeStep);
    CHECK(brain(m, 0).move_speed == 0.0f);
    CHECK(human(m, 0).speed == Approx(expect).margin(1e-4));
  }
  CHECK(human(m, 0).speed == 0.0f);
}

TEST_CASE("Nothing keeps a move going: a move replaced by GoalMoveToFlag's Resume stands for every think of its start "
          "delay",
          "[warriors][move]") {
  // A seed whose first draw is above 234 ms: queued between ticks 19 and 20, the thinks at 700 ... 900 ms
  // see 34, 67, 100, 134, 167, 200 and 234 ms, so 7 thinks stand.
  uint64_t seed = 0;
  for (uint64_t s = 1; s < 3000 && seed == 0; ++s)
    if (first_flag_delay(s) > 234) seed = s;
  REQUIRE(seed != 0);
  const int32_t d = first_flag_delay(seed);
  WarriorsModel m = scene({human_json("a", Vec3{0, 0, 0}, 0), human_json("b", Vec3{5, 5, 0}, 0)}, seed);
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 0.6, 50), 2, 0.5f));
  run(m, 19);
  REQUIRE(human(m, 0).speed == Approx(kWalkV).margin(1e-6));
  brain(m, 0).target = 1;
  m.apply_command(goal(0, "MoveToFlag", at_bearing(Vec3{0, 0, 0}, 0.6, 60), 2, 0.5f));
  // Resume: Brain_ClearActions, then Human_DropTarget; the new move waits for its delay.
  CHECK(brain(m, 0).queue_count == 1);
  CHECK(front(m, 0).started == 0);
  CHECK(front(m, 0).delay_ms == d);
  CHECK(brain(m, 0).target == -1);
  CHECK(zero_thinks(d, 20) == 7);
  double v = kWalkV;
  for (int t = 0; t < 7; ++t) {
    INFO("think " << t);
    m.step(m.scripted_input());
    CHECK(front(m, 0).started == 0);
    CHECK(brain(m, 0).move_speed == 0.0f);
    v = std::max(0.0, v - kBrakeStep);  // a walk comes to rest in two updates
    CHECK(human(m, 0).speed == Approx(v).margin(1e-5));
  }
  CHECK(human(m, 0).speed == 0.0f);
  m.step(m.scripted_input());
  CHECK(front(m, 0).started == 1);
  CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
  CHECK(human(m, 0).speed == Approx(kWalkV).margin(1e-6));  // restarted at once at the walking speed
}

// ============================================================ the object to face

TEST_CASE("move Update steps 7 and 8, A12: with an object to face, heading to him, the gait's speed, and a strafe to "
          "the aim",
          "[warriors][move]") {
  WarriorsModel m = scene({human_json("a", Vec3{0, 0, 0}, 0), human_json("b", Vec3{5, 0, 0}, 0)});
  const Vec3 p = Vec3{0.3f, 10, 0};
  step_with(m, move_command(0, p, 2, 0.5f, 0, 1));
  // The faced human is 90 degrees off: no turn on the spot, the speed is the gait's.
  CHECK(deg(brain(m, 0).move_heading) == Approx(90.0).margin(1e-3));
  CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
  CHECK(brain(m, 0).strafe == 1);
  CHECK(brain(m, 0).aim == p);
  CHECK(human(m, 0).action != kActTurnOnSpot);
  // The first step goes toward the aim, not the faced human, while the body turns to him (12 degrees).
  const Vec3 q = human(m, 0).position;
  const double len = plan_dist(Vec3{0, 0, 0}, p);
  CHECK(q.x == Approx(kWalkV / 30.0 * 0.3 / len).margin(1e-5));
  CHECK(q.y == Approx(kWalkV / 30.0 * 10.0 / len).margin(1e-5));
  CHECK(deg(human(m, 0).heading) == Approx(12.0).margin(1e-3));
  run(m, 19);
  const Vec3 q20 = human(m, 0).position;
  m.step(m.scripted_input());
  CHECK(deg(brain(m, 0).move_heading) == Approx(bearing_deg(q20, Vec3{5, 0, 0})).margin(1e-3));
  CHECK(deg(human(m, 0).heading) > 80.0);  // facing him
  // Still on the line to the aim.
  const Vec3 r = human(m, 0).position;
  CHECK(std::abs(static_cast<double>(r.x) * 10.0 - static_cast<double>(r.y) * 0.3) / len < 0.02);
  CHECK(r.y == Approx(q20.y + kWalkV / 30.0 * 10.0 / len).margin(1e-3));  // still at the walk toward the aim
}

// ============================================================ MoveMelee

namespace {
/// The mover "m" (slot 0) at the origin facing +y, the human "t" (slot 1) at `target`. With `blockers`,
/// two more humans stand 1 m to his right and left (sectors 2 and 6 taken at equal cost: PickSide
/// gives 8, no side). The clock is first run past 1000 ms, so the sector record is rebuilt on the
/// first PickSide whatever its start time.
WarriorsModel melee_scene(Vec3 target, bool blockers, const std::string& cls = "rembrandt") {
  std::vector<Json> hs = {human_json("m", Vec3{0, 0, 0}, 0, cls), human_json("t", target, 180)};
  if (blockers) {
    hs.push_back(human_json("r", Vec3{1, 0, 0}, 0));
    hs.push_back(human_json("l", Vec3{-1, 0, 0}, 0));
  }
  WarriorsModel m = scene(hs);
  run(m, 30);
  return m;
}
}  // namespace

TEST_CASE("MoveMelee Start: the time limit becomes now + limit and the turn boost is saved", "[warriors][melee]") {
  WarriorsModel m = melee_scene(Vec3{0, 5, 0}, true);
  brain(m, 0).turn_boost = 2;
  step_with(m, melee(0, 1, 1.0f, 2.0f, 10000));  // tick 30: now 1033
  CHECK(front(m, 0).limit_ms == now_at(30) + 10000);
  CHECK(front(m, 0).saved_boost == 2);

  WarriorsModel k = melee_scene(Vec3{0, 5, 0}, true);
  step_with(k, melee(0, 1, 1.0f, 2.0f, 5000, 60));  // 33 + 33 ms: Start runs at tick 31
  CHECK(front(k, 0).started == 0);
  k.step(k.scripted_input());
  CHECK(front(k, 0).started == 1);
  CHECK(front(k, 0).limit_ms == now_at(31) + 5000);
}

TEST_CASE("MoveMelee Start: a no stance class (kind 6 or 7) leaves the fight stance, others keep it",
          "[warriors][melee]") {
  for (const char* cls : {"nostance6", "nostance7", "rembrandt"}) {
    INFO(cls);
    WarriorsModel m = melee_scene(Vec3{0, 5, 0}, true, cls);
    human(m, 0).fight_stance = 1;
    step_with(m, melee(0, 1, 1.0f, 2.0f));
    CHECK(front(m, 0).no_stance == (std::string(cls) == "rembrandt" ? 0 : 1));
    CHECK(human(m, 0).fight_stance == (std::string(cls) == "rembrandt" ? 1 : 0));
  }
}

TEST_CASE("MoveMelee Abort: the saved turn boost is restored, an Update that ends the action leaves it, A20",
          "[warriors][melee]") {
  WarriorsModel m = melee_scene(Vec3{0, 5, 0}, true);
  brain(m, 0).turn_boost = 2;
  step_with(m, melee(0, 1, 1.0f, 2.0f));
  step_with(m, set_field(0, SetField::TurnBoost, 5));
  CHECK(brain(m, 0).turn_boost == 5);
  step_with(m, stop(0));
  CHECK(brain(m, 0).queue_count == 0);
  CHECK(brain(m, 0).turn_boost == 2);

  WarriorsModel k = melee_scene(Vec3{0, 5, 0}, true);
  brain(k, 0).turn_boost = 2;
  step_with(k, melee(0, 1, 1.0f, 2.0f));
  step_with(k, set_field(0, SetField::TurnBoost, 5));
  step_with(k, set_field(1, SetField::Down, 1));  // step 1 ends it
  CHECK(brain(k, 0).queue_count == 0);
  CHECK(brain(k, 0).turn_boost == 5);
}

TEST_CASE("MoveMelee Abort: a no stance human turns to face the human", "[warriors][melee]") {
  // He stands facing +y with the human 3 m to his right; the footwork is running when it is aborted.
  WarriorsModel m = scene({human_json("m", Vec3{0, 0, 0}, 0, "nostance6"), human_json("t", Vec3{3, 0, 0}, 0)});
  run(m, 30);
  Action a;
  a.type = 2;
  a.target = 1;
  a.started = 1;
  a.no_stance = 1;
  a.near_sq = 1.0f;
  a.far_sq = 4.0f;
  a.limit_ms = 100000;
  REQUIRE(m.queue_action(0, a));
  step_with(m, stop(0));
  CHECK(brain(m, 0).queue_count == 0);
  // Turned (or turning) toward the human at heading 90.
  CHECK(std::abs(wrap_deg(90.0 - deg(human(m, 0).heading))) < 89.0);
}

TEST_CASE("MoveMelee step 2, A20: closing in within the far melee range (2 m) raises the turn boost by one",
          "[warriors][melee]") {
  WarriorsModel m = melee_scene(Vec3{0, 1.8f, 0}, true);
  step_with(m, melee(0, 1, 1.0f, 1.5f));
  CHECK(front(m, 0).radial == 9);  // +10, stepped once
  CHECK(brain(m, 0).turn_boost == 1);

  WarriorsModel k = melee_scene(Vec3{0, 2.5f, 0}, true);  // too far, but beyond the melee range
  step_with(k, melee(0, 1, 1.0f, 1.5f));
  CHECK(front(k, 0).radial == 9);
  CHECK(brain(k, 0).turn_boost == 0);
}

TEST_CASE("MoveMelee steps 2, 4 and 6: too close, he backs off at the walk, the radial counter stepping toward 0",
          "[warriors][melee]") {
  WarriorsModel m = melee_scene(Vec3{0, 0.8f, 0}, true);
  const Vec3 t = human(m, 1).position;
  step_with(m, melee(0, 1, 1.0f, 2.0f));
  CHECK(front(m, 0).radial == -9);  // -10 (back off), one step toward 0
  CHECK(front(m, 0).side == 0);     // PickSide gave 8: both sides taken at the same cost
  CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));  // gait 2
  CHECK(deg(brain(m, 0).move_heading) == Approx(0.0).margin(1e-4));  // the heading to the human (stance)
  CHECK(brain(m, 0).aim.x == Approx(0.0).margin(1e-5));  // his position + 2 x the unit move direction
  CHECK(brain(m, 0).aim.y == Approx(-2.0).margin(1e-5));
  CHECK(brain(m, 0).aim_radius == 0.0f);
  CHECK(brain(m, 0).strafe == 1);
  CHECK(human(m, 0).position.y < 0.0f);  // walked away

  // Each update the counter steps one toward 0; the action ends on the first update that finds him in
  // the band (d^2 >= near^2) with |radial| < 6 (side 0).
  int k = 2;
  bool done = false;
  for (; k < 12 && !done; ++k) {
    const double d2 = dist3_sq(human(m, 0).position, t);
    m.step(m.scripted_input());
    const int radial = -10 + k;
    done = brain(m, 0).queue_count == 0;
    const bool expect_done = d2 >= 1.0 && d2 <= 4.0 && std::abs(radial) < 6;
    INFO("update " << k << " d2 " << d2);
    CHECK(done == expect_done);
    if (!done) {
      CHECK(front(m, 0).radial == radial);
      CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
    } else {
      CHECK(brain(m, 0).move_speed == 0.0f);  // A22: the ending update asks for nothing
    }
  }
  CHECK(done);
}

TEST_CASE("MoveMelee steps 2, 4 and 6: too far, he runs in at gait 4, a no stance human walks along the move",
          "[warriors][melee]") {
  WarriorsModel m = melee_scene(Vec3{0, 5, 0}, true);
  step_with(m, melee(0, 1, 1.0f, 2.0f));
  CHECK(front(m, 0).radial == 9);
  CHECK(front(m, 0).side == 0);
  CHECK(brain(m, 0).move_speed == Approx(kRunV).margin(1e-6));
  CHECK(brain(m, 0).aim.x == Approx(0.0).margin(1e-5));
  CHECK(brain(m, 0).aim.y == Approx(2.0).margin(1e-5));
  CHECK(brain(m, 0).aim_radius == 0.0f);
  CHECK(brain(m, 0).strafe == 1);
  CHECK(deg(brain(m, 0).move_heading) == Approx(0.0).margin(1e-4));
  CHECK(brain(m, 0).turn_boost == 0);  // 5 m: beyond the far melee range

  WarriorsModel k = melee_scene(Vec3{0, 5, 0}, true, "nostance6");
  step_with(k, melee(0, 1, 1.0f, 2.0f));
  CHECK(front(k, 0).radial == 9);
  CHECK(brain(k, 0).move_speed == Approx(kWalkV).margin(1e-6));  // gait 2 for "no stance"
  CHECK(brain(k, 0).strafe == 0);
  CHECK(deg(brain(k, 0).move_heading) == Approx(0.0).margin(1e-4));  // the heading of the move
}

TEST_CASE("MoveMelee step 3, PickSide: sector 2 sets the side counter +10, sector 6 sets -10, clearing the radial "
          "counter",
          "[warriors][melee]") {
  // Nobody near him: both sides are free; the human's flag 0x10000 picks 6, else 2 (A23).
  for (int flag : {0, 1}) {
    INFO("side flag " << flag);
    WarriorsModel m = melee_scene(Vec3{0, 5, 0}, false);
    human(m, 1).side_flag = flag;
    step_with(m, melee(0, 1, 1.0f, 2.0f));
    const int sgn = flag ? -1 : 1;
    CHECK(front(m, 0).side == sgn * 9);  // +-10, one step toward 0
    CHECK(front(m, 0).radial == 0);      // the +10 of step 2 is cleared
    CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));  // the side alone: gait 2
    CHECK(brain(m, 0).aim.x == Approx(2.0 * sgn).margin(1e-5));  // +-2 x his right vector (+x)
    CHECK(brain(m, 0).aim.y == Approx(0.0).margin(1e-5));
    CHECK(deg(brain(m, 0).move_heading) == Approx(0.0).margin(1e-4));  // facing the human while he circles
    CHECK(brain(m, 0).strafe == 1);
  }
  WarriorsModel k = melee_scene(Vec3{0, 5, 0}, false, "nostance7");
  step_with(k, melee(0, 1, 1.0f, 2.0f));
  CHECK(front(k, 0).side == 9);
  CHECK(deg(brain(k, 0).move_heading) == Approx(90.0).margin(1e-3));  // no stance: the heading of the move
  CHECK(brain(k, 0).strafe == 0);
}

TEST_CASE("MoveMelee step 4, A21: the radial and side directions add into a unit move, the aim 2 m along it",
          "[warriors][melee]") {
  WarriorsModel m = melee_scene(Vec3{0, 5, 0}, false);
  step_with(m, melee(0, 1, 1.0f, 2.0f));  // side +10 (-> 9), radial cleared
  REQUIRE(front(m, 0).side == 9);
  const Vec3 p = human(m, 0).position;
  const double h = static_cast<double>(human(m, 0).heading);
  const Vec3 t = human(m, 1).position;
  m.step(m.scripted_input());  // radial 0 and too far: +10, added to the side's right vector
  CHECK(front(m, 0).radial == 9);
  CHECK(front(m, 0).side == 8);
  const double tx = static_cast<double>(t.x) - p.x, ty = static_cast<double>(t.y) - p.y;
  const double tl = ref::sqrt(tx * tx + ty * ty);
  double dx = tx / tl + ref::cos(h), dy = ty / tl - ref::sin(h);
  const double dl = ref::sqrt(dx * dx + dy * dy);
  dx /= dl;
  dy /= dl;
  CHECK(brain(m, 0).aim.x == Approx(p.x + 2.0 * dx).margin(1e-4));
  CHECK(brain(m, 0).aim.y == Approx(p.y + 2.0 * dy).margin(1e-4));
  CHECK(brain(m, 0).move_speed == Approx(kRunV).margin(1e-6));  // the radial's gait 4
  CHECK(deg(brain(m, 0).move_heading) == Approx(ref::atan2(tx, ty) * 180.0 / kPi).margin(1e-3));
}

TEST_CASE("MoveMelee step 5: done in the band once the side counter is 0 and |radial| < 6", "[warriors][melee]") {
  // Already in the band with both sides taken: done on the first update, which asks for nothing (A22).
  WarriorsModel m = melee_scene(Vec3{0, 1.5f, 0}, true);
  step_with(m, melee(0, 1, 1.0f, 2.0f));
  CHECK(brain(m, 0).queue_count == 0);
  CHECK(m.counters().melee_done == 1);
  CHECK(brain(m, 0).move_speed == 0.0f);

  // In the band with a free side: he circles 10 updates, done on the 10th when the side counter is 0.
  WarriorsModel k = melee_scene(Vec3{0, 1.5f, 0}, false);
  const Vec3 t = human(k, 1).position;
  for (int u = 1; u <= 10; ++u) {
    const double d2 = dist3_sq(human(k, 0).position, t);
    REQUIRE(d2 >= 1.0);
    REQUIRE(d2 <= 4.0);
    if (u == 1) step_with(k, melee(0, 1, 1.0f, 2.0f));
    else k.step(k.scripted_input());
    INFO("update " << u);
    if (u < 10) {
      REQUIRE(brain(k, 0).queue_count == 1);
      CHECK(front(k, 0).side == 10 - u);
      CHECK(front(k, 0).radial == 0);
    }
  }
  CHECK(brain(k, 0).queue_count == 0);
  CHECK(brain(k, 0).move_speed == 0.0f);
}

TEST_CASE("MoveMelee step 5: after the time limit, done once both counters are 0", "[warriors][melee]") {
  // Too far, sides taken: radial +10 at the first update, then 9 more steps to 0.
  for (int32_t limit : {100, 10000}) {
    INFO("limit " << limit);
    WarriorsModel m = melee_scene(Vec3{0, 5, 0}, true);
    const Vec3 t = human(m, 1).position;
    step_with(m, melee(0, 1, 1.0f, 2.0f, limit));
    for (int u = 2; u <= 10; ++u) m.step(m.scripted_input());
    REQUIRE(dist3_sq(human(m, 0).position, t) > 4.0);  // still out of the band
    if (limit == 100) {
      CHECK(brain(m, 0).queue_count == 0);  // the 10th update: radial 0, side 0, past the limit
    } else {
      REQUIRE(brain(m, 0).queue_count == 1);
      CHECK(front(m, 0).radial == 0);
      m.step(m.scripted_input());
      CHECK(front(m, 0).radial == 9);  // within the limit, re-armed
    }
  }
}

TEST_CASE("MoveMelee step 1: done when the human is down or the mover is in a standing reaction", "[warriors][melee]") {
  for (int which : {0, 1}) {
    INFO((which == 0 ? "the human down" : "the mover reacting"));
    WarriorsModel m = melee_scene(Vec3{0, 5, 0}, true);
    step_with(m, melee(0, 1, 1.0f, 2.0f));
    REQUIRE(brain(m, 0).queue_count == 1);
    const uint64_t before = m.counters().melee_done;
    step_with(m, which == 0 ? set_field(1, SetField::Down, 1) : set_field(0, SetField::Reacting, 1));
    CHECK(brain(m, 0).queue_count == 0);
    CHECK(m.counters().melee_done == before + 1);
    CHECK(brain(m, 0).move_speed == 0.0f);
  }
}

// ============================================================ the neighbour sectors and PickSide

TEST_CASE("Neighbour sectors: sector_of numbers 45 degree sectors clockwise from ahead, edges at +-22.5",
          "[warriors][melee]") {
  Human o;
  o.position = Vec3{5, -2, 0};
  o.heading = 0.0f;
  struct C {
    double bearing;
    int sector;
  };
  const C cases[] = {{0, 0},     {45, 1},    {90, 2},     {135, 3},    {180, 4},    {-135, 5},   {-90, 6},
                     {-45, 7},   {22.4, 0},  {22.6, 1},   {-22.4, 0},  {-22.6, 7},  {67.4, 1},   {67.6, 2},
                     {157.4, 3}, {157.6, 4}, {-157.6, 4}, {-157.4, 5}, {-112.6, 5}, {-112.4, 6}, {-67.6, 6}};
  for (const C& c : cases) {
    INFO("bearing " << c.bearing);
    CHECK(WarriorsModel::sector_of(o, at_bearing(o.position, c.bearing, 1.2)) == c.sector);
  }
  // Relative to his own facing: facing +x (90), a point to the south is on his right.
  o.heading = rad(90);
  CHECK(WarriorsModel::sector_of(o, o.position + Vec3{0, -1, 0}) == 2);
  CHECK(WarriorsModel::sector_of(o, o.position + Vec3{0, 1, 0}) == 6);
  CHECK(WarriorsModel::sector_of(o, o.position + Vec3{1, 0, 0}) == 0);
  CHECK(WarriorsModel::sector_of(o, o.position + Vec3{-1, 0, 0}) == 4);
}

TEST_CASE("Neighbour sectors: a bearing exactly on the 22.5 degree edge goes to the lower index on the right half",
          "[warriors][melee]") {
  // "A bearing exactly on an edge goes to the lower index on the right half (0 to pi)": facing -22.5
  // degrees, a point straight north lies exactly 22.5 degrees to his right, on the edge of 0 and 1.
  Human o;
  o.position = Vec3{0, 0, 0};
  o.heading = -angle::deg_to_rad(22.5f);
  CHECK(WarriorsModel::sector_of(o, Vec3{0, 3, 0}) == 0);
}

TEST_CASE("Neighbour sectors, A23: the record counts everyone within 1.5 m, flags 3 below d2 1.5, 1 below 2.5",
          "[warriors][melee]") {
  WarriorsModel m = scene({human_json("o", Vec3{0, 0, 0}, 0),
                           human_json("a", Vec3{1.0f, 0, 0}, 0),      // sector 2, d2 1.00
                           human_json("b", Vec3{1.2f, 0.2f, 0}, 0),   // sector 2, d2 1.48
                           human_json("c", Vec3{-1.3f, 0, 0}, 0),     // sector 6, d2 1.69
                           human_json("d", Vec3{0, -1.6f, 0}, 0),     // behind, beyond 1.5 m
                           human_json("e", Vec3{0.1f, 1.45f, 0}, 0),  // sector 0, d2 2.11
                           human_json("f", Vec3{0.9f, -0.9f, 0}, 0)});  // sector 3, d2 1.62
  m.mutable_state().clock.now_ms = 5000;
  human(m, 0).heading = rad(0);
  const Sectors& s = m.sectors_of(0, 1000);
  CHECK(s.time_ms == 5000);
  CHECK(s.sector[2].count == 2);
  CHECK(s.sector[2].nearest == 1);
  CHECK(s.sector[2].flags == 3);
  CHECK(s.sector[6].count == 1);
  CHECK(s.sector[6].nearest == 3);
  CHECK(s.sector[6].flags == 1);
  CHECK(s.sector[0].count == 1);
  CHECK(s.sector[0].flags == 1);
  CHECK(s.sector[3].count == 1);
  CHECK(s.sector[3].flags == 1);
  for (int k : {1, 4, 5, 7}) {
    INFO("sector " << k);
    CHECK(s.sector[static_cast<std::size_t>(k)].count == 0);
    CHECK(s.sector[static_cast<std::size_t>(k)].flags == 0);
    CHECK(s.sector[static_cast<std::size_t>(k)].nearest == -1);
  }
}

TEST_CASE("Neighbour sectors, Brain_GetSectors: the record is rebuilt when now >= its time + 1000 ms",
          "[warriors][melee]") {
  WarriorsModel m = scene({human_json("o", Vec3{0, 0, 0}, 0), human_json("a", Vec3{1, 0, 0}, 0)});
  m.mutable_state().clock.now_ms = 5000;
  CHECK(m.sectors_of(0, 1000).sector[2].count == 1);
  human(m, 1).position = Vec3{10, 0, 0};  // he walks away
  m.mutable_state().clock.now_ms = 5999;
  CHECK(m.sectors_of(0, 1000).sector[2].count == 1);  // 999 ms old: as it was
  CHECK(m.sectors_of(0, 1000).time_ms == 5000);
  m.mutable_state().clock.now_ms = 6000;
  CHECK(m.sectors_of(0, 1000).sector[2].count == 0);  // 1000 ms old: rebuilt
  CHECK(m.sectors_of(0, 1000).time_ms == 6000);
}

TEST_CASE("Neighbour sectors: Sectors_Reset's zero time is long before the scenario, so the first call rebuilds",
          "[warriors][melee]") {
  // "Sectors_Reset (0x0029e2b0, also called from Brain_Init) zeroes the heading and time"; the record is
  // rebuilt when now >= +0x44 + maxAge. The game's clock is far past 1 s when a level's brains exist, so
  // the first call always rebuilds (A23); our clock starts at 0 with the scenario.
  WarriorsModel m = scene({human_json("o", Vec3{0, 0, 0}, 0), human_json("a", Vec3{1, 0, 0}, 0)});
  CHECK(m.state().humans[0].sectors.time_ms < -1000);
  m.mutable_state().clock.now_ms = 500;
  CHECK(m.sectors_of(0, 1000).time_ms == 500);
  CHECK(m.sectors_of(0, 1000).sector[2].count == 1);
  m.mutable_state().clock.now_ms = 0;
  WarriorsModel k = scene({human_json("o", Vec3{0, 0, 0}, 0), human_json("a", Vec3{1, 0, 0}, 0)});
  CHECK(k.sectors_of(0, 500).time_ms == 0);  // at time 0 too
  CHECK(k.sectors_of(0, 500).sector[2].count == 1);
}

namespace {
/// PickSide for a mover at the origin facing +y whose human stands 5 m ahead, with others at `around`.
// `aim`: the mover's aim +0x90 (2 m along last update's move), the sector he is heading into.
int32_t pick(const std::vector<Vec3>& around, int side_flag = 0, Vec3 aim = Vec3{}) {
  std::vector<Json> hs = {human_json("m", Vec3{0, 0, 0}, 0), human_json("t", Vec3{0, 5, 0}, 180)};
  for (std::size_t i = 0; i < around.size(); ++i) hs.push_back(human_json("x" + std::to_string(i), around[i], 0));
  WarriorsModel m = scene(hs);
  m.mutable_state().clock.now_ms = 3000;
  human(m, 1).side_flag = side_flag;
  Action a;
  a.type = 2;
  a.target = 1;
  human(m, 0).brain.aim = aim;
  return m.pick_side(0, a);
}
}  // namespace

TEST_CASE("PickSide, A23: both free 2 (6 with the human's flag), one free that one, neither the cheaper, equal 8",
          "[warriors][melee]") {
  const Vec3 right1{1.0f, 0, 0}, right13{1.3f, 0, 0}, right12{1.2f, 0.2f, 0};
  const Vec3 left1{-1.0f, 0, 0}, left13{-1.3f, 0, 0};
  CHECK(pick({}) == 2);
  CHECK(pick({}, 1) == 6);
  CHECK(pick({Vec3{0, -1, 0}}) == 2);  // someone behind: both sides still free
  CHECK(pick({right1}) == 6);
  CHECK(pick({right1}, 1) == 6);
  CHECK(pick({left13}) == 2);
  // Neither free: Sectors_GetCost = flags + 2 x count.
  CHECK(pick({right1, left13}) == 6);          // 3 + 2 = 5 against 1 + 2 = 3
  CHECK(pick({right13, left1}) == 2);          // 3 against 5
  CHECK(pick({right1, right12, left1}) == 6);  // 3 + 4 = 7 against 5
  CHECK(pick({right1, left1}) == 8);           // 5 and 5
  CHECK(pick({right13, left13}) == 8);         // 3 and 3
}

TEST_CASE("PickSide, A23: keep circling while the sector he is heading into is free", "[warriors][melee]") {
  CHECK(pick({}, 1, Vec3{2, 0, 0}) == 2);     // heading into sector 2 (his right), free: not the flag's 6
  CHECK(pick({}, 0, Vec3{-2, 0, 0}) == 6);    // heading into sector 6 (his left), free: not the default 2
  CHECK(pick({}, 1, Vec3{1.4f, 1.4f, 0}) == 2);  // sector 1 counts as circling right
  CHECK(pick({Vec3{1, 0, 0}}, 0, Vec3{2, 0, 0}) == 6);  // sector 2 taken: the free one
  CHECK(pick({}, 1, Vec3{0, 2, 0}) == 6);     // heading straight in (sector 0): not circling, the flag decides
}

// ============================================================ the runtime case

TEST_CASE("runtime case, A26: a turn on the spot, the run start at 2.0 m/s, 7.801 by the documented steps, the end "
          "within 1.29 m",
          "[warriors][move]") {
  WarriorsModel m = fixture("runtime_case");
  const int ai = m.human_slot("rembrandt");
  const int pl = m.human_slot("player");
  REQUIRE(ai >= 0);
  REQUIRE(pl >= 0);
  Human& h = human(m, ai);
  const Vec3 start = h.position;
  const Vec3 goal_p = human(m, pl).position;
  // Facing 180 with the player at (-1, 8) from him: 180 - atan2(1, 8) = 172.875 degrees to turn.
  const double turn = 180.0 - ref::atan2(1.0, 8.0) * 180.0 / kPi;
  const int turn_updates = static_cast<int>(std::ceil(turn / 12.0));
  REQUIRE(turn_updates == 15);
  const double target_deg = bearing_deg(start, goal_p);
  for (int u = 1; u <= turn_updates; ++u) {
    m.step(m.scripted_input());
    INFO("turn update " << u);
    CHECK(h.speed == 0.0f);
    CHECK(h.position == start);
    if (u < turn_updates) {
      CHECK(h.action == kActTurnOnSpot);
      CHECK(h.clip == kClipTurnOnSpot);
      CHECK(std::abs(wrap_deg(target_deg - deg(h.heading))) == Approx(turn - 12.0 * u).margin(1e-3));
    }
  }
  CHECK(h.action != kActTurnOnSpot);
  CHECK(wrap_deg(target_deg - deg(h.heading)) == Approx(0.0).margin(1e-3));

  // The run start: 2.0 m/s, then +32/30 while more than 2 m/s short, then +8/30, up to 7.801.
  std::vector<double> speeds;
  for (double v = 2.0;;) {
    speeds.push_back(v);
    if (v >= kRunV) break;
    v = (kRunV - v > 2.0) ? v + kFastStep : v + kSlowStep;
    v = std::min(v, static_cast<double>(kRunV));
  }
  REQUIRE(speeds.size() == 11);
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    m.step(m.scripted_input());
    INFO("start update " << i);
    if (i == 0) {
      CHECK(h.speed == 2.0f);
      CHECK(h.action == kActRunStart);
    }
    CHECK(h.speed == Approx(speeds[i]).margin(1e-4));
    CHECK(h.clip == kClipRunStart);
  }
  m.step(m.scripted_input());  // the 12th update of the run start
  // Then the run at 7.801 (clip 410) until the move ends within 1.29 m of the player.
  const double dir_x = (static_cast<double>(goal_p.x) - start.x) / plan_dist(start, goal_p);
  const double dir_y = (static_cast<double>(goal_p.y) - start.y) / plan_dist(start, goal_p);
  double d_prev = 0;
  for (int guard = 0; brain(m, ai).queue_count == 1; ++guard) {
    REQUIRE(guard < 100);
    d_prev = plan_dist(h.position, goal_p);  // where this update's think finds him
    m.step(m.scripted_input());
    if (brain(m, ai).queue_count == 1) {
      REQUIRE(d_prev > 1.29);
      CHECK(h.speed == Approx(kRunV).margin(1e-6));
      CHECK(h.clip == kClipRun);
    }
  }
  CHECK(d_prev <= 1.29);                        // the think that ended it found him within the radius
  CHECK(d_prev > 1.29 - kRunV / 30.0 - 1e-4);   // and not a whole update sooner
  // He brakes to rest at -32 m/s^2 (8 updates from the run) without passing the player.
  for (int u = 0; u < 10; ++u) {
    m.step(m.scripted_input());
    const double ahead = (static_cast<double>(goal_p.x) - h.position.x) * dir_x +
                         (static_cast<double>(goal_p.y) - h.position.y) * dir_y;
    CHECK(ahead > 0.0);
  }
  CHECK(h.speed == 0.0f);
  const double rest = plan_dist(h.position, goal_p);
  CHECK(rest > 0.0);
  CHECK(rest < 1.29 - 0.5);
}

TEST_CASE("turn on the spot, A4 and supplement: a move_to 164 degrees off turns 12 degrees per update, 14 updates",
          "[warriors][move]") {
  WarriorsModel m = one_ai();
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 164, 10), 2, 0.5f));
  Human& h = human(m, 0);
  for (int u = 1; u <= 14; ++u) {
    if (u > 1) m.step(m.scripted_input());
    INFO("update " << u);
    CHECK(h.speed == 0.0f);
    if (u < 14) {
      CHECK(h.action == kActTurnOnSpot);
      CHECK(h.clip == kClipTurnOnSpot);
      CHECK(deg(h.heading) == Approx(12.0 * u).margin(1e-3));
    }
  }
  CHECK(h.action != kActTurnOnSpot);
  CHECK(deg(h.heading) == Approx(164.0).margin(1e-3));
  m.step(m.scripted_input());  // then he walks off at once
  CHECK(h.speed == Approx(kWalkV).margin(1e-6));
  CHECK(brain(m, 0).move_speed == Approx(kWalkV).margin(1e-6));
}

// ============================================================ review fixes: the rules they pin

TEST_CASE("The corner speed: the counter +0x4c counts down on every update, a signed byte, the face branch too",
          "[warriors][move]") {
  // "recomputed when the counter +0x4c, which counts down each update, runs past 0".
  WarriorsModel m = scene({human_json("a", Vec3{0, 0, 0}, 0), human_json("b", Vec3{5, 5, 0}, 0)});
  step_with(m, move_command(0, Vec3{0.5f, 30, 0}, 2, 0.5f, 0, 1));  // facing human 1: no corner speed is taken
  Action& a = brain(m, 0).queue[0];
  const int32_t c0 = a.corner_count;
  m.step(m.scripted_input());
  CHECK(a.corner_count == c0 - 1);
  a.corner_count = -128;
  m.step(m.scripted_input());
  CHECK(a.corner_count == 127);  // a byte: -128 - 1 wraps
}

TEST_CASE("move Start: a new move starts with +0x284 at 0, so a later failure is reported for itself",
          "[warriors][move]") {
  WarriorsModel m = one_ai();
  brain(m, 0).fail_reason = kFailStuck;  // left by an earlier move
  step_with(m, move_command(0, Vec3{0.5f, 10, 0}, 2, 0.5f));
  CHECK(brain(m, 0).fail_reason == kFailNone);
}

TEST_CASE("move Update step 8: standing is Human_GaitForSpeed's gait 0, so below the walk speed and 40 degrees off he "
          "turns on the spot",
          "[warriors][move]") {
  // "Human_GaitForSpeed ... The move action and the steering use it to tell standing from moving."
  WarriorsModel m = one_ai();
  human(m, 0).speed = 1.5f;  // below the walk's 1.629: gait 0
  step_with(m, move_command(0, at_bearing(Vec3{0, 0, 0}, 40.0, 10.0), 2, 0.5f));
  CHECK(brain(m, 0).move_speed == 0.0f);
  WarriorsModel k = one_ai();
  human(k, 0).speed = kWalkV;  // the walk: moving, so the corner speed (capped by the walk)
  step_with(k, move_command(0, at_bearing(Vec3{0, 0, 0}, 40.0, 10.0), 2, 0.5f));
  CHECK(brain(k, 0).move_speed == kWalkV);
}

TEST_CASE("Speed control step 6: a far-away human moves along +0x110 even while strafing, and a far-away Diego stops "
          "without a clip",
          "[warriors][control]") {
  WarriorsModel m = one_ai();
  Human& h = human(m, 0);
  h.detail = 2;
  h.brain.strafe = 1;
  h.brain.aim = Vec3{10, 0, 0};  // east
  h.brain.move_heading = 0.0f;   // north
  h.brain.move_speed = kWalkV;
  m.control(0);
  CHECK(h.position.x == 0.0f);
  CHECK(h.position.y == Approx(kWalkV / 30.0).epsilon(1e-6));

  WarriorsModel d = wtest::make(Json::parse(
      R"({"classes":[{"name":"diego","id":119}],"humans":[{"name":"d","class":"diego","position":[0,0,0],"detail":2}]})"));
  Human& g = human(d, 0);
  g.speed = kRunV;
  g.brain.move_speed = 0.0f;
  d.control(0);
  CHECK(g.speed == 0.0f);
  CHECK(g.action == kActNone);
  CHECK(g.clip != kClipRunStop);
}

TEST_CASE("MoveMelee step 2: the turn boost +0x0b is a byte, 127 + 1 wraps to -128 (A20)", "[warriors][melee]") {
  WarriorsModel m = scene({human_json("m", Vec3{0, 0, 0}, 0), human_json("t", Vec3{0, 1.8f, 0}, 180)});
  brain(m, 0).turn_boost = 127;
  step_with(m, melee(0, 1, 0.5f, 1.0f));  // 1.8 m: beyond far, within the 2 m far melee range
  CHECK(brain(m, 0).turn_boost == -128);
}

TEST_CASE("Human_GaitForSpeed: with no anim record every speed is 0, so any speed reads as the sprint",
          "[warriors][gaits]") {
  ClassSpec c;
  c.anim_record = false;
  CHECK(gait_for_speed(c, 0.0f) == kSprint);
  CHECK(gait_for_speed(c, 3.0f) == kSprint);
}

TEST_CASE("Inputs with non-finite or impossible values are refused before anything changes", "[warriors][scenario]") {
  WarriorsModel m = scene({human_json("a", Vec3{0, 0, 0}, 0), human_json("b", Vec3{3, 0, 0}, 0)});
  const auto before = hash_state(m.state());
  auto refused = [&](Command c, const char* where) {
    Input in;
    in.commands.push_back(c);
    CHECK_THROWS_WITH(m.step(in), Catch::Contains(where));
  };
  Command nan_point = move_command(0, Vec3{std::nanf(""), 0, 0}, 2, 0.5f);
  refused(nan_point, "commands[0].point");
  refused(move_command(0, Vec3{1, 1, 0}, 2, -1.0f), "commands[0].radius");
  refused(move_command(0, Vec3{1, 1, 0}, 2, 0.5f, -5), "commands[0].delay_ms");
  refused(melee(0, 0, 1.0f, 2.0f), "commands[0].target");  // himself
  refused(melee(0, 1, 3.0f, 2.0f), "commands[0].near");    // near > far
  CHECK(hash_state(m.state()) == before);
}

TEST_CASE("MoveMelee Start: a huge time limit saturates instead of overflowing", "[warriors][melee]") {
  WarriorsModel m = scene({human_json("m", Vec3{0, 0, 0}, 0), human_json("t", Vec3{0, 5, 0}, 180)});
  step_with(m, melee(0, 1, 1.0f, 2.0f, 2147483647));
  REQUIRE(brain(m, 0).queue_count == 1);
  CHECK(brain(m, 0).queue[0].limit_ms == 2147483647);
  CHECK(brain(m, 0).move_speed > 0.0f);  // closing in, not ended at once
}

TEST_CASE("A restored state with a non-finite float or an out-of-range byte is refused", "[warriors][scenario]") {
  WarriorsModel m = one_ai();
  State s = m.state();
  s.humans[0].heading = std::nanf("");
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("humans[0].heading") && Catch::Contains("finite"));
  s = m.state();
  s.humans[0].brain.turn_boost = 300;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("humans[0].brain.turn_boost"));
  s = m.state();
  s.humans[0].brain.steering.override_count = -1;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("override_count"));
}
