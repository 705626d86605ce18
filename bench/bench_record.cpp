// Recording: overhead of recording over plain stepping on the largest bundled
// fixture (goal: record / step <= 1.05), bytes per tick, and the speed of a
// hash-chain scan without re-simulation (goal >= 10 million ticks/s).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "fixtures.h"
#include "lockstep/replay/lsr.h"

using namespace lockstep;

namespace {
std::string tmp(const char* name) { return (std::filesystem::temp_directory_path() / name).string(); }
const char* kLargest = "wander/yard.json";
}  // namespace

static void BM_YardStep(benchmark::State& st) {
  auto m = load_scenario_file(fixtures::path(kLargest));
  for (auto _ : st) {
    const auto in = m->scripted_input();
    m->step(in);
  }
}
BENCHMARK(BM_YardStep)->Unit(benchmark::kMicrosecond);

static void BM_YardStepAndHash(benchmark::State& st) {
  auto m = load_scenario_file(fixtures::path(kLargest));
  for (auto _ : st) {
    const auto in = m->scripted_input();
    m->step(in);
    benchmark::DoNotOptimize(m->hashes());
  }
}
BENCHMARK(BM_YardStepAndHash)->Unit(benchmark::kMicrosecond);

static void BM_YardStepAndRecord(benchmark::State& st) {
  auto m = load_scenario_file(fixtures::path(kLargest));
  const std::string p = tmp("lockstep-bench-record.lsr");
  {
    lsr::Recorder rec(p, *m);
    for (auto _ : st) {
      const auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    rec.finish();
    st.counters["bytes_per_tick"] = static_cast<double>(rec.bytes_written()) / static_cast<double>(rec.ticks());
  }
  std::filesystem::remove(p);
}
BENCHMARK(BM_YardStepAndRecord)->Unit(benchmark::kMicrosecond);

// Bytes per tick of one hour of game time, with keyframes every second and without
// (only the first): the difference is the keyframes' share.
static void BM_RecordingSize(benchmark::State& st) {
  const uint32_t keyframe_every = static_cast<uint32_t>(st.range(0));
  for (auto _ : st) {
    auto m = load_scenario_file(fixtures::path(kLargest));
    const std::string p = tmp("lockstep-bench-size.lsr");
    lsr::RecorderOptions opt;
    opt.keyframe_every = keyframe_every;
    lsr::Recorder rec(p, *m, opt);
    const uint64_t ticks = 60ull * 60 * 60;
    for (uint64_t k = 0; k < ticks; ++k) {
      const auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    rec.finish();
    const auto r = lsr::Recording::open(p);
    uint64_t compressed = 0;
    for (const auto& c : r.frames()) compressed += c.compressed;
    st.counters["bytes_per_tick"] = static_cast<double>(r.file_bytes()) / static_cast<double>(ticks);
    st.counters["compression_ratio"] = static_cast<double>(r.raw_bytes()) / static_cast<double>(compressed);
    std::filesystem::remove(p);
  }
}
BENCHMARK(BM_RecordingSize)->Arg(60)->Arg(1 << 30)->Iterations(1)->Unit(benchmark::kMillisecond);

// Hash-chain scan of a one-hour recording: open (checks every chunk) and read every tick's hashes.
static void BM_ReplayValidateScan(benchmark::State& st) {
  const std::string p = tmp("lockstep-bench-scan.lsr");
  {
    auto m = load_scenario_file(fixtures::path(kLargest));
    lsr::Recorder rec(p, *m);
    for (uint64_t k = 0; k < 60ull * 60 * 60; ++k) {
      const auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    rec.finish();
  }
  uint64_t ticks = 0;
  for (auto _ : st) {
    const auto r = lsr::Recording::open(p);
    uint64_t x = 0;
    r.scan(0, UINT64_MAX, [&](const lsr::TickRecord& t) { x ^= t.whole; ++ticks; }, nullptr);
    benchmark::DoNotOptimize(x);
  }
  st.counters["ticks_per_s"] = benchmark::Counter(static_cast<double>(ticks), benchmark::Counter::kIsRate);
  std::filesystem::remove(p);
}
BENCHMARK(BM_ReplayValidateScan)->Unit(benchmark::kMillisecond);
