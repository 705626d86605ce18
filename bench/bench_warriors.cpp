// warriors: ticks per second with 60 humans moving, turning and taking corners
// (issue 5's goal: >= 1,000x real time on one core at 30 Hz, i.e. >= 30,000 ticks/s).
// One iteration is one tick of the plaza fixture (fixtures/warriors/plaza.json);
// the run restarts from its first tick after the scenario's 900 ticks, outside
// the timing, so every iteration is a tick of a busy plaza.
#include <benchmark/benchmark.h>

#include "fixtures.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/hash.h"
#include "warriors/warriors.h"

using namespace lockstep;

namespace {

warriors::WarriorsModel plaza() {
  JsonReader r("plaza.json");
  return warriors::WarriorsModel(
      warriors::WarriorsModel::load_scenario(parse_json_file(fixtures::path("warriors/plaza.json")), r));
}

// The plaza's inputs, tick by tick, made once so the timing is the model's alone.
std::vector<warriors::Input> plaza_inputs(const warriors::WarriorsModel& m0) {
  warriors::WarriorsModel m = m0;
  std::vector<warriors::Input> in;
  for (uint64_t t = 0; t < m.scenario().ticks; ++t) {
    in.push_back(m.scripted_input());
    m.step(in.back());
  }
  return in;
}

void run_plaza(benchmark::State& st, bool with_hash) {
  const warriors::WarriorsModel start = plaza();
  const auto inputs = plaza_inputs(start);
  warriors::WarriorsModel m = start;
  std::size_t t = 0;
  uint64_t sink = 0;
  for (auto _ : st) {
    if (t == inputs.size()) {
      st.PauseTiming();
      m = start;
      t = 0;
      st.ResumeTiming();
    }
    m.step(inputs[t++]);
    if (with_hash) sink ^= hash_state(m.state()).whole;
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(sink);
  st.counters["ticks_per_s"] = benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["x_realtime"] =
      benchmark::Counter(static_cast<double>(st.iterations()) / 30.0, benchmark::Counter::kIsRate);
}

}  // namespace

/// The model's tick alone.
static void BM_WarriorsPlazaTick(benchmark::State& st) { run_plaza(st, false); }
BENCHMARK(BM_WarriorsPlazaTick)->Unit(benchmark::kMicrosecond);

/// The tick plus the whole-state hash a recording takes every tick.
static void BM_WarriorsPlazaTickHashed(benchmark::State& st) { run_plaza(st, true); }
BENCHMARK(BM_WarriorsPlazaTickHashed)->Unit(benchmark::kMicrosecond);
