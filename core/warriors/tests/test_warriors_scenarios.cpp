// warriors: scenario loading, the bundled fixtures and determinism of the whole tick.
#include <catch2/catch.hpp>

#include <map>

#include "lockstep/core/error.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"
#include "warriors_test_util.h"

using namespace wtest;

namespace {

std::string load_error(const std::string& text) {
  try {
    (void)load_scenario_text(text, "bad.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("warriors scenarios: bad scenarios are refused naming the file and the JSON path", "[warriors][scenario]") {
  const std::string h = R"("humans":[{"name":"a","position":[0,0,0]},{"name":"p","pad":true,"position":[1,0,0]}])";
  auto err = [&](const std::string& rest) { return load_error(R"({"model":"warriors",)" + h + rest + "}"); };
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"zed","command":"stop"}])"),
             Catch::Contains("bad.json") && Catch::Contains("$.script[0].human") && Catch::Contains("no human \"zed\""));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"a","command":"fly"}])"),
             Catch::Contains("$.script[0].command") && Catch::Contains("unknown command"));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"a","command":"move_to","point":[1,2]}])"),
             Catch::Contains("$.script[0].point"));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"a","command":"move_to","point":[1,2,0],"gait":6}])"),
             Catch::Contains("$.script[0].gait"));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"a","command":"goal","goal":"Fly","point":[1,2,0]}])"),
             Catch::Contains("$.script[0].goal") && Catch::Contains("MoveToFlag"));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"p","command":"move_to","point":[1,2,0]}])"),
             Catch::Contains("is a player"));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"a","command":"move_to_human","target":"a"}])"),
             Catch::Contains("$.script[0].target"));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"a","command":"set","field":"colour","value":1}])"),
             Catch::Contains("$.script[0].field") && Catch::Contains("turn_boost"));
  CHECK_THAT(err(R"(,"script":[{"tick":0,"human":"a","command":"move_to","flag":"nowhere"}])"),
             Catch::Contains("no flag \"nowhere\""));
  CHECK_THAT(err(R"(,"pads":[{"tick":0,"human":"a","stick_x":0.5}])"), Catch::Contains("has no pad"));
  CHECK_THAT(err(R"(,"pads":[{"tick":0,"human":"p","stick_x":1.5}])"), Catch::Contains("[-1, 1]"));
  CHECK_THAT(load_error(R"({"model":"warriors","humans":[{"name":"a","class":"ghost"}]})"),
             Catch::Contains("$.humans[0].class") && Catch::Contains("rembrandt"));
  CHECK_THAT(load_error(R"({"model":"warriors","humans":[{"name":"a"},{"name":"a"}]})"),
             Catch::Contains("$.humans[1].name") && Catch::Contains("taken"));
  CHECK_THAT(load_error(R"({"model":"warriors","humans":[{"name":"a","detail":4}]})"), Catch::Contains("$.humans[0].detail"));
  CHECK_THAT(load_error(R"({"model":"warriors","humanz":[]})"), Catch::Contains("$.humanz") && Catch::Contains("unknown field"));
  Json many = Json::parse(R"({"model":"warriors","humans":[]})");
  for (int i = 0; i < 61; ++i) many["humans"].push_back(Json{{"name", "h" + std::to_string(i)}});
  CHECK_THAT(load_error(many.dump()), Catch::Contains("at most 60"));
}

TEST_CASE("warriors scenarios: an input naming a slot without a human is refused before anything changes", "[warriors][scenario]") {
  WarriorsModel m = fixture("runtime_case");
  const auto before = hash_state(m.state());
  Input in;
  Command c;
  c.human = 42;
  in.commands.push_back(c);
  CHECK_THROWS_WITH(m.step(in), Catch::Contains("commands[0].human"));
  Input pad;
  pad.pads.push_back(Pad{1, 0.5f, 0.5f, 0});  // slot 1 is an AI: no pad
  CHECK_THROWS_WITH(m.step(pad), Catch::Contains("pads[0].human"));
  CHECK(hash_state(m.state()) == before);
  CHECK(m.tick() == 0);
}

TEST_CASE("warriors scenarios: a restored state that cannot belong to the scenario is refused", "[warriors][scenario]") {
  WarriorsModel m = fixture("melee");
  run(m, 10);
  State s = m.state();
  s.humans[1].brain.queue[0].target = 77;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("humans[1].brain.queue[0].target"));
  s = m.state();
  s.humans[2].cls = 9;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("humans[2].cls"));
  s = m.state();
  s.humans[0].brain.queue_count = 9;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("queue_count"));
}

TEST_CASE("warriors scenarios: every bundled fixture runs twice to the same hash chain, and a snapshot mid-run resumes it",
          "[warriors][determinism]") {
  for (const char* name : {"runtime_case", "turn_on_spot", "melee", "player_stick", "stop_at_once", "plaza"}) {
    INFO(name);
    auto a = load_scenario_file(lockstep::fixtures::path(std::string("warriors/") + name + ".json"));
    auto b = a->clone();
    std::unique_ptr<Model> resumed;
    const uint64_t ticks = 300;
    for (uint64_t t = 0; t < ticks; ++t) {
      a->step_scripted();
      b->step_scripted();
      if (t == 100) {
        // A fresh model of the same scenario adopts the snapshot and continues on its own.
        resumed = load_scenario_file(lockstep::fixtures::path(std::string("warriors/") + name + ".json"));
        resumed->restore(a->snapshot());
      }
      if (resumed && t > 100) resumed->step_scripted();
      REQUIRE(a->hashes() == b->hashes());
    }
    CHECK(resumed->hashes() == a->hashes());
  }
}

TEST_CASE("warriors scenarios: the plaza keeps 60 humans moving, turning and taking corners", "[warriors][scenario]") {
  WarriorsModel m = fixture("plaza");
  uint32_t ai = 0, players = 0;
  for (const auto& h : m.state().humans) {
    ai += h.in_use && h.is_ai ? 1u : 0u;
    players += h.in_use && h.has_pad ? 1u : 0u;
  }
  CHECK(ai == 59);
  CHECK(players == 1);
  uint64_t moving_ticks = 0;
  for (uint64_t t = 0; t < m.scenario().ticks; ++t) {
    m.step(m.scripted_input());
    for (const auto& h : m.state().humans) moving_ticks += h.speed > 0.0f ? 1u : 0u;
  }
  // Most humans move most of the time, and every part of the locomotion is exercised.
  CHECK(moving_ticks > 60u * m.scenario().ticks / 2);
  const auto& c = m.counters();
  CHECK(c.turn_on_spot > 10);
  CHECK(c.starts > 100);
  CHECK(c.corner_recomputes > 500);
  CHECK(c.move_done_arrived > 50);
  CHECK(c.melee_done > 0);
}

TEST_CASE("warriors scenarios: the field listing carries the original's offsets for trace maps", "[warriors][scenario]") {
  auto m = load_scenario_file(lockstep::fixtures::path("warriors/runtime_case.json"));
  std::map<std::string, std::string> orig;
  for (const auto& l : m->leaves()) orig[l.path] = l.original;
  // Seed 000: "+0x110 the heading to move along, +0x114 the speed ... +0x90 the point aimed at and +0x118 its radius".
  CHECK(orig.at("humans[3].brain.move_heading") == "brain+0x110");
  CHECK(orig.at("humans[3].brain.move_speed") == "brain+0x114");
  CHECK(orig.at("humans[3].brain.aim.y") == "brain+0x90.y");
  CHECK(orig.at("humans[3].brain.aim_radius") == "brain+0x118");
  CHECK(orig.at("humans[3].brain.fail_reason") == "brain+0x284");
  CHECK(orig.at("humans[3].brain.turn_boost") == "brain+0x0b");
  // The human record: speed +0x1ac, stored gait +0x1a8, detail +0x333, index +0x92.
  CHECK(orig.at("humans[0].speed") == "humans+0x1ac");
  CHECK(orig.at("humans[0].gait") == "humans+0x1a8");
  CHECK(orig.at("humans[0].detail") == "humans+0x333");
  CHECK(orig.at("humans[0].index") == "humans+0x92");
  // MoveMelee's side and radial counters, the move action's +0x4c counter.
  CHECK(orig.at("humans[1].brain.queue[0].side") == "queue+0x18");
  CHECK(orig.at("humans[1].brain.queue[0].corner_count") == "queue+0x4c");
  CHECK(orig.at("humans[1].brain.queue_count").empty());
}

TEST_CASE("warriors scenarios, part 3: the sector record, the steering state, giving way and the queues carry their "
          "offsets",
          "[warriors][scenario]") {
  // Seed 000, "Neighbour sectors" (+4 flags, +6 probe, +7 count, +0x40 heading, +0x44 time), "Steering round
  // humans" (the state at brain +0xa0: +0x10 contact, +0x24 avoiding, +0x28/+0x29/+0x2b counters, +0x32/+0x34 the
  // override, +0x3c score), "Giving way" (+0xcc), "Waypoint queues" (+0xec; the record's +0x68, +0x80, +0x88).
  auto m = load_scenario_file(lockstep::fixtures::path("warriors/runtime_case.json"));
  std::map<std::string, std::string> orig;
  for (const auto& l : m->leaves()) orig[l.path] = l.original;
  CHECK(orig.at("humans[1].sectors.sector[2].flags") == "sector+0x04");
  CHECK(orig.at("humans[1].sectors.sector[2].probe") == "sector+0x06");
  CHECK(orig.at("humans[1].sectors.sector[2].count") == "sector+0x07");
  CHECK(orig.at("humans[1].sectors.heading") == "sectors+0x40");
  CHECK(orig.at("humans[1].sectors.time_ms") == "sectors+0x44");
  CHECK(orig.at("humans[1].brain.steering.contact.x") == "steering+0x10.x");
  CHECK(orig.at("humans[1].brain.steering.avoiding") == "steering+0x24");
  CHECK(orig.at("humans[1].brain.steering.decisions") == "steering+0x2b");
  CHECK(orig.at("humans[1].brain.steering.override_speed") == "steering+0x34");
  CHECK(orig.at("humans[1].brain.steering.score") == "steering+0x3c");
  CHECK(orig.at("humans[1].brain.way_flags") == "brain+0xcc");
  CHECK(orig.at("humans[1].brain.queued") == "brain+0xec");
  CHECK(orig.at("humans[1].follows") == "humans+0x1a4");
  CHECK(orig.at("queues[0].humans[3]") == "queues+0x68[3]");
  CHECK(orig.at("queues[0].settled[3]") == "queues+0x80[3]");
  CHECK(orig.at("queues[0].count") == "queues+0x88");
  // GiveWay's own fields: the seed names none of their offsets.
  CHECK(orig.at("humans[1].brain.queue[0].way_heading").empty());
}

TEST_CASE("warriors scenarios: a bad level is refused naming the JSON path (docs/warriors-level.md)", "[warriors][scenario]") {
  const std::string area = R"({"area_byte":1,"polygons":[{"points":[[0,0,0],[4,0,0],[4,4,0]]}]})";
  auto err = [&](const std::string& level, const std::string& rest = "") {
    return load_error(R"({"model":"warriors","humans":[{"name":"a"}],"level":)" + level + rest + "}");
  };
  CHECK_THAT(err(R"({"areas":[{"polygons":[]}]})"), Catch::Contains("$.level.areas[0].polygons"));
  CHECK_THAT(err(R"({"areas":[{"polygons":[{"points":[[0,0,0],[1,0,0]]}]}]})"),
             Catch::Contains("$.level.areas[0].polygons[0].points") && Catch::Contains("at least 3"));
  CHECK_THAT(err(R"({"areas":[{"polygons":[{"points":[[0,0,0],[4,0,0],[4,4,0]],"slabs":[[0,7]]}]}]})"),
             Catch::Contains("$.level.areas[0].polygons[0].slabs[0][1]") && Catch::Contains("no edge 7"));
  CHECK_THAT(err(R"({"areas":[)" + area + R"(],"nodes":[{"position":[1,1,0],"area":3}]})"),
             Catch::Contains("$.level.nodes[0].area") && Catch::Contains("no area 3"));
  CHECK_THAT(err(R"({"areas":[)" + area + "," + area + R"(],"nodes":[{"position":[1,1,0],"area":1},{"position":[2,1,0],"area":0}]})"),
             Catch::Contains("$.level.nodes[1].area") && Catch::Contains("grouped by area"));
  CHECK_THAT(err(R"({"areas":[)" + area + R"(],"nodes":[{"position":[1,1,0],"area":0,"links":[{"from":5}]}]})"),
             Catch::Contains("$.level.nodes[0].links[0].from") && Catch::Contains("no node 5"));
  CHECK_THAT(err(R"({"areas":[)" + area + R"(],"nodes":[{"position":[1,1,0],"area":0},{"position":[2,1,0],"area":0,"links":[{"from":0,"kind":0}]}]})"),
             Catch::Contains("$.level.nodes[1].links[0].kind"));
  CHECK_THAT(err(R"({"areas":[)" + area + R"(],"doors":[{"number":2,"area":0,"hole":1}]})"),
             Catch::Contains("$.level.doors[0].hole"));
  CHECK_THAT(err(R"({"areas":[)" + area + R"(],"hazards":[{"centre":[1,1,0],"radius":0}]})"),
             Catch::Contains("$.level.hazards[0].radius"));
  CHECK_THAT(err(R"({"areas":[)" + area + "]}", R"(,"script":[{"tick":0,"human":"a","command":"open_door","value":9}])"),
             Catch::Contains("$.script[0].value") && Catch::Contains("no door number 9"));
}
