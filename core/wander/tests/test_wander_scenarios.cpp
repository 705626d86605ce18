// The bundled wander scenarios (fixtures/wander/): each per-branch fixture
// shows its branch, and the default yard shows every branch of seed 004.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"

using namespace lockstep;
using namespace lockstep::wander;

namespace {
WanderModel run_fixture(const std::string& name, uint64_t ticks = 0) {
  WanderModel m(fixtures::load_wander("wander/" + name));
  const uint64_t n = ticks ? ticks : m.scenario().ticks;
  for (uint64_t k = 0; k < n; ++k) m.step(m.scripted_input());
  return m;
}
}  // namespace

TEST_CASE("hitwall.json: force moves into the wall end by the hitwall early exit", "[wander][fixture]") {
  const auto m = run_fixture("hitwall.json");
  CHECK(m.counters().early_exit_hitwall > 3);
  for (const auto& e : m.state().entities) CHECK(e.position.x <= 1.2f - e.radius + 1e-4f);
}

TEST_CASE("no_ground_ahead.json: the detector stops the wanderer at the terrace edge", "[wander][fixture]") {
  WanderModel m(fixtures::load_wander("wander/no_ground_ahead.json"));
  for (uint64_t k = 0; k < m.scenario().ticks; ++k) {
    m.step(m.scripted_input());
    REQUIRE(m.state().entities[0].position.y == 6.0f);  // never falls
  }
  CHECK(m.counters().early_exit_no_ground > 3);
  CHECK(m.counters().early_exit_airborne == 0);
}

TEST_CASE("airborne.json: without a detector it walks off, the early exit stops it in the air, and it is warped home",
          "[wander][fixture]") {
  const auto m = run_fixture("airborne.json");
  CHECK(m.counters().early_exit_airborne >= 1);
  CHECK(m.counters().teleport >= 1);
}

TEST_CASE("return_home.json: maxtries 10 walks home, 20 teleports, in that order", "[wander][fixture]") {
  WanderModel m(fixtures::load_wander("wander/return_home.json"));
  uint64_t home_tick = 0, teleport_tick = 0;
  for (uint64_t k = 0; k < m.scenario().ticks && !teleport_tick; ++k) {
    const auto before = m.counters();
    m.step(m.scripted_input());
    if (m.counters().return_home > before.return_home && !home_tick) {
      home_tick = m.tick();
      CHECK(m.state().entities[0].maxtries == 11);
      CHECK(m.counters().rounds_exhausted == 10);
    }
    if (m.counters().teleport > before.teleport) {
      teleport_tick = m.tick();
      CHECK(m.counters().rounds_exhausted == 19);  // maxtries 11 + 9 more rounds = 20
      CHECK(m.state().entities[0].smoke_played == 2);
      CHECK(m.state().entities[0].maxtries == 0);
    }
  }
  CHECK(home_tick > 0);
  CHECK(teleport_tick > home_tick);
  // The walk home at 0.3 is slower than half the speed, so branch 4 ends it after 61 frames.
  CHECK(m.counters().stop_slow >= 1);
}

TEST_CASE("teleport.json: walking past teleportradius warps the wanderer home", "[wander][fixture]") {
  const auto m = run_fixture("teleport.json");
  CHECK(m.counters().teleport >= 3);
  for (const auto& e : m.state().entities) CHECK(distance(e.position, e.startpos) <= 3.0f + 0.1f);
}

TEST_CASE("setpath.json: patrollers take every leg of their loop", "[wander][fixture]") {
  const auto m = run_fixture("setpath.json");
  CHECK(m.counters().setpath_moves >= 8);
  CHECK(m.counters().arrived >= 8);
}

TEST_CASE("yard.json, the default scenario: every branch of seed 004 happens within its 3600 ticks",
          "[wander][fixture][yard]") {
  const auto m = run_fixture("yard.json");
  const Counters& c = m.counters();
  CHECK(m.state().entities.size() == 40);
  CHECK(c.early_exit_hitwall > 0);
  CHECK(c.early_exit_airborne > 0);
  CHECK(c.early_exit_no_ground > 0);
  CHECK(c.wander_accepted > 0);
  CHECK(c.wander_refused > 0);
  CHECK(c.rounds_exhausted > 0);
  CHECK(c.return_home > 0);
  CHECK(c.teleport > 0);
  CHECK(c.stop_slow > 0);
  CHECK(c.idle > 0);
  CHECK(c.arrived > 0);
  CHECK(c.setpath_moves > 0);
  uint32_t smoke = 0;
  for (const auto& e : m.state().entities) smoke += e.smoke_played;
  CHECK(smoke > 0);
}

TEST_CASE("Two runs of the yard compute the same hash chain, tick by tick", "[wander][determinism]") {
  auto a = load_scenario_file(fixtures::path("wander/yard.json"));
  auto b = load_scenario_file(fixtures::path("wander/yard.json"));
  for (int k = 0; k < 600; ++k) {
    a->step_scripted();
    b->step_scripted();
    REQUIRE(a->hashes() == b->hashes());
  }
}

TEST_CASE("Stepping through the model contract with encoded inputs equals stepping the model", "[wander][contract]") {
  auto a = load_scenario_file(fixtures::path("wander/yard.json"));
  WanderModel direct(fixtures::load_wander("wander/yard.json"));
  for (int k = 0; k < 1000; ++k) {
    a->step(a->scripted_input());
    direct.step(direct.scripted_input());
  }
  CHECK(a->hashes() == hash_state(direct.state()));
}

TEST_CASE("A snapshot restored into a fresh world carries on with the same bits (sync test)", "[wander][snapshot]") {
  auto a = load_scenario_file(fixtures::path("wander/yard.json"));
  for (int k = 0; k < 700; ++k) a->step_scripted();
  auto b = load_scenario_file(fixtures::path("wander/yard.json"));
  b->restore(a->snapshot());
  REQUIRE(b->hashes() == a->hashes());
  REQUIRE(b->tick() == 700);
  for (int k = 0; k < 1000; ++k) {
    a->step_scripted();
    b->step_scripted();
    REQUIRE(a->hashes() == b->hashes());
  }
}

TEST_CASE("Scenario errors name the file, the JSON path and what was expected", "[wander][scenario]") {
  auto error_of = [](const std::string& text) {
    try {
      load_scenario_text(text, "bad.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of(R"({"model": "wander", "entities": [{"positon": [0,0,0]}]})")
            .find("bad.json: $.entities[0].positon: unknown field (known fields: position, yaw,") == 0);
  CHECK(error_of(R"({"model": "wander", "entities": [{"behaviour": "roam"}]})") ==
        "bad.json: $.entities[0].behaviour: expected \"wander\" or \"setpath\", got \"roam\"");
  CHECK(error_of(R"({"model": "wander", "entities": [{"behaviour": "setpath"}]})") ==
        "bad.json: $.entities[0].path: a setpath entity needs a path index from 0 to -1");
  CHECK(error_of(R"({"model": "wander", "walls": [{"x0": 1, "z0": 1, "x1": 1, "z1": 1}]})") ==
        "bad.json: $.walls[0]: a wall needs two distinct ends");
  CHECK(error_of(R"({"model": "wander", "entities": [{"radius": 0}]})") ==
        "bad.json: $.entities[0].radius: expected a radius > 0");
  CHECK(error_of(R"({"model": "wander", "script": [{"entity": 0, "kind": "warp"}]})") ==
        "bad.json: $.script[0].entity: no entity 0 (the scenario has 0)");
  CHECK(error_of(R"({"model": "wander", "entities": [{}], "script": [{"kind": "jump"}]})") ==
        "bad.json: $.script[0].kind: expected impulse, warp, set_start or stop_smooth, got \"jump\"");
  CHECK(error_of(R"({"model": "warriorz"})") == "bad.json: $.model: unknown model \"warriorz\" (known: station, wander, warriors)");
  CHECK(error_of(R"({"entities": []})") == "bad.json: $.model: expected the model's name as a string (one of: station, wander, warriors)");
  CHECK(error_of(R"([1, 2])") == "bad.json: $: expected a scenario object, got an array");
  CHECK(error_of(R"({"model": "wander", "seed": "x"})") == "bad.json: $.seed: expected an integer, got a string");
}

TEST_CASE("A restored state that cannot belong to the scenario is refused and the state kept", "[wander][snapshot]") {
  auto m = load_scenario_file(fixtures::path("wander/setpath.json"));
  for (int k = 0; k < 50; ++k) m->step_scripted();
  auto other = m->clone();
  auto leaves = other->mutable_leaves();
  for (auto& leaf : leaves)
    if (leaf.path == "entities[0].path") *static_cast<int32_t*>(leaf.ref.ptr) = 7;
  const auto before = m->hashes();
  CHECK_THROWS_WITH(m->restore(other->snapshot(), "bad.snap"), "bad.snap: state.entities[0].path: no path 7 in this scenario (it has 1)");
  CHECK(m->hashes() == before);
}

TEST_CASE("A number beyond a double in a scenario is bad input, not a crash", "[wander][scenario]") {
  CHECK_THROWS_AS(load_scenario_text(R"({"model": "wander", "seed": 1e400})", "big.json"), InputError);
}
