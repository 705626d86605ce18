// Hostile inputs, states and scenarios for the warriors model (docs/warriors.md, "Limits";
// docs/spec-notes.md A30-A32, N25-N26): each is refused with the field or JSON path at fault (exit 2 in
// the command line) and the model is left as it was; each float-to-integer conversion is defined for
// every value the model can see. Every case is made by a small generator here: a real state of a
// bundled fixture run with one field broken, an input with one value out of range, a scenario with one
// key out of range.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"
#include "hostile.h"
#include "state_of.h"
#include "warriors_test_util.h"

using namespace wtest;

using lockstep::test::restore_error;
using lockstep::test::scenario_error;
using lockstep::test::step_error;

namespace {

std::unique_ptr<Model> fixture_at(const std::string& name, int ticks) {
  auto m = load_scenario_file(lockstep::fixtures::path("warriors/" + name + ".json"));
  for (int k = 0; k < ticks; ++k) m->step_scripted();
  return m;
}



struct FloatCase {
  const char* path;
  float value;
  const char* error;
};

struct IntCase {
  const char* path;
  int32_t value;
  const char* error;
};

/// A move_to for slot `who` (every other field in range).
Command move_to(uint32_t who, Vec3 p) {
  Command c;
  c.human = who;
  c.kind = CommandKind::MoveTo;
  c.point = p;
  c.gait = 2;
  c.radius = 0.5f;
  return c;
}

}  // namespace

TEST_CASE("warriors hostile: every state of the street and melee runs restores into a fresh model and carries on",
          "[warriors][hostile]") {
  for (const char* name : {"street", "melee", "player_stick"}) {
    INFO(name);
    auto a = fixture_at(name, 0);
    const uint64_t ticks = a->default_ticks() < 400 ? a->default_ticks() : 400;
    for (uint64_t t = 0; t < ticks; ++t) {
      a->step_scripted();
      auto b = fixture_at(name, 0);
      REQUIRE_NOTHROW(b->restore(a->snapshot(), "run.snap"));
      REQUIRE(b->hashes() == a->hashes());
      if (t % 100 == 50) {
        for (int k = 0; k < 20; ++k) {
          a->step_scripted();
          b->step_scripted();
        }
        REQUIRE(b->hashes() == a->hashes());
        t += 20;
      }
    }
  }
}

TEST_CASE("warriors hostile: a restored point, speed or length beyond the limits is refused by its field path",
          "[warriors][hostile]") {
  auto m = fixture_at("melee", 60);
  const FloatCase cases[] = {
      {"humans[1].position.x", 2e8f,
       "bad.snap: state.humans[1].position.x: expected a coordinate within +-1e+08 m (the state's bound), got 2e+08"},
      {"humans[1].leg_from.z", -2e8f,
       "bad.snap: state.humans[1].leg_from.z: expected a coordinate within +-1e+08 m (the state's bound), got -2e+08"},
      {"humans[1].leg_to.y", 3e8f,
       "bad.snap: state.humans[1].leg_to.y: expected a coordinate within +-1e+08 m (the state's bound), got 3e+08"},
      {"humans[1].nav_point.x", 2e8f,
       "bad.snap: state.humans[1].nav_point.x: expected a coordinate within +-1e+08 m (the state's bound), got 2e+08"},
      {"humans[1].brain.aim.y", 2e8f,
       "bad.snap: state.humans[1].brain.aim.y: expected a coordinate within +-1e+08 m (the state's bound), got 2e+08"},
      {"humans[1].brain.steering.held_point.x", 2e8f,
       "bad.snap: state.humans[1].brain.steering.held_point.x: expected a coordinate within +-1e+08 m (the state's "
       "bound), got 2e+08"},
      {"humans[1].brain.queue[0].point.z", 2e8f,
       "bad.snap: state.humans[1].brain.queue[0].point.z: expected a coordinate within +-1e+08 m (the state's bound), "
       "got 2e+08"},
      {"humans[1].brain.queue[0].saved_aim.x", 2e8f,
       "bad.snap: state.humans[1].brain.queue[0].saved_aim.x: expected a coordinate within +-1e+08 m (the state's "
       "bound), got 2e+08"},
      {"humans[1].brain.queue[0].stuck_point.y", 2e8f,
       "bad.snap: state.humans[1].brain.queue[0].stuck_point.y: expected a coordinate within +-1e+08 m (the state's "
       "bound), got 2e+08"},
      {"nav.hazards[0].centre.x", 2e8f,
       "bad.snap: state.nav.hazards[0].centre.x: expected a coordinate within +-1e+08 m (the state's bound), got 2e+08"},
      {"nav.hazards[0].box_min.y", -2e8f,
       "bad.snap: state.nav.hazards[0].box_min.y: expected a coordinate within +-1e+08 m (the state's bound), got -2e+08"},
      {"nav.hazards[0].box_max.z", 2e8f,
       "bad.snap: state.nav.hazards[0].box_max.z: expected a coordinate within +-1e+08 m (the state's bound), got 2e+08"},
      // Speeds: a trial speed far above the walk would never come down by 1 m/s steps (a hang).
      {"humans[1].speed", 26.0f, "bad.snap: state.humans[1].speed: expected a speed from 0 to 25 m/s, got 26"},
      {"humans[1].speed", -1.0f, "bad.snap: state.humans[1].speed: expected a speed from 0 to 25 m/s, got -1"},
      {"humans[1].brain.move_speed", 30.0f, "bad.snap: state.humans[1].brain.move_speed: expected a speed from 0 to 25 m/s, got 30"},
      {"humans[1].brain.steering.override_speed", 1e30f,
       "bad.snap: state.humans[1].brain.steering.override_speed: expected a speed from 0 to 25 m/s, got 1e+30"},
      {"humans[1].brain.queue[0].speed", 1e30f,
       "bad.snap: state.humans[1].brain.queue[0].speed: expected a speed from 0 to 25 m/s, got 1e+30"},
      {"humans[1].brain.queue[0].corner1", 26.0f,
       "bad.snap: state.humans[1].brain.queue[0].corner1: expected a speed from 0 to 25 m/s, got 26"},
      {"humans[1].brain.queue[0].corner2", -1.0f,
       "bad.snap: state.humans[1].brain.queue[0].corner2: expected a speed from 0 to 25 m/s, got -1"},
      {"humans[1].brain.queue[0].radius", 2e6f,
       "bad.snap: state.humans[1].brain.queue[0].radius: expected 0 to 1e+06 m, got 2e+06"},
      {"humans[1].brain.aim_radius", -1.0f, "bad.snap: state.humans[1].brain.aim_radius: expected 0 to 1e+06 m, got -1"},
      {"humans[1].brain.route.radius", 2e6f, "bad.snap: state.humans[1].brain.route.radius: expected 0 to 1e+06 m, got 2e+06"},
      {"humans[1].brain.queue[0].near_sq", 2e12f,
       "bad.snap: state.humans[1].brain.queue[0].near_sq: expected 0 to 1e+12 m, got 2e+12"},
      {"humans[1].brain.queue[0].far_sq", -1.0f,
       "bad.snap: state.humans[1].brain.queue[0].far_sq: expected 0 to 1e+12 m, got -1"},
      {"humans[1].leg_vz", 6.0f, "bad.snap: state.humans[1].leg_vz: expected a launch speed from 0 to 5.5 m/s, got 6"},
      {"humans[1].leg_vz", -1.0f, "bad.snap: state.humans[1].leg_vz: expected a launch speed from 0 to 5.5 m/s, got -1"},
  };
  for (const auto& c : cases) {
    INFO(c.path << " = " << c.value);
    CHECK(restore_error(*m, c.path, c.value) == c.error);
  }
  // At the bounds, and angles (any finite heading), are adopted.
  CHECK(restore_error(*m, "humans[1].position.x", 1e8f).empty());
  CHECK(restore_error(*m, "humans[1].speed", 25.0f).empty());
  CHECK(restore_error(*m, "humans[1].heading", 3e38f).empty());
}

TEST_CASE("warriors hostile: a restored clock, counter or slot the model never makes is refused", "[warriors][hostile]") {
  auto m = fixture_at("melee", 60);
  // Update 60 ran at 60 x 1000 / 30 = 2000 ms.
  REQUIRE(lockstep::test::state_of<State>(*m).clock.now_ms == 2000);
  CHECK(restore_error(*m, "tick", uint64_t{32212255}) ==
        "bad.snap: state.tick: expected at most 32212254 updates (the clock's limit, 2^30 ms), got 32212255");
  CHECK(restore_error(*m, "tick", uint64_t{1000000000}) ==
        "bad.snap: state.tick: expected at most 32212254 updates (the clock's limit, 2^30 ms), got 1000000000");
  CHECK(restore_error(*m, "clock.now_ms", int32_t{2001}) ==
        "bad.snap: state.clock.now_ms: expected 2000 ms, the time of update 60, got 2001");
  const IntCase cases[] = {
      {"humans[1].brain.last_think_ms", 2001,
       "bad.snap: state.humans[1].brain.last_think_ms: expected 0 to 2000, got 2001 (a past update's time)"},
      {"humans[1].brain.last_think_ms", -1073741824,
       "bad.snap: state.humans[1].brain.last_think_ms: expected 0 to 2000, got -1073741824 (a past update's time)"},
      {"humans[1].sectors.time_ms", 2001,
       "bad.snap: state.humans[1].sectors.time_ms: expected -1000000 to 2000, got 2001 (a past update's time, or never)"},
      {"humans[1].sectors.time_ms", -1000001,
       "bad.snap: state.humans[1].sectors.time_ms: expected -1000000 to 2000, got -1000001 (a past update's time, or "
       "never)"},
      // PickSide sums flags + 2 x count: a count of 2^31 - 1 would overflow.
      {"humans[1].sectors.sector[0].count", 2147483647,
       "bad.snap: state.humans[1].sectors.sector[0].count: humans in the sector: expected 0 to 59, got 2147483647"},
      {"humans[1].sectors.sector[7].flags", 16,
       "bad.snap: state.humans[1].sectors.sector[7].flags: flags 1, 2, 4 and 8: expected 0 to 15, got 16"},
      {"humans[1].sectors.sector[3].probe", 2, "bad.snap: state.humans[1].sectors.sector[3].probe: expected 0 to 1, got 2"},
      {"humans[1].brain.steering.avoiding", 60, "bad.snap: state.humans[1].brain.steering.avoiding: not a human slot"},
      {"humans[1].brain.steering.since_decision", 256,
       "bad.snap: state.humans[1].brain.steering.since_decision: a u8 count: expected 0 to 255, got 256"},
      {"humans[1].brain.steering.slow_decisions", -1,
       "bad.snap: state.humans[1].brain.steering.slow_decisions: a u8 count: expected 0 to 255, got -1"},
      {"humans[1].brain.steering.decisions", 256,
       "bad.snap: state.humans[1].brain.steering.decisions: a u8 count: expected 0 to 255, got 256"},
      {"humans[1].brain.route.state", 6, "bad.snap: state.humans[1].brain.route.state: expected 0 to 5, got 6"},
      {"humans[1].brain.route.climb_fails", 32,
       "bad.snap: state.humans[1].brain.route.climb_fails: expected 0 to 31, got 32"},
      {"humans[1].leg_elapsed", 100001, "bad.snap: state.humans[1].leg_elapsed: expected 0 to 100000, got 100001"},
      {"humans[1].leg_updates", -1, "bad.snap: state.humans[1].leg_updates: expected 0 to 100000, got -1"},
      {"humans[1].brain.queue[0].updates", 61,
       "bad.snap: state.humans[1].brain.queue[0].updates: expected 0 to 60, got 61 (at most one an update)"},
      {"humans[1].brain.queue[0].delay_ms", 1073741825,
       "bad.snap: state.humans[1].brain.queue[0].delay_ms: expected -1073741824 to 1073741824, got 1073741825"},
      {"humans[1].brain.queue[0].delay_ms", -1073741825,
       "bad.snap: state.humans[1].brain.queue[0].delay_ms: expected -1073741824 to 1073741824, got -1073741825"},
      // The slots the scenario fills (6 humans, the player in slot 0), as it fills them.
      {"humans[6].in_use", 1, "bad.snap: state.humans[6].in_use: expected 0: the scenario has 6 humans"},
      {"humans[2].in_use", 0, "bad.snap: state.humans[2].in_use: expected 1: the scenario's human \"far\""},
      {"humans[0].has_pad", 0, "bad.snap: state.humans[0].has_pad: \"player\" is a player (pad: true)"},
      {"humans[2].is_ai", 0, "bad.snap: state.humans[2].is_ai: \"far\" is an AI (pad: false)"},
      {"humans[2].index", 2147483647, "bad.snap: state.humans[2].index: expected the slot, 2, got 2147483647"},
  };
  for (const auto& c : cases) {
    INFO(c.path << " = " << c.value);
    CHECK(restore_error(*m, c.path, c.value) == c.error);
  }
  // The largest values the model makes are adopted; limit_ms is only compared.
  CHECK(restore_error(*m, "humans[1].brain.last_think_ms", int32_t{2000}).empty());
  CHECK(restore_error(*m, "humans[1].sectors.sector[0].count", int32_t{59}).empty());
  CHECK(restore_error(*m, "humans[1].brain.queue[0].limit_ms", int32_t{2147483647}).empty());
}

TEST_CASE("warriors hostile, A30: a step past the clock's limit is refused, the state kept", "[warriors][hostile]") {
  auto m = fixture_at("runtime_case", 3);
  auto at_end = m->clone();
  for (auto& leaf : at_end->mutable_leaves()) {
    if (leaf.path == "tick") *static_cast<uint64_t*>(leaf.ref.ptr) = kMaxTicks;
    if (leaf.path == "clock.now_ms") *static_cast<int32_t*>(leaf.ref.ptr) = static_cast<int32_t>(kMaxTicks * 1000 / 30);
  }
  REQUIRE_NOTHROW(m->restore(at_end->snapshot(), "end.snap"));
  CHECK(lockstep::test::state_of<State>(*m).clock.now_ms == 1073741800);  // the last update's time, within 2^30 ms
  const auto before = m->hashes();
  CHECK_THROWS_WITH(m->step_scripted(),
                    "state: tick: the run is at its longest, 32212254 updates (the clock's limit, 2^30 ms = 12.4 days)");
  CHECK(m->hashes() == before);
  // One update earlier the last update still runs, at 1073741800 ms.
  for (auto& leaf : at_end->mutable_leaves()) {
    if (leaf.path == "tick") *static_cast<uint64_t*>(leaf.ref.ptr) = kMaxTicks - 1;
    if (leaf.path == "clock.now_ms")
      *static_cast<int32_t*>(leaf.ref.ptr) = static_cast<int32_t>((kMaxTicks - 1) * 1000 / 30);
  }
  REQUIRE_NOTHROW(m->restore(at_end->snapshot(), "end.snap"));
  m->step_scripted();
  CHECK(lockstep::test::state_of<State>(*m).clock.now_ms == 1073741800);
  CHECK(m->tick() == kMaxTicks);
}

TEST_CASE("warriors hostile, A31: a pad beyond what the pad reports is refused by its field path", "[warriors][hostile]") {
  auto m = fixture_at("player_stick", 10);
  auto pad = [](float x, float y, uint32_t buttons) {
    Input in;
    in.pads.push_back(Pad{0, x, y, buttons});
    return in;
  };
  CHECK(step_error(*m, pad(1.5f, 0, 0)) == "in.bin: input.pads[0].stick_x: a stick axis is in [-1, 1], got 1.5");
  CHECK(step_error(*m, pad(0, -1.25f, 0)) == "in.bin: input.pads[0].stick_y: a stick axis is in [-1, 1], got -1.25");
  CHECK(step_error(*m, pad(0, 1, 0x10000)) == "in.bin: input.pads[0].buttons: the pad has 16 buttons (0 to 65535), got 65536");
  Input twice = pad(0, 1, 0);
  twice.pads.push_back(Pad{0, 1, 0, 0});
  CHECK(step_error(*m, twice) ==
        "in.bin: input.pads[1].human: a second pad for slot 0 (pads[0] is his): one pad a player an update");
  CHECK(step_error(*m, pad(-1, 1, 0xffff)).empty());
}

TEST_CASE("warriors hostile: a command beyond the limits is refused by its field path, nothing applied",
          "[warriors][hostile]") {
  auto m = fixture_at("melee", 10);
  auto one = [](const Command& c) {
    Input in;
    in.commands.push_back(c);
    return in;
  };
  CHECK(step_error(*m, one(move_to(1, Vec3{0, 2e6f, 0}))) ==
        "in.bin: input.commands[0].point.y: expected a coordinate within +-1e+06 m (the world's bound), got 2e+06");
  Command c = move_to(1, Vec3{1, 1, 0});
  c.radius = 2e6f;
  CHECK(step_error(*m, one(c)) == "in.bin: input.commands[0].radius: expected a radius at most 1e+06 m, got 2e+06");
  c = move_to(1, Vec3{1, 1, 0});
  c.delay_ms = 1073741825;
  CHECK(step_error(*m, one(c)) ==
        "in.bin: input.commands[0].delay_ms: expected a delay at most 1073741824 ms (2^30, the clock's limit), got "
        "1073741825");
  Command melee;
  melee.human = 1;
  melee.kind = CommandKind::MoveToHuman;
  melee.target = 0;
  melee.near_dist = 1;
  melee.far_dist = 2e6f;
  CHECK(step_error(*m, one(melee)) == "in.bin: input.commands[0].far: expected a range at most 1e+06 m, got 2e+06");
  // A good command before a bad one is not applied either.
  Input two = one(move_to(1, Vec3{1, 1, 0}));
  two.commands.push_back(move_to(2, Vec3{-3e6f, 0, 0}));
  CHECK(step_error(*m, two) ==
        "in.bin: input.commands[1].point.x: expected a coordinate within +-1e+06 m (the world's bound), got -3e+06");
  // At the limits the command is taken (a time limit may be any int32: Start saturates its sum).
  melee.far_dist = 1e6f;
  melee.delay_ms = 1073741824;
  melee.limit_ms = 2147483647;
  CHECK(step_error(*m, one(melee)).empty());
}

TEST_CASE("warriors hostile, N26: a flight longer than an int32 of updates is bounded before the conversion",
          "[warriors][hostile][route]") {
  // The roofer's route off the roof: step the street until his current waypoint is entered by a jump or
  // drop leg, then put him far above it (a human restored there, or a level made in code) and start the leg.
  WarriorsModel m = fixture("street");
  const int32_t roofer = m.human_slot("roofer");
  bool found = false;
  for (int k = 0; k < 900 && !found; ++k) {
    m.step(m.scripted_input());
    const RouteState& rs = m.state().humans[static_cast<std::size_t>(roofer)].brain.route;
    found = rs.route >= 0 && (m.leg_flags(rs.route, rs.index) & kLinkJump) != 0 &&
            m.state().humans[static_cast<std::size_t>(roofer)].action != kActJump;
  }
  REQUIRE(found);
  // 1e17 m up: t = sqrt(1e17 / 7.84) = 1.1e8 s, 3.4e9 updates, more than an int32 holds.
  human(m, roofer).position.z = 1e17f;
  REQUIRE(m.jump_leg(roofer) == 0);
  CHECK(m.state().humans[static_cast<std::size_t>(roofer)].leg_updates == kMaxLegUpdates);
  // 1e8 m up (the state's bound): 107,143 updates, capped so that the state still restores.
  WarriorsModel m2 = fixture("street");
  for (int k = 0; k < 900; ++k) {
    m2.step(m2.scripted_input());
    const RouteState& rs = m2.state().humans[static_cast<std::size_t>(roofer)].brain.route;
    if (rs.route >= 0 && (m2.leg_flags(rs.route, rs.index) & kLinkJump) != 0 &&
        m2.state().humans[static_cast<std::size_t>(roofer)].action != kActJump)
      break;
  }
  human(m2, roofer).position.z = 1e8f;
  REQUIRE(m2.jump_leg(roofer) == 0);
  CHECK(m2.state().humans[static_cast<std::size_t>(roofer)].leg_updates == kMaxLegUpdates);
  WarriorsModel fresh = fixture("street");
  CHECK_NOTHROW(fresh.set_state(m2.state()));
}

TEST_CASE("warriors hostile, N25: Float_ToUInt of a distance saturates as the R5900 runs it", "[warriors][hostile][route]") {
  // From 2^32 up (a distance of 2^28 m) Float_ToUInt gives 0xffffffff, whose low 16 bits are 0xffff.
  CHECK(nav_distance16({0, 0, 0}, {268435456.0f, 0, 0}) == 0xffff);  // x 16 = 2^32
  CHECK(nav_distance16({0, 0, 0}, {3e38f, 0, 0}) == 0xffff);          // the square overflows: +inf
}

TEST_CASE("warriors hostile: scenario values that would later overflow, hang or never run are refused at their JSON "
          "path",
          "[warriors][hostile][scenario]") {
  const std::string humans = R"("humans": [{"name": "p", "pad": true}, {"name": "a", "position": [0, 5, 0]}])";
  auto with = [&](const std::string& more) { return R"({"model": "warriors", )" + humans + ", " + more + "}"; };
  const std::pair<std::string, const char*> cases[] = {
      {with(R"("ticks": 32212255)"),
       "bad.json: $.ticks: expected at most 32212254 updates (the clock's limit, 2^30 ms), got 32212255"},
      {with(R"("script": [{"tick": 9223372036854775808, "human": "a", "command": "stop"}])"),
       "bad.json: $.script[0].tick: expected a tick below 32212254 (the longest run, 2^30 ms), got 9223372036854775808"},
      {with(R"("pads": [{"tick": 32212254, "human": "p"}])"),
       "bad.json: $.pads[0].tick: expected a tick below 32212254 (the longest run, 2^30 ms), got 32212254"},
      {with(R"("pads": [{"human": "p", "stick_x": 2}])"), "bad.json: $.pads[0].stick_x: a stick axis is in [-1, 1], got 2"},
      {with(R"("pads": [{"human": "p", "stick_y": -3}])"), "bad.json: $.pads[0].stick_y: a stick axis is in [-1, 1], got -3"},
      {with(R"("pads": [{"human": "p", "buttons": 65536}])"),
       "bad.json: $.pads[0].buttons: the pad has 16 buttons (0 to 65535), got 65536"},
      {with(R"("ground": {"z": 2e6})"), "bad.json: $.ground.z: expected a height within +-1e+06 m (the world's bound), got 2e+06"},
      {R"({"model": "warriors", "humans": [{"name": "a", "position": [2e6, 0, 0]}]})",
       "bad.json: $.humans[0].position: expected |x|, |y|, |z| <= 1e+06 m (the world's bound), got x = 2e+06"},
      {with(R"("flags": [{"name": "f", "position": [0, -2e6, 0]}])"),
       "bad.json: $.flags[0].position: expected |x|, |y|, |z| <= 1e+06 m (the world's bound), got y = -2e+06"},
      {with(R"("classes": [{"name": "fast", "walk": 1e30}])"),
       "bad.json: $.classes[0].walk: expected a speed at most 25 m/s, got 1e+30"},
      {with(R"("classes": [{"name": "fast", "stance": 26}])"),
       "bad.json: $.classes[0].stance: expected a speed at most 25 m/s, got 26"},
      {with(R"("classes": [{"name": "far", "melee_far": 2e6}])"),
       "bad.json: $.classes[0].melee_far: expected a range at most 1e+06 m, got 2e+06"},
      {with(R"("script": [{"human": "a", "command": "move_to", "point": [0, 0, 3e6]}])"),
       "bad.json: $.script[0].point: expected |x|, |y|, |z| <= 1e+06 m (the world's bound), got z = 3e+06"},
      {with(R"("script": [{"human": "a", "command": "move_to", "point": [0, 0, 0], "radius": 2e6}])"),
       "bad.json: $.script[0].radius: expected a radius at most 1e+06 m, got 2e+06"},
      {with(R"("script": [{"human": "a", "command": "move_to", "point": [0, 0, 0], "delay_ms": 2147483647}])"),
       "bad.json: $.script[0].delay_ms: expected a delay at most 1073741824 ms (2^30, the clock's limit), got "
       "2147483647"},
      {with(R"("script": [{"human": "a", "command": "move_to_human", "target": "p", "far": 2e6}])"),
       "bad.json: $.script[0].far: expected a range at most 1e+06 m, got 2e+06"},
  };
  for (const auto& [text, error] : cases) {
    INFO(text);
    CHECK(scenario_error(text) == error);
  }
  // The level: every point within the world's bound, hazard spheres at most 1 km.
  const std::string level_head = R"({"model": "warriors", "level": {"areas": [{"area_byte": 1, "polygons": [{"points": )";
  CHECK(scenario_error(level_head + R"([[0, 0, 0], [2e6, 0, 0], [0, 1, 0]]}]}]}})") ==
        "bad.json: $.level.areas[0].polygons[0].points[1]: expected |x|, |y|, |z| <= 1e+06 m (the world's bound), got x "
        "= 2e+06");
  const std::string square = R"([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]}]}])";
  CHECK(scenario_error(level_head + square + R"(, "nodes": [{"position": [0, 0, 5e6], "area": 0}]}})") ==
        "bad.json: $.level.nodes[0].position: expected |x|, |y|, |z| <= 1e+06 m (the world's bound), got z = 5e+06");
  CHECK(scenario_error(level_head + square + R"(, "triangles": [{"a": [0, 0, 0], "b": [1, 0, 0], "c": [0, -2e6, 0]}]}})") ==
        "bad.json: $.level.triangles[0].c: expected |x|, |y|, |z| <= 1e+06 m (the world's bound), got y = -2e+06");
  CHECK(scenario_error(level_head + square + R"(, "hazards": [{"centre": [0, 0, 0], "radius": 2000}]}})") ==
        "bad.json: $.level.hazards[0].radius: expected a radius at most 1000 m, got 2000");
  CHECK(scenario_error(level_head + square + R"(, "hazards": [{"centre": [3e6, 0, 0], "radius": 1}]}})") ==
        "bad.json: $.level.hazards[0].centre: expected |x|, |y|, |z| <= 1e+06 m (the world's bound), got x = 3e+06");
  // At the limits a scenario loads.
  CHECK(scenario_error(with(R"("ticks": 32212254, "classes": [{"name": "fast", "sprint": 25}],
      "pads": [{"tick": 32212253, "human": "p", "stick_x": -1, "buttons": 65535}],
      "script": [{"tick": 32212253, "human": "a", "command": "move_to", "point": [1e6, -1e6, 0], "radius": 1e6,
                  "delay_ms": 1073741824}])"))
            .empty());
}
