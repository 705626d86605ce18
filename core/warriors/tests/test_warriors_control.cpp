// warriors tests (control): the AI's speed control and turning (seed 000,
// "Speed control (Human_UpdateControl 0x00243848, the non-pad branch)" steps
// 1-7 and "Turning"), the clips and the player's stick (000-supplement.md,
// "Movement constants and clips", "The player's stick locomotion"), and our
// choices where they are silent (docs/spec-notes.md, table "Seed 000", rows
// A1, A3-A8, A18, A25).
//
// The control is driven directly: m.control(slot) once per update, with the
// brain's asked speed (+0x114) and heading (+0x110) set by hand. m.step()
// would run the brain's think first, whose Brain_StopMove resets the asked
// speed to 0 when no action is queued.
//
// Expected values come from the spec's numbers and rules, computed here in
// double precision (never from the model's own output).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lockstep/core/angle.h"
#include "math_reference.h"
#include "warriors_test_util.h"

using namespace wtest;

namespace ref = lockstep::test_support::ref;

namespace {

// Rembrandt's clip speeds (seed 000, "Gaits and speeds").
constexpr float kWalkV = 1.629f;
constexpr float kJogV = 4.857f;
constexpr float kRunV = 7.801f;
constexpr float kSprintV = 10.245f;
constexpr float kStanceV = 3.429f;

constexpr double kPi = 3.14159265358979323846;
constexpr double kUp = 1.0 / 30.0;         // one update (supplement: 1/30 s)
constexpr double kSlowStep = 8.0 * kUp;    // step 4: +8 m/s^2
constexpr double kFastStep = 32.0 * kUp;   // step 4: +32 m/s^2 while more than 2 m/s short (A18: one addition)
constexpr double kBrakeStep = 32.0 * kUp;  // step 5: -32 m/s^2

// One AI human "a" at the origin facing heading 0, of class `cls`. The scenario
// also defines Diego (0x77), Vargas (0x78) and a class without start clips.
WarriorsModel ai(const std::string& cls = "rembrandt") {
  Json j = Json::parse(R"({
    "classes": [{"name": "diego", "id": 119}, {"name": "vargas", "id": 120},
                {"name": "noclips", "id": 7, "start_clips": false}],
    "humans": [{"name": "a", "position": [0, 0, 0], "heading": 0}]})");
  j["humans"][0]["class"] = cls;
  return make(j);
}

// One player "p" (pad) at the origin facing heading 0.
WarriorsModel player() {
  return make(Json::parse(R"({"humans": [{"name": "p", "pad": true, "position": [0, 0, 0], "heading": 0}]})"));
}

float rad(float d) { return angle::deg_to_rad(d); }
double deg(float r) { return static_cast<double>(angle::rad_to_deg(r)); }

// The brain's ask: +0x114 (m/s) and +0x110 (degrees).
void ask(Human& h, float speed, float heading_deg = 0.0f) {
  h.brain.move_speed = speed;
  h.brain.move_heading = rad(heading_deg);
}

// Steps 3-5 on the current speed v toward the wanted speed w (no Diego stop).
double next_speed(double v, double w) {
  if (v == 0.0 && w > 0.0) return std::min(w, 2.0);                       // step 3
  if (v < w) return std::min(w - v > 2.0 ? v + kFastStep : v + kSlowStep, w);  // step 4
  if (v > w) return std::max(v - kBrakeStep, w);                          // step 5
  return v;
}

// The player's eased turn (supplement): returns the signed turn in degrees.
struct Eased {
  double prev_step = 0;  // degrees, >= 0
  double prev_err = 0;   // degrees, signed
  double turn(double limit, double err) {
    const double a = std::fabs(err);
    double s = limit * (1.0 - ref::cos(kPi * (a * kPi / 180.0) / 2.0)) / 2.0;
    const bool flip = (err < 0 && prev_err > 0) || (err > 0 && prev_err < 0);
    s += (flip ? -0.5 : 0.8) * prev_step;
    s = std::clamp(s, 0.0, limit);
    prev_err = err;
    if (a < s) {  // snap onto the target
      prev_step = a;
      return err;
    }
    prev_step = s;
    return err < 0 ? -s : s;
  }
};

// The player's turn limit by speed (supplement: 20 walking or standing, 18 jogging or running, 16 sprinting).
double player_limit(double v) {
  if (v >= kSprintV) return 16.0;
  if (v >= kJogV) return 18.0;
  return 20.0;
}

Input pad(float x, float y, uint32_t buttons = 0) { return Input{{Pad{0, x, y, buttons}}, {}}; }

}  // namespace

// ------------------------------------------------------------ step 1: the gait

TEST_CASE("seed 000 speed control step 1: the stored gait follows the wanted speed from the first update (A3)",
          "[warriors][control]") {
  struct Case {
    float ask;
    int wounded, stance;
    int gait;
    double turn;  // degrees on the first update, from rest
  };
  const Case cases[] = {
      {kRunV, 0, 0, kRun, 4.0},        {kSprintV, 0, 0, kSprint, 2.5}, {25.0f, 0, 0, kSprint, 2.5},
      {kJogV, 0, 0, kJog, 6.0},        {kWalkV, 0, 0, kWalk, 12.0},    {1.0f, 0, 0, kStand, 12.0},
      {kRunV, 0, 1, kWalk, 24.0},      // the stance walk 3.429 is gait 2
      {kRunV, 1, 0, kWalk, 0.375},     // wounded: the walk
  };
  for (const Case& c : cases) {
    CAPTURE(c.ask, c.wounded, c.stance);
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.wounded = c.wounded;
    h.fight_stance = c.stance;
    ask(h, c.ask, 90.0f);
    m.control(0);
    CHECK(h.gait == c.gait);
    CHECK(deg(h.heading) == Approx(c.turn).margin(1e-3));
  }
}

// ------------------------------------------------------------ step 2: the wanted speed

TEST_CASE("seed 000 speed control step 2: wounded wants the walk speed 1.629 above 0.1 m/s, else 0",
          "[warriors][control]") {
  SECTION("from rest, asked to run: the first update is the walk speed") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.wounded = 1;
    ask(h, kRunV);
    m.control(0);
    CHECK(h.speed == kWalkV);  // min(w, 2) with w = 1.629
    for (int i = 0; i < 5; ++i) {
      m.control(0);
      CHECK(h.speed == kWalkV);  // never accelerates past the walk
    }
  }
  // "wounded and v* > 0.1 -> the walk speed; in the fight stance and v* > 0.1 -> the stance walk, else 0;
  // otherwise v*": the "else 0" is the stance's, so a wounded human asked for 0.1 m/s or less wants v*.
  SECTION("walking, asked for 0.1 m/s: w = v* = 0.1, he slows to it") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.wounded = 1;
    h.speed = kWalkV;
    ask(h, 0.1f);
    m.control(0);
    CHECK(h.speed == Approx(kWalkV - kBrakeStep).margin(1e-5));
    m.control(0);
    CHECK(h.speed == 0.1f);
  }
  SECTION("at rest, asked for 0.1 m/s: starts at 0.1; 0.11 m/s: the walk") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.wounded = 1;
    ask(h, 0.1f);
    m.control(0);
    CHECK(h.speed == 0.1f);  // min(w, 2)
    h.speed = 0.0f;
    ask(h, 0.11f);
    m.control(0);
    CHECK(h.speed == kWalkV);
  }
  SECTION("wounded in the fight stance, asked for 0.1 m/s: the stance's else 0") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.wounded = 1;
    h.fight_stance = 1;
    ask(h, 0.1f);
    m.control(0);
    CHECK(h.speed == 0.0f);
  }
}

TEST_CASE("seed 000 speed control step 2: the fight stance wants the stance walk 3.429 above 0.1 m/s, else 0",
          "[warriors][control]") {
  SECTION("asked to run: the speed stops at 3.429") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.fight_stance = 1;
    h.speed = 3.3f;
    ask(h, kRunV);
    m.control(0);
    CHECK(h.speed == kStanceV);  // 3.3 + 0.267 capped at w
    m.control(0);
    CHECK(h.speed == kStanceV);
  }
  SECTION("asked for 0.1 m/s: w = 0") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.fight_stance = 1;
    h.speed = kStanceV;
    ask(h, 0.1f);
    m.control(0);
    CHECK(h.speed == Approx(kStanceV - kBrakeStep).margin(1e-5));
  }
  SECTION("at rest, asked for 0.1 m/s: stays at rest") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.fight_stance = 1;
    ask(h, 0.1f);
    m.control(0);
    CHECK(h.speed == 0.0f);
  }
  SECTION("otherwise w is the asked speed itself, however small") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    ask(h, 0.05f);
    m.control(0);
    CHECK(h.speed == 0.05f);  // min(w, 2)
  }
}

TEST_CASE("seed 000 speed control step 2: the wanted speed is at most 25 m/s", "[warriors][control]") {
  WarriorsModel m = ai();
  Human& h = human(m, 0);
  ask(h, 40.0f);
  double expect = 0;
  float top = 0;
  for (int i = 0; i < 60; ++i) {
    m.control(0);
    expect = next_speed(expect, 25.0);
    CHECK(h.speed == Approx(expect).margin(1e-3));
    CHECK(h.speed <= 25.0f);
    top = std::max(top, h.speed);
  }
  CHECK(expect == 25.0);
  CHECK(h.speed == 25.0f);
  CHECK(top == 25.0f);
}

TEST_CASE("seed 000 speed control step 2: a held object of kind 4 or 6 is dropped above the run speed",
          "[warriors][control]") {
  struct Case {
    int kind;
    int keep;
    float w;
    bool dropped;
  };
  const Case cases[] = {
      {4, 0, kSprintV, true},  {6, 0, kSprintV, true},  {4, 0, 8.0f, true},
      {4, 1, kSprintV, false}, {6, 1, kSprintV, false},  // type class 6 with +0x5a = 0: kept
      {4, 0, kRunV, false},    {6, 0, kRunV, false},     // at the run speed: not faster
      {4, 0, kJogV, false},    {6, 0, 5.0f, false},      // below
      {5, 0, kSprintV, false}, {1, 0, kSprintV, false}, {3, 0, 25.0f, false},  // other kinds
  };
  for (const Case& c : cases) {
    CAPTURE(c.kind, c.keep, c.w);
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.held_object = c.kind;
    h.held_keep = c.keep;
    h.speed = c.w;
    ask(h, c.w);
    m.control(0);
    CHECK(h.held_object == (c.dropped ? 0 : c.kind));
  }
}

// ------------------------------------------------------------ step 3: starting

TEST_CASE("seed 000 speed control step 3: starting from rest picks the start action and min(w, 2 m/s)",
          "[warriors][control]") {
  struct Case {
    float w;
    int boost;
    int action;
    float first;
  };
  const Case cases[] = {
      {kRunV, 0, kActRunStart, 2.0f},      // w >= run: 6
      {kSprintV, 0, kActRunStart, 2.0f},   // above the run too
      {kRunV, 1, kActBoostStart, 2.0f},    // start boost +0x0c above 0: 8
      {kRunV, -1, kActRunStart, 2.0f},     // not above 0
      {kWalkV, 0, kActWalkStart, kWalkV},  // exactly the walk: 5
      {kWalkV, 1, kActWalkStart, kWalkV},
      {kJogV, 0, kActNone, 2.0f},          // a jog: no start action
      {1.7f, 0, kActNone, 1.7f},           // between walk and run, not the walk
      {1.0f, 0, kActNone, 1.0f},           // below the walk
  };
  for (const Case& c : cases) {
    CAPTURE(c.w, c.boost);
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.brain.start_boost = c.boost;
    ask(h, c.w);
    m.control(0);
    CHECK(h.action == c.action);
    CHECK(h.speed == c.first);
  }
}

TEST_CASE("seed 000 speed control step 3: an anim set without start clips starts with no action",
          "[warriors][control]") {
  for (float w : {kRunV, kWalkV, kSprintV}) {
    CAPTURE(w);
    WarriorsModel m = ai("noclips");
    Human& h = human(m, 0);
    ask(h, w);
    m.control(0);
    CHECK(h.action == kActNone);
    CHECK(h.speed == std::min(w, 2.0f));  // the first speed still applies
  }
}

TEST_CASE("seed 000 speed control step 3: only a start from rest picks a start action", "[warriors][control]") {
  WarriorsModel m = ai();
  Human& h = human(m, 0);
  h.speed = 0.5f;
  ask(h, kRunV);
  m.control(0);
  CHECK(h.action == kActNone);
  CHECK(h.speed == Approx(0.5 + kFastStep).margin(1e-5));  // step 4, not min(w, 2)
}

// ------------------------------------------------------------ step 4: accelerating

TEST_CASE("seed 000 speed control step 4: accelerating adds 0.267 m/s, or 1.067 while more than 2 m/s short, never past w",
          "[warriors][control]") {
  struct Case {
    float v0, w;
    double expect;
  };
  const Case cases[] = {
      {3.0f, kRunV, 3.0 + kFastStep},  // 4.8 short
      {2.0f, 4.0f, 2.0 + kSlowStep},   // exactly 2 short: not more than 2
      {2.0f, 4.5f, 2.0 + kFastStep},   // 2.5 short
      {5.0f, 6.0f, 5.0 + kSlowStep},   // 1 short
      {2.9f, 3.0f, 3.0},               // 0.1 short: +0.267 capped at w
      {7.7f, kRunV, kRunV},            // capped at w
  };
  for (const Case& c : cases) {
    CAPTURE(c.v0, c.w);
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = c.v0;
    ask(h, c.w);
    m.control(0);
    CHECK(h.speed == Approx(c.expect).margin(1e-5));
    CHECK(h.speed <= c.w);
  }
  // The per-update values the seed quotes: 0.267 and 1.067 m/s.
  CHECK(kSlowStep == Approx(0.267).margin(5e-4));
  CHECK(kFastStep == Approx(1.067).margin(5e-4));
}

TEST_CASE("seed 000 speed control step 4: the run-up from rest to 7.801 m/s", "[warriors][control]") {
  WarriorsModel m = ai();
  Human& h = human(m, 0);
  ask(h, kRunV);
  // The rule, computed independently.
  std::vector<double> expect;
  double v = 0;
  for (int i = 0; i < 14; ++i) {
    v = next_speed(v, kRunV);
    expect.push_back(v);
  }
  // Checked against the literal values of the rule: 2.0, then +1.0667 while more than 2 short, then +0.2667.
  const double literal[] = {2.0, 3.0667, 4.1333, 5.2, 6.2667, 6.5333, 6.8, 7.0667, 7.3333, 7.6, 7.801};
  for (std::size_t i = 0; i < std::size(literal); ++i) {
    CAPTURE(i);
    CHECK(expect[i] == Approx(literal[i]).margin(1e-4));
  }
  for (std::size_t i = 0; i < expect.size(); ++i) {
    m.control(0);
    CAPTURE(i);
    CHECK(h.speed == Approx(expect[i]).margin(1e-4));
    CHECK(h.speed <= kRunV);
  }
  CHECK(h.speed == kRunV);
}

// ------------------------------------------------------------ step 5: slowing

TEST_CASE("seed 000 speed control step 5: slowing takes 1.067 m/s per update down to w", "[warriors][control]") {
  SECTION("from a run to rest") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = kRunV;
    ask(h, 0.0f);
    double v = kRunV;
    for (int i = 0; i < 9; ++i) {
      m.control(0);
      v = next_speed(v, 0.0);
      CAPTURE(i);
      CHECK(h.speed == Approx(v).margin(1e-4));
    }
    CHECK(v == 0.0);
    CHECK(h.speed == 0.0f);
    CHECK(h.action == kActNone);  // Rembrandt: no stop at once
  }
  SECTION("from a sprint down to the jog, never below w") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = kSprintV;
    ask(h, kJogV);
    double v = kSprintV;
    for (int i = 0; i < 7; ++i) {
      m.control(0);
      v = next_speed(v, kJogV);
      CAPTURE(i);
      CHECK(h.speed == Approx(v).margin(1e-4));
      CHECK(h.speed >= kJogV);
    }
    CHECK(h.speed == kJogV);
  }
}

TEST_CASE("seed 000 speed control step 5: Diego and Vargas stop at once from a run with action 9",
          "[warriors][control]") {
  SECTION("Diego (0x77) and Vargas (0x78) running or sprinting, w = 0: speed 0 at once, action 9") {
    for (const char* cls : {"diego", "vargas"}) {
      for (float v0 : {kRunV, kSprintV, 9.0f}) {
        CAPTURE(cls, v0);
        WarriorsModel m = ai(cls);
        Human& h = human(m, 0);
        h.speed = v0;
        ask(h, 0.0f);
        m.control(0);
        CHECK(h.speed == 0.0f);
        CHECK(h.action == kActStop);
        CHECK(h.position.y == 0.0f);  // velocity 0: no move
      }
    }
  }
  SECTION("the same classes at a jog slow normally") {
    for (const char* cls : {"diego", "vargas"}) {
      CAPTURE(cls);
      WarriorsModel m = ai(cls);
      Human& h = human(m, 0);
      h.speed = kJogV;
      ask(h, 0.0f);
      m.control(0);
      CHECK(h.speed == Approx(kJogV - kBrakeStep).margin(1e-5));
      CHECK(h.action == kActNone);
    }
  }
  SECTION("the same classes running with w above 0 slow normally") {
    WarriorsModel m = ai("diego");
    Human& h = human(m, 0);
    h.speed = kRunV;
    ask(h, kWalkV);
    m.control(0);
    CHECK(h.speed == Approx(kRunV - kBrakeStep).margin(1e-5));
    CHECK(h.action == kActNone);
  }
  SECTION("other classes running with w = 0 slow normally") {
    for (const char* cls : {"rembrandt", "noclips"}) {
      CAPTURE(cls);
      WarriorsModel m = ai(cls);
      Human& h = human(m, 0);
      h.speed = kRunV;
      ask(h, 0.0f);
      m.control(0);
      CHECK(h.speed == Approx(kRunV - kBrakeStep).margin(1e-5));
      CHECK(h.action == kActNone);
    }
  }
}

// ------------------------------------------------------------ step 6: far away

TEST_CASE("seed 000 speed control step 6: far away humans take w and the heading at once", "[warriors][control]") {
  for (int detail : {2, 3}) {
    CAPTURE(detail);
    {  // from rest, asked to run at 90 degrees: full speed and heading in one update
      WarriorsModel m = ai();
      Human& h = human(m, 0);
      h.detail = detail;
      ask(h, kRunV, 90.0f);
      m.control(0);
      CHECK(h.speed == kRunV);
      CHECK(h.heading == rad(90.0f));
      CHECK(h.position.x == Approx(kRunV / 30.0).margin(1e-5));  // velocity = w along +0x110
      CHECK(h.position.y == Approx(0.0).margin(1e-5));
    }
    {  // running, asked to stop and face behind: speed 0 at once, no turn on the spot
      WarriorsModel m = ai();
      Human& h = human(m, 0);
      h.detail = detail;
      h.speed = kRunV;
      ask(h, 0.0f, -150.0f);
      m.control(0);
      CHECK(h.speed == 0.0f);
      CHECK(h.heading == rad(-150.0f));
      CHECK(h.action != kActTurnOnSpot);
      CHECK_FALSE(m.busy(h));
    }
    {  // jogging, asked for 1 m/s: w at once
      WarriorsModel m = ai();
      Human& h = human(m, 0);
      h.detail = detail;
      h.speed = kJogV;
      ask(h, 1.0f, 45.0f);
      m.control(0);
      CHECK(h.speed == 1.0f);
      CHECK(h.heading == rad(45.0f));
    }
  }
  {  // detail 1 is near: the normal control
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.detail = 1;
    ask(h, kRunV, 90.0f);
    m.control(0);
    CHECK(h.speed == 2.0f);
    CHECK(deg(h.heading) == Approx(4.0).margin(1e-3));
  }
}

TEST_CASE("seed 000 speed control step 6: a held flag keeps the far away human on the normal control",
          "[warriors][control]") {
  SECTION("asked to run at 90 degrees: starts at 2 m/s, turns 4 degrees") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.detail = 2;
    h.hold = 1;
    ask(h, kRunV, 90.0f);
    m.control(0);
    CHECK(h.speed == 2.0f);
    CHECK(deg(h.heading) == Approx(4.0).margin(1e-3));
    m.control(0);
    CHECK(h.speed == Approx(2.0 + kFastStep).margin(1e-5));
    CHECK(deg(h.heading) == Approx(8.0).margin(1e-3));
  }
  SECTION("running, asked to stop: slows by 1.067") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.detail = 3;
    h.hold = 1;
    h.speed = kRunV;
    ask(h, 0.0f);
    m.control(0);
    CHECK(h.speed == Approx(kRunV - kBrakeStep).margin(1e-5));
  }
}

// ------------------------------------------------------------ step 7 and Turning

TEST_CASE("seed 000 Turning: a moving AI turns by the Human_MaxTurn AI word per update", "[warriors][control]") {
  struct Case {
    const char* what;
    float w;
    int boost, wounded, stance;
    double per_update;  // degrees
  };
  const Case cases[] = {
      {"running (120 deg/s)", kRunV, 0, 0, 0, 4.0},
      {"walking (360 deg/s)", kWalkV, 0, 0, 0, 12.0},
      {"walking, turn boost 1", kWalkV, 1, 0, 0, 24.0},
      {"walking, turn boost -1", kWalkV, -1, 0, 0, 6.0},
      {"running, turn boost 1", kRunV, 1, 0, 0, 8.0},
      {"jogging", kJogV, 0, 0, 0, 6.0},
      {"sprinting", kSprintV, 0, 0, 0, 2.5},
      {"fight stance walk (A3: gait 2, the stance row)", kRunV, 0, 0, 1, 24.0},
      {"fight stance, turn boost 1: no boost", kRunV, 1, 0, 1, 24.0},
      {"wounded in the fight stance", kRunV, 0, 1, 1, 0.375},
      {"wounded, turn boost 1: no boost", kRunV, 1, 1, 0, 0.375},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.brain.turn_boost = c.boost;
    h.wounded = c.wounded;
    h.fight_stance = c.stance;
    ask(h, c.w, 170.0f);
    // Already moving at the wanted speed (step 2's w), so only the turn changes.
    h.speed = c.wounded ? kWalkV : (c.stance ? kStanceV : c.w);
    const float v0 = h.speed;
    for (int k = 1; k <= 5; ++k) {
      m.control(0);
      CAPTURE(k);
      CHECK(deg(h.heading) == Approx(c.per_update * k).margin(1e-3));
      CHECK(h.speed == v0);
    }
  }
  SECTION("a running AI turns 120 degrees in 30 updates, then reaches the target exactly") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = kRunV;
    ask(h, kRunV, 130.0f);
    for (int k = 1; k <= 30; ++k) m.control(0);
    CHECK(deg(h.heading) == Approx(120.0).margin(2e-3));
    m.control(0);
    CHECK(deg(h.heading) == Approx(124.0).margin(2e-3));
    m.control(0);
    m.control(0);
    CHECK(h.heading == rad(130.0f));  // the last step is the remainder
  }
  SECTION("turns take the short way round") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = kWalkV;
    ask(h, kWalkV, -100.0f);
    m.control(0);
    CHECK(deg(h.heading) == Approx(-12.0).margin(1e-3));
  }
}

TEST_CASE("seed 000 speed control step 7: stopped more than 15 degrees off starts a turn on the spot",
          "[warriors][control]") {
  for (float target : {20.0f, 16.0f, 90.0f, -100.0f}) {
    CAPTURE(target);
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    ask(h, 0.0f, target);
    m.control(0);
    CHECK(h.action == kActTurnOnSpot);
    CHECK(h.clip == kClipTurnOnSpot);
    CHECK(h.speed == 0.0f);
    const double first = std::min(12.0, std::fabs(static_cast<double>(target)));
    CHECK(deg(h.heading) == Approx(target < 0 ? -first : first).margin(1e-3));  // the start's update turns (A4)
    CHECK(m.busy(h) == (std::fabs(target) > 12.0f));
  }
}

TEST_CASE("seed 000 speed control step 7: within 15 degrees, or with a held flag, a stopped human does not turn",
          "[warriors][control]") {
  SECTION("15 degrees or less off: nothing turns") {
    for (float target : {15.0f, -15.0f, 10.0f, 1.0f}) {
      CAPTURE(target);
      WarriorsModel m = ai();
      Human& h = human(m, 0);
      ask(h, 0.0f, target);
      for (int i = 0; i < 3; ++i) m.control(0);
      CHECK(h.heading == 0.0f);
      CHECK(h.action == kActNone);
      CHECK_FALSE(m.busy(h));
    }
  }
  SECTION("a held flag: no turn on the spot") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.hold = 1;
    ask(h, 0.0f, 90.0f);
    for (int i = 0; i < 3; ++i) m.control(0);
    CHECK(h.heading == 0.0f);
    CHECK(h.action == kActNone);
    CHECK_FALSE(m.busy(h));
  }
  SECTION("A4 (issue 18): still sliding from a run with w = 0, the turn on the spot starts at once") {
    // Step 7, "Stopped (w = 0)": the test is the wanted speed, not the current one. The slide ends and the
    // first 12 degrees are turned in the same update.
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = kRunV;
    ask(h, 0.0f, 90.0f);
    m.control(0);
    CHECK(h.speed == 0.0f);
    CHECK(h.action == kActTurnOnSpot);
    CHECK(h.heading == Approx(rad(12.0f)).margin(1e-6));
  }
}

TEST_CASE("seed 000 speed control step 7 and supplement: a turn on the spot of 164 degrees takes 14 updates",
          "[warriors][control]") {
  // Supplement: "about 164 degrees in 14 updates, about 11.7 per update, the walk/stand limit" (12 degrees).
  WarriorsModel m = ai();
  Human& h = human(m, 0);
  ask(h, 0.0f, 164.0f);
  const float target = rad(164.0f);
  bool change_mind = false;
  SECTION("the brain keeps asking") {}
  SECTION("A4: the target is +0x110 at the start, later changes do not move it") { change_mind = true; }
  for (int k = 1; k <= 13; ++k) {
    m.control(0);
    CAPTURE(k);
    CHECK(deg(h.heading) == Approx(12.0 * k).margin(2e-3));
    CHECK(m.busy(h));
    CHECK(h.action == kActTurnOnSpot);
    CHECK(h.clip == kClipTurnOnSpot);
    CHECK(h.speed == 0.0f);
    if (change_mind && k == 1) h.brain.move_heading = rad(-30.0f);
  }
  m.control(0);  // the 14th: the remainder, 8 degrees
  CHECK(h.heading == target);
  CHECK_FALSE(m.busy(h));
  CHECK(h.action == kActNone);
  CHECK(h.clip == kClipIdle);  // A6: idle below 0.396 m/s
  CHECK(164.0 / 14.0 == Approx(11.7).margin(0.05));
}

TEST_CASE("seed 000 speed control step 7: a rear grabber turns at twice the limit and walks", "[warriors][control]") {
  SECTION("asked to run from a run: w is the walk (A7), so the walk limit doubled, 24 degrees") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.rear_grabber = 1;
    h.speed = kRunV;
    ask(h, kRunV, 170.0f);
    double v = kRunV;
    for (int k = 1; k <= 7; ++k) {
      m.control(0);
      v = next_speed(v, kWalkV);
      CAPTURE(k);
      CHECK(h.speed == Approx(v).margin(1e-4));
      CHECK(deg(h.heading) == Approx(std::min(24.0 * k, 170.0)).margin(2e-3));
    }
    CHECK(h.speed == kWalkV);
  }
  SECTION("from rest, asked to run: starts at the walk speed with the walk start, not the run start") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.rear_grabber = 1;
    ask(h, kSprintV);
    m.control(0);
    CHECK(h.speed == kWalkV);
    CHECK(h.action == kActWalkStart);
    for (int i = 0; i < 5; ++i) m.control(0);
    CHECK(h.speed == kWalkV);
  }
  SECTION("twice the other rows: fixed 4 degrees gives 8, wounded 0.375 gives 0.75") {
    struct Case {
      int limited, wounded;
      double per_update;
    };
    for (const Case& c : {Case{4, 0, 8.0}, Case{6, 0, 12.0}, Case{0, 1, 0.75}}) {
      CAPTURE(c.limited, c.wounded);
      WarriorsModel m = ai();
      Human& h = human(m, 0);
      h.rear_grabber = 1;
      h.turn_limited = c.limited;
      h.wounded = c.wounded;
      h.speed = kWalkV;
      ask(h, kRunV, 90.0f);
      m.control(0);
      CHECK(deg(h.heading) == Approx(c.per_update).margin(1e-3));
      m.control(0);
      CHECK(deg(h.heading) == Approx(2 * c.per_update).margin(1e-3));
    }
  }
}

// ------------------------------------------------------------ the move

TEST_CASE("seed 000 speed control: the human moves speed/30 along his facing after the control",
          "[warriors][control]") {
  SECTION("running east") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.heading = rad(90.0f);
    h.speed = kRunV;
    ask(h, kRunV, 90.0f);
    double x = 0;
    for (int k = 1; k <= 3; ++k) {
      m.control(0);
      x += kRunV / 30.0;
      CHECK(h.position.x == Approx(x).margin(1e-5));
      CHECK(h.position.y == Approx(0.0).margin(1e-5));
    }
  }
  SECTION("accelerating north: the update's new speed") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = 5.0f;
    ask(h, kRunV, 0.0f);
    m.control(0);
    CHECK(h.position.y == Approx((5.0 + kFastStep) / 30.0).margin(1e-5));
    CHECK(h.position.x == Approx(0.0).margin(1e-6));
  }
  SECTION("heading 210 degrees") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.heading = rad(-150.0f);
    h.speed = kWalkV;
    ask(h, kWalkV, -150.0f);
    m.control(0);
    const double a = -150.0 * kPi / 180.0;
    CHECK(h.position.x == Approx(kWalkV / 30.0 * ref::sin(a)).margin(1e-5));
    CHECK(h.position.y == Approx(kWalkV / 30.0 * ref::cos(a)).margin(1e-5));
  }
  SECTION("at rest: no move") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    ask(h, 0.0f);
    m.control(0);
    CHECK(h.position.x == 0.0f);
    CHECK(h.position.y == 0.0f);
  }
  SECTION("strafing (brain +0x11c): toward brain +0x90 while facing +0x110") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.heading = rad(90.0f);
    h.speed = kStanceV;
    h.fight_stance = 1;
    ask(h, kRunV, 90.0f);
    h.brain.strafe = 1;
    h.brain.aim = Vec3{0.0f, -10.0f, 0.0f};
    m.control(0);
    CHECK(h.heading == rad(90.0f));
    CHECK(h.position.y == Approx(-kStanceV / 30.0).margin(1e-5));
    CHECK(h.position.x == Approx(0.0).margin(1e-5));
  }
}

// ------------------------------------------------------------ clips (supplement; spec-notes A6)

TEST_CASE("supplement clips: the run start plays 414 for 12 updates, then the run 410", "[warriors][control]") {
  for (int boost : {0, 1}) {
    CAPTURE(boost);
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.brain.start_boost = boost;
    ask(h, kRunV);
    double v = 0;
    for (int k = 1; k <= 12; ++k) {
      m.control(0);
      v = next_speed(v, kRunV);
      CAPTURE(k);
      CHECK(h.clip == kClipRunStart);
      CHECK(h.action == (boost > 0 ? kActBoostStart : kActRunStart));
      CHECK(h.speed == Approx(v).margin(1e-4));
      CHECK_FALSE(m.busy(h));  // A6: start clips do not make the human busy
    }
    m.control(0);  // the 13th: at the run (reached on the 11th)
    CHECK(h.speed == kRunV);
    CHECK(h.action == kActNone);
    CHECK(h.clip == kClipRun);
  }
}

TEST_CASE("supplement clips: the walk start 413 lasts 13 updates", "[warriors][control]") {
  WarriorsModel m = ai();
  Human& h = human(m, 0);
  ask(h, kWalkV);
  for (int k = 1; k <= 13; ++k) {
    m.control(0);
    CAPTURE(k);
    CHECK(h.clip == kClipWalkStart);
    CHECK(h.action == kActWalkStart);
    CHECK(h.speed == kWalkV);
  }
  m.control(0);
  CHECK(h.action == kActNone);
  CHECK(h.clip != kClipWalkStart);
  CHECK(h.clip != kClipIdle);  // 1.629 m/s is not idle
}

TEST_CASE("supplement clips: the stop 417 lasts 24 updates, then idle 388", "[warriors][control]") {
  WarriorsModel m = ai("vargas");
  Human& h = human(m, 0);
  h.speed = kRunV;
  ask(h, 0.0f);
  for (int k = 1; k <= 24; ++k) {
    m.control(0);
    CAPTURE(k);
    CHECK(h.clip == kClipRunStop);
    CHECK(h.action == kActStop);
    CHECK(h.speed == 0.0f);
  }
  m.control(0);
  CHECK(h.action == kActNone);
  CHECK(h.clip == kClipIdle);
}

TEST_CASE("supplement clips: a human is idle, clip 388, below 0.396 m/s", "[warriors][control]") {
  SECTION("moving at 0.39 m/s") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    ask(h, 0.39f);
    m.control(0);
    CHECK(h.speed == 0.39f);
    CHECK(h.clip == kClipIdle);
  }
  SECTION("moving at 0.396 m/s: not below") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    ask(h, 0.396f);
    m.control(0);
    CHECK(h.speed == 0.396f);
    CHECK(h.clip != kClipIdle);
  }
  SECTION("slowing from a jog to rest: idle once below") {
    WarriorsModel m = ai();
    Human& h = human(m, 0);
    h.speed = kJogV;
    h.clip = 0;
    ask(h, 0.0f);
    double v = kJogV;
    for (int k = 1; k <= 5; ++k) {
      m.control(0);
      v = next_speed(v, 0.0);
      CAPTURE(k, v);
      CHECK((h.clip == kClipIdle) == (v < 0.396));
    }
    CHECK(h.speed == 0.0f);
  }
}

// ------------------------------------------------------------ the player's stick (supplement; A25)

TEST_CASE("supplement player stick: the dead zone 0.12, the walk below 0.95, the run at it, the sprint with button bit 0",
          "[warriors][control]") {
  struct Case {
    float x, y;
    uint32_t buttons;
    float gait_speed;
  };
  const Case cases[] = {
      {0.1f, 0.0f, 0, 0.0f},       // magnitude 0.1: the dead zone
      {0.0f, 0.1f, 1, 0.0f},
      {0.0f, 0.13f, 0, kWalkV},    // just out of the dead zone
      {0.3f, 0.4f, 0, kWalkV},     // 0.5
      {0.0f, 0.94f, 0, kWalkV},
      {0.0f, 0.95f, 0, kRunV},     // the run threshold
      {0.0f, 1.0f, 0, kRunV},
      {0.0f, 1.0f, 1, kSprintV},   // sprint: button bit 0
      {0.0f, 1.0f, 2, kRunV},      // another button
      {0.0f, 0.5f, 1, kWalkV},     // the sprint button below the run threshold
  };
  for (const Case& c : cases) {
    CAPTURE(c.x, c.y, c.buttons);
    WarriorsModel m = player();
    Human& h = human(m, 0);
    const double target = ref::atan2(static_cast<double>(c.x), static_cast<double>(c.y)) * 180.0 / kPi;
    double v = 0;
    for (int k = 1; k <= 20; ++k) {
      m.step(pad(c.x, c.y, c.buttons));
      v = std::min(v + 0.8, static_cast<double>(c.gait_speed));
      CAPTURE(k);
      CHECK(h.speed == Approx(v).margin(1e-4));
    }
    CHECK(h.speed == c.gait_speed);
    if (c.gait_speed == 0.0f) {  // no move and no turn
      CHECK(h.heading == 0.0f);
      CHECK(h.position.x == 0.0f);
      CHECK(h.position.y == 0.0f);
    } else {
      CHECK(deg(h.heading) == Approx(target).margin(1e-3));
    }
  }
}

TEST_CASE("supplement player stick: the speed moves 0.8 m/s per update both ways", "[warriors][control]") {
  CHECK(24.0 / 30.0 == Approx(0.8));
  WarriorsModel m = player();
  Human& h = human(m, 0);
  double v = 0;
  for (int k = 1; k <= 10; ++k) {
    m.step(pad(0.0f, 1.0f));
    v = std::min(v + 0.8, static_cast<double>(kRunV));
    CHECK(h.speed == Approx(v).margin(1e-4));
  }
  CHECK(h.speed == kRunV);
  CHECK(h.position.y > 0.0f);
  // A25: braking at 24 m/s^2 too, on a centred stick.
  for (int k = 1; k <= 10; ++k) {
    m.step(pad(0.0f, 0.0f));
    v = std::max(v - 0.8, 0.0);
    CHECK(h.speed == Approx(v).margin(1e-4));
  }
  CHECK(h.speed == 0.0f);
}

namespace {
// A 90 degree turn of a player already moving at `speed` with the stick held at (1, 0) (+x, heading 90).
void check_90_turn(float speed, float stick, uint32_t buttons, double limit, double measured_first) {
  WarriorsModel m = player();
  Human& h = human(m, 0);
  h.speed = speed;
  Eased e;
  double model_heading = 0, expect = 0;
  for (int k = 1; k <= 8; ++k) {
    m.step(pad(stick, 0.0f, buttons));
    CAPTURE(k);
    REQUIRE(h.speed == speed);  // holding the gait
    const double step = deg(h.heading) - model_heading;
    model_heading = deg(h.heading);
    const double want = e.turn(limit, 90.0 - expect);
    expect += want;
    CHECK(step == Approx(want).margin(0.01));
    if (k == 1) CHECK(step == Approx(measured_first).margin(0.15));  // the supplement's measurement
    if (k == 2) CHECK(step == Approx(limit).margin(1e-3));
  }
  CHECK(h.heading == rad(90.0f));
}
}  // namespace

TEST_CASE("supplement player stick: a 90 degree turn at a run steps 16.0 then 18 degrees", "[warriors][control]") {
  check_90_turn(kRunV, 1.0f, 0, 18.0, 16.0);
}

TEST_CASE("supplement player stick: a 90 degree turn at a walk steps 17.9 then 20 degrees", "[warriors][control]") {
  check_90_turn(kWalkV, 0.5f, 0, 20.0, 17.9);
}

TEST_CASE("supplement player stick: a 90 degree turn sprinting steps 14.3 then 16 degrees", "[warriors][control]") {
  check_90_turn(kSprintV, 1.0f, kPadSprintButton, 16.0, 14.3);
}

TEST_CASE("supplement player stick: standing, a 90 degree turn uses the 20 degree limit", "[warriors][control]") {
  WarriorsModel m = player();
  Human& h = human(m, 0);
  Eased e;
  double v = 0, expect = 0;
  for (int k = 1; k <= 7; ++k) {
    m.step(pad(1.0f, 0.0f));
    v = std::min(v + 0.8, static_cast<double>(kRunV));  // the speed moves first, the limit follows it
    expect += e.turn(player_limit(v), 90.0 - expect);
    CAPTURE(k);
    CHECK(deg(h.heading) == Approx(expect).margin(0.01));
  }
  CHECK(h.heading == rad(90.0f));
  // The first step with the 20 degree limit: 17.8 (measured at a walk: 17.9).
  Eased first;
  CHECK(first.turn(20.0, 90.0) == Approx(17.81).margin(0.01));
}

TEST_CASE("supplement player stick: the eased turn snaps onto the target within one step", "[warriors][control]") {
  // A 45 degree turn at a run: the formula's steps (6.02, 9.49, 10.37, 9.51, 7.92, then the snap).
  WarriorsModel m = player();
  Human& h = human(m, 0);
  h.speed = kRunV;
  const float sx = 0.70710678f, sy = 0.70710678f;
  const float target = angle::heading_of(sx, sy);
  Eased e;
  double expect = 0;
  bool snapped = false;
  for (int k = 1; k <= 12 && !snapped; ++k) {
    m.step(pad(sx, sy));
    CAPTURE(k);
    const double err = 45.0 - expect;
    const double t = e.turn(18.0, err);
    snapped = (t == err);
    expect += t;
    if (k == 1) CHECK(t == Approx(6.0).margin(0.05));
    if (snapped) {
      CHECK(h.heading == target);
    } else {
      CHECK(deg(h.heading) == Approx(expect).margin(0.01));
    }
  }
  CHECK(snapped);
  m.step(pad(sx, sy));
  CHECK(h.heading == target);  // stays put
}

TEST_CASE("supplement player stick: when the error changes sign the carry is -0.5 times the previous step",
          "[warriors][control]") {
  WarriorsModel m = player();
  Human& h = human(m, 0);
  h.speed = kRunV;
  Eased e;
  m.step(pad(1.0f, 0.0f));  // toward +90
  double expect = e.turn(18.0, 90.0);
  CHECK(deg(h.heading) == Approx(expect).margin(0.01));
  const double first = expect;
  // The stick reversed: toward -90, an error of about -106 degrees.
  m.step(pad(-1.0f, 0.0f));
  const double err2 = -90.0 - expect;
  const double raw = 18.0 * (1.0 - ref::cos(kPi * (std::fabs(err2) * kPi / 180.0) / 2.0)) / 2.0;
  const double t2 = e.turn(18.0, err2);
  CHECK(t2 == Approx(-(raw - 0.5 * first)).margin(1e-9));
  CHECK(std::fabs(t2) < 18.0);  // with a +0.8 carry it would be the limit
  expect += t2;
  CHECK(deg(h.heading) == Approx(expect).margin(0.01));
  CHECK(deg(h.heading) == Approx(first - 9.74).margin(0.02));
  // Same sign again: the 0.8 carry is back.
  for (int k = 3; k <= 10; ++k) {
    m.step(pad(-1.0f, 0.0f));
    expect += e.turn(18.0, -90.0 - expect);
    CAPTURE(k);
    CHECK(deg(h.heading) == Approx(expect).margin(0.01));
  }
  CHECK(h.heading == rad(-90.0f));
}
