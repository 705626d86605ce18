// The block path of the canonical encoding (hash.h: raw structs, arrays and vectors in one block,
// runs of raw fields in blocks) writes and hashes exactly what the field walk does, and the
// snapshot written through it is cereal's portable binary byte for byte, on every bundled
// scenario's states; XXH3's vector path (chosen at run time) hashes as its portable path.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fixtures.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"
#include "lockstep/core/snapshot.h"
#include "station/station.h"
#include "state_of.h"
#include "wander/wander.h"
#include "warriors/warriors.h"

using namespace lockstep;

namespace {

std::vector<unsigned char> blocks_bytes(const auto& v, bool allow_raw) {
  ByteSink s;
  write_canonical(s, v, allow_raw);
  return std::move(s.out);
}

/// Every check on one state; returns the number of subsystems compared.
template <class State>
int blocks_check_state(const Model& m) {
  const State s = test::state_of<State>(m);
  // The snapshot: cereal's bytes.
  const auto cereal_bytes = snapshot_bytes_cereal(s);
  CHECK(m.snapshot() == cereal_bytes);
  // Written into a buffer that held other bytes (a recorder's reused keyframe buffer): the same.
  std::vector<uint8_t> reused(cereal_bytes.size() / 2 + 7, 0xab);
  m.snapshot_into(reused);
  CHECK(reused == cereal_bytes);
  reused.assign(cereal_bytes.size() * 2 + 3, 0xcd);
  m.snapshot_into(reused);
  CHECK(reused == cereal_bytes);
  // Each subsystem: the same bytes both ways, its hash the portable XXH3 of those bytes.
  StateHashes walked;
  int n = 0;
  State::fields(s, [&](const FieldInfo& fi, const auto& f) {
    INFO("subsystem " << fi.name);
    const auto block = blocks_bytes(f, true), walk = blocks_bytes(f, false);
    CHECK(block == walk);
    CHECK(hash_of(f, true) == hash_of(f, false));
    CHECK(hash_of(f, true) == xxh3_portable(walk.data(), walk.size()));
    CHECK(xxh3(walk.data(), walk.size()) == xxh3_portable(walk.data(), walk.size()));
    walked.sub[walked.count++] = hash_of(f, false);
    ++n;
  });
  Hasher w;
  for (uint32_t i = 0; i < walked.count; ++i) w.u64(walked.sub[i]);
  walked.whole = w.digest();
  CHECK(m.hashes() == walked);
  CHECK(hash_state(s) == walked);
  return n;
}

int blocks_check(const Model& m) {
  const std::string& name = m.info().name;
  if (name == "wander") return blocks_check_state<wander::State>(m);
  if (name == "warriors") return blocks_check_state<warriors::State>(m);
  if (name == "station") return blocks_check_state<station::State>(m);
  FAIL("no state type for model " << name);
  return 0;
}

}  // namespace

TEST_CASE("the block path writes and hashes every bundled scenario's states as the field walk does",
          "[hash][blocks]") {
  std::vector<std::string> scenarios;
  for (const char* dir : {"wander", "warriors", "station"})
    for (const auto& e : std::filesystem::directory_iterator(fixtures::path(dir)))
      if (e.is_regular_file() && e.path().extension() == ".json")
        scenarios.push_back(std::string(dir) + "/" + e.path().filename().string());
  std::sort(scenarios.begin(), scenarios.end());
  REQUIRE(scenarios.size() >= 20);
  for (const auto& sc : scenarios) {
    INFO(sc);
    auto m = load_scenario_file(fixtures::path(sc));
    // The first state, and states along the run (the station's crowds a few ticks: filling the
    // densest corridor costs a second).
    const bool crowd = sc.rfind("station/", 0) == 0;
    const int every = crowd ? 4 : 60, checks = crowd ? 2 : 4;
    CHECK(blocks_check(*m) >= 3);
    for (int c = 0; c < checks; ++c) {
      for (int k = 0; k < every; ++k) m->step_scripted();
      blocks_check(*m);
    }
  }
}

namespace {
struct BlockInner {
  float a = 1.5f;
  uint8_t flag = 1;  // 3 bytes of padding after it
  int32_t b = -7;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"a"}, s.a);
    v(FieldInfo{"flag"}, s.flag);
    v(FieldInfo{"b"}, s.b);
  }
};
struct BlockMixed {
  int32_t x = 3;
  float y = -0.0f;
  std::vector<int16_t> list{1, -2, 3};
  double z = 2.5;
  float w = 4.0f;
  BlockInner inner;
  std::array<BlockInner, 2> pair{};
  std::string name = "gap";
  uint64_t last = 0x0102030405060708ull;
  int32_t before = 9;  // listed after `after` though it lies before it in memory
  int32_t after = 10;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x"}, s.x);
    v(FieldInfo{"y"}, s.y);
    v(FieldInfo{"list"}, s.list);
    v(FieldInfo{"z"}, s.z);
    v(FieldInfo{"w"}, s.w);
    v(FieldInfo{"inner"}, s.inner);
    v(FieldInfo{"pair"}, s.pair);
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"last"}, s.last);
    v(FieldInfo{"after"}, s.after);
    v(FieldInfo{"before"}, s.before);
  }
};
}  // namespace

TEST_CASE("runs of raw fields stop at a vector, a string, padding and a field listed out of memory order",
          "[hash][blocks]") {
  BlockMixed v;
  REQUIRE_FALSE(is_raw<BlockMixed>());
  REQUIRE_FALSE(is_raw<BlockInner>());  // padding after flag
  const auto block = blocks_bytes(v, true), walk = blocks_bytes(v, false);
  // x y | len 1 -2 3 | z w | a flag b | (a flag b) x2 | len "gap" | last after before
  CHECK(walk.size() == 4 + 4 + (4 + 3 * 2) + 8 + 4 + 9 + 2 * 9 + (4 + 3) + 8 + 4 + 4);
  CHECK(block == walk);
  CHECK(hash_of(v, true) == hash_of(v, false));
  // The last two fields in listing order: after (10) then before (9).
  CHECK(walk[walk.size() - 8] == 10);
  CHECK(walk[walk.size() - 4] == 9);
  CHECK(snapshot_bytes(v) == snapshot_bytes_cereal(v));
}

namespace {
/// A sink that keeps the size of every bytes() call: how a value is cut into blocks.
struct BlockCallSink {
  std::vector<std::size_t> calls;
  void bytes(const void*, std::size_t n) { calls.push_back(n); }
  void u8(uint8_t) { calls.push_back(1); }
  template <class U>
  void le(U) {
    calls.push_back(sizeof(U));
  }
};
}  // namespace

TEST_CASE("the warriors' human slots and the station's walkers are one block each, hashed in one go",
          "[hash][blocks]") {
  // Their memory is their canonical encoding (no padding, every field in listing order), so the
  // 60 slots are one block of memory, hashed as the field walk hashes them.
  REQUIRE(is_raw<warriors::Human>());
  REQUIRE(is_raw<station::Walker>());
  auto w = load_scenario_file(fixtures::path("warriors/plaza.json"));
  for (int k = 0; k < 90; ++k) w->step_scripted();
  const auto ws = test::state_of<warriors::State>(*w);
  BlockCallSink humans;
  write_canonical(humans, ws.humans);
  CHECK(humans.calls == std::vector<std::size_t>{warriors::kSlots * sizeof(warriors::Human)});
  CHECK(hash_of(ws.humans) == xxh3(ws.humans.data(), sizeof(ws.humans)));
  CHECK(hash_of(ws.humans) == hash_of(ws.humans, false));

  auto s = load_scenario_file(fixtures::path("station/hall.json"));
  for (int k = 0; k < 40; ++k) s->step_scripted();
  const auto ss = test::state_of<station::State>(*s);
  REQUIRE(ss.walkers.size() > 1);
  BlockCallSink walkers;
  write_canonical(walkers, ss.walkers);
  CHECK(walkers.calls == std::vector<std::size_t>{4, ss.walkers.size() * sizeof(station::Walker)});  // length, block
  CHECK(hash_of(ss.walkers) == hash_of(ss.walkers, false));
}
