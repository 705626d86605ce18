// station: 10,000 walkers in a large hall at dt 0.05 s (issue 7). Goal: at
// least 2x real time on one core, i.e. >= 40 ticks/s. Counter "x_realtime" is
// simulated seconds per wall second.
#include <benchmark/benchmark.h>

#include "lockstep/core/json_load.h"
#include "lockstep/pool/thread_pool.h"
#include "station/station.h"

using namespace lockstep;

namespace {

// A 200 x 120 m hall with eight columns; n walkers placed on a grid in the
// middle band, half heading east, half west, so the streams meet head-on.
station::Scenario big_hall(uint32_t n) {
  Json j;
  j["model"] = "station";
  j["name"] = "bench hall";
  j["seed"] = 3;
  auto rect = [](float x0, float y0, float x1, float y1) { return Json::array({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}); };
  Json obstacles = Json::array();
  for (int k = 0; k < 8; ++k) obstacles.push_back(rect(30.0f + 20.0f * static_cast<float>(k), 55, 31.0f + 20.0f * static_cast<float>(k), 56));
  j["floors"] = Json::array({Json{{"id", "hall"}, {"walkable", Json::array({rect(0, 0, 200, 120)})}, {"obstacles", obstacles}}});
  j["portals"] = Json::array({Json{{"id", "east"}, {"polygon", rect(198, 0, 200, 120)}, {"mode", "despawn"}},
                              Json{{"id", "street_west"}, {"polygon", rect(0, 0, 2, 120)}, {"mode", "despawn"}}});
  Json ws = Json::array();
  // 100 columns x (n / 100) rows, 1.2 m apart from x = 40, y = 10: about 0.7 ped/m^2.
  const uint32_t cols = 100;
  for (uint32_t i = 0; i < n; ++i) {
    const float x = 40.0f + 1.2f * static_cast<float>(i % cols) + (((i / cols) % 2) ? 0.6f : 0.0f);
    const float y = 10.0f + 1.0f * static_cast<float>(i / cols);
    if (x >= 30.0f && y >= 54.7f && y <= 56.3f) continue;  // not on a column row
    ws.push_back(Json{{"position", {x, y}}, {"destination", (i % 2) ? "east" : "street_west"},
                      {"desired_speed", 1.1 + 0.05 * static_cast<double>(i % 8)}});
  }
  j["walkers"] = ws;
  JsonReader r("bench");
  return station::StationModel::load_scenario(j, r);
}

}  // namespace

static void BM_StationTick(benchmark::State& st) {
  const auto n = static_cast<uint32_t>(st.range(0));
  station::StationModel m(big_hall(n));
  for (int k = 0; k < 40; ++k) m.step({});  // past the start: everyone under way
  const station::Input none;
  for (auto _ : st) {
    m.step(none);
    benchmark::ClobberMemory();
  }
  st.counters["walkers"] = static_cast<double>(m.state().walkers.size());
  st.counters["ticks_per_s"] = benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["x_realtime"] =
      benchmark::Counter(static_cast<double>(st.iterations()) / 20.0, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_StationTick)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// The same hall over one fixed window of ticks, 40 .. 314 (issue 14): the
// streams meet in it, so a change to the force law is compared over the same
// ticks, not over however many the library chose to run from tick 40. On
// `workers` when given (BM_StationWindowThreads).
static void step_window(benchmark::State& st, Workers* workers) {
  const auto n = static_cast<uint32_t>(st.range(0));
  constexpr int kFrom = 40, kTo = 314;
  const station::Input none;
  for (auto _ : st) {
    st.PauseTiming();
    station::StationModel m(big_hall(n));
    m.set_workers(workers);
    for (int k = 0; k < kFrom; ++k) m.step(none);
    st.ResumeTiming();
    for (int k = kFrom; k < kTo; ++k) m.step(none);
    benchmark::ClobberMemory();
  }
  const double ticks = static_cast<double>(st.iterations()) * (kTo - kFrom);
  st.counters["ticks_per_s"] = benchmark::Counter(ticks, benchmark::Counter::kIsRate);
  st.counters["x_realtime"] = benchmark::Counter(ticks / 20.0, benchmark::Counter::kIsRate);
}
static void BM_StationWindow(benchmark::State& st) { step_window(st, nullptr); }
BENCHMARK(BM_StationWindow)->Arg(10000)->Iterations(1)->Repetitions(3)->Unit(benchmark::kSecond);

// The same window on a pool of N threads (issue 20: at least 1.8x the one-thread
// speed on 2 cores, the same bits on any count). Wall time: what threads buy.
// Compare /threads:1 and /threads:2 from one run with interleaved repetitions.
static void BM_StationWindowThreads(benchmark::State& st) {
  ThreadPool workers(static_cast<uint32_t>(st.range(1)));
  step_window(st, &workers);
}
BENCHMARK(BM_StationWindowThreads)
    ->ArgNames({"walkers", "threads"})
    ->Args({10000, 1})
    ->Args({10000, 2})
    ->Iterations(1)
    ->Repetitions(3)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);
