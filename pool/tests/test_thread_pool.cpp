// The pool runs every task once, in the IEEE default mode, and rethrows a task's exception; a
// model stepped on it computes the same hash chain, tick by tick, on 1, 2, 3, 4 and 8 threads
// (as Box2D v3's determinism test does across worker counts).
#include <catch2/catch.hpp>

#include <atomic>
#include <cfenv>
#include <stdexcept>
#include <string>
#include <vector>

#include "lockstep/core/fpenv.h"
#include "lockstep/core/model.h"
#include "lockstep/pool/thread_pool.h"

using lockstep::ThreadPool;

TEST_CASE("thread pool - every task runs exactly once, on as many threads as asked", "[pool]") {
  for (uint32_t threads : {1u, 2u, 3u, 8u}) {
    ThreadPool pool(threads);
    CHECK(pool.threads() == threads);
    for (uint32_t tasks : {0u, 1u, 7u, 1000u}) {
      std::vector<std::atomic<int>> ran(tasks);
      for (auto& r : ran) r = 0;
      pool.run(tasks, [&](uint32_t k) { ran[k].fetch_add(1); });
      for (uint32_t k = 0; k < tasks; ++k) CHECK(ran[k].load() == 1);
    }
  }
}

TEST_CASE("thread pool - tasks run in the IEEE default mode whatever the caller's", "[pool]") {
  // The pool is made after the mode is changed, so its threads start in it too (a new thread
  // inherits its creator's mode); the models' math reads the mode of the SSE/NEON unit, which
  // current_fp_env() reads.
  const int saved = std::fegetround();
  std::fesetround(FE_UPWARD);
  std::atomic<int> wrong{0}, ran{0};
  {
    ThreadPool pool(4);
    pool.run(256, [&](uint32_t) {
      ran.fetch_add(1);
      if (!lockstep::current_fp_env().ieee_default()) wrong.fetch_add(1);
    });
  }
  const bool caller_kept = lockstep::current_fp_env().rounding == 2;  // the caller's own mode is given back
  std::fesetround(saved);
  CHECK(ran.load() == 256);
  CHECK(wrong.load() == 0);
  CHECK(caller_kept);
}

TEST_CASE("thread pool - a task's exception reaches the caller, the lowest task's, after all ended", "[pool]") {
  for (uint32_t threads : {1u, 3u}) {
    INFO(threads << " threads");
    ThreadPool pool(threads);
    std::atomic<int> ran{0};
    try {
      pool.run(50, [&](uint32_t k) {
        ran.fetch_add(1);
        if (k == 17 || k == 40) throw std::runtime_error("task " + std::to_string(k));
      });
      FAIL("no exception");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "task 17");
    }
    CHECK(ran.load() == 50);
    // And the pool still works.
    std::atomic<int> again{0};
    pool.run(10, [&](uint32_t) { again.fetch_add(1); });
    CHECK(again.load() == 10);
  }
}

namespace {
// The whole-state hash after every tick of `ticks` scripted steps of `model` on `threads` threads
// (0: no workers), with a phase observer that does nothing when `observed`.
std::vector<uint64_t> chain_of(lockstep::Model& model, uint64_t ticks, uint32_t threads, bool observed = false) {
  struct Quiet : lockstep::PhaseObserver {
    void phase_begin(uint32_t) override {}
    void phase_end(uint32_t) override {}
  } quiet;
  ThreadPool pool(threads > 0 ? threads : 1, /*eager=*/true);  // small crowds on the threads too
  if (threads > 0) model.set_workers(&pool);
  if (observed) model.set_phase_observer(&quiet);
  std::vector<uint64_t> out;
  for (uint64_t k = 0; k < ticks; ++k) {
    model.step_scripted();
    out.push_back(model.hashes().whole);
  }
  model.set_phase_observer(nullptr);
  model.set_workers(nullptr);
  return out;
}

std::vector<uint64_t> chain(const std::string& scenario, uint64_t ticks, uint32_t threads) {
  // Appended, not `std::string(...) + "/fixtures/" + scenario`: GCC 12 reports a false -Warray-bounds
  // in that operator+ once Catch2's header is precompiled (cmake/lockstep.cmake).
  std::string path = LOCKSTEP_SOURCE_DIR "/fixtures/";
  path += scenario;
  auto model = lockstep::load_scenario_file(path);
  return chain_of(*model, ticks, threads);
}

// The first tick at which two chains differ (their length when none does).
std::size_t first_difference(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::size_t k = 0;
  while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
  return k;
}

// `count` wanderers on a grid in a walled yard with a block of walls in it and a raised floor in a
// corner (the benchmark's crowd, and a yard's geometry): far more entities than one range of the
// model's parallel step, a wall hit, a teleport (a small teleport radius) and a fall among them.
std::string wander_crowd_text(uint32_t count, float teleportradius) {
  return R"({"model": "wander", "name": "crowd", "seed": 5, "ticks": 600,
    "grounds": [{"x0": -26, "z0": -26, "x1": 26, "z1": 26, "height": 0},
                {"x0": 12, "z0": 12, "x1": 26, "z1": 26, "height": 1.5}],
    "walls": [{"x0": -26, "z0": -26, "x1": 26, "z1": -26}, {"x0": 26, "z0": -26, "x1": 26, "z1": 26},
              {"x0": 26, "z0": 26, "x1": -26, "z1": 26}, {"x0": -26, "z0": 26, "x1": -26, "z1": -26},
              {"x0": 3, "z0": -5, "x1": 5, "z1": -5}, {"x0": 5, "z0": -5, "x1": 5, "z1": -1},
              {"x0": 5, "z0": -1, "x1": 3, "z1": -1}, {"x0": 3, "z0": -1, "x1": 3, "z1": -5}],
    "crowds": [{"count": )" +
         std::to_string(count) + R"(, "x0": -24, "z0": -24, "x1": 24, "z1": 24, "y": 0,
                "entity": {"frequency": 90, "radiuslimit": 6, "wanderradius": 12, "teleportradius": )" +
         std::to_string(teleportradius) + R"(}}]})";
}
}  // namespace

TEST_CASE("threads - the station crowd's hash chain is the same on 1, 2, 3, 4 and 8 threads", "[pool][station]") {
  // The demo scenarios and validation crowds: a hall, a corridor, a bottleneck, a counter-flow,
  // a crossing, two floors joined by stairs (hand-overs, walkers meeting by drawn height) and by
  // escalators (boarding, the belt's riders carried front first), and the demo station (fare gates),
  // each long enough for its crowd to meet (contacts, walls, refused moves).
  const std::vector<std::pair<std::string, uint64_t>> runs = {
      {"station/hall.json", 300},
      {"station/corridor.json", 300},
      {"station/rimea9_small_four.json", 300},
      {"station/flows/bottleneck_b100.json", 600},
      {"station/flows/counter_r150_s1.json", 700},
      {"station/flows/crossing_r100.json", 600},
      {"station/stairs.json", 1600},
      {"station/escalators.json", 1600},
      {"station/station.json", 1200},
  };
  for (const auto& [scenario, ticks] : runs) {
    INFO(scenario);
    const auto base = chain(scenario, ticks, 0);
    for (uint32_t threads : {1u, 2u, 3u, 4u, 8u}) {
      INFO(threads << " threads");
      const auto c = chain(scenario, ticks, threads);
      REQUIRE(c.size() == base.size());
      uint64_t first = ticks;
      for (uint64_t k = 0; k < ticks && first == ticks; ++k)
        if (c[k] != base[k]) first = k;
      CHECK(first == ticks);  // no tick differs
    }
  }
}

TEST_CASE("threads - a model without workers of its own steps as before", "[pool]") {
  CHECK(chain("wander/yard.json", 50, 4) == chain("wander/yard.json", 50, 0));
}

TEST_CASE("threads - the wander crowd's hash chain is the same on 1, 2, 3, 4 and 8 threads, observed or not",
          "[pool][wander]") {
  // Each entity's behaviour, force move and physics read and write that entity alone; the model
  // steps them in ranges on the workers, and entity by entity (all three phases at once) unless a
  // phase observer wants the phases one after another. Every way gives the same bits.
  // Crowds above the size from which the model uses its workers (WanderModel::kParallelMin).
  for (const auto& [count, teleport] : std::vector<std::pair<uint32_t, float>>{{2500, 12.0f}, {2100, 4.0f}}) {
    INFO(count << " wanderers, teleport radius " << teleport);
    const std::string text = wander_crowd_text(count, teleport);
    auto make = [&] { return lockstep::load_scenario_text(text, "crowd"); };
    const uint64_t ticks = 200;
    const auto base = chain_of(*make(), ticks, 0);
    CHECK(first_difference(chain_of(*make(), ticks, 0, true), base) == ticks);  // the phases one by one
    for (uint32_t threads : {1u, 2u, 3u, 4u, 8u}) {
      INFO(threads << " threads");
      CHECK(first_difference(chain_of(*make(), ticks, threads), base) == ticks);
      CHECK(first_difference(chain_of(*make(), ticks, threads, true), base) == ticks);
    }
  }
}
