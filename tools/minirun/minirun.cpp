// lockstep-minirun: core only. Steps a scenario and prints its hash chain,
// one line per tick, for the determinism matrix (tools/determinism-matrix).
//
//   lockstep-minirun SCENARIO TICKS
//
// Output: a header line "# model NAME vVERSION build BUILD flags FLAGS" (a planted build adds
// "planted T:PATH"), then for k = 1..TICKS
// the line "k HASH" with the whole-state hash after k ticks (16 hex digits).
// Exit 0, or 2 with a message naming the file and place on bad input.
//
// A build configured with LOCKSTEP_PLANT_DIVERGENCE="T:PATH" nudges the state
// leaf PATH by one ulp after tick T: the matrix's negative control.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lockstep/core/model.h"
#include "lockstep/models/bundled.h"

namespace {

const char* build_id() {
#if defined(__clang__)
  static const std::string s = "clang-" + std::to_string(__clang_major__);
#elif defined(__GNUC__)
  static const std::string s = "gcc-" + std::to_string(__GNUC__);
#else
  static const std::string s = "unknown";
#endif
  return s.c_str();
}

// The optimisation flags this runner was built with (tools/minirun/CMakeLists.txt): what lets the
// matrix take a runner it did not build for one of its configurations (--prebuilt).
#ifndef LOCKSTEP_MINIRUN_FLAGS
#define LOCKSTEP_MINIRUN_FLAGS "unknown"
#endif

}  // namespace

int main(int argc, char** argv) {
  lockstep::register_bundled_models();
  if (argc != 3) {
    std::fprintf(stderr, "usage: lockstep-minirun SCENARIO TICKS\n");
    return 2;
  }
  char* end = nullptr;
  const unsigned long long ticks = std::strtoull(argv[2], &end, 10);
  if (!end || *end != '\0' || argv[2][0] == '-') {
    std::fprintf(stderr, "lockstep-minirun: TICKS: expected a whole number, got '%s'\n", argv[2]);
    return 2;
  }
  try {
    auto model = lockstep::load_scenario_file(argv[1]);
#ifdef LOCKSTEP_PLANT_DIVERGENCE
    const std::string plant = LOCKSTEP_PLANT_DIVERGENCE;
    const auto colon = plant.find(':');
    const unsigned long long plant_tick = std::strtoull(plant.substr(0, colon).c_str(), nullptr, 10);
    const std::string plant_path = plant.substr(colon + 1);
#endif
    std::printf("# model %s v%u build %s flags %s", model->info().name.c_str(), model->info().version, build_id(),
                LOCKSTEP_MINIRUN_FLAGS);
#ifdef LOCKSTEP_PLANT_DIVERGENCE
    std::printf(" planted %s", LOCKSTEP_PLANT_DIVERGENCE);
#endif
    std::printf("\n");
    for (unsigned long long k = 1; k <= ticks; ++k) {
      model->step_scripted();
#ifdef LOCKSTEP_PLANT_DIVERGENCE
      if (k == plant_tick) {
        bool found = false;
        for (auto& leaf : model->mutable_leaves()) {
          if (leaf.path == plant_path) {
            lockstep::nudge_leaf(leaf.ref);
            found = true;
          }
        }
        if (!found) {
          std::fprintf(stderr, "lockstep-minirun: planted field '%s' does not exist\n", plant_path.c_str());
          return 2;
        }
      }
#endif
      std::printf("%llu %s\n", k, lockstep::hex64(model->hashes().whole).c_str());
    }
  } catch (const lockstep::InputError& e) {
    std::fprintf(stderr, "lockstep-minirun: %s\n", e.what());
    return 2;
  }
  return 0;
}
