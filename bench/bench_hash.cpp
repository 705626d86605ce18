// Whole-state hashing throughput on the wander state at 10,000 entities
// (goal >= 10 GB/s), next to the raw XXH3 speed over the same number of bytes
// and the field-by-field path (what a state with padding would cost).
#include <benchmark/benchmark.h>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "wander/wander.h"

using namespace lockstep;

namespace {
const wander::State& crowd_state(uint32_t n) {
  static wander::WanderModel m = [n] {
    wander::WanderModel w(fixtures::wander_crowd(n));
    for (int k = 0; k < 300; ++k) w.step(w.scripted_input());
    return w;
  }();
  return m.state();
}
std::size_t state_bytes(const wander::State& s) {
  ByteSink sink;
  write_canonical(sink, s);
  return sink.out.size();
}
}  // namespace

static void BM_HashWholeState(benchmark::State& st) {
  const auto& s = crowd_state(10000);
  const std::size_t bytes = state_bytes(s);
  for (auto _ : st) benchmark::DoNotOptimize(hash_state(s));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(bytes));
  st.counters["state_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_HashWholeState)->Unit(benchmark::kMicrosecond);

static void BM_HashFieldByField(benchmark::State& st) {
  const auto& s = crowd_state(10000);
  const std::size_t bytes = state_bytes(s);
  for (auto _ : st) benchmark::DoNotOptimize(hash_of(s, /*allow_raw=*/false));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(bytes));
}
BENCHMARK(BM_HashFieldByField)->Unit(benchmark::kMicrosecond);

static void BM_Xxh3RawBytes(benchmark::State& st) {
  const auto& s = crowd_state(10000);
  ByteSink sink;
  write_canonical(sink, s);
  for (auto _ : st) benchmark::DoNotOptimize(xxh3(sink.out.data(), sink.out.size()));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(sink.out.size()));
}
BENCHMARK(BM_Xxh3RawBytes)->Unit(benchmark::kMicrosecond);
