// The phase observer's cost (lockstep/core/phases.h): a step with nobody observing (what every
// command but `profile` runs) against the same step with an observer that does nothing, for each
// bundled model. The label is the whole-state hash after the first 300 steps, with and without
// the observer: the same hash, so the same computation (test_phases.cpp checks every tick).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "fixtures.h"
#include "lockstep/core/model.h"

using namespace lockstep;

namespace {

class NoopObserver final : public PhaseObserver {
 public:
  void step_begin(uint64_t) override { ++calls; }
  void step_end(uint64_t) override { ++calls; }
  void phase_begin(uint32_t) override { ++calls; }
  void phase_end(uint32_t) override { ++calls; }
  uint64_t calls = 0;
};

std::string hash_after(const char* scenario, PhaseObserver* o, int steps) {
  auto m = load_scenario_file(fixtures::path(scenario));
  m->set_phase_observer(o);
  for (int k = 0; k < steps; ++k) m->step_scripted();
  char b[24];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(m->hashes().whole));
  return b;
}

void phase_bench(benchmark::State& st, const char* scenario, bool observed) {
  NoopObserver noop;
  PhaseObserver* o = observed ? &noop : nullptr;
  st.SetLabel("hash after 300 steps " + hash_after(scenario, o, 300));
  noop.calls = 0;
  // Steps from the scenario's 300th tick on; a fresh world every 600 steps (untimed), so every
  // variant times the same stretch of the run.
  std::unique_ptr<Model> m;
  int left = 0;
  for (auto _ : st) {
    if (left == 0) {
      st.PauseTiming();
      m = load_scenario_file(fixtures::path(scenario));
      for (int k = 0; k < 300; ++k) m->step_scripted();
      m->set_phase_observer(o);
      left = 600;
      st.ResumeTiming();
    }
    m->step_scripted();
    --left;
  }
  st.counters["observer_calls_per_step"] =
      benchmark::Counter(static_cast<double>(noop.calls), benchmark::Counter::kAvgIterations);
}

}  // namespace

BENCHMARK_CAPTURE(phase_bench, wander_yard_unobserved, "wander/yard.json", false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(phase_bench, wander_yard_noop_observer, "wander/yard.json", true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(phase_bench, warriors_street_crowd_unobserved, "warriors/street_crowd.json", false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(phase_bench, warriors_street_crowd_noop_observer, "warriors/street_crowd.json", true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(phase_bench, station_hall_unobserved, "station/hall.json", false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(phase_bench, station_hall_noop_observer, "station/hall.json", true)->Unit(benchmark::kMicrosecond);
