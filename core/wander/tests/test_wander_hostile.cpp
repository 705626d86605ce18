// Hostile inputs, states and scenarios for the wander model (docs/wander-world.md, "Limits";
// docs/spec-notes.md W18-W20): each is refused with the field or JSON path at fault, exit 2 in the
// command line, and the model is left as it was. Every case is made by a small generator here: a
// real state of a bundled fixture run with one field broken, an input with one value out of range,
// a scenario with one key out of range.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"
#include "hostile.h"
#include "state_of.h"

using namespace lockstep;
using namespace lockstep::wander;

using lockstep::test::restore_error;
using lockstep::test::scenario_error;
using lockstep::test::step_error;

namespace {

/// The yard (40 NPCs, every branch of seed 004) after `ticks` frames, through the Model interface.
std::unique_ptr<Model> yard_at(int ticks) {
  auto m = load_scenario_file(fixtures::path("wander/yard.json"));
  for (int k = 0; k < ticks; ++k) m->step_scripted();
  return m;
}

Input one_event(uint32_t entity, EventKind kind, Vec3 value) {
  Input in;
  in.events.push_back(Event{entity, kind, value});
  return in;
}


struct FloatCase {
  const char* path;
  float value;
  const char* error;
};

}  // namespace

TEST_CASE("wander hostile: every state of the yard run restores into a fresh model and carries on bit for bit",
          "[wander][hostile]") {
  auto a = load_scenario_file(fixtures::path("wander/yard.json"));
  for (uint64_t t = 0; t < a->default_ticks(); ++t) {
    a->step_scripted();
    auto b = load_scenario_file(fixtures::path("wander/yard.json"));
    REQUIRE_NOTHROW(b->restore(a->snapshot(), "yard.snap"));
    REQUIRE(b->hashes() == a->hashes());
    if (t % 600 == 0) {
      for (int k = 0; k < 60; ++k) {
        a->step_scripted();
        b->step_scripted();
      }
      REQUIRE(b->hashes() == a->hashes());
      t += 60;
    }
  }
}

TEST_CASE("wander hostile: a restored float beyond the limits is refused by its field path", "[wander][hostile]") {
  auto m = yard_at(700);
  const FloatCase cases[] = {
      {"entities[3].position.x", 2e6f,
       "bad.snap: state.entities[3].position.x: expected a coordinate (the world's bound) within +-1e+06, got 2e+06"},
      {"entities[3].startpos.z", -2e6f,
       "bad.snap: state.entities[3].startpos.z: expected a coordinate (the world's bound) within +-1e+06, got -2e+06"},
      {"entities[3].forcetarget.y", 3e6f,
       "bad.snap: state.entities[3].forcetarget.y: expected a coordinate (twice the world's bound) within +-2e+06, got "
       "3e+06"},
      {"entities[3].velocity.y", -2e4f,
       "bad.snap: state.entities[3].velocity.y: expected a velocity in units/s (the speed bound) within +-10000, got "
       "-20000"},
      {"entities[3].speed", 2e4f, "bad.snap: state.entities[3].speed: expected a speed from 0 to 10000 units/s, got 20000"},
      {"entities[3].speed", -1.0f, "bad.snap: state.entities[3].speed: expected a speed from 0 to 10000 units/s, got -1"},
      {"entities[3].radius", 0.0f, "bad.snap: state.entities[3].radius: expected a radius > 0 and at most 1e+06, got 0"},
      {"entities[3].radius", 2e6f, "bad.snap: state.entities[3].radius: expected a radius > 0 and at most 1e+06, got 2e+06"},
      {"entities[3].height", 2e6f, "bad.snap: state.entities[3].height: expected a height within +-1e+06, got 2e+06"},
      {"entities[3].initialheight", -2e6f,
       "bad.snap: state.entities[3].initialheight: expected a height within +-1e+06, got -2e+06"},
      {"entities[3].forcemultiplier", 2.0f,
       "bad.snap: state.entities[3].forcemultiplier: expected a multiplier from 0 to 1, got 2"},
      {"entities[3].forcemultiplier", -0.5f,
       "bad.snap: state.entities[3].forcemultiplier: expected a multiplier from 0 to 1, got -0.5"},
      {"entities[3].forcetimer", 501.0f,
       "bad.snap: state.entities[3].forcetimer: expected a failsafe from -16777216 to 500 frames, got 501"},
      {"entities[3].forcetimer", -2e7f,
       "bad.snap: state.entities[3].forcetimer: expected a failsafe from -16777216 to 500 frames, got -2e+07"},
      {"entities[3].actioncooldown", 2e7f,
       "bad.snap: state.entities[3].actioncooldown: expected a cooldown within +-16777216 frames, got 2e+07"},
      {"entities[3].walkcooldown", -1.0f,
       "bad.snap: state.entities[3].walkcooldown: expected a walk time from 0 to 16777216 frames, got -1"},
      {"entities[3].walkcooldown", 2e7f,
       "bad.snap: state.entities[3].walkcooldown: expected a walk time from 0 to 16777216 frames, got 2e+07"},
      {"entities[3].frequency", 0.5f,
       "bad.snap: state.entities[3].frequency: expected a frequency from 1 to 16777216 frames, got 0.5"},
      {"entities[3].frequency", 2e7f,
       "bad.snap: state.entities[3].frequency: expected a frequency from 1 to 16777216 frames, got 2e+07"},
      {"entities[3].wanderradius", -1.0f,
       "bad.snap: state.entities[3].wanderradius: expected a radius from 0 to 1e+06, got -1"},
      {"entities[3].wanderradius", 2e6f,
       "bad.snap: state.entities[3].wanderradius: expected a radius from 0 to 1e+06, got 2e+06"},
  };
  for (const auto& c : cases) {
    INFO(c.path << " = " << c.value);
    CHECK(restore_error(*m, c.path, c.value) == c.error);
  }
  // Values inside the limits, and fields only ever compared (any finite value), are adopted.
  CHECK(restore_error(*m, "entities[3].position.x", 1e6f).empty());
  CHECK(restore_error(*m, "entities[3].teleportradius", 3e38f).empty());
  CHECK(restore_error(*m, "entities[3].yaw", -3e38f).empty());
}

TEST_CASE("wander hostile: a restored counter, index or size the model never makes is refused", "[wander][hostile]") {
  auto m = yard_at(700);
  CHECK(restore_error(*m, "tick", uint64_t{4294967297}) ==
        "bad.snap: state.tick: expected at most 4294967296 frames (2^32, the longest run), got 4294967297");
  CHECK(restore_error(*m, "entities[5].trycount", int32_t{50}) ==
        "bad.snap: state.entities[5].trycount: expected 0 to 49 (50 ends a round), got 50");
  CHECK(restore_error(*m, "entities[5].trycount", int32_t{-1}) ==
        "bad.snap: state.entities[5].trycount: expected 0 to 49 (50 ends a round), got -1");
  CHECK(restore_error(*m, "entities[5].trycount", int32_t{2147483647}) ==
        "bad.snap: state.entities[5].trycount: expected 0 to 49 (50 ends a round), got 2147483647");
  CHECK(restore_error(*m, "entities[5].maxtries", int32_t{21}) ==
        "bad.snap: state.entities[5].maxtries: expected 0 to 20 (20 teleports home), got 21");
  CHECK(restore_error(*m, "entities[5].maxtries", int32_t{-1}) ==
        "bad.snap: state.entities[5].maxtries: expected 0 to 20 (20 teleports home), got -1");
  // Entity 0 patrols path 0.
  const auto nodes = static_cast<int32_t>(
      fixtures::load_wander("wander/yard.json").paths[0].size());
  CHECK(restore_error(*m, "entities[0].currentmode", nodes) ==
        "bad.snap: state.entities[0].currentmode: expected a node of path 0, 0 to " + std::to_string(nodes - 1) +
            ", got " + std::to_string(nodes));
  CHECK(restore_error(*m, "entities[0].currentmode", int32_t{-1}) ==
        "bad.snap: state.entities[0].currentmode: expected a node of path 0, 0 to " + std::to_string(nodes - 1) +
            ", got -1");
  CHECK(restore_error(*m, "entities[0].currentmode", nodes - 1).empty());
  // The largest values the model makes are adopted.
  CHECK(restore_error(*m, "entities[5].trycount", int32_t{49}).empty());
  CHECK(restore_error(*m, "entities[5].maxtries", int32_t{20}).empty());
  CHECK(restore_error(*m, "tick", uint64_t{4294967296}).empty());
}

TEST_CASE("wander hostile: a state with another entity count is refused", "[wander][hostile]") {
  auto yard = yard_at(10);
  auto hitwall = load_scenario_file(fixtures::path("wander/hitwall.json"));
  const auto before = yard->hashes();
  try {
    yard->restore(hitwall->snapshot(), "other.snap");
    FAIL("a state of another entity count was adopted");
  } catch (const InputError& e) {
    const auto hw = lockstep::test::state_of<State>(*hitwall);
    CHECK(std::string(e.what()) == "other.snap: state.entities: " + std::to_string(hw.entities.size()) +
                                       " entities, this scenario has 40");
  }
  CHECK(yard->hashes() == before);
}

TEST_CASE("wander hostile: a step at the longest run is refused, the state kept", "[wander][hostile]") {
  auto m = yard_at(5);
  auto at_end = m->clone();
  for (auto& leaf : at_end->mutable_leaves())
    if (leaf.path == "tick") *static_cast<uint64_t*>(leaf.ref.ptr) = kMaxTicks;
  REQUIRE_NOTHROW(m->restore(at_end->snapshot(), "end.snap"));
  const auto before = m->hashes();
  CHECK_THROWS_WITH(m->step_scripted(), "state: tick: the run is at its longest, 4294967296 frames (2^32)");
  CHECK(m->hashes() == before);
}

TEST_CASE("wander hostile: an input event beyond the limits is refused by its field path, nothing applied",
          "[wander][hostile]") {
  auto m = yard_at(100);
  CHECK(step_error(*m, one_event(99, EventKind::Impulse, Vec3{})) ==
        "in.bin: input.events[0].entity: no entity 99 (the world has 40)");
  Input two = one_event(1, EventKind::Warp, Vec3{1, 0, 1});
  two.events.push_back(Event{2, static_cast<EventKind>(7), Vec3{}});
  CHECK(step_error(*m, two) == "in.bin: input.events[1].kind: unknown event kind 7");
  CHECK(step_error(*m, one_event(3, EventKind::Impulse, Vec3{0, 2e4f, 0})) ==
        "in.bin: input.events[0].value.y: expected an impulse within +-10000 units/s per component (the speed "
        "bound), got 20000");
  CHECK(step_error(*m, one_event(3, EventKind::Warp, Vec3{2e6f, 0, 0})) ==
        "in.bin: input.events[0].value.x: expected a place within +-1e+06 (the world's bound), got 2e+06");
  CHECK(step_error(*m, one_event(3, EventKind::SetStart, Vec3{0, 0, -2e6f})) ==
        "in.bin: input.events[0].value.z: expected a place within +-1e+06 (the world's bound), got -2e+06");
  // An earlier good event is not applied when a later one is bad.
  Input mixed = one_event(3, EventKind::Warp, Vec3{5, 0, 5});
  mixed.events.push_back(Event{4, EventKind::Impulse, Vec3{-1e5f, 0, 0}});
  CHECK(step_error(*m, mixed) ==
        "in.bin: input.events[1].value.x: expected an impulse within +-10000 units/s per component (the speed "
        "bound), got -1e+05");
  // At the limits, and a stop_smooth (which reads no value), are stepped.
  CHECK(step_error(*m, one_event(3, EventKind::Impulse, Vec3{1e4f, -1e4f, 1e4f})).empty());
  CHECK(step_error(*m, one_event(3, EventKind::Warp, Vec3{-1e6f, 0, 1e6f})).empty());
  CHECK(step_error(*m, one_event(3, EventKind::StopSmooth, Vec3{3e38f, 0, 0})).empty());
}

TEST_CASE("wander hostile, W18: a body falling with no ground below ends held at the world's edge, its state "
          "restorable",
          "[wander][hostile][world]") {
  // Gravity at its bound (1000 units/s^2) and no ground: the speed bound is reached after 600 frames, the
  // world's floor after about 6300. Without the hold both would grow without end (and a snapshot of the
  // state would no longer restore).
  // A wanderer waiting out its longest cooldown, never too far to be warped home: it only falls.
  auto m = load_scenario_text(R"({"model": "wander", "physics": {"gravity": 1000},
      "entities": [{"default_behaviour": false, "actioncooldown": 16777216, "teleportradius": 1e38}]})",
                              "fall.json");
  for (int k = 0; k < 10000; ++k) m->step_scripted();
  const auto e = lockstep::test::state_of<State>(*m).entities[0];
  CHECK(e.position.y == -kWorldBound);
  CHECK(e.velocity.y == -kMaxSpeed);
  auto b = load_scenario_text(m->scenario_json(), "fall.json");
  CHECK_NOTHROW(b->restore(m->snapshot(), "fall.snap"));
  CHECK(b->hashes() == m->hashes());
}

TEST_CASE("wander hostile, W18: impulses adding up on a kinematic body are held at the speed bound",
          "[wander][hostile][world]") {
  // A kinematic SetPath body is never moved by its velocity, so nothing but the hold bounds it.
  std::string script;
  for (int t = 0; t < 5; ++t)
    script += std::string(t ? ", " : "") + R"({"tick": )" + std::to_string(t) +
              R"(, "entity": 0, "kind": "impulse", "value": [10000, 0, -10000]})";
  auto m = load_scenario_text(R"({"model": "wander", "grounds": [{"x0": -10, "z0": -10, "x1": 10, "z1": 10}],
      "paths": [[[0, 0, 0]]], "entities": [{"behaviour": "setpath", "path": 0, "kinematic": true, "gravity": false}],
      "script": [)" + script + "]}",
                              "push.json");
  for (int k = 0; k < 5; ++k) m->step_scripted();
  const auto e = lockstep::test::state_of<State>(*m).entities[0];
  CHECK(e.velocity.x == kMaxSpeed);
  CHECK(e.velocity.z == -kMaxSpeed);
  auto b = load_scenario_text(m->scenario_json(), "push.json");
  CHECK_NOTHROW(b->restore(m->snapshot(), "push.snap"));
}

TEST_CASE("wander hostile: scenario values that would later overflow are refused at their JSON path",
          "[wander][hostile][scenario]") {
  const std::string one = R"("entities": [{}])";
  CHECK(scenario_error(R"({"model": "wander", "ticks": 4294967297})") ==
        "bad.json: $.ticks: expected at most 4294967296 frames (2^32, the longest run), got 4294967297");
  CHECK(scenario_error(R"({"model": "wander", )" + one +
                       R"(, "script": [{"tick": 9223372036854775808, "entity": 0, "kind": "impulse"}]})") ==
        "bad.json: $.script[0].tick: expected a tick below 4294967296 (the longest run), got 9223372036854775808");
  CHECK(scenario_error(R"({"model": "wander", )" + one +
                       R"(, "script": [{"entity": 0, "kind": "impulse", "value": [0, 20000, 0]}]})") ==
        "bad.json: $.script[0].value: expected an impulse within +-10000 units/s per component (the speed bound), "
        "got y = 20000");
  CHECK(scenario_error(R"({"model": "wander", )" + one +
                       R"(, "script": [{"entity": 0, "kind": "warp", "value": [2e6, 0, 0]}]})") ==
        "bad.json: $.script[0].value: expected a place within +-1e+06 (the world's bound), got x = 2e+06");
  CHECK(scenario_error(R"({"model": "wander", "physics": {"gravity": 2000}})") ==
        "bad.json: $.physics.gravity: expected at most 1000 units/s^2, got 2000");
  CHECK(scenario_error(R"({"model": "wander", "physics": {"step_up": 2e6}})") ==
        "bad.json: $.physics.step_up: expected at most 1e+06 (the world's bound), got 2e+06");
  CHECK(scenario_error(R"({"model": "wander", "grounds": [{"x0": 0, "z0": 0, "x1": 2e6, "z1": 1}]})") ==
        "bad.json: $.grounds[0].x1: expected a coordinate within +-1e+06 (the world's bound), got 2e+06");
  CHECK(scenario_error(R"({"model": "wander", "grounds": [{"x1": 1, "z1": 1, "height": -3e7}]})") ==
        "bad.json: $.grounds[0].height: expected a coordinate within +-1e+06 (the world's bound), got -3e+07");
  CHECK(scenario_error(R"({"model": "wander", "walls": [{"x0": 0, "z0": -2e6, "x1": 1, "z1": 1}]})") ==
        "bad.json: $.walls[0].z0: expected a coordinate within +-1e+06 (the world's bound), got -2e+06");
  CHECK(scenario_error(R"({"model": "wander", "paths": [[[0, 0, 0], [0, 5e6, 0]]]})") ==
        "bad.json: $.paths[0][1]: expected |x|, |y|, |z| <= 1e+06 (the world's bound), got y = 5e+06");
  CHECK(scenario_error(R"({"model": "wander", "crowds": [{"count": 1, "x1": 1, "z1": 1, "y": 2e6}]})") ==
        "bad.json: $.crowds[0].y: expected a coordinate within +-1e+06 (the world's bound), got 2e+06");
  const std::pair<const char*, const char*> entity_cases[] = {
      {R"("position": [0, 0, -2e6])",
       "bad.json: $.entities[0].position: expected |x|, |y|, |z| <= 1e+06 (the world's bound), got z = -2e+06"},
      {R"("radius": 2e6)", "bad.json: $.entities[0].radius: expected a radius at most 1e+06, got 2e+06"},
      {R"("speed": 2e4)", "bad.json: $.entities[0].speed: expected a speed at most 10000 units/s, got 20000"},
      {R"("frequency": 0.5)", "bad.json: $.entities[0].frequency: expected a frequency from 1 to 16777216 frames, got 0.5"},
      {R"("frequency": 1e-44)",
       "bad.json: $.entities[0].frequency: expected a frequency from 1 to 16777216 frames, got 1e-44"},
      {R"("frequency": 2e7)", "bad.json: $.entities[0].frequency: expected a frequency from 1 to 16777216 frames, got 2e+07"},
      {R"("wanderradius": 2e6)", "bad.json: $.entities[0].wanderradius: expected a radius at most 1e+06, got 2e+06"},
      {R"("actioncooldown": -2e7)",
       "bad.json: $.entities[0].actioncooldown: expected a cooldown within +-16777216 frames, got -2e+07"},
      {R"("height": 2e6)", "bad.json: $.entities[0].height: expected a height within +-1e+06, got 2e+06"},
      {R"("initialheight": 2e6)", "bad.json: $.entities[0].initialheight: expected a height within +-1e+06, got 2e+06"},
  };
  for (const auto& [key, error] : entity_cases) {
    INFO(key);
    CHECK(scenario_error(std::string(R"({"model": "wander", "entities": [{)") + key + "}]}") == error);
  }
  // At the limits a scenario loads.
  CHECK(scenario_error(R"({"model": "wander", "ticks": 4294967296, "physics": {"gravity": 1000},
      "entities": [{"position": [1e6, -1e6, 1e6], "speed": 10000, "frequency": 1}],
      "script": [{"tick": 4294967295, "entity": 0, "kind": "impulse", "value": [10000, 0, -10000]}]})")
            .empty());
}
