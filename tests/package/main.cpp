// An outside project's use of an installed Lockstep (docs/library.md): its own
// model (counter.h), registered beside the bundled ones, recorded to an .lsr,
// reopened and replayed tick by tick; and the bundled wander model, loaded by name.
//
// usage: package_test [WORK_DIR]   (the recordings go there; default: the temp dir)
#include <lockstep/lockstep.h>
#include <lockstep/models/bundled.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "counter.h"

namespace {

int passed = 0, failed = 0;

void check(bool ok, const std::string& what) {
  if (ok) {
    ++passed;
    std::printf("ok   %s\n", what.c_str());
  } else {
    ++failed;
    std::printf("FAIL %s\n", what.c_str());
  }
}

constexpr const char* kCounterScenario = R"({
  "model": "counter", "seed": 42, "drag": 0.95,
  "bodies": [{"x": 0, "mass": 1}, {"x": 3.5, "mass": 2.5}, {"x": -7, "v": 1.25, "mass": 0.75}]
})";

// A tiny wander world: two NPCs on one ground plane.
constexpr const char* kWanderScenario = R"({
  "model": "wander", "seed": 11,
  "grounds": [{"x0": -20, "z0": -20, "x1": 20, "z1": 20, "height": 0}],
  "entities": [{"position": [0, 0, 0], "frequency": 45}, {"position": [4, 0, -2], "wanderradius": 6}]
})";

struct Recorded {
  std::vector<uint64_t> hashes;  ///< whole-state hash after each step
};

/// Record `ticks` steps of `scenario` to `path`; `perturb(model)` runs after step `perturb_at` (if any).
Recorded record(const std::string& scenario, const std::string& path, uint64_t ticks, uint64_t perturb_at = UINT64_MAX) {
  auto m = lockstep::load_scenario_text(scenario, "scenario");
  lockstep::lsr::RecorderOptions opt;
  opt.chunk_ticks = 16;
  opt.keyframe_every = 10;
  lockstep::lsr::Recorder rec(path, *m, opt);
  Recorded out;
  for (uint64_t k = 0; k < ticks; ++k) {
    const auto in = m->scripted_input();
    m->step(in);
    if (k == perturb_at)
      for (auto& leaf : m->mutable_leaves())
        if (leaf.path == "bodies[1].x") lockstep::nudge_leaf(leaf.ref);
    out.hashes.push_back(m->hashes().whole);
    rec.tick(in, *m);
  }
  rec.finish();
  return out;
}

void counter_tests(const std::string& dir) {
  using namespace lockstep;
  register_model_type<game::Counter>();
  const auto names = model_names();
  check(std::find(names.begin(), names.end(), "counter") != names.end() &&
            std::find(names.begin(), names.end(), "wander") != names.end(),
        "the registry knows the outside model and the bundled wander model");

  // Two runs of the same scenario compute the same bits.
  auto a = load_scenario_text(kCounterScenario, "counter.json");
  auto b = load_scenario_text(kCounterScenario, "counter.json");
  for (int k = 0; k < 100; ++k) {
    a->step_scripted();
    b->step_scripted();
  }
  check(a->tick() == 100 && a->hashes() == b->hashes(), "two runs of 100 ticks hash alike");
  check(a->info().subsystems == std::vector<std::string>{"tick", "rng", "bodies", "energy", "score"},
        "the subsystems are the state's top-level fields");

  // Record 100 ticks, reopen, replay.
  const std::string path = dir + "/counter.lsr";
  const Recorded rec = record(kCounterScenario, path, 100);
  check(rec.hashes.back() == a->hashes().whole, "the recorded run ends where the plain run does");
  const auto r = lsr::Recording::open(path);
  check(!r.damage() && r.index_used(), "the recording reopens whole, with its index");
  check(r.header().model == "counter" && r.header().model_version == 1 && r.header().tick_rate_hz == 30 &&
            r.header().seed == 42,
        "the header names the model, its version, tick rate and seed");
  check(r.ticks() == 100 && r.keyframe_count() == 11, "100 ticks, a keyframe every 10 ticks from tick 0 (11)");
  std::vector<uint64_t> scanned;
  r.scan(0, UINT64_MAX, [&](const lsr::TickRecord& t) { scanned.push_back(t.whole); }, [](const lsr::Keyframe&) {});
  check(scanned == rec.hashes, "every tick's stored hash is the recorded run's");

  auto res = replay::run(r, {});
  check(res.ok() && res.checked == 100 && res.keyframes_checked > 0, "replay: all 100 ticks and the keyframes match");
  if (res.first) std::printf("     first divergence at tick %llu\n", static_cast<unsigned long long>(res.first->tick));
  replay::Options sync;
  sync.synctest = true;
  check(replay::run(r, sync).ok(), "replay --synctest: snapshots forget nothing");
  replay::Options part;
  part.from = 37;
  part.to = 81;
  res = replay::run(r, part);
  check(res.ok() && res.checked == 44, "replay of ticks 37-80 from the nearest keyframe");
  auto m = replay::state_at(r, 57);
  check(m->tick() == 57 && m->hashes().whole == rec.hashes[56], "state_at(57) is the recorded state after 57 steps");

  // A recorded run nudged by one ulp after step 50: replay names the step.
  const std::string bad = dir + "/counter-nudged.lsr";
  record(kCounterScenario, bad, 100, 50);
  res = replay::run(lsr::Recording::open(bad), {});
  check(res.first && res.first->tick == 50 && res.first->subsystems == std::vector<std::string>{"bodies"},
        "replay names the first divergent step (50) and subsystem (bodies) of a nudged run");
  std::filesystem::remove(path);
  std::filesystem::remove(bad);
}

void wander_tests(const std::string& dir) {
  using namespace lockstep;
  auto a = load_scenario_text(kWanderScenario, "wander.json");
  auto b = load_scenario_text(kWanderScenario, "wander.json");
  const auto start = a->hashes().whole;
  for (int k = 0; k < 240; ++k) {
    a->step_scripted();
    b->step_scripted();
  }
  check(a->info().name == "wander" && a->tick() == 240, "the bundled wander model loads from inline text and steps");
  check(a->hashes() == b->hashes() && a->hashes().whole != start, "two wander runs of 240 ticks hash alike");
  const std::string path = dir + "/wander.lsr";
  record(kWanderScenario, path, 240);
  check(replay::run(lsr::Recording::open(path), {}).ok(), "a wander recording replays");
  std::filesystem::remove(path);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir =
      argc > 1 ? argv[1] : std::filesystem::temp_directory_path().string();
  const std::string work = dir + "/lockstep-package-test-" + std::to_string(::getpid());
  std::filesystem::create_directories(work);
  try {
    lockstep::register_bundled_models();
    counter_tests(work);
    wander_tests(work);
  } catch (const std::exception& e) {
    ++failed;
    std::printf("FAIL unexpected exception: %s\n", e.what());
  }
  std::filesystem::remove_all(work);
  std::printf("package test: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
