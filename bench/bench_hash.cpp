// Whole-state hashing throughput on the wander state at 10,000 entities
// (goal >= 10 GB/s), next to the raw XXH3 speed over the same number of bytes
// and the field-by-field path (what a state with padding would cost).
#include <benchmark/benchmark.h>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"
#include "lockstep/core/snapshot.h"
#include "wander/wander.h"
#include "warriors/warriors.h"

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

// The same three on the warriors plaza's state after 300 ticks (60 humans, about 118 KB of
// canonical bytes): its 60 human slots are raw (their memory is their encoding), one block of
// 103 KB hashed in one shot; the navigation state's lists go through the streaming hasher.
namespace {
const warriors::State& plaza_state() {
  static const warriors::State s = [] {
    auto m = load_scenario_file(fixtures::path("warriors/plaza.json"));
    for (int k = 0; k < 300; ++k) m->step_scripted();
    warriors::State out;
    restore_bytes(m->snapshot(), out, "plaza");
    return out;
  }();
  return s;
}
std::size_t plaza_bytes() {
  ByteSink sink;
  write_canonical(sink, plaza_state());
  return sink.out.size();
}
}  // namespace

static void BM_HashPlazaState(benchmark::State& st) {
  const auto& s = plaza_state();
  for (auto _ : st) benchmark::DoNotOptimize(hash_state(s));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(plaza_bytes()));
  st.counters["state_bytes"] = static_cast<double>(plaza_bytes());
}
BENCHMARK(BM_HashPlazaState)->Unit(benchmark::kMicrosecond);

static void BM_HashPlazaFieldByField(benchmark::State& st) {
  const auto& s = plaza_state();
  for (auto _ : st) benchmark::DoNotOptimize(hash_of(s, /*allow_raw=*/false));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(plaza_bytes()));
}
BENCHMARK(BM_HashPlazaFieldByField)->Unit(benchmark::kMicrosecond);

static void BM_Xxh3PlazaBytes(benchmark::State& st) {
  ByteSink sink;
  write_canonical(sink, plaza_state());
  for (auto _ : st) benchmark::DoNotOptimize(xxh3(sink.out.data(), sink.out.size()));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(sink.out.size()));
}
BENCHMARK(BM_Xxh3PlazaBytes)->Unit(benchmark::kMicrosecond);

// A snapshot of the plaza's state (a keyframe's): the canonical writer with cereal's size tags,
// next to cereal's own archive (the bytes are the same).
static void BM_SnapshotPlaza(benchmark::State& st) {
  const auto& s = plaza_state();
  for (auto _ : st) benchmark::DoNotOptimize(snapshot_bytes(s));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(plaza_bytes()));
}
BENCHMARK(BM_SnapshotPlaza)->Unit(benchmark::kMicrosecond);

static void BM_SnapshotPlazaCereal(benchmark::State& st) {
  const auto& s = plaza_state();
  for (auto _ : st) benchmark::DoNotOptimize(snapshot_bytes_cereal(s));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(plaza_bytes()));
}
BENCHMARK(BM_SnapshotPlazaCereal)->Unit(benchmark::kMicrosecond);
