// lockstep diff: the first divergent tick and field between two recordings.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "lockstep/verify/rundiff.h"
#include "wander/wander.h"

using namespace lockstep;

namespace {

/// Record `ticks` of a scenario. After step `at` (when the model's tick is at + 1) nudge `path` by one
/// ulp in the recorded run only, as a build that computes differently would; or give step `at` the
/// input `input` instead of the scenario's.
lsr::Recording record(const std::string& scenario, uint64_t ticks, const std::string& name, uint64_t at = UINT64_MAX,
                      const std::string& path = "", const std::string& scenario_override = "",
                      const std::vector<uint8_t>& input = {}) {
  auto m = scenario_override.empty() ? load_scenario_file(fixtures::path(scenario))
                                     : load_scenario_text(scenario_override, "override.json");
  const auto p = (std::filesystem::temp_directory_path() / ("lockstep-diff-" + std::to_string(::getpid()) + name)).string();
  {
    lsr::Recorder rec(p, *m);
    for (uint64_t k = 0; k < ticks; ++k) {
      auto in = m->scripted_input();
      if (k == at && !input.empty()) in = input;
      m->step(in);
      if (k == at && !path.empty())
        for (auto& leaf : m->mutable_leaves())
          if (leaf.path == path) nudge_leaf(leaf.ref);
      rec.tick(in, *m);
    }
    rec.finish();
  }
  auto r = lsr::Recording::open(p);
  std::filesystem::remove(p);
  return r;
}

}  // namespace

TEST_CASE("diff: two recordings of one scenario are the same", "[diff]") {
  const auto a = record("wander/yard.json", 300, "a");
  const auto b = record("wander/yard.json", 300, "b");
  const auto d = verify::diff_recordings(a, b, {});
  CHECK(d.same());
  CHECK(d.notes.empty());
  CHECK(d.common_ticks == 300);
}

TEST_CASE("diff names the first divergent tick, subsystem and field with both values and ULPs", "[diff]") {
  // b's step 311 gets an input the scenario does not script: a small upward kick to entity 12.
  wander::Input kick;
  kick.events.push_back(wander::Event{12, wander::EventKind::Impulse, Vec3{0, 0.5f, 0}});
  ByteSink enc;
  write_canonical(enc, kick);
  const auto a = record("wander/yard.json", 600, "a");
  const auto b = record("wander/yard.json", 600, "b", 311, "", "", enc.out);
  const auto d = verify::diff_recordings(a, b, {});
  REQUIRE(d.tick);
  CHECK(*d.tick == 311);
  CHECK(d.hash_tick == d.tick);
  CHECK(d.not_reproduced.empty());
  CHECK_FALSE(d.keyframe_tick);
  CHECK(d.subsystems == std::vector<std::string>{"entities"});
  REQUIRE(d.fields.size() == 1);
  CHECK(d.fields[0].path == "entities[12].position.y");  // position is listed before velocity
  CHECK(d.fields[0].subsystem == "entities");
  CHECK(d.fields[0].a.text == "0");
  CHECK(ulp_distance(d.fields[0].a, d.fields[0].b) > 1000u);
  CHECK(d.input_a != d.input_b);
  CHECK(d.input_b.find("\"entity\": 12") != std::string::npos);
  CHECK(d.prev_input_a == d.prev_input_b);
}

TEST_CASE("diff of a run this build cannot reproduce shows the fields at the next common keyframe", "[diff]") {
  // A one-ulp change in the recorded run only, as a build that computes differently would make.
  const auto a = record("wander/yard.json", 600, "a");
  const auto b = record("wander/yard.json", 600, "b", 311, "entities[12].startpos.z");
  const auto d = verify::diff_recordings(a, b, {});
  REQUIRE(d.tick);
  CHECK(*d.tick == 311);
  CHECK(d.not_reproduced == std::vector<std::string>{"b"});
  REQUIRE(d.keyframe_tick);
  CHECK(*d.keyframe_tick == 360);  // keyframes every 60 ticks: the first after step 311
  REQUIRE(d.fields.size() == 1);
  CHECK(d.fields[0].path == "entities[12].startpos.z");
  CHECK(ulp_distance(d.fields[0].a, d.fields[0].b) == 1u);
}

TEST_CASE("diff --all lists every divergent field at that tick, in listing order", "[diff]") {
  const auto a = record("wander/yard.json", 200, "a");
  auto text = parse_json_file(fixtures::path("wander/yard.json"));
  text["entities"][1]["speed"] = 3.6;  // the second patroller walks faster from the start
  const auto b = record("", 200, "b", UINT64_MAX, "", text.dump());
  verify::DiffOptions all;
  all.all = true;
  const auto d = verify::diff_recordings(a, b, all);
  REQUIRE(d.tick);
  CHECK(d.notes == std::vector<std::string>{"the recordings embed different scenarios"});
  REQUIRE(d.fields.size() >= 1);
  CHECK(*d.tick == 0);
  CHECK(d.fields[0].path == "entities[1].position.x");  // listing order: the position comes first
  bool speed = false;
  for (const auto& f : d.fields) {
    CHECK(f.path.rfind("entities[1].", 0) == 0);
    speed = speed || f.path == "entities[1].speed";
  }
  CHECK(speed);
}

TEST_CASE("diff's ignore list skips harmless fields to the first one that matters", "[diff]") {
  // smoke_played is a counter of effects; declare it harmless, then nudge it and, later, a position.
  auto a = record("wander/yard.json", 400, "a");
  auto b = record("wander/yard.json", 400, "b", 100, "entities[3].smoke_played");
  verify::DiffOptions opt;
  opt.ignore = {"entities[*].smoke_played"};
  auto d = verify::diff_recordings(a, b, opt);
  CHECK_FALSE(d.tick);  // only an ignored field differs
  REQUIRE(d.hash_tick);
  CHECK(*d.hash_tick == 100);
  opt.ignore.clear();
  d = verify::diff_recordings(a, b, opt);
  REQUIRE(d.tick);
  CHECK(*d.tick == 100);
  CHECK(d.keyframe_tick == 120u);
  CHECK(d.fields[0].path == "entities[3].smoke_played");
}

TEST_CASE("diff says when one recording is longer, and refuses two models", "[diff]") {
  const auto a = record("wander/yard.json", 200, "a");
  const auto b = record("wander/yard.json", 150, "b");
  const auto d = verify::diff_recordings(a, b, {});
  CHECK_FALSE(d.tick);
  CHECK_FALSE(d.same());
  CHECK(d.common_ticks == 150);
}
