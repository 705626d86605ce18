// lockstep diff on two recordings of one hour of game time that part half-way:
// the first divergent tick and field (goal <= 1 s).
#include <benchmark/benchmark.h>

#include <filesystem>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "lockstep/verify/rundiff.h"
#include "wander/wander.h"

using namespace lockstep;

namespace {
std::string record_hour(const char* name, bool kick) {
  const std::string p = (std::filesystem::temp_directory_path() / name).string();
  auto m = load_scenario_file(fixtures::path("wander/yard.json"));
  lsr::Recorder rec(p, *m);
  const uint64_t ticks = 60ull * 60 * 60;
  wander::Input k;
  k.events.push_back(wander::Event{9, wander::EventKind::Warp, Vec3{1, 0, 1}});
  ByteSink enc;
  write_canonical(enc, k);
  for (uint64_t t = 0; t < ticks; ++t) {
    auto in = m->scripted_input();
    if (kick && t == ticks / 2 + 17) in = enc.out;
    m->step(in);
    rec.tick(in, *m);
  }
  rec.finish();
  return p;
}
}  // namespace

static void BM_DiffOneHour(benchmark::State& st) {
  const std::string a = record_hour("lockstep-bench-diff-a.lsr", false);
  const std::string b = record_hour("lockstep-bench-diff-b.lsr", true);
  for (auto _ : st) {
    const auto ra = lsr::Recording::open(a);
    const auto rb = lsr::Recording::open(b);
    const auto d = verify::diff_recordings(ra, rb, {});
    if (!d.tick || d.fields.empty()) st.SkipWithError("no divergence found");
    benchmark::DoNotOptimize(d);
  }
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}
BENCHMARK(BM_DiffOneHour)->Unit(benchmark::kMillisecond);
