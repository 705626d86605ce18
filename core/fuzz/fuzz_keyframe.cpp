// libFuzzer target: a keyframe restored into each bundled model, then stepped
// (docs/fuzzing.md). What `replay --from` and `export` do with a keyframe from
// a file of unknown origin: restore its snapshot, then step the state with the
// scenario's inputs and with an input from the file. A finding is a crash, a
// sanitizer report, a hang, an exception other than lockstep::InputError, or
// a restored state whose own snapshot does not restore to the same state.
//
// An input: [fixture u8] [snapshot length u32] [snapshot] [an encoded input]...
// The fixture is one of kFixtures (byte mod their count), loaded once.
//
//   fuzz_keyframe --make-seeds DIR    seeds: snapshots of each fixture at a few ticks
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "lockstep/models/bundled.h"
#include "lockstep/core/model.h"

#ifndef LOCKSTEP_FIXTURES_DIR
#error "LOCKSTEP_FIXTURES_DIR names the bundled fixtures"
#endif

using namespace lockstep;

namespace {

// One small scenario of each model (and each kind of state: walkers, humans with a level, entities),
// and the demo station: every connector's state (flights, belts, lines, gates, a car and its riders).
const char* const kFixtures[] = {"wander/setpath.json", "wander/yard.json", "warriors/street.json",
                                 "warriors/melee.json", "station/corridor.json", "station/hall.json",
                                 "station/station.json"};
constexpr std::size_t kDemoStation = 6;  ///< seeded later too: its lines form and its car carries riders by tick 600
constexpr std::size_t kFixtureCount = sizeof(kFixtures) / sizeof(kFixtures[0]);
constexpr int kSteps = 6;  ///< steps after a restore

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_keyframe: FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

std::unique_ptr<Model>& cached(std::size_t i) {
  static std::unique_ptr<Model> models[kFixtureCount];
  if (!models[i]) models[i] = load_scenario_file(std::string(LOCKSTEP_FIXTURES_DIR) + "/" + kFixtures[i]);
  return models[i];
}

uint32_t u32(const uint8_t* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24); }

void one(const uint8_t* data, std::size_t size) {
  if (size < 5) return;
  const std::size_t which = data[0] % kFixtureCount;
  const uint32_t len = u32(data + 1);
  if (len > size - 5) return;
  const std::span<const uint8_t> snap(data + 5, len);
  const std::span<const uint8_t> input(data + 5 + len, size - 5 - len);
  auto m = cached(which)->clone();
  try {
    m->restore(snap, "fuzz keyframe");
  } catch (const InputError&) {
    return;
  }
  // A restored state snapshots to bytes that restore to the same state.
  const StateHashes h = m->hashes();
  try {
    auto twin = cached(which)->clone();
    twin->restore(m->snapshot(), "fuzz re-snapshot");
    if (!(twin->hashes() == h)) finding("a restored state changed across snapshot and restore");
  } catch (const InputError& e) {
    finding(std::string("a restored state's own snapshot does not restore: ") + e.what());
  }
  // Then step it: the scenario's own inputs, and the file's input where it decodes.
  try {
    for (int k = 0; k < kSteps; ++k) {
      if (!input.empty() && k % 2 == 1) m->step(input, "fuzz input");
      else m->step_scripted();
      (void)m->hashes();
    }
  } catch (const InputError&) {
  }
}

int make_seeds(const std::string& dir) {
  std::filesystem::create_directories(dir);
  int n = 0;
  for (std::size_t i = 0; i < kFixtureCount; ++i) {
    auto m = cached(i)->clone();
    const uint64_t last = i == kDemoStation ? 1200 : 120;
    for (uint64_t t = 0; t <= last; ++t) {
      if (t == 0 || t == 7 || t == 40 || t == 120 || t == 600 || t == 1200) {
        const auto snap = m->snapshot();
        const auto in = m->scripted_input();
        std::vector<uint8_t> out = {static_cast<uint8_t>(i)};
        for (int b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>(snap.size() >> (8 * b)));
        out.insert(out.end(), snap.begin(), snap.end());
        out.insert(out.end(), in.begin(), in.end());
        std::ofstream f(dir + "/keyframe-" + std::to_string(i) + "-" + std::to_string(t), std::ios::binary);
        f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
        ++n;
      }
      m->step_scripted();
    }
  }
  std::printf("fuzz_keyframe: %d seeds in %s\n", n, dir.c_str());
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  lockstep::register_bundled_models();
  if (*argc == 3 && std::strcmp((*argv)[1], "--make-seeds") == 0) std::exit(make_seeds((*argv)[2]));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  one(data, size);
  return 0;
}
