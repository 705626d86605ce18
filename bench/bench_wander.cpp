// wander: ticks per second at 1,000 entities (goal >= 500x real time at 60 Hz,
// i.e. >= 30,000 ticks/s). Counter "x_realtime" is game seconds per wall second.
#include <benchmark/benchmark.h>

#include "fixtures.h"
#include "lockstep/pool/thread_pool.h"
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

// The same crowd over a fixed window: every iteration steps ticks 240 to 840 (ten seconds of game
// time, everyone busy) from the same state, so the figure does not depend on how many ticks the
// harness chooses to run (BM_WanderTick goes on from wherever the last iteration left the crowd).
// On `workers` when given (BM_WanderWindowThreads).
static void step_window(benchmark::State& st, Workers* workers) {
  const auto n = static_cast<uint32_t>(st.range(0));
  constexpr int kWindow = 600;
  wander::WanderModel start(fixtures::wander_crowd(n));
  for (int k = 0; k < 240; ++k) start.step(start.scripted_input());
  const wander::Input none;
  for (auto _ : st) {
    st.PauseTiming();
    wander::WanderModel m = start;
    m.set_workers(workers);
    st.ResumeTiming();
    for (int k = 0; k < kWindow; ++k) m.step(none);
    benchmark::ClobberMemory();
  }
  const double ticks = static_cast<double>(st.iterations()) * kWindow;
  st.counters["ticks_per_s"] = benchmark::Counter(ticks, benchmark::Counter::kIsRate);
  st.counters["x_realtime"] = benchmark::Counter(ticks / 60.0, benchmark::Counter::kIsRate);
}
static void BM_WanderWindow(benchmark::State& st) { step_window(st, nullptr); }
BENCHMARK(BM_WanderWindow)->Arg(1000)->Unit(benchmark::kMillisecond);

// The same window on a pool of N threads (the entities in ranges of 64, the same bits on any
// count). Wall time: what threads buy. Compare /threads:1 and /threads:2 from one run.
static void BM_WanderWindowThreads(benchmark::State& st) {
  ThreadPool workers(static_cast<uint32_t>(st.range(1)));
  step_window(st, &workers);
}
BENCHMARK(BM_WanderWindowThreads)
    ->ArgNames({"entities", "threads"})
    ->Args({1000, 1})
    ->Args({1000, 2})
    ->Args({4000, 1})
    ->Args({4000, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
