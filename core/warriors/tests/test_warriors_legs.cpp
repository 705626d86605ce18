// warriors part 2: the route's climb, jump and drop legs (seed 000, "Following a route": the link
// kinds, "The climb"; supplement, "Jump legs"; docs/spec-notes.md N11, N12).
#include <catch2/catch.hpp>

#include <cmath>

#include "math_reference.h"
#include "warriors_test_util.h"

using namespace wtest;

namespace ref = lockstep::test_support::ref;

namespace {

Json quad(double x0, double y0, double x1, double y1, double z, int byte) {
  return Json::array({Json{{"a", {x0, y0, z}}, {"b", {x1, y0, z}}, {"c", {x1, y1, z}}, {"area_byte", byte}},
                      Json{{"a", {x0, y0, z}}, {"b", {x1, y1, z}}, {"c", {x0, y1, z}}, {"area_byte", byte}}});
}

Json rect(double x0, double y0, double x1, double y1, double z) {
  return Json::array({{x0, y0, z}, {x1, y0, z}, {x1, y1, z}, {x0, y1, z}});
}

// Two platforms 2.5 m apart with one kind-4 link from the take-off node to the landing node.
WarriorsModel gap(Vec3 takeoff, Vec3 landing, bool avoid = false) {
  Json tris = quad(takeoff.x - 3, takeoff.y - 3, takeoff.x + 0.75, takeoff.y + 3, takeoff.z, 1);
  for (auto& t : quad(landing.x - 0.8, landing.y - 3, landing.x + 4, landing.y + 3, landing.z, 2)) tris.push_back(t);
  Json link{{"from", 0}, {"kind", 4}};
  if (avoid) link["avoid"] = true;
  Json j = {
      {"level",
       {{"areas",
         {{{"area_byte", 1}, {"graph", 1},
           {"polygons", {{{"points", rect(takeoff.x - 3, takeoff.y - 3, takeoff.x + 0.75, takeoff.y + 3, takeoff.z)}}}}},
          {{"area_byte", 2}, {"graph", 1},
           {"polygons", {{{"points", rect(landing.x - 0.8, landing.y - 3, landing.x + 4, landing.y + 3, landing.z)}}}}}}},
        {"nodes",
         {{{"position", {takeoff.x, takeoff.y, takeoff.z}}, {"area", 0}, {"links", Json::array()}},
          {{"position", {landing.x, landing.y, landing.z}}, {"area", 1}, {"links", {link}}}}},
        {"triangles", tris}}},
      {"humans", {{{"name", "a"}, {"position", {takeoff.x, takeoff.y, takeoff.z}}, {"heading", 90}}}},
      {"script",
       {{{"tick", 0}, {"human", "a"}, {"command", "move_to"}, {"point", {landing.x + 2, landing.y, landing.z}},
         {"gait", 4}, {"radius", 0.5}}}}};
  return make(j);
}

}  // namespace

TEST_CASE("Jump legs, supplement: the measured jump launches at 3.5 m/s up and 9.546 m/s in plan, t = 0.432 s",
          "[warriors][legs]") {
  // "A measured jump: take-off (50.744, -2.830, 4.252), vertical 3.5 m/s, 9.546 m/s in plan, D = 4.121 m,
  // d.z = +0.05, t = 0.432 s." The tries 0.5, 1.25, 2.0, 2.75 give D / t above 10 m/s; 3.5 is the first.
  const Vec3 takeoff{50.744f, -2.830f, 4.252f};
  const Vec3 landing{50.744f + 4.121f, -2.830f, 4.302f};
  WarriorsModel m = gap(takeoff, landing);
  Human& h = human(m, 0);
  m.step(m.scripted_input());  // the route [take-off, landing] is made
  REQUIRE(h.brain.route.route >= 0);
  // Stand him exactly on the measured take-off point, on the leg into the landing waypoint.
  h.position = takeoff;
  h.brain.route.index = 1;
  h.brain.route.leg_new = 1;
  REQUIRE(m.jump_leg(0) == 0);
  REQUIRE(h.action == kActJump);
  CHECK(h.brain.route.state == 1);  // a jump (dz > 0: no drop)
  CHECK(h.leg_vz == 3.5f);
  // Independent: t is the later root of 0.05 = 3.5 t - 7.84 t^2.
  const double t = (3.5 + ref::sqrt(3.5 * 3.5 - 4 * 7.84 * 0.05)) / (2 * 7.84);
  CHECK(t == Approx(0.432).margin(5e-4));
  CHECK(h.speed == Approx(4.121 / t).epsilon(1e-5));
  CHECK(h.speed == Approx(9.546).margin(2e-3));
  CHECK(h.clip == kClipJump);
  CHECK(h.leg_updates == static_cast<int>(std::ceil(t * 30.0)));  // N12: whole updates
  // In flight he is busy and airborne; the landing puts him on the landing point.
  m.control(0);
  CHECK(h.airborne == 1);
  CHECK(m.busy(h));
  for (int k = 0; k < h.leg_updates + 2; ++k) m.step(m.scripted_input());
  CHECK(h.airborne == 0);
  CHECK(std::fabs(h.position.z - landing.z) < 1e-5f);
  CHECK(h.position.x >= landing.x - 1e-3f);  // and carries on along the route
}

TEST_CASE("Jump legs, supplement: a drop at D / t below 10 m/s drops (state 2), a far one jumps", "[warriors][legs]") {
  // t = sqrt(-dz / 7.84): 4 m down gives t = 0.714 s; 2 m in plan is 2.8 m/s: a drop.
  WarriorsModel m = gap(Vec3{0, 0, 4}, Vec3{2, 0, 0});
  Human& h = human(m, 0);
  m.step(m.scripted_input());
  REQUIRE(h.brain.route.route >= 0);
  h.position = Vec3{0, 0, 4};
  h.brain.route.index = 1;
  h.brain.route.leg_new = 1;
  REQUIRE(m.jump_leg(0) == 0);
  CHECK(h.brain.route.state == 2);
  CHECK(h.leg_vz == 0.0f);
  CHECK(h.speed == Approx(2.0 / ref::sqrt(4.0 / 7.84)).epsilon(1e-5));
  // With the link's avoid bit set it always jumps.
  WarriorsModel k = gap(Vec3{0, 0, 4}, Vec3{2, 0, 0}, true);
  Human& g = human(k, 0);
  for (int t = 0; t < 40 && g.action != kActJump; ++t) k.step(k.scripted_input());
  REQUIRE(g.action == kActJump);
  CHECK(g.brain.route.state == 1);
  CHECK(g.leg_vz == 0.5f);  // the first try already has D / t <= 10 m/s
}

TEST_CASE("Jump legs, supplement: no launch speed up to 5.5 m/s reaches, so the jump is refused and the move ends",
          "[warriors][legs]") {
  // 3 m up and 6 m across: vz must exceed sqrt(4 x 7.84 x 3) = 9.7 m/s to reach the height at all.
  WarriorsModel m = gap(Vec3{0, 0, 0}, Vec3{6, 0, 3});
  Human& h = human(m, 0);
  bool jumped = false;
  for (int t = 0; t < 60; ++t) {
    m.step(m.scripted_input());
    jumped = jumped || h.action == kActJump;
  }
  CHECK_FALSE(jumped);
  CHECK(h.brain.queue_count == 0);
  CHECK(h.brain.route.route == -1);  // the route went back to the pool (N4)
}

TEST_CASE("The climb, N11: Vermin climbs the fence of the street, the far node passed without being walked to",
          "[warriors][legs]") {
  WarriorsModel m = fixture("street");
  const int v = m.human_slot("vermin");
  Human& h = human(m, v);
  int climb_start = -1, climb_end = -1;
  Vec3 before{};
  for (int t = 0; t < 600; ++t) {
    const bool was = h.action == kActClimb;
    m.step(m.scripted_input());
    if (!was && h.action == kActClimb) {
      climb_start = t;
      before = h.leg_from;
      CHECK((h.brain.route.state == 3 || h.brain.route.state == 4));
      CHECK(h.brain.arrived == 1);
    }
    if (was && h.action != kActClimb) climb_end = t;
  }
  REQUIRE(climb_start >= 0);
  CHECK(climb_end - climb_start + 1 == kClimbUpdates);  // moving on 30 updates (1 s), the last one arriving
  CHECK(before.y > 25.19f);                          // from the north side of the fence (y 24.38-25.19)
  CHECK(h.position.y < 24.38f);                      // ends south of it
  CHECK(h.brain.queue_count == 0);
  CHECK(ref::hypot(h.position.x - 46.30f, h.position.y - 20.22f) <= 0.5f);  // arrived at his flag
}

TEST_CASE("MoveAction_TrialSpeed against walls: a trial whose simulated walk leaves the path polygons is lowered by "
          "1 + 0.75 x detail until it passes or reaches the walk",
          "[warriors][legs]") {
  // A corridor 2 m wide running north; the human at its south end faces east, the target 8 m north.
  // Running (7.801 m/s, 4 degrees a sub-step) he would swing out east through the wall at x = 2.
  Json j = {{"level",
             {{"areas", {{{"area_byte", 1}, {"graph", 1}, {"polygons", {{{"points", rect(0, 0, 2, 20, 0)}}}}}}},
              {"triangles", quad(0, 0, 2, 20, 0, 1)}}},
            {"humans", {{{"name", "a"}, {"position", {1.0, 2.0, 0.0}}, {"heading", 90}}}}};
  WarriorsModel walls = make(j);
  Json open = j;
  open.erase("level");
  WarriorsModel floor = make(open);
  const Vec3 from{1, 2, 0}, to{1, 10, 0};
  const float run = 7.801f, walk = 1.629f;
  // The open floor: the first trial passes (at most the corner-speed limit of the circle).
  const float limit = corner_speed_limit(floor.class_of(human(floor, 0)), 0, run, right_of(human(floor, 0).heading), from, to);
  const float open_trial = floor.trial_speed(0, run, run, from, to);
  CHECK(open_trial == (limit < walk ? walk : limit));
  // Against the walls the trial is lowered: by whole metres per second (detail 0), or down to the walk.
  const float walled = walls.trial_speed(0, run, run, from, to);
  CHECK(walled < open_trial);
  const float steps = (open_trial - walled) / 1.0f;
  CHECK((walled == walk || std::fabs(steps - std::round(steps)) < 1e-4f));
  CHECK(walls.counters().trial_simulations > 1);
  // At detail 1 the step is 1.75 m/s and each point is 3 x k sub-steps apart, 9 points at most.
  human(walls, 0).detail = 1;
  const float walled1 = walls.trial_speed(0, run, run, from, to);
  const float steps1 = (open_trial - walled1) / 1.75f;
  CHECK((walled1 == walk || std::fabs(steps1 - std::round(steps1)) < 1e-3f));
}
