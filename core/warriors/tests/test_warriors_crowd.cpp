// warriors tests (part 3, issue 18): the neighbour sectors (records, rebuild, bit 8, the lazy wall
// probe, the readers, GetPoint, ResetHeading, refresh by age), the gait-0 turn on the spot, steering
// round humans (Human_SteerAroundHumans steps 1-19) and giving way (Brain_PushAside, Brain_GiveWayTo
// and their callers). Seed 000 (../shared/seeds/000_f781e9935f3cbcaa.txt): "Neighbour sectors",
// "Steering round humans", "Giving way", "Speed control" step 7; docs/spec-notes.md rows A4, S1-, G1-.
//
// Expected values come from the seed's numbers and rules, computed here (never copied from the
// model's own output). Headings grow from +y toward +x (the game's convention): a human facing
// heading 0 looks along +y and has +x on his right, so a flipped sector numbering fails the left and
// right cases below.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "lockstep/core/angle.h"
#include "math_reference.h"
#include "warriors_test_util.h"

using namespace wtest;
namespace ref = lockstep::test_support::ref;

namespace {

constexpr double kCwPi = 3.14159265358979323846;
float cw_rad(double d) { return static_cast<float>(d * kCwPi / 180.0); }

Json cw_human(const std::string& name, double x, double y, double heading_deg = 0, bool pad = false) {
  Json h{{"name", name}, {"position", {x, y, 0.0}}, {"heading", heading_deg}};
  if (pad) h["pad"] = true;
  return h;
}

/// A scenario on the open floor (or on `level` when given) with these humans.
WarriorsModel cw_scene(const std::vector<Json>& humans, const Json& level = Json()) {
  Json j;
  j["seed"] = 7;
  j["humans"] = humans;
  if (!level.is_null()) j["level"] = level;
  return make(j);
}

/// Run the clock past `ms` (thinks only; nobody has an action) so a record can be rebuilt.
void cw_clock(WarriorsModel& m, int32_t ms) { m.mutable_state().clock.now_ms = ms; }

// A one-area level: the floor 0..20 x 0..20 with a wall hole x 4..16, y 10..12 (flags 3), ground triangles
// (byte 1) and, when `cover`, a bit-4 ("under cover") pair of triangles over x 12..14, y 2..4.
Json cw_wall_level(bool cover = false) {
  auto rect = [](double x0, double y0, double x1, double y1) {
    return Json::array({Json::array({x0, y0, 0.0}), Json::array({x1, y0, 0.0}), Json::array({x1, y1, 0.0}),
                        Json::array({x0, y1, 0.0})});
  };
  Json l;
  Json outline{{"points", rect(0, 0, 20, 20)}};
  Json hole{{"points", rect(4, 10, 16, 12)}, {"flags", 3}};
  l["areas"] = Json::array({Json{{"area_byte", 1}, {"graph", 1}, {"polygons", Json::array({outline, hole})}}});
  l["nodes"] = Json::array();
  l["doors"] = Json::array();
  l["triangles"] = Json::array();
  auto tri = [&](double x0, double y0, double x1, double y1, double z, int flags) {
    Json a{{"a", {x0, y0, z}}, {"b", {x1, y0, z}}, {"c", {x1, y1, z}}, {"area_byte", 1}};
    Json b{{"a", {x0, y0, z}}, {"b", {x1, y1, z}}, {"c", {x0, y1, z}}, {"area_byte", 1}};
    if (flags) {
      a["flags"] = flags;
      b["flags"] = flags;
    }
    l["triangles"].push_back(a);
    l["triangles"].push_back(b);
  };
  if (cover) tri(12, 2, 14, 4, 0.05, 0x10);
  tri(0, 0, 20, 20, 0, 0);
  return l;
}

/// Give slot `s` a started move to `p` (Start run, so the steering state is reset as a move's Start does).
void cw_start_move(WarriorsModel& m, int32_t s, Vec3 p, int32_t gait = 2) {
  m.apply_command(move_command(static_cast<uint32_t>(s), p, gait));
  Brain& b = human(m, s).brain;
  REQUIRE(b.queue_count == 1);
  b.queue[0].started = 1;
  REQUIRE(m.move_start(s, b.queue[0]) == 0);
}

}  // namespace

// ============================================================ neighbour sectors

TEST_CASE("Neighbour sectors, numbering: the index rises clockwise toward the human's right (left and right cases)",
          "[warriors][sectors]") {
  // Seed: "the index rises clockwise: 2 is his right, 4 behind, 6 his left", headings growing from +y toward +x.
  // Facing heading 0 (+y), his right is +x; facing 90 degrees (+x), his right is -y.
  WarriorsModel m = cw_scene({cw_human("o", 0, 0, 0), cw_human("right", 1.0, 0), cw_human("left", -1.0, 0),
                              cw_human("ahead", 0, 1.1), cw_human("behind", 0, -1.2)});
  cw_clock(m, 5000);
  const Sectors& s = m.sectors_of(0, 1000);
  CHECK(s.sector[2].nearest == 1);
  CHECK(s.sector[6].nearest == 2);
  CHECK(s.sector[0].nearest == 3);
  CHECK(s.sector[4].nearest == 4);
  // Turned to face +x, the same humans: "right" (at +x) is ahead, "behind" (at -y) is on his right.
  human(m, 0).heading = cw_rad(90);
  cw_clock(m, 7000);
  const Sectors& t = m.sectors_of(0, 1000);
  CHECK(t.sector[0].nearest == 1);
  CHECK(t.sector[2].nearest == 4);
  CHECK(t.sector[6].nearest == 3);
  CHECK(t.sector[4].nearest == 2);
  CHECK(t.heading == cw_rad(90));  // step 1: the owner's heading at +0x40
  CHECK(t.time_ms == 7000);        // step 6: +0x44 = now
}

TEST_CASE("Neighbour sectors, Sectors_Update steps 1-4: downed and busy humans count, the nearest is the handle, "
          "every probe byte re-armed",
          "[warriors][sectors]") {
  WarriorsModel m = cw_scene({cw_human("o", 0, 0, 0), cw_human("down", 1.0, 0.1), cw_human("busy", 1.2, -0.1),
                              cw_human("far", 1.6, 0)});
  human(m, 1).down = 1;
  human(m, 2).action = kActTurnOnSpot;  // busy
  cw_clock(m, 5000);
  const Sectors& s = m.sectors_of(0, 1000);
  CHECK(s.sector[2].count == 2);    // 1.6 m is beyond 1.5
  CHECK(s.sector[2].nearest == 1);  // the nearer of the two
  CHECK(s.sector[2].flags == 3);    // d2 1.01 < 1.5
  for (const auto& sec : s.sector) CHECK(sec.probe == 1);
  for (int k : {0, 1, 3, 4, 5, 6, 7}) {
    CHECK(s.sector[static_cast<std::size_t>(k)].nearest == -1);
    CHECK(s.sector[static_cast<std::size_t>(k)].count == 0);
  }
}

TEST_CASE("Neighbour sectors, Sectors_Update step 5: bit 8 marks a free player near an AI, all five conditions",
          "[warriors][sectors]") {
  // The owner AI at the origin facing +y; the player 3 m to his right (sector 2, beyond 1.5 m so bit 8 alone).
  auto run = [](auto&& tweak) {
    WarriorsModel m = cw_scene({cw_human("o", 0, 0, 0), cw_human("p", 3.0, 0, 0, true), cw_human("x", -8, 0)});
    tweak(m);
    cw_clock(m, 5000);
    return m.sectors_of(0, 1000).sector[2].flags;
  };
  CHECK(run([](WarriorsModel&) {}) == kSecPlayer);
  // the owner a player: no bit 8
  CHECK(run([](WarriorsModel& m) {
          human(m, 0).has_pad = 1;
          human(m, 0).is_ai = 0;
        }) == 0);
  // a busy player
  CHECK(run([](WarriorsModel& m) { human(m, 1).action = kActTurnOnSpot; }) == 0);
  // within 5.5 m (30.25 squared): at 5.5 counts, at 5.6 not
  CHECK(run([](WarriorsModel& m) { human(m, 1).position = Vec3{5.5f, 0, 0}; }) == kSecPlayer);
  CHECK(run([](WarriorsModel& m) { human(m, 1).position = Vec3{5.6f, 0, 0}; }) == 0);
  // the owner's target, or his target's target
  CHECK(run([](WarriorsModel& m) { human(m, 0).brain.target = 1; }) == 0);
  CHECK(run([](WarriorsModel& m) {
          human(m, 0).brain.target = 2;
          human(m, 2).brain.target = 1;
        }) == 0);
  // the player's own target is the owner, or the owner's target
  CHECK(run([](WarriorsModel& m) { human(m, 1).brain.target = 0; }) == 0);
  CHECK(run([](WarriorsModel& m) {
          human(m, 0).brain.target = 2;
          human(m, 1).brain.target = 2;
        }) == 0);
  // a target elsewhere does not matter
  CHECK(run([](WarriorsModel& m) { human(m, 2).brain.target = 0; }) == kSecPlayer);
}

TEST_CASE("Neighbour sectors, the wall probe: lazy, once per sector per rebuild, 1.5 m along heading +0x40 + k x 45, "
          "through Human_CanWalkStraightTo",
          "[warriors][sectors]") {
  // The owner at (10, 9) facing +y: the wall hole starts at y 10, 1 m ahead. Sector 0's point (10, 10.5) lies in
  // the wall; sectors 1 and 7 (1.06 m north) reach into it too; sector 4 (behind) is open floor.
  WarriorsModel m = cw_scene({cw_human("o", 10, 9, 0)}, cw_wall_level());
  cw_clock(m, 5000);
  m.sectors_of(0, 1000);
  const Sectors& s = human(m, 0).sectors;
  CHECK(s.sector[0].probe == 1);
  CHECK(m.sectors_is_wall(0, 0));
  CHECK(s.sector[0].probe == 0);
  CHECK(s.sector[0].flags == kSecWall);
  CHECK(s.sector[4].probe == 1);  // only the sector a reader asked for
  CHECK_FALSE(m.sectors_is_wall(0, 4));
  CHECK(m.sectors_is_wall(0, 1));
  CHECK(m.sectors_is_wall(0, 7));
  CHECK_FALSE(m.sectors_is_wall(0, 2));
  // At most once per rebuild: moved away and turned, the answers stand (the stored heading and the probe byte).
  human(m, 0).position = Vec3{10, 3, 0};
  human(m, 0).heading = cw_rad(180);
  CHECK(m.sectors_is_wall(0, 0));
  CHECK_FALSE(m.sectors_is_wall(0, 4));
  // Sectors_ResetHeading re-arms the probes with the new heading but keeps an old bit 4.
  m.sectors_reset_heading(0);
  CHECK(s.heading == cw_rad(180));
  for (const auto& sec : s.sector) CHECK(sec.probe == 1);
  CHECK(m.sectors_is_wall(0, 0));  // bit 4 kept, although (10, 1.5) is open floor
  CHECK_FALSE(m.sectors_is_wall(0, 4));
  // The next rebuild clears bit 4 (an empty sector gets 0).
  cw_clock(m, 7000);
  m.sectors_of(0, 1000);
  CHECK(s.sector[0].flags == 0);
  CHECK_FALSE(m.sectors_is_wall(0, 0));
}

TEST_CASE("Neighbour sectors, the readers: IsBlocked, IsFree, IsWall, GetCost, AllClear, IsHeldBy, TurnWay",
          "[warriors][sectors]") {
  // Owner at (10, 9) facing +y by the wall (sector 0 a wall); a human 1 m to his right (sector 2, d2 1: flags 3);
  // one 1.4 m to his left (sector 6, d2 1.96: flags 1); a player 4 m behind (sector 4: bit 8).
  WarriorsModel m = cw_scene({cw_human("o", 10, 9, 0), cw_human("r", 11, 9), cw_human("l", 8.6, 9),
                              cw_human("p", 10, 5, 0, true)},
                             cw_wall_level());
  cw_clock(m, 5000);
  m.sectors_of(0, 1000);
  const Sectors& s = human(m, 0).sectors;
  // IsBlocked: bit 2 answers at once, without the probe.
  CHECK(m.sectors_is_blocked(0, 2));
  CHECK(s.sector[2].probe == 1);
  CHECK_FALSE(m.sectors_is_blocked(0, 6));  // bit 1 alone does not block
  CHECK(s.sector[6].probe == 0);
  CHECK(m.sectors_is_blocked(0, 0));  // a wall
  CHECK(m.sectors_is_blocked(0, 4));  // a free player
  CHECK_FALSE(m.sectors_is_blocked(0, 3));
  // IsFree: none of bits 1, 2, 8, then no wall.
  CHECK_FALSE(m.sectors_is_free(0, 2));
  CHECK_FALSE(m.sectors_is_free(0, 6));
  CHECK_FALSE(m.sectors_is_free(0, 4));
  CHECK_FALSE(m.sectors_is_free(0, 0));
  CHECK(m.sectors_is_free(0, 3));
  // GetCost: flags + 2 x count.
  CHECK(m.sectors_cost(0, 2) == 3 + 2);
  CHECK(m.sectors_cost(0, 6) == 1 + 2);
  CHECK(m.sectors_cost(0, 0) == 4);
  CHECK(m.sectors_cost(0, 4) == 8);
  // AllClear: no sector with bit 1 or 2.
  CHECK_FALSE(WarriorsModel::sectors_all_clear(s));
  Sectors empty;
  empty.sector[0].flags = kSecWall | kSecPlayer;
  CHECK(WarriorsModel::sectors_all_clear(empty));
  // IsHeldBy: the nearest in some sector.
  CHECK(WarriorsModel::sectors_held_by(s, 1));
  CHECK(WarriorsModel::sectors_held_by(s, 2));
  CHECK_FALSE(WarriorsModel::sectors_held_by(s, 3));  // the player is beyond 1.5 m
  // TurnWay: +1 or -1, the shorter way round.
  CHECK(WarriorsModel::sectors_turn_way(0, 2) == 1);
  CHECK(WarriorsModel::sectors_turn_way(0, 6) == -1);
  CHECK(WarriorsModel::sectors_turn_way(7, 1) == 1);
  CHECK(WarriorsModel::sectors_turn_way(1, 7) == -1);
}

TEST_CASE("Neighbour sectors, Sectors_GetPoint: the live heading + k x 45, not the stored +0x40", "[warriors][sectors]") {
  WarriorsModel m = cw_scene({cw_human("o", 2, 3, 0)});
  cw_clock(m, 5000);
  m.sectors_of(0, 1000);  // +0x40 = 0
  human(m, 0).heading = cw_rad(90);
  const Vec3 p = m.sectors_point(0, 1.0f, 2);  // 90 + 90 = 180 degrees: -y
  CHECK(p.x == Approx(2.0).margin(1e-5));
  CHECK(p.y == Approx(2.0).margin(1e-5));
  const Vec3 q = m.sectors_point(0, 2.0f, 7);  // 90 + 315 = 45 degrees
  CHECK(q.x == Approx(2.0 + 2.0 * ref::sin(kCwPi / 4)).margin(1e-5));
  CHECK(q.y == Approx(3.0 + 2.0 * ref::cos(kCwPi / 4)).margin(1e-5));
}

TEST_CASE("Neighbour sectors, Brain_GetSectors: rebuilt when now >= +0x44 + maxAge, 1000 ms or 500 ms", "[warriors][sectors]") {
  WarriorsModel m = cw_scene({cw_human("o", 0, 0, 0), cw_human("a", 1, 0)});
  cw_clock(m, 5000);
  m.sectors_of(0, 1000);
  human(m, 1).position = Vec3{-1, 0, 0};  // moves to his left
  cw_clock(m, 5600);
  CHECK(m.sectors_of(0, 1000).sector[2].nearest == 1);  // 600 ms old: kept at 1000
  CHECK(m.sectors_of(0, 500).sector[6].nearest == 1);   // rebuilt at 500
  CHECK(human(m, 0).sectors.time_ms == 5600);
  cw_clock(m, 6099);
  human(m, 1).position = Vec3{1, 0, 0};
  CHECK(m.sectors_of(0, 500).sector[6].nearest == 1);  // 499 ms: kept
  cw_clock(m, 6100);
  CHECK(m.sectors_of(0, 500).sector[2].nearest == 1);  // now >= time + 500
}

// ============================================================ the gait-0 turn on the spot

TEST_CASE("Speed control step 7, A4 (issue 18): a move that drops to a gait-0 speed while the human still slides starts "
          "its turn on the spot while w = 0",
          "[warriors][control]") {
  // He walks at 1.5 m/s (below the walk, Human_GaitForSpeed 0: "stopped" for the move's step 8) and is sent 90
  // degrees off: the move asks speed 0 (turn on the spot), the control's w is 0 and the turn starts in that same
  // update, before his speed would have reached 0 by braking (1.5 - 1.067 = 0.43 left).
  WarriorsModel m = cw_scene({cw_human("a", 0, 0, 0)});
  human(m, 0).speed = 1.5f;
  step_with(m, move_command(0, Vec3{10, 0, 0}, 2, 0.5f));
  const Human& h = human(m, 0);
  CHECK(h.brain.move_speed == 0.0f);
  CHECK(h.action == kActTurnOnSpot);
  CHECK(h.clip == kClipTurnOnSpot);
  CHECK(h.speed == 0.0f);
  CHECK(h.heading == Approx(cw_rad(12)).margin(1e-6));
  // It then plays to its end at 12 degrees an update: 90 degrees take 8 updates in all.
  int n = 1;
  while (human(m, 0).action == kActTurnOnSpot && n < 20) {
    m.step(m.scripted_input());
    ++n;
  }
  CHECK(n == 8);
}

// ============================================================ steering round humans

TEST_CASE("Steering step 1: disabled, held in a waypoint queue (+0xec) or detail above 2 returns 0", "[warriors][steer]") {
  WarriorsModel m = cw_scene({cw_human("a", 0, 0, 0), cw_human("b", 0, 1.5, 180)});
  cw_start_move(m, 0, Vec3{0, 10, 0});
  Vec3 aim{0, 10, 0};
  human(m, 0).brain.steering.enabled = 0;
  CHECK(m.steer(0, 1.629f, aim, Vec3{0, 10, 0}, 0.5f) == 0);
  human(m, 0).brain.steering.enabled = 1;
  human(m, 0).brain.queued = 1;
  CHECK(m.steer(0, 1.629f, aim, Vec3{0, 10, 0}, 0.5f) == 0);
  human(m, 0).brain.queued = 0;
  human(m, 0).detail = 3;
  human(m, 0).brain.steering.avoiding = 1;
  CHECK(m.steer(0, 1.629f, aim, Vec3{0, 10, 0}, 0.5f) == 0);
  CHECK(human(m, 0).brain.steering.avoiding == -1);
}

TEST_CASE("Steering step 2 and Start: the decision counter is seeded with the human's index and compared with 3 x detail",
          "[warriors][steer]") {
  // Slot 4 at detail 2: the counter starts at 4; 4 < 6 and 5 < 6 wait, 6 decides (counter back to 0); then
  // 0..5 wait and the 7th call after it decides again.
  std::vector<Json> hs;
  for (int i = 0; i < 5; ++i) hs.push_back(cw_human("h" + std::to_string(i), 10.0 * i, 0, 0));
  WarriorsModel m = cw_scene(hs);
  human(m, 4).detail = 2;
  cw_start_move(m, 4, Vec3{40, 10, 0});
  const Steering& st = human(m, 4).brain.steering;
  CHECK(st.since_decision == 4);
  CHECK(st.slow_decisions == 4);
  CHECK(st.score == -1.0e9f);
  std::vector<int> decided;
  for (int call = 0; call < 12; ++call) {
    Vec3 aim{40, 10, 0};
    m.steer(4, 1.629f, aim, Vec3{40, 10, 0}, 0.5f);
    if (human(m, 4).brain.steering.since_decision == 0) decided.push_back(call);
  }
  CHECK(decided == std::vector<int>{2, 9});
}

TEST_CASE("Steering step 5: below 4 m/s the slow counter reaches 16 and L is x 10 once; an index of 15 or more does it "
          "on the first decision",
          "[warriors][steer]") {
  // Slot 15 walks north at 1.629: L = 1.222, the list reaches min(2L, 10) = 2.44 m; x 10 it reaches 10 m. A
  // standing human 6 m ahead is found only on the x 10 decision (his disc is then in the step's sweep: 12.2 m).
  std::vector<Json> hs;
  for (int i = 0; i < 15; ++i) hs.push_back(cw_human("f" + std::to_string(i), -30.0 - i, -30, 0));
  hs.push_back(cw_human("me", 0, 0, 0));
  hs.push_back(cw_human("stand", 0, 6, 0));
  WarriorsModel m = cw_scene(hs);
  cw_start_move(m, 15, Vec3{0, 20, 0});
  Vec3 aim{0, 20, 0};
  CHECK(m.steer(15, 1.629f, aim, Vec3{0, 20, 0}, 0.5f) == 1);  // 15 + 1 = 16: x 10, the stander is the blocker
  CHECK(human(m, 15).brain.steering.slow_decisions == 0);
  CHECK(human(m, 15).brain.steering.avoiding == 16);
  // At 4 m/s or more the counter goes to 0.
  human(m, 15).brain.steering.slow_decisions = 9;
  human(m, 15).brain.steering.avoiding = -1;
  Vec3 aim2{0, 20, 0};
  m.steer(15, 4.0f, aim2, Vec3{0, 20, 0}, 0.5f);
  CHECK(human(m, 15).brain.steering.slow_decisions == 0);
}

TEST_CASE("Steering step 6: a detour expires after 4 x trunc(11 - s) decisions", "[warriors][steer]") {
  // s = 1.629 (his speed +0x1ac): 4 x trunc(9.371) = 36. With nobody round him each decision while avoiding heads
  // for the held point (return 1) until +0x2b reaches 36; the 37th Steering_Clear ends it (return 0).
  WarriorsModel m = cw_scene({cw_human("a", 0, 0, 0), cw_human("b", 30, 30, 0)});
  cw_start_move(m, 0, Vec3{0, 20, 0});
  Human& h = human(m, 0);
  h.speed = 1.629f;
  m.set_avoiding(0, 1);
  h.brain.steering.held_point = Vec3{1, 3, 0};
  int ones = 0;
  for (int call = 0; call < 40; ++call) {
    Vec3 aim{0, 20, 0};
    const int r = m.steer(0, 1.629f, aim, Vec3{0, 20, 0}, 0.5f);
    if (r == 1) {
      CHECK(aim == Vec3{1, 3, 0});
      ++ones;
    } else {
      break;
    }
  }
  CHECK(ones == 36);
  CHECK(h.brain.steering.avoiding == -1);
  CHECK(h.brain.steering.decisions == 0);
}

TEST_CASE("Steering_FindBlocker: the 0.63 m disc swept along the relative step, the smallest t / |r|, target and "
          "anyone behind skipped",
          "[warriors][steer]") {
  // P = (0, 0), D = (0, 1), S = (0, 1.2). A standing AI (no step) at lateral offset 0.62 is hit, at 0.64 missed.
  WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("hit", 0.62, 1.0), cw_human("miss", -0.64, 1.0),
                              cw_human("behind", 0, -0.5), cw_human("near", 0.1, 0.9)});
  const Vec3 P{0, 0, 0}, D{0, 1, 0}, S{0, 1.2f, 0};
  float t = 0;
  CHECK(m.find_blocker(0, {1, 2, 3}, P, D, S, &t) == 1);
  // t = (proj - sqrt(0.3969 - perp^2)) / |r| = (1 - sqrt(0.3969 - 0.3844)) / 1.2
  CHECK(t == Approx((1.0 - ref::sqrt(0.3969 - 0.62 * 0.62)) / 1.2).epsilon(1e-4));
  CHECK(m.find_blocker(0, {2, 3}, P, D, S, &t) == -1);
  CHECK(t == 1.0e9f);
  // The smallest fraction wins: "near" (0.1, 0.9) is touched sooner.
  CHECK(m.find_blocker(0, {1, 4}, P, D, S, &t) == 4);
  // My target is skipped.
  human(m, 0).brain.target = 4;
  CHECK(m.find_blocker(0, {1, 4}, P, D, S, &t) == 1);
}

TEST_CASE("Steering_FindBlocker step 2: a player's predicted step is his facing x 0.75 x speed, an AI's the clamped "
          "step toward his aim",
          "[warriors][steer]") {
  // He stands 1.5 m ahead, 0.9 m to the side (outside the disc for a still human). Walking toward my line at 1.2
  // m/s his step is 0.9 m: the relative step then sweeps him in.
  auto blocker = [](bool pad) {
    WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.9, 1.5, -90, pad)});
    Human& o = human(m, 1);
    if (pad) {
      o.speed = 1.2f;  // facing -x (heading -90): step (-0.9, 0)
    } else {
      o.brain.aim = Vec3{-5, 1.5f, 0};
      o.brain.move_speed = 1.2f;  // min(0.9, 5.9) toward his aim: (-0.9, 0)
    }
    float t = 0;
    return m.find_blocker(0, {1}, Vec3{0, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 1.2f, 0}, &t);
  };
  CHECK(blocker(true) == 1);
  CHECK(blocker(false) == 1);
  WarriorsModel still = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.9, 1.5, -90)});
  float t = 0;
  CHECK(still.find_blocker(0, {1}, Vec3{0, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 1.2f, 0}, &t) == -1);
}

TEST_CASE("Steering step 17, case 0: a standing blocker is passed 1 m to the side my line passes (both sides)",
          "[warriors][steer]") {
  // I walk north from the origin; he stands at (+-0.3, 1.5). E = (Dy, -Dx) = (1, 0). N leans to his side, so
  // sigma = -1 when E . N >= 0 (he is right of my line: X = B - E, passing on his left), else +1.
  for (double side : {0.3, -0.3}) {
    CAPTURE(side);
    WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", side, 1.5)});
    cw_start_move(m, 0, Vec3{0, 20, 0});
    human(m, 0).speed = 1.629f;
    Vec3 aim{0, 20, 0};
    CHECK(m.steer(0, 1.629f, aim, Vec3{0, 20, 0}, 0.5f) == 1);
    const double expect_x = side + (side > 0 ? -1.0 : 1.0);
    CHECK(aim.x == Approx(expect_x).margin(1e-5));
    CHECK(aim.y == Approx(1.5).margin(1e-5));
    const Steering& st = human(m, 0).brain.steering;
    CHECK(st.avoiding == 1);
    CHECK(st.held_point == aim);  // case 0 checks and holds its own point
    CHECK(st.score >= 0.0f);
  }
}

TEST_CASE("Steering step 17, case 0 fallback: k measured in my frame, applied in his (Sectors_GetPoint, his live facing)",
          "[warriors][steer]") {
  // Me at (10, 8.6) facing north; he stands at (10.3, 10.1) facing east (90), by the wall (y 10..12). X = B - E =
  // (9.3, 10.1) lies in the wall, so TryDetour fails. k = the sector of X from me: bearing -25 degrees, sector 7.
  // X' = his position + 1 m along his facing + ((7 + 4) mod 8) x 45 = 90 + 135 = 225 degrees: (9.59, 9.39), open
  // floor, so the detour is X'.
  WarriorsModel m = cw_scene({cw_human("me", 10, 8.6, 0), cw_human("him", 10.3, 10.1, 90)}, cw_wall_level());
  cw_start_move(m, 0, Vec3{10, 9.5f, 0});
  human(m, 0).speed = 1.629f;
  Vec3 aim{10, 13, 0};
  CHECK(m.steer(0, 1.629f, aim, Vec3{10, 13, 0}, 0.5f) == 1);
  CHECK(WarriorsModel::sector_of(human(m, 0), Vec3{9.3f, 10.1f, 0}) == 7);
  const double h = (90.0 + 135.0) * kCwPi / 180.0;
  CHECK(aim.x == Approx(10.3 + ref::sin(h)).margin(1e-4));
  CHECK(aim.y == Approx(10.1 + ref::cos(h)).margin(1e-4));
  CHECK(human(m, 0).brain.steering.avoiding == 1);
  CHECK(human(m, 0).brain.steering.held_point == aim);
  // A flipped frame (k applied without the + 4, or my heading used for his) would give another point.
  CHECK_FALSE(aim.x == Approx(10.3 + ref::sin((90.0 + 315.0) * kCwPi / 180.0)).margin(1e-3));
}

TEST_CASE("Steering steps 14 and 12: overtaking without right of way follows (0), with it detours (case 2); right of way "
          "by speed, then the lower slot",
          "[warriors][steer]") {
  auto run = [](float my_speed, float his_speed, bool me_first) {
    // Both walk north; he is 0.5 m ahead of me (inside the 0.63 m disc: t = 0).
    std::vector<Json> hs = {cw_human("a", 0, 0, 0), cw_human("b", 0, 1.0, 0)};
    WarriorsModel m = cw_scene(hs);
    const int me = me_first ? 0 : 1, him = me_first ? 1 : 0;
    human(m, me).position = Vec3{0, 0, 0};
    human(m, him).position = Vec3{0, 0.5f, 0};
    cw_start_move(m, me, Vec3{0, 20, 0});
    human(m, me).speed = my_speed;
    human(m, him).speed = his_speed;
    human(m, him).brain.aim = Vec3{0, 30, 0};
    human(m, him).brain.move_speed = his_speed;
    Vec3 aim{0, 20, 0};
    const int r = m.steer(me, 1.629f, aim, Vec3{0, 20, 0}, 0.5f);
    return std::make_pair(r, aim);
  };
  // Slower than him: no right of way, follow.
  CHECK(run(1.0f, 1.5f, true).first == 0);
  // Faster: case 2, a detour to the side (x moves off 0).
  const auto fast = run(1.6f, 1.0f, true);
  CHECK(fast.first == 1);
  CHECK(fast.second.x != 0.0f);
  // Equal speeds: the lower slot has it.
  CHECK(run(1.2f, 1.2f, true).first == 1);
  CHECK(run(1.2f, 1.2f, false).first == 0);
}

TEST_CASE("Steering step 16: without right of way a head-on contact within 3 m stops me for 1 update; step 14's "
          "'same way, off to the side' slows to 0.75 s for 15",
          "[warriors][steer]") {
  WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0, 2.0, 180)});
  cw_start_move(m, 0, Vec3{0, 20, 0});
  human(m, 0).speed = 1.0f;
  human(m, 1).speed = 1.5f;  // he is faster: he has the right of way
  human(m, 1).brain.aim = Vec3{0, -20, 0};
  human(m, 1).brain.move_speed = 1.5f;
  Vec3 aim{0, 20, 0};
  CHECK(m.steer(0, 1.629f, aim, Vec3{0, 20, 0}, 0.5f) == 1);
  CHECK(aim == Vec3{0, 20, 0});  // aim unchanged
  CHECK(human(m, 0).brain.steering.override_count == 1);
  CHECK(human(m, 0).brain.steering.override_speed == 0.0f);

  // Off to the side (b < cos 50) and the same way (h >= cos 45), no right of way: 0.75 x s for 15 updates, 0.
  WarriorsModel w = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.5, 0.3, 0)});
  cw_start_move(w, 0, Vec3{0, 20, 0});
  human(w, 0).speed = 1.0f;
  human(w, 1).speed = 1.5f;
  human(w, 1).brain.aim = Vec3{0.5f, 20, 0};
  human(w, 1).brain.move_speed = 1.5f;
  float t = 0;
  REQUIRE(w.find_blocker(0, {1}, Vec3{0, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 1.2f, 0}, &t) == 1);
  Vec3 aim2{0, 20, 0};
  CHECK(w.steer(0, 1.629f, aim2, Vec3{0, 20, 0}, 0.5f) == 0);
  CHECK(human(w, 0).brain.steering.override_count == 15);
  CHECK(human(w, 0).brain.steering.override_speed == Approx(0.75f));
}

TEST_CASE("Steering step 19: cases 1-3 check and hold the move's aim, not X (the original's slip, kept)", "[warriors][steer]") {
  // Head-on with right of way (I am faster): case 1. X = C + sigma rho E steers this update; the held point is the
  // aim the move passed in.
  WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.2, 2.0, 180)});
  cw_start_move(m, 0, Vec3{0, 20, 0});
  human(m, 0).speed = 1.6f;
  human(m, 1).speed = 1.0f;
  human(m, 1).brain.aim = Vec3{0.2f, -20, 0};
  human(m, 1).brain.move_speed = 1.0f;
  Vec3 aim{0, 20, 0};
  CHECK(m.steer(0, 1.629f, aim, Vec3{0, 20, 0}, 0.5f) == 1);
  const Steering& st = human(m, 0).brain.steering;
  CHECK(st.avoiding == 1);
  CHECK(st.held_point == Vec3{0, 20, 0});
  // He is right of my line (rho = +1), our paths do not cross (sigma = -1): X = C - E, to my left.
  CHECK(aim.x == Approx(st.contact.x - 1.0f).margin(1e-5));
  CHECK(aim.y == Approx(st.contact.y).margin(1e-5));
}

TEST_CASE("Steering step 9: the formation leader's follower in his way gets the gait-0 speed for 5 updates",
          "[warriors][steer]") {
  WarriorsModel m = cw_scene({cw_human("lead", 0, 0, 0), cw_human("fol", 0, 1.5, 0)});
  human(m, 1).follows = 0;
  cw_start_move(m, 0, Vec3{0, 20, 0});
  human(m, 0).speed = 1.629f;
  Vec3 aim{0, 20, 0};
  m.steer(0, 1.629f, aim, Vec3{0, 20, 0}, 0.5f);
  CHECK(human(m, 1).brain.steering.override_count == 5);
  CHECK(human(m, 1).brain.steering.override_speed == 0.0f);
}

TEST_CASE("Steering step 19, Steering_TryDetour: a point over a bit-4 triangle (Ground_ProbeBelow 1) is refused",
          "[warriors][steer]") {
  // Case 0 past a stander at (13.3, 2.5): X = (12.3, 2.5) lies on the "under cover" triangles (x 12..14, y 2..4).
  // The fallback X' is tried next: k = 7 (bearing -25 degrees from me), k' = 3, his facing 0 + 135 degrees.
  WarriorsModel m = cw_scene({cw_human("me", 13, 1, 0), cw_human("him", 13.3, 2.5, 0)}, cw_wall_level(true));
  CHECK(m.ground_probe_below(Vec3{12.3f, 3, 0}) == 1);
  CHECK(m.ground_probe_below(Vec3{11.0f, 3, 0}) == 0);
  cw_start_move(m, 0, Vec3{13, 8, 0});
  human(m, 0).speed = 1.629f;
  Vec3 aim{13, 8, 0};
  CHECK(m.steer(0, 1.629f, aim, Vec3{13, 8, 0}, 0.5f) == 1);
  const double h = 135.0 * kCwPi / 180.0;
  CHECK(aim.x == Approx(13.3 + ref::sin(h)).margin(1e-4));
  CHECK(aim.y == Approx(2.5 + ref::cos(h)).margin(1e-4));
}

TEST_CASE("Steering, speed overrides: from the next update for n updates; the count drops only at the start of a steering "
          "call",
          "[warriors][steer]") {
  WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0)});
  step_with(m, move_command(0, Vec3{0, 30, 0}, 4, 0.5f));  // a run
  for (int i = 0; i < 40; ++i) m.step(m.scripted_input());
  Brain& b = human(m, 0).brain;
  WarriorsModel::steering_set_speed(b, 1.0f, 3);
  m.step(m.scripted_input());
  CHECK(b.steering.override_count == 2);
  CHECK(b.move_speed <= 1.0f);
  m.step(m.scripted_input());
  m.step(m.scripted_input());
  CHECK(b.steering.override_count == 0);
  m.step(m.scripted_input());
  CHECK(b.move_speed > 1.0f);  // the run's own speed again
  // A busy update (turn on the spot) returns before the steering: the count stays.
  WarriorsModel::steering_set_speed(b, 1.0f, 3);
  human(m, 0).action = kActTurnOnSpot;
  human(m, 0).turn_target = human(m, 0).heading + 1.0f;
  m.step(m.scripted_input());
  CHECK(b.steering.override_count == 3);
}

TEST_CASE("Steering, the return value: on 1 the move action aims at the detour with a 0.3 m radius", "[warriors][steer]") {
  WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.3, 2.0)});
  step_with(m, move_command(0, Vec3{0, 20, 0}, 2, 0.5f));
  bool seen = false;
  for (int i = 0; i < 30 && !seen; ++i) {
    m.step(m.scripted_input());
    const Brain& b = human(m, 0).brain;
    if (b.steering.avoiding == 1) {
      seen = true;
      CHECK(b.aim_radius == 0.3f);
      CHECK(b.aim.x < 0.0f);  // round his left
    }
  }
  CHECK(seen);
}

// ============================================================ giving way

TEST_CASE("Giving way, Brain_PushAside: +0xcc bit 1 yes, bits 2 or 4 no, the guard set for the call and cleared after",
          "[warriors][giveway]") {
  WarriorsModel m = cw_scene({cw_human("mover", 0, 0, 0), cw_human("st", 0, 1.2, 0)});
  Brain& sb = human(m, 1).brain;
  sb.way_flags = kWayGiving;
  CHECK(m.push_aside(0, 1, Vec3{0, 0, 0}, Vec3{0, 1, 0}));
  CHECK(sb.queue_count == 0);  // nothing new queued
  sb.way_flags = kWayRefuse;
  CHECK_FALSE(m.push_aside(0, 1, Vec3{0, 0, 0}, Vec3{0, 1, 0}));
  sb.way_flags = kWayGuard;
  CHECK_FALSE(m.push_aside(0, 1, Vec3{0, 0, 0}, Vec3{0, 1, 0}));
  sb.way_flags = 0;
  CHECK(m.push_aside(0, 1, Vec3{0, 0, 0}, Vec3{0, 1, 0}));
  CHECK(sb.queue_count == 1);
  CHECK(sb.queue[0].type == kActGiveWay);
  CHECK((sb.way_flags & kWayGuard) == 0);
  CHECK((human(m, 0).brain.way_flags & kWayGuard) == 0);
}

TEST_CASE("Giving way, Brain_GiveWayTo's tests: a player's brain, a threat either way, not idle under control -> no",
          "[warriors][giveway]") {
  auto answer = [](auto&& tweak) {
    WarriorsModel m = cw_scene({cw_human("mover", 0, 0, 0), cw_human("st", 0, 1.2, 0), cw_human("p", 5, 5, 0, true)});
    tweak(m);
    return m.push_aside(0, 1, Vec3{0, 0, 0}, Vec3{0, 1, 0});
  };
  CHECK(answer([](WarriorsModel&) {}));
  CHECK_FALSE(answer([](WarriorsModel& m) {
    human(m, 1).is_ai = 0;
    human(m, 1).has_pad = 1;
  }));
  CHECK_FALSE(answer([](WarriorsModel& m) { human(m, 0).brain.target = 1; }));
  CHECK_FALSE(answer([](WarriorsModel& m) { human(m, 1).brain.target = 0; }));
  CHECK_FALSE(answer([](WarriorsModel& m) { human(m, 1).action = kActTurnOnSpot; }));
  CHECK_FALSE(answer([](WarriorsModel& m) { human(m, 1).hold = 1; }));
  CHECK_FALSE(answer([](WarriorsModel& m) { human(m, 1).down = 1; }));
}

TEST_CASE("Giving way, which way: s away from the mover's line, then s+1, s+2, s-1, s+3, s+4, s-2 (never s-3); the "
          "GiveWay action's heading, look-at, delay and boost",
          "[warriors][giveway]") {
  // The stander at (0.5, 2) facing +y; the mover's line is x = 0 going north. The closest point c = (0, 2): the
  // heading from c to him is 90 degrees, sector 2 (his right). Sectors are filled one by one with neighbours
  // 1 m out (flags 3) to walk the try order.
  const int order[7] = {2, 3, 4, 1, 5, 6, 0};
  for (int filled = 0; filled <= 7; ++filled) {
    CAPTURE(filled);
    std::vector<Json> hs = {cw_human("mover", 0, -3, 0), cw_human("st", 0.5, 2, 0)};
    for (int i = 0; i < filled; ++i) {
      const double h = 45.0 * order[i] * kCwPi / 180.0;
      hs.push_back(cw_human("n" + std::to_string(i), 0.5 + ref::sin(h), 2 + ref::cos(h), 0));
    }
    WarriorsModel m = cw_scene(hs);
    for (int i = 0; i < filled; ++i) human(m, 2 + i).brain.way_flags = kWayRefuse;  // they will not move
    cw_clock(m, 5000);
    const bool yes = m.push_aside(0, 1, Vec3{0, -3, 0}, Vec3{0, 1, 0});
    const Brain& b = human(m, 1).brain;
    if (filled < 7) {
      REQUIRE(yes);
      REQUIRE(b.queue_count == 1);
      const Action& a = b.queue[0];
      CHECK(a.type == kActGiveWay);
      CHECK(a.way_heading == Approx(lockstep::angle::wrap_pi(cw_rad(45.0 * order[filled]))).margin(1e-5));
      CHECK(a.look_at == 0);
      CHECK(a.delay_ms >= 0);
      CHECK(a.delay_ms <= 124);
      CHECK(a.way_boost == 0);
    } else {
      // Only s - 3 (sector 7) is free: never tried, and nobody asked can move.
      CHECK_FALSE(yes);
      CHECK(b.queue_count == 0);
    }
  }
}

TEST_CASE("Giving way: the boost flag for a pad player at gait 3 or more; no free sector asks each neighbour one level "
          "deep",
          "[warriors][giveway]") {
  {
    WarriorsModel m = cw_scene({cw_human("player", 0, -3, 0, true), cw_human("st", 0.5, 2, 0)});
    human(m, 0).gait = kJog;
    CHECK(m.push_aside(0, 1, Vec3{0, -3, 0}, Vec3{0, 1, 0}));
    CHECK(human(m, 1).brain.queue[0].way_boost == 1);
    WarriorsModel w = cw_scene({cw_human("player", 0, -3, 0, true), cw_human("st", 0.5, 2, 0)});
    human(w, 0).gait = kWalk;
    CHECK(w.push_aside(0, 1, Vec3{0, -3, 0}, Vec3{0, 1, 0}));
    CHECK(human(w, 1).brain.queue[0].way_boost == 0);
  }
  // Every tried sector of the stander holds a neighbour; the first one asked (sector 2's) is free to move.
  const int order[7] = {2, 3, 4, 1, 5, 6, 0};
  std::vector<Json> hs = {cw_human("mover", 0, -3, 0), cw_human("st", 0.5, 2, 0)};
  for (int i = 0; i < 7; ++i) {
    const double h = 45.0 * order[i] * kCwPi / 180.0;
    hs.push_back(cw_human("n" + std::to_string(i), 0.5 + ref::sin(h), 2 + ref::cos(h), 0));
  }
  WarriorsModel m = cw_scene(hs);
  cw_clock(m, 5000);
  CHECK(m.push_aside(0, 1, Vec3{0, -3, 0}, Vec3{0, 1, 0}));
  CHECK(human(m, 1).brain.queue_count == 0);  // the stander himself does not move
  int moved = 0;
  for (int i = 0; i < 7; ++i) moved += human(m, 2 + i).brain.queue_count;
  CHECK(moved == 1);
  CHECK(human(m, 2).brain.queue_count == 1);  // sector 2's neighbour, asked first
  for (uint32_t j = 0; j < 9; ++j) CHECK((human(m, static_cast<int>(j)).brain.way_flags & kWayGuard) == 0);
}

TEST_CASE("Giving way, the step: the stander steps about 1 m along the sector's heading, looking at the mover, with +0xcc "
          "bit 1 while it lives",
          "[warriors][giveway]") {
  WarriorsModel m = cw_scene({cw_human("mover", 0, -3, 0), cw_human("st", 0.5, 2, 0)});
  Command c;
  c.human = 1;
  c.kind = CommandKind::GiveWay;
  c.target = 0;
  step_with(m, c);  // the script's ActGiveWay: PushAside(him, the stander, his position, his forward)
  REQUIRE(human(m, 1).brain.queue_count == 1);
  bool flag_seen = false;
  for (int i = 0; i < 60; ++i) {
    m.step(m.scripted_input());
    if (human(m, 1).brain.way_flags & kWayGiving) flag_seen = true;
  }
  CHECK(flag_seen);
  CHECK(human(m, 1).brain.queue_count == 0);
  CHECK((human(m, 1).brain.way_flags & kWayGiving) == 0);
  const Vec3 p = human(m, 1).position;
  CHECK(p.x > 1.2f);  // stepped to his right (sector 2, +x), away from the mover's line
  CHECK(std::fabs(p.y - 2.0f) < 0.3f);
}

TEST_CASE("Giving way, Gang_ClearWayForLeader: a walking leader pushes the members in his 40 degree cone within 6 m, or "
          "within 1 m, on his timer",
          "[warriors][giveway]") {
  WarriorsModel m = cw_scene({cw_human("boss", 0, 0, 0), cw_human("cone", 0.5, 4, 0), cw_human("wide", 3, 3, 0),
                              cw_human("close", -0.8, -0.3, 0), cw_human("far", 0, 7, 0), cw_human("other", 0.2, 2, 0)});
  for (int i = 0; i < 5; ++i) human(m, i).gang = 3;
  human(m, 0).gang_leader = 1;
  human(m, 5).gang = 4;
  human(m, 0).gait = kWalk;
  CHECK(m.gang_clear_way(0, 40.0f));
  CHECK(human(m, 1).brain.queue_count == 1);  // cone: 7.1 degrees off, 4 m
  CHECK(human(m, 2).brain.queue_count == 0);  // 45 degrees off, beyond 1 m
  CHECK(human(m, 3).brain.queue_count == 1);  // within 1 m, behind
  CHECK(human(m, 4).brain.queue_count == 0);  // 7 m
  CHECK(human(m, 5).brain.queue_count == 0);  // another gang
  // A jogging leader pushes nobody.
  WarriorsModel j = cw_scene({cw_human("boss", 0, 0, 0), cw_human("cone", 0.5, 4, 0)});
  human(j, 0).gang = human(j, 1).gang = 3;
  human(j, 0).gang_leader = 1;
  human(j, 0).gait = kJog;
  CHECK_FALSE(j.gang_clear_way(0, 40.0f));
}

// ============================================================ the bundled crowd scenarios

namespace {

struct CwRun {
  double min_dist = 1e9;   ///< the closest two centres came, in plan
  int max_still = 0;       ///< the longest run of updates a human with a started move stood (below 0.396 m/s)
  bool steered = false;    ///< someone avoided someone
};

double cw_plan(Vec3 a, Vec3 b) {
  const double dx = static_cast<double>(a.x) - b.x, dy = static_cast<double>(a.y) - b.y;
  return ref::sqrt(dx * dx + dy * dy);
}

CwRun cw_run(WarriorsModel& m, uint64_t ticks, bool steering = true) {
  const int n = static_cast<int>(m.scenario().humans.size());
  if (!steering)
    for (int i = 0; i < n; ++i) human(m, i).brain.steering.enabled = 0;
  CwRun r;
  std::vector<int> still(static_cast<std::size_t>(n), 0);
  for (uint64_t t = 0; t < ticks; ++t) {
    m.step(m.scripted_input());
    for (int a = 0; a < n; ++a) {
      const Human& ha = m.state().humans[static_cast<std::size_t>(a)];
      if (ha.brain.steering.avoiding >= 0) r.steered = true;
      for (int b = a + 1; b < n; ++b) {
        const double d = cw_plan(ha.position, m.state().humans[static_cast<std::size_t>(b)].position);
        if (d < r.min_dist) r.min_dist = d;
      }
      const bool moving = ha.brain.queue_count > 0 && ha.brain.queue[0].type == 1 && ha.brain.queue[0].started;
      int& s = still[static_cast<std::size_t>(a)];
      s = (moving && ha.speed < kIdleBelow) ? s + 1 : 0;
      if (s > r.max_still) r.max_still = s;
    }
  }
  return r;
}

}  // namespace

TEST_CASE("Steering scenarios: head-on and crossing at 90 degrees keep apart what walking straight would not, and both "
          "arrive",
          "[warriors][steer][scenario]") {
  for (const char* name : {"steer_head_on", "steer_crossing"}) {
    CAPTURE(name);
    WarriorsModel off = fixture(name);
    const CwRun plain = cw_run(off, off.scenario().ticks, false);
    WarriorsModel m = fixture(name);
    const CwRun r = cw_run(m, m.scenario().ticks);
    CHECK(plain.min_dist < 0.2);  // the control: straight lines meet
    CHECK(r.steered);
    CHECK(r.min_dist > 0.3);
    for (int i = 0; i < 2; ++i) {
      CHECK(human(m, i).brain.queue_count == 0);  // both moves done ...
      const Vec3 p = human(m, i).position;
      const auto& sc = m.scenario().script;
      Vec3 goal{};
      for (const auto& e : sc)
        if (e.human == m.scenario().humans[static_cast<std::size_t>(i)].name) goal = Vec3{e.point[0], e.point[1], e.point[2]};
      CHECK(cw_plan(p, goal) < 0.6);  // ... at their points (radius 0.5, plus the braking slide)
    }
  }
}

TEST_CASE("Steering scenario, overtaking: with the right of way the jogger passes the walker; without it the walker "
          "behind the jogger never passes",
          "[warriors][steer][scenario]") {
  WarriorsModel m = fixture("steer_overtake");
  const int walker = 0, jogger = 1, fast = 2, slow = 3;
  bool passed = false;
  for (uint64_t t = 0; t < m.scenario().ticks; ++t) {
    m.step(m.scripted_input());
    if (human(m, jogger).position.y > human(m, walker).position.y + 1.0f) passed = true;
    CHECK(human(m, slow).position.y < human(m, fast).position.y);
  }
  CHECK(passed);
}

TEST_CASE("Steering scenario, a standing blocker: each walker passes on the side his line passes (case 0, both signs)",
          "[warriors][steer][scenario]") {
  WarriorsModel m = fixture("steer_stander");
  double x_r = 0, x_l = 0;
  bool seen_r = false, seen_l = false;
  for (uint64_t t = 0; t < m.scenario().ticks; ++t) {
    m.step(m.scripted_input());
    const Human& r = human(m, 1);
    const Human& l = human(m, 3);
    if (!seen_r && r.position.y >= 6.0f) {
      seen_r = true;
      x_r = r.position.x;
    }
    if (!seen_l && l.position.y >= 6.0f) {
      seen_l = true;
      x_l = l.position.x;
    }
  }
  REQUIRE(seen_r);
  REQUIRE(seen_l);
  CHECK(x_r < 0.3 - 0.5);   // the stander is right of his line: he passes on the stander's left
  CHECK(x_l > 9.7 + 0.5);   // left of his line: on the stander's right
}

TEST_CASE("Steering scenario, formation: the leader walks through his followers, those in his way stopped for 5 updates",
          "[warriors][steer][scenario]") {
  // A follower with no action never steers, so his count (dropped only at the start of a steering call) holds at 5.
  WarriorsModel m = fixture("steer_formation");
  std::vector<int> stopped(7, 0);
  for (uint64_t t = 0; t < m.scenario().ticks; ++t) {
    m.step(m.scripted_input());
    for (int i = 1; i < 7; ++i)
      if (human(m, i).brain.steering.override_count == 5 && human(m, i).brain.steering.override_speed == 0.0f) stopped[static_cast<std::size_t>(i)] = 1;
  }
  int n = 0;
  for (int i = 1; i < 7; ++i) n += stopped[static_cast<std::size_t>(i)];
  CHECK(n >= 1);
  CHECK(human(m, 0).brain.queue_count == 0);
  CHECK(human(m, 0).position.y > 11.0f);
}

TEST_CASE("Giving way scenario, gang: the leader walks through his standing gang, members step aside, the crowd ripples "
          "one level",
          "[warriors][giveway][scenario]") {
  WarriorsModel m = fixture("giveway_gang");
  std::vector<Vec3> start;
  for (int i = 0; i < 10; ++i) start.push_back(human(m, i).position);
  run(m, static_cast<int>(m.scenario().ticks));
  CHECK(m.counters().give_ways >= 4);
  int moved = 0;
  for (int i = 1; i < 10; ++i) moved += cw_plan(human(m, i).position, start[static_cast<std::size_t>(i)]) > 0.5 ? 1 : 0;
  CHECK(moved >= 4);
  CHECK(human(m, 0).brain.queue_count == 0);
  CHECK(cw_plan(human(m, 0).position, Vec3{0, 10, 0}) < 0.6);
  for (int i = 0; i < 10; ++i) CHECK((human(m, i).brain.way_flags & kWayGuard) == 0);
}

TEST_CASE("Property, the 60-human street: over 10 minutes no two centres come within 0.2 m and nobody with a move "
          "stands still for more than 10 s",
          "[warriors][steer][property]") {
  // docs/spec-notes.md S12: the model has no body-to-body collision (the original's capsule response is on the
  // Characters page, not in the seed), so the closeness bound is what the steering alone must keep: no two
  // centres within 0.2 m, an overlap of at most 0.43 m of the 0.63 m the blocker test treats as touching.
  WarriorsModel m = fixture("street_crossing");
  REQUIRE(m.scenario().humans.size() == 60);
  const CwRun r = cw_run(m, 18000);
  CHECK(r.steered);
  CHECK(r.min_dist > 0.2);
  CHECK(r.max_still <= 300);
  CHECK(m.counters().move_done_stuck == 0);
}

// ============================================================ waypoint queues

namespace {
WarriorsModel cw_queue_scene(const std::vector<Json>& humans, Vec3 a, Vec3 b) {
  Json j;
  j["seed"] = 7;
  j["humans"] = humans;
  j["queues"] = Json::array({Json{{"a", {a.x, a.y, a.z}}, {"b", {b.x, b.y, b.z}}}});
  return make(j);
}
}  // namespace

TEST_CASE("Waypoint queues, 0x00299538: up to 6 points one metre apart between the endpoints", "[warriors][queue]") {
  WaypointQueue q;
  WarriorsModel::lay_queue(q, Vec3{0, 0, 0}, Vec3{3.5f, 0, 0});
  CHECK(q.count == 4);
  for (int k = 0; k < 4; ++k) CHECK(q.points[static_cast<std::size_t>(k)] == Vec3{static_cast<float>(k), 0, 0});
  WarriorsModel::lay_queue(q, Vec3{1, 1, 0}, Vec3{1, 11, 0});
  CHECK(q.count == 6);
  CHECK(q.points[5] == Vec3{1, 6, 0});
  CHECK(q.end_a == Vec3{1, 1, 0});
  CHECK(q.end_b == Vec3{1, 11, 0});
  for (int k = 0; k < 6; ++k) CHECK(q.humans[static_cast<std::size_t>(k)] == -1);
}

TEST_CASE("Waypoint queues: fewer humans than points each take the nearest free point; a kept human (+0xec 1 or 2) keeps "
          "his; steering step 1 returns 0 for a queued human",
          "[warriors][queue]") {
  // Points (0,0) .. (3,0). "a" nearest (2,0), "b" nearest (0,0).
  WarriorsModel m = cw_queue_scene({cw_human("a", 2.2, 1.0), cw_human("b", -0.3, 1.0), cw_human("c", 2.0, 0.8)},
                                   Vec3{0, 0, 0}, Vec3{3.5f, 0, 0});
  REQUIRE(m.join_queue(0, 0));
  REQUIRE(m.join_queue(1, 0));
  m.update_queue(0);
  const WaypointQueue& q = m.state().queues[0];
  CHECK(q.humans[2] == 0);
  CHECK(q.humans[0] == 1);
  CHECK(human(m, 0).brain.queued == 1);
  CHECK(human(m, 0).brain.queue_count == 1);
  CHECK(human(m, 0).brain.queue[0].point == Vec3{2, 0, 0});
  // "c" joins nearer to (2,0) than "a" is: "a" keeps it (+0xec 1), "c" takes the nearest free one, (3,0) or (1,0).
  REQUIRE(m.join_queue(2, 0));
  m.update_queue(0);
  CHECK(q.humans[2] == 0);
  CHECK((q.humans[1] == 2 || q.humans[3] == 2));
  // A queued human does not steer.
  Vec3 aim{2, 0, 0};
  CHECK(m.steer(0, 1.629f, aim, Vec3{2, 0, 0}, 0.3f) == 0);
  // Settled within 0.3 m: +0xec 2.
  human(m, 0).position = Vec3{2.1f, 0.1f, 0};
  m.update_queue(0);
  CHECK(q.settled[2] == 1);
  CHECK(human(m, 0).brain.queued == 2);
}

TEST_CASE("Waypoint queues: more humans than points, each point takes the nearest human and the rest wait", "[warriors][queue]") {
  // Two points (0,0), (1,0); three humans.
  WarriorsModel m = cw_queue_scene({cw_human("far", 5, 5), cw_human("near0", -0.5, 0.5), cw_human("near1", 1.2, 0.4)},
                                   Vec3{0, 0, 0}, Vec3{1.5f, 0, 0});
  for (int i = 0; i < 3; ++i) REQUIRE(m.join_queue(i, 0));
  m.update_queue(0);
  const WaypointQueue& q = m.state().queues[0];
  REQUIRE(q.count == 2);
  CHECK(q.humans[0] == 1);
  CHECK(q.humans[1] == 2);
  CHECK(q.humans[2] == 0);  // waiting past the points
  CHECK(human(m, 0).brain.queued == 0);
  CHECK(human(m, 0).brain.queue_count == 0);
}

TEST_CASE("Waypoint queues: up to 5 passes swap pairs whose paths to their points cross", "[warriors][queue]") {
  // Placed by hand: "a" at (-1, 2) holds (2,0), "b" at (3, 2) holds (0,0): their paths cross, so they swap.
  WarriorsModel m = cw_queue_scene({cw_human("a", -1, 2), cw_human("b", 3, 2)}, Vec3{0, 0, 0}, Vec3{3.5f, 0, 0});
  WaypointQueue& q = m.mutable_state().queues[0];
  q.humans[2] = 0;
  q.humans[0] = 1;
  human(m, 0).brain.queued = 1;
  human(m, 1).brain.queued = 1;
  m.update_queue(0);
  CHECK(q.humans[0] == 0);
  CHECK(q.humans[2] == 1);
  CHECK(human(m, 0).brain.queue[0].point == Vec3{0, 0, 0});
}

TEST_CASE("Waypoint queues scenario: eight humans queue at a narrow door, six settle at the points, two wait",
          "[warriors][queue][scenario]") {
  WarriorsModel m = fixture("queue_door");
  run(m, static_cast<int>(m.scenario().ticks));
  const WaypointQueue& q = m.state().queues[0];
  CHECK(q.count == 6);
  for (int k = 0; k < 6; ++k) {
    CAPTURE(k);
    REQUIRE(q.humans[static_cast<std::size_t>(k)] >= 0);
    CHECK(q.settled[static_cast<std::size_t>(k)] == 1);
    const Human& h = human(m, q.humans[static_cast<std::size_t>(k)]);
    CHECK(cw_plan(h.position, q.points[static_cast<std::size_t>(k)]) < 0.5);
    CHECK(h.brain.queued == 2);
  }
  int waiting = 0;
  for (int i = 0; i < 8; ++i) waiting += human(m, i).brain.queued == 0 ? 1 : 0;
  CHECK(waiting == 2);
}

// ============================================================ more steering steps, the Warrior's push, bad inputs

TEST_CASE("Steering step 10: while avoiding, a stored contact point nearer than the new one keeps the old detour",
          "[warriors][steer]") {
  for (double stored : {0.1, 3.0}) {
    CAPTURE(stored);
    WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.3, 1.5)});
    cw_start_move(m, 0, Vec3{0, 20, 0});
    Human& h = human(m, 0);
    h.speed = 1.629f;
    m.set_avoiding(0, 1);
    h.brain.steering.held_point = Vec3{0, 10, 0};
    h.brain.steering.contact = Vec3{0, static_cast<float>(stored), 0};
    Vec3 aim{0, 20, 0};
    CHECK(m.steer(0, 1.629f, aim, Vec3{0, 20, 0}, 0.5f) == 1);
    // The new contact: t = (1.5 - sqrt(0.3969 - 0.09)) / 1.2217 of the step, |t x S| = 1.5 - 0.554 = 0.946 m.
    if (stored < 0.946) {
      CHECK(aim == Vec3{0, 10, 0});
      CHECK(h.brain.steering.contact.y == Approx(stored));
    } else {
      CHECK(h.brain.steering.contact.y == Approx(1.5 - ref::sqrt(0.3969 - 0.09)).margin(1e-4));
      CHECK(aim.x == Approx(-0.7).margin(1e-5));  // case 0's new detour
    }
  }
}

TEST_CASE("Steering step 15: held at a node the blocker's route is on too, 0.75 x his speed for 5 updates, aim unchanged",
          "[warriors][steer]") {
  for (bool held : {true, false}) {
    CAPTURE(held);
    WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.3, 1.5)});
    cw_start_move(m, 0, Vec3{0, 20, 0});
    State& st = m.mutable_state();
    for (int p : {30, 31}) {
      Route& r = st.nav.routes[static_cast<std::size_t>(p)];
      r.count = 1;
      r.nodes[0] = 7;
      r.in_use = 1;
    }
    human(m, 0).brain.route.route = 31;
    human(m, 0).brain.route.held = held ? 1 : 0;
    human(m, 1).brain.route.route = 30;
    human(m, 0).speed = 1.629f;
    human(m, 1).speed = 0.8f;
    Vec3 aim{0, 20, 0};
    CHECK(m.steer(0, 1.629f, aim, Vec3{0, 20, 0}, 0.5f) == 1);
    if (held) {
      CHECK(aim == Vec3{0, 20, 0});
      CHECK(human(m, 0).brain.steering.override_count == 5);
      CHECK(human(m, 0).brain.steering.override_speed == Approx(0.6f));
      CHECK(human(m, 0).brain.steering.avoiding == -1);
    } else {
      CHECK(human(m, 0).brain.steering.avoiding == 1);  // not held: case 0's detour
    }
  }
}

TEST_CASE("Steering step 18: a detour bending harder than my speed allows by more than 1 m/s slows me to 0.75 s for "
          "1 update, no detour",
          "[warriors][steer]") {
  // Running at 7.8 head-on into a walker 3 m ahead: X = C - E = (-1, 2.13); the circle tangent to my facing through
  // X has R = 2.77 m, where gait 4 allows 2R tan(2 deg) x 30 = 5.8 m/s, jog less: 7.8 - 5.8 > 1.
  WarriorsModel m = cw_scene({cw_human("me", 0, 0, 0), cw_human("him", 0.2, 3.0, 180)});
  cw_start_move(m, 0, Vec3{0, 20, 0}, 4);
  human(m, 0).speed = 7.8f;
  human(m, 1).speed = 1.0f;
  human(m, 1).brain.aim = Vec3{0.2f, -20, 0};
  human(m, 1).brain.move_speed = 1.0f;
  Vec3 aim{0, 20, 0};
  CHECK(m.steer(0, 7.8f, aim, Vec3{0, 20, 0}, 0.5f) == 1);
  CHECK(aim == Vec3{0, 20, 0});
  CHECK(human(m, 0).brain.steering.override_count == 1);
  CHECK(human(m, 0).brain.steering.override_speed == Approx(0.75 * 7.8));
  CHECK(human(m, 0).brain.steering.avoiding == -1);
}

TEST_CASE("Giving way, WarriorBrain_Think: a Warrior pushes his nearest gang mate within 1 m on every 12th think",
          "[warriors][giveway]") {
  WarriorsModel m = cw_scene({cw_human("w", 0, 0, 0), cw_human("mate", 0.2, 0.8, 0), cw_human("x", 0.3, -0.6, 0)});
  human(m, 0).gang = human(m, 1).gang = 2;
  for (int i = 0; i < 11; ++i) m.step(m.scripted_input());
  CHECK(human(m, 1).brain.queue_count == 0);
  CHECK(human(m, 2).brain.queue_count == 0);
  m.step(m.scripted_input());  // the 12th think of each: the Warrior (slot 0) pushes his mate
  CHECK(human(m, 1).brain.queue_count == 1);
  CHECK(human(m, 1).brain.queue[0].type == kActGiveWay);
  CHECK(human(m, 2).brain.queue_count == 0);  // not in the gang
}

TEST_CASE("warriors hostile, part 3: bad queues, queue commands and gang values are refused naming the place",
          "[warriors][scenario]") {
  auto load_err = [](const std::string& text) {
    try {
      JsonReader r("bad.json");
      WarriorsModel::load_scenario(Json::parse(text), r);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(load_err(R"({"model":"warriors","humans":[{"name":"a"}],"script":[{"tick":0,"human":"a","command":"join_queue","value":0}]})"),
             Catch::Contains("$.script[0].value") && Catch::Contains("no waypoint queue 0"));
  CHECK_THAT(load_err(R"({"model":"warriors","humans":[{"name":"a"}],"queues":[{"a":[0,0,0],"b":[1e9,0,0]}]})"),
             Catch::Contains("$.queues[0].b"));
  CHECK_THAT(load_err(R"({"model":"warriors","humans":[{"name":"a"}],"script":[{"tick":0,"human":"a","command":"set","field":"gang","value":300}]})"),
             Catch::Contains("$.script[0].value"));
  CHECK_THAT(load_err(R"({"model":"warriors","humans":[{"name":"a"},{"name":"b"}],"script":[{"tick":0,"human":"a","command":"give_way"}]})"),
             Catch::Contains("$.script[0].target"));
  WarriorsModel m = cw_scene({cw_human("a", 0, 0, 0)});
  Command c;
  c.human = 0;
  c.kind = CommandKind::JoinQueue;
  c.value = 3;
  Input in;
  in.commands.push_back(c);
  CHECK_THROWS_WITH(m.step(in), Catch::Contains("commands[0].value"));
  CHECK(m.tick() == 0);
}

TEST_CASE("Giving way scenario, a jump leg: a standing friend on the jump's line is pushed aside, the roofer waits, "
          "then jumps",
          "[warriors][giveway][scenario]") {
  // Seed, Giving way: Route_IsJumpLegClear (within 1 m in plan of the leg, 2 m in height, 4 m ahead) finds the
  // friend, who is not moving: Brain_PushAside and blocked (route +0x16), so the roofer holds at the take-off node.
  WarriorsModel m = fixture("giveway_jump");
  bool held = false, gave_way = false, jumped = false;
  int64_t gave_at = -1, jumped_at = -1;
  for (uint64_t t = 0; t < m.scenario().ticks; ++t) {
    m.step(m.scripted_input());
    if (human(m, 0).brain.route.held) held = true;
    if (!gave_way && human(m, 1).brain.queue_count > 0 && human(m, 1).brain.queue[0].type == kActGiveWay) {
      gave_way = true;
      gave_at = static_cast<int64_t>(t);
    }
    if (!jumped && human(m, 0).action == kActJump) {
      jumped = true;
      jumped_at = static_cast<int64_t>(t);
    }
  }
  CHECK(held);
  CHECK(gave_way);
  CHECK(jumped);
  CHECK(gave_at < jumped_at);
  CHECK(human(m, 0).brain.queue_count == 0);
  CHECK(cw_plan(human(m, 0).position, Vec3{44, 56, 0}) < 0.6);
  // The friend stepped off the jump's line (beyond 1 m of y = 50).
  CHECK(std::fabs(human(m, 1).position.y - 50.0f) > 1.0f);
}
