// export against replay of the same recording, both through the command line's own code
// (lockstep::cli::main, stdout sent to /dev/null). Goal (issue 16): export within 2x of replay's
// time on the same ticks. Counter "ticks_per_s"; compare BM_CliExport with BM_CliReplay of the
// same recording (the ratio of their times is export's cost over a replay).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fixtures.h"
#include "lockstep/cli/cli.h"
#include "lockstep/replay/lsr.h"

using namespace lockstep;

namespace {

constexpr uint64_t kTicks = 600;

/// A recording of `scenario`'s first kTicks ticks, made once per scenario.
std::string recording_of(const char* scenario) {
  const std::string p = (std::filesystem::temp_directory_path() / (std::string("lockstep-bench-export-") +
                         std::filesystem::path(scenario).stem().string() + ".lsr")).string();
  auto m = load_scenario_file(fixtures::path(scenario));
  lsr::Recorder rec(p, *m);
  for (uint64_t k = 0; k < kTicks; ++k) {
    const auto in = m->scripted_input();
    m->step(in);
    rec.tick(in, *m);
  }
  rec.finish();
  return p;
}

/// Run the command line with these arguments, its stdout thrown away.
int cli(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  const int saved = dup(1);
  const int null = open("/dev/null", O_WRONLY);
  dup2(null, 1);
  close(null);
  const int status = cli::main(static_cast<int>(args.size()), argv.data());
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  return status;
}

void run_cli(benchmark::State& st, const char* scenario, std::vector<std::string> args) {
  const std::string rec = recording_of(scenario);
  args.insert(args.begin() + 2, rec);
  for (auto _ : st)
    if (cli(args) != 0) st.SkipWithError("the command failed");
  st.counters["ticks_per_s"] = benchmark::Counter(static_cast<double>(kTicks), benchmark::Counter::kIsIterationInvariantRate);
  std::filesystem::remove(rec);
}

// station: walkers spawn over the run, so the state's layout changes as it goes (the case that was
// 100x slower); wander: a fixed layout.
void BM_CliReplay_Station(benchmark::State& st) { run_cli(st, "station/hall.json", {"lockstep", "replay"}); }
void BM_CliExport_Station(benchmark::State& st) {
  run_cli(st, "station/hall.json", {"lockstep", "export", "-f", "walkers[0].pos", "-f", "walkers[40].pos", "-f", "areas[0].count"});
}
void BM_CliReplay_Yard(benchmark::State& st) { run_cli(st, "wander/yard.json", {"lockstep", "replay"}); }
void BM_CliExport_Yard(benchmark::State& st) {
  run_cli(st, "wander/yard.json", {"lockstep", "export", "-f", "entities[0].position", "-f", "entities[*].hitwall"});
}

}  // namespace

BENCHMARK(BM_CliReplay_Station)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CliExport_Station)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CliReplay_Yard)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CliExport_Yard)->Unit(benchmark::kMillisecond);
