// warriors: ticks per second with 60 humans moving, turning and taking corners, and (part 3) crossing a
// street with steering and giving way
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

warriors::WarriorsModel load(const std::string& name) {
  JsonReader r(name);
  return warriors::WarriorsModel(
      warriors::WarriorsModel::load_scenario(parse_json_file(fixtures::path("warriors/" + name)), r));
}
warriors::WarriorsModel plaza() { return load("plaza.json"); }

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

void run_scenario(benchmark::State& st, const warriors::WarriorsModel& start, bool with_hash) {
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
static void BM_WarriorsPlazaTick(benchmark::State& st) { run_scenario(st, plaza(), false); }
BENCHMARK(BM_WarriorsPlazaTick)->Unit(benchmark::kMicrosecond);

/// The tick plus the whole-state hash a recording takes every tick.
static void BM_WarriorsPlazaTickHashed(benchmark::State& st) { run_scenario(st, plaza(), true); }
BENCHMARK(BM_WarriorsPlazaTickHashed)->Unit(benchmark::kMicrosecond);

/// Part 2 (issue 6): 60 AIs routing across the street (fixtures/warriors/street_crowd.json): the tick
/// with route requests, A*, building, following, claims (goal >= 1,000x real time).
static void BM_WarriorsStreetCrowdTick(benchmark::State& st) { run_scenario(st, load("street_crowd.json"), false); }
BENCHMARK(BM_WarriorsStreetCrowdTick)->Unit(benchmark::kMicrosecond);

/// Route requests per second on the street: the route request (0x0029a8c0) from Vermin's spot to
/// destinations that all need a route (across the fence, round the block, onto the far street), each
/// followed by freeing the route. Counter "routed" is the share that made a route.
static void BM_WarriorsRouteRequest(benchmark::State& st) {
  warriors::WarriorsModel m = load("street.json");
  const Vec3 dests[] = {{46.30f, 20.22f, 0}, {62.0f, 40.0f, 0}, {47.5f, 20.0f, 0}, {49.0f, 15.0f, 0},
                        {45.5f, 18.0f, 0},  {64.0f, 44.0f, 0}, {63.0f, 36.0f, 0}, {48.5f, 12.0f, 0}};
  std::size_t k = 0;
  uint64_t routed = 0, total = 0;
  for (auto _ : st) {
    const int32_t r = m.route_request(0, dests[k]);
    routed += r == 1 ? 1u : 0u;
    ++total;
    m.release_route(0);
    k = (k + 1) % (sizeof(dests) / sizeof(dests[0]));
  }
  st.counters["requests_per_s"] = benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["routed"] = total ? static_cast<double>(routed) / static_cast<double>(total) : 0.0;
}
BENCHMARK(BM_WarriorsRouteRequest)->Unit(benchmark::kMicrosecond);

/// Part 3 (issue 18): 60 humans crossing a 12 m street from both kerbs (fixtures/warriors/street_crossing.json)
/// with the neighbour sectors, steering round humans and giving way (goal >= 2,000x real time).
static void BM_WarriorsStreetCrossingTick(benchmark::State& st) { run_scenario(st, load("street_crossing.json"), false); }
BENCHMARK(BM_WarriorsStreetCrossingTick)->Unit(benchmark::kMicrosecond);

/// The same street with every human's steering switched off (+0x2a = 0): the difference is what the
/// steering's decisions cost.
static void BM_WarriorsStreetCrossingNoSteering(benchmark::State& st) {
  warriors::WarriorsModel m = load("street_crossing.json");
  for (auto& h : m.mutable_state().humans) h.brain.steering.enabled = 0;
  run_scenario(st, m, false);
}
BENCHMARK(BM_WarriorsStreetCrossingNoSteering)->Unit(benchmark::kMicrosecond);

/// The plaza with steering switched off: what part 3 costs the part-1 benchmark.
static void BM_WarriorsPlazaTickNoSteering(benchmark::State& st) {
  warriors::WarriorsModel m = plaza();
  for (auto& h : m.mutable_state().humans) h.brain.steering.enabled = 0;
  run_scenario(st, m, false);
}
BENCHMARK(BM_WarriorsPlazaTickNoSteering)->Unit(benchmark::kMicrosecond);
