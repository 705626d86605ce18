// wander: ticks per second at 1,000 entities (goal >= 500x real time at 60 Hz,
// i.e. >= 30,000 ticks/s). Counter "x_realtime" is game seconds per wall second.
#include <benchmark/benchmark.h>

#include "fixtures.h"
#include "wander/wander.h"

using namespace lockstep;

static void BM_WanderTick(benchmark::State& st) {
  const auto n = static_cast<uint32_t>(st.range(0));
  wander::WanderModel m(fixtures::wander_crowd(n));
  for (int k = 0; k < 240; ++k) m.step(m.scripted_input());  // past SetUp's 120 frames: everyone busy
  const wander::Input none;
  for (auto _ : st) {
    m.step(none);
    benchmark::ClobberMemory();
  }
  st.counters["ticks_per_s"] = benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["x_realtime"] =
      benchmark::Counter(static_cast<double>(st.iterations()) / 60.0, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_WanderTick)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
