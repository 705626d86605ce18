// The recorder's own phases (Recorder::kPhases): an observer sees the state hashed every tick, a
// keyframe's snapshot, and each frame compressed and written; and a recording made under an
// observer is byte for byte the one made without.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fixtures.h"
#include "lockstep/replay/lsr.h"

using namespace lockstep;

namespace {

std::string phases_temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("lockstep_lsr_phases_" + name)).string();
}

std::vector<char> phases_bytes(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Counts each phase's begin and end, and checks they pair (no nesting in the recorder).
struct RecorderCounts final : PhaseObserver {
  std::map<uint32_t, int> begun, ended;
  int open = -1;
  bool paired = true;
  void phase_begin(uint32_t p) override {
    paired = paired && open < 0;
    open = static_cast<int>(p);
    ++begun[p];
  }
  void phase_end(uint32_t p) override {
    paired = paired && open == static_cast<int>(p);
    open = -1;
    ++ended[p];
  }
};

}  // namespace

TEST_CASE("the recorder reports hash, snapshot, compress and write, and writes the same bytes", "[lsr][phases]") {
  CHECK(std::vector<std::string>(lsr::Recorder::kPhases.begin(), lsr::Recorder::kPhases.end()) ==
        std::vector<std::string>{"hash", "snapshot", "compress", "write"});
  const std::string plain_path = phases_temp("plain.lsr"), watched_path = phases_temp("watched.lsr");
  auto a = load_scenario_file(fixtures::path("wander/yard.json"));
  auto b = load_scenario_file(fixtures::path("wander/yard.json"));
  lsr::RecorderOptions opt;
  opt.chunk_ticks = 25;     // 100 ticks: 4 chunks
  opt.keyframe_every = 40;  // keyframes after ticks 40 and 80 (and the first state's, before the observer)
  RecorderCounts counts;
  {
    lsr::Recorder plain(plain_path, *a, opt);
    lsr::Recorder watched(watched_path, *b, opt);
    watched.set_phase_observer(&counts);
    for (int k = 0; k < 100; ++k) {
      const auto in = a->scripted_input();
      a->step(in);
      b->step(in);
      plain.tick(in, *a);
      watched.tick(in, *b);
    }
    plain.finish();
    watched.finish();
  }
  CHECK(counts.paired);
  CHECK(counts.begun == counts.ended);
  // A hash every tick; a keyframe takes the hashes of its tick, the state just hashed.
  CHECK(counts.begun[lsr::Recorder::kHash] == 100);
  CHECK(counts.begun[lsr::Recorder::kSnapshot] == 2);
  // Frames: chunks end after ticks 25, 40 (a keyframe closes a chunk; the next counts from it), 65,
  // 80 and 100 (finish); and the two keyframes.
  CHECK(counts.begun[lsr::Recorder::kCompress] == 5 + 2);
  CHECK(counts.begun[lsr::Recorder::kWrite] == 5 + 2);
  CHECK(phases_bytes(plain_path) == phases_bytes(watched_path));
  std::filesystem::remove(plain_path);
  std::filesystem::remove(watched_path);
}
