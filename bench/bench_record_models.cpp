// Recording's cost on every bundled benchmark model, over a fixed window of ticks: the whole
// scenario of the wander yard (3,600 ticks), the warriors plaza (900) and the station hall
// (1,200). One iteration steps the window from the scenario's first tick, through the model
// contract, three ways: the step alone, the step and the whole-state hash a recording takes
// every tick, and the step recorded (lsr::Recorder with its defaults: chunks and keyframes every
// second of game time, its writer thread; and without it). Wall time (the writer thread works beside the
// stepping one) of the window's ticks: the recorder is opened before and finished after, untimed
// (BM_RecordOpenClose times those, once per recording). Goal (issue 20): record / step <= hash / step + 0.03. Compare the three in one
// run, interleaved: --benchmark_enable_random_interleaving=true --benchmark_repetitions=N; or
// BM_RecordRatios, the three in every iteration (docs/performance.md).
#include <benchmark/benchmark.h>
#include <time.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fixtures.h"
#include "lockstep/core/model.h"
#include "lockstep/replay/lsr.h"

using namespace lockstep;

namespace {

enum class RecordMode { kStep, kHash, kRecord, kRecordInline };

struct RecordWindow {
  const char* scenario;
  uint64_t ticks;
};
constexpr RecordWindow kWindows[] = {{"wander/yard.json", 3600}, {"warriors/plaza.json", 900}, {"station/hall.json", 1200}};

void record_window(benchmark::State& st, const RecordWindow& w, RecordMode mode) {
  const auto start = load_scenario_file(fixtures::path(w.scenario));
  std::vector<std::vector<uint8_t>> inputs;  // the window's inputs, made once
  {
    auto m = start->clone();
    for (uint64_t k = 0; k < w.ticks; ++k) {
      inputs.push_back(m->scripted_input());
      m->step(inputs.back());
    }
  }
  const std::string out = (std::filesystem::temp_directory_path() / "lockstep-bench-record-window.lsr").string();
  uint64_t sink = 0, bytes = 0;
  for (auto _ : st) {
    st.PauseTiming();
    auto m = start->clone();
    st.ResumeTiming();
    if (mode == RecordMode::kRecord || mode == RecordMode::kRecordInline) {
      st.PauseTiming();  // opening and finishing are BM_RecordOpenClose's
      // A new file each time: truncating the last one would have the file system write it out
      // (ext4's auto_da_alloc) while the next one is timed, its disk interrupts counted as the
      // stepping thread's time.
      std::filesystem::remove(out);
      lsr::RecorderOptions opt;
      opt.writer_thread = mode == RecordMode::kRecord;
      lsr::Recorder rec(out, *m, opt);
      st.ResumeTiming();
      for (const auto& in : inputs) {
        m->step(in);
        rec.tick(in, *m);
      }
      st.PauseTiming();
      rec.finish();
      bytes = rec.bytes_written();
      st.ResumeTiming();
    } else {
      for (const auto& in : inputs) {
        m->step(in);
        if (mode == RecordMode::kHash) sink ^= m->hashes().whole;
      }
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(sink);
  std::filesystem::remove(out);
  const double ticks = static_cast<double>(st.iterations()) * static_cast<double>(w.ticks);
  st.counters["ticks_per_s"] = benchmark::Counter(ticks, benchmark::Counter::kIsRate);
  if (mode == RecordMode::kRecord || mode == RecordMode::kRecordInline) st.counters["bytes_per_tick"] = static_cast<double>(bytes) / static_cast<double>(w.ticks);
}

}  // namespace

static void BM_RecordWindow_Step(benchmark::State& st) { record_window(st, kWindows[st.range(0)], RecordMode::kStep); }
static void BM_RecordWindow_Hash(benchmark::State& st) { record_window(st, kWindows[st.range(0)], RecordMode::kHash); }
static void BM_RecordWindow_Record(benchmark::State& st) { record_window(st, kWindows[st.range(0)], RecordMode::kRecord); }
/// A recorder opened on the scenario's first state and finished at once: the header, the first
/// keyframe, the index, the file's opening and closing (in every BM_RecordWindow_Record
/// iteration once).
static void BM_RecordOpenClose(benchmark::State& st) {
  const auto m = load_scenario_file(fixtures::path(kWindows[st.range(0)].scenario));
  const std::string out = (std::filesystem::temp_directory_path() / "lockstep-bench-record-open.lsr").string();
  for (auto _ : st) {
    lsr::Recorder rec(out, *m);
    rec.finish();
  }
  std::filesystem::remove(out);
}
BENCHMARK(BM_RecordOpenClose)->DenseRange(0, 2)->UseRealTime()->Unit(benchmark::kMicrosecond);

/// The same recording with its frames compressed and written on the stepping thread (what the
/// writer thread takes off it).
static void BM_RecordWindow_RecordInline(benchmark::State& st) {
  record_window(st, kWindows[st.range(0)], RecordMode::kRecordInline);
}
// Arg: 0 the yard, 1 the plaza, 2 the hall.
BENCHMARK(BM_RecordWindow_Step)->DenseRange(0, 2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RecordWindow_Hash)->DenseRange(0, 2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RecordWindow_Record)->DenseRange(0, 2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RecordWindow_RecordInline)->DenseRange(0, 2)->UseRealTime()->Unit(benchmark::kMillisecond);

namespace {

/// The calling thread's CPU time, in seconds.
double ratios_thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double ratios_wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

/// The three ways side by side at a finer grain than repetitions: every iteration steps the
/// window alone, with the hash and recorded (the writer thread), one after another in an order
/// that turns round from one iteration to the next, each from the scenario's first state and
/// timed by the stepping thread's CPU clock and by the wall clock (the recorder's opening and
/// finishing untimed, as above). The counters are the sums' ratios to the step alone's:
/// hash_cpu, record_cpu, hash_wall, record_wall. A load that comes and goes during a
/// repetition falls on the three alike.
static void BM_RecordRatios(benchmark::State& st) {
  const RecordWindow& w = kWindows[st.range(0)];
  const auto start = load_scenario_file(fixtures::path(w.scenario));
  std::vector<std::vector<uint8_t>> inputs;
  {
    auto m = start->clone();
    for (uint64_t k = 0; k < w.ticks; ++k) {
      inputs.push_back(m->scripted_input());
      m->step(inputs.back());
    }
  }
  const std::string out = (std::filesystem::temp_directory_path() / "lockstep-bench-record-ratios.lsr").string();
  std::array<double, 3> cpu{}, wall{};
  uint64_t sink = 0, turn = 0;
  for (auto _ : st) {
    for (int j = 0; j < 3; ++j) {
      const int mode = static_cast<int>((turn + static_cast<uint64_t>(j)) % 3);  // 0 step, 1 hash, 2 record
      auto m = start->clone();
      std::unique_ptr<lsr::Recorder> rec;
      if (mode == 2) {
        std::filesystem::remove(out);  // a new file each time (see record_window)
        rec = std::make_unique<lsr::Recorder>(out, *m);
      }
      const double c0 = ratios_thread_cpu(), w0 = ratios_wall();
      for (const auto& in : inputs) {
        m->step(in);
        if (mode == 1) sink ^= m->hashes().whole;
        if (mode == 2) rec->tick(in, *m);
      }
      cpu[static_cast<std::size_t>(mode)] += ratios_thread_cpu() - c0;
      wall[static_cast<std::size_t>(mode)] += ratios_wall() - w0;
      if (rec) rec->finish();
      benchmark::ClobberMemory();
    }
    ++turn;
  }
  benchmark::DoNotOptimize(sink);
  std::filesystem::remove(out);
  st.counters["hash_cpu"] = cpu[1] / cpu[0];
  st.counters["record_cpu"] = cpu[2] / cpu[0];
  st.counters["hash_wall"] = wall[1] / wall[0];
  st.counters["record_wall"] = wall[2] / wall[0];
}
BENCHMARK(BM_RecordRatios)->DenseRange(0, 2)->UseRealTime()->Unit(benchmark::kMillisecond);
