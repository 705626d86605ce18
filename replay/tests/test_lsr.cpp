// The recording format and replay (docs/format.md): round trip, replay,
// divergence and re-convergence, the sync test, truncation and damage.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"

using namespace lockstep;
namespace fs = std::filesystem;

namespace {

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("lockstep-test-" + std::to_string(::getpid()) + "-" + name)).string();
}

std::vector<uint8_t> read_all(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Recorded {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> hashes;  ///< whole hash after each step, as the recording run saw it
  std::vector<std::vector<uint8_t>> inputs;
};

/// Record `ticks` of a scenario; `perturb(model, tick)` may change the recorded run after a step.
template <class Perturb>
Recorded record(const std::string& scenario, uint64_t ticks, lsr::RecorderOptions opt, Perturb perturb) {
  auto m = load_scenario_file(fixtures::path(scenario));
  const std::string p = temp_path("rec.lsr");
  Recorded out;
  {
    lsr::Recorder rec(p, *m, opt);
    for (uint64_t k = 0; k < ticks; ++k) {
      auto in = m->scripted_input();
      m->step(in);
      perturb(*m, m->tick());
      out.hashes.push_back(m->hashes().whole);
      out.inputs.push_back(in);
      rec.tick(in, *m);
    }
    rec.finish();
  }
  out.bytes = read_all(p);
  fs::remove(p);
  return out;
}

Recorded record(const std::string& scenario, uint64_t ticks, lsr::RecorderOptions opt = {}) {
  return record(scenario, ticks, opt, [](Model&, uint64_t) {});
}

void nudge(Model& m, const std::string& path) {
  for (auto& leaf : m.mutable_leaves())
    if (leaf.path == path) return nudge_leaf(leaf.ref);
  FAIL("no field " << path);
}

std::vector<uint64_t> scanned_hashes(const lsr::Recording& r) {
  std::vector<uint64_t> h;
  r.scan(0, UINT64_MAX, [&](const lsr::TickRecord& t) { h.push_back(t.whole); }, nullptr);
  return h;
}

}  // namespace

TEST_CASE("A recording keeps its header, every tick's input and hashes, and its keyframes", "[lsr]") {
  lsr::RecorderOptions opt;
  opt.keyframe_every = 30;
  const Recorded rec = record("wander/yard.json", 600, opt);
  const auto r = lsr::Recording::from_bytes(rec.bytes, "yard.lsr");
  CHECK_FALSE(r.damage());
  CHECK(r.index_used());
  const auto& h = r.header();
  CHECK(h.major == 1);
  CHECK(h.model == "wander");
  CHECK(h.model_version == 2);  // wander v2 (WanderModel::kVersion): the recorder writes the model's version
  CHECK(h.tick_rate_hz == 60);
  CHECK(h.seed == 20261130);
  CHECK(h.chunk_ticks == 60);
  CHECK(h.keyframe_every == 30);
  CHECK(h.subsystems == std::vector<std::string>{"tick", "rng", "entities"});
  CHECK(h.scenario_json.find("\"yard\"") != std::string::npos);
  CHECK_FALSE(h.build.compiler.empty());
  CHECK(r.ticks() == 600);
  CHECK(r.keyframe_count() == 600 / 30 + 1);  // ticks 0, 30, ..., 600
  CHECK(scanned_hashes(r) == rec.hashes);
  std::size_t i = 0;
  r.scan(0, 600, [&](const lsr::TickRecord& t) {
    CHECK(t.tick == i);
    CHECK(std::vector<uint8_t>(t.input.begin(), t.input.end()) == rec.inputs[i]);
    ++i;
  }, [](const lsr::Keyframe& k) { CHECK(k.tick % 30 == 0); });
  CHECK(i == 600);
}

TEST_CASE("Replay re-simulates and every tick matches; --from starts at the nearest keyframe", "[lsr][replay]") {
  const auto r = lsr::Recording::from_bytes(record("wander/yard.json", 900).bytes, "yard.lsr");
  auto res = replay::run(r, {});
  CHECK(res.ok());
  CHECK(res.checked == 900);
  // Every keyframe the file holds, as inspect counts them: ticks 0, 60, ..., 900 (the last is the
  // state the 900th step made).
  CHECK(r.keyframe_count() == 16);
  CHECK(res.keyframes_checked == 16);
  replay::Options from;
  from.from = 500;
  from.to = 700;
  res = replay::run(r, from);
  CHECK(res.ok());
  CHECK(res.checked == 200);
  CHECK(res.keyframes_checked == 3);  // 540, 600, 660
  from.to = 720;                      // the state after tick 719 is the keyframe of 720: checked too
  res = replay::run(r, from);
  CHECK(res.checked == 220);
  CHECK(res.keyframes_checked == 4);
  auto m = replay::state_at(r, 777);
  CHECK(m->tick() == 777);
}

TEST_CASE("Replay names the first divergent tick and subsystem, and sees a re-convergence", "[lsr][replay]") {
  // The recorded run's entity 30 (a homesick, idle wanderer) gets a one-ulp x velocity after tick 250:
  // the idle branch zeroes x/z velocity every tick, so the state re-converges at once.
  const auto idle_kick = record("wander/yard.json", 400, {}, [](Model& m, uint64_t tick) {
    if (tick == 250) nudge(m, "entities[30].velocity.x");
  });
  const auto r1 = lsr::Recording::from_bytes(idle_kick.bytes, "kick.lsr");
  auto res = replay::run(r1, {});
  REQUIRE(res.first);
  CHECK(res.first->tick == 249);  // the step that produced tick 250's state
  CHECK(res.first->subsystems == std::vector<std::string>{"entities"});
  CHECK(res.first->recorded == idle_kick.hashes[249]);
  CHECK_FALSE(res.divergent_at_end);
  REQUIRE(res.reconverged_at);
  CHECK(*res.reconverged_at == 250);
  CHECK(res.divergent_ticks == 1);

  // A changed home never heals: startpos is never written again.
  const auto moved = record("wander/yard.json", 400, {}, [](Model& m, uint64_t tick) {
    if (tick == 100) nudge(m, "entities[7].startpos.x");
  });
  res = replay::run(lsr::Recording::from_bytes(moved.bytes, "moved.lsr"), {});
  REQUIRE(res.first);
  CHECK(res.first->tick == 99);
  CHECK(res.divergent_at_end);
  CHECK(res.divergent_ticks == 301);
}

namespace {
// A model whose step reads state its field listing forgets: what --synctest is for.
struct Leaky {
  struct Scenario {
    uint64_t seed = 0;
    std::string model = "leaky";
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"model"}, s.model);
      v(FieldInfo{"seed"}, s.seed);
    }
  };
  struct Input {
    int32_t push = 0;
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"push"}, s.push);
    }
  };
  struct State {
    uint64_t tick = 0;
    int64_t value = 0;
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"tick"}, s.tick);
      v(FieldInfo{"value"}, s.value);
    }
  };
  static constexpr std::string_view kName = "leaky";
  static constexpr uint32_t kVersion = 1;
  static constexpr uint32_t kTickRateHz = 10;
  static Scenario load_scenario(const Json& j, const JsonReader& r) {
    Scenario s;
    r.read(j, s, "$");
    return s;
  }
  explicit Leaky(Scenario) { ++built; }
  static inline int built = 0;  // models built from a scenario (a clone is a copy: not counted)
  void step(const Input& in) {
    hidden_ += 1;  // not in the listing: a snapshot forgets it
    state_.value += in.push + (hidden_ > 5 ? 1 : 0);
    ++state_.tick;
  }
  Input scripted_input() const { return Input{1}; }
  uint64_t tick() const { return state_.tick; }
  const State& state() const { return state_; }
  void set_state(const State& s) { state_ = s; }
  State state_;
  int hidden_ = 0;
};

// Leaky registered for one test, and 20 of its ticks recorded.
struct LeakyRun {
  static lsr::Recording record() {
    register_model_type<Leaky>();
    auto m = load_scenario_text(R"({"model": "leaky"})", "leaky.json");
    const std::string path = temp_path("leaky.lsr");
    {
      lsr::Recorder rec(path, *m);
      for (int k = 0; k < 20; ++k) {
        auto in = m->scripted_input();
        m->step(in);
        rec.tick(in, *m);
      }
      rec.finish();
    }
    auto r = lsr::Recording::open(path);
    fs::remove(path);
    return r;
  }
  LeakyRun() = default;
  ~LeakyRun() { unregister_model("leaky"); }  // other tests list the registry's models
  LeakyRun(const LeakyRun&) = delete;
  LeakyRun& operator=(const LeakyRun&) = delete;
  lsr::Recording r = record();
};
}  // namespace

TEST_CASE("The sync test catches state that snapshots forget", "[lsr][replay][synctest]") {
  const LeakyRun run;
  const lsr::Recording& r = run.r;
  CHECK(replay::run(r, {}).ok());  // a plain replay steps from the start and never notices
  replay::Options opt;
  opt.synctest = true;
  const auto res = replay::run(r, opt);
  REQUIRE(res.sync);
  CHECK(res.sync->tick == 5);  // the restored world's hidden counter starts over, so its 6th step differs
  CHECK(res.sync->subsystems == std::vector<std::string>{"value"});
  REQUIRE(res.sync->fields.size() == 1);
  CHECK(res.sync->fields[0].path == "value");
  // The yard forgets nothing.
  const auto yard = lsr::Recording::from_bytes(record("wander/yard.json", 200).bytes, "yard.lsr");
  CHECK(replay::run(yard, opt).ok());
}

TEST_CASE("The sync test builds its fresh model once: each tick's twin is a clone of it, never stepped", "[lsr][replay][synctest]") {
  const LeakyRun run;
  const lsr::Recording& r = run.r;
  replay::Options opt;
  opt.synctest = true;
  Leaky::built = 0;
  const auto res = replay::run(r, opt);
  // The replayed model and the synctest's fresh one; building one a tick (7 by the failure at
  // tick 5) made the sync test 30 to 400 times as slow as the replay on the bundled scenarios.
  CHECK(Leaky::built == 2);
  // Still fresh: a clone of the stepped model would carry its hidden counter and find nothing.
  REQUIRE(res.sync);
  CHECK(res.sync->tick == 5);
}

TEST_CASE("state_at from a fresh model clones it: the same state, no model built again", "[lsr][replay]") {
  const LeakyRun run;
  const lsr::Recording& r = run.r;
  const auto fresh = replay::model_for(r);
  Leaky::built = 0;
  const auto a = replay::state_at(r, 12, *fresh);
  const auto b = replay::state_at(r, 17, *fresh);
  CHECK(Leaky::built == 0);
  CHECK(fresh->tick() == 0);  // the fresh model itself is not stepped
  const auto a2 = replay::state_at(r, 12), b2 = replay::state_at(r, 17);
  CHECK(Leaky::built == 2);
  CHECK(a->tick() == 12);
  CHECK(a->hashes().whole == a2->hashes().whole);
  CHECK(b->hashes().whole == b2->hashes().whole);
}

TEST_CASE("A recording cut off at any byte keeps every complete chunk and says where the damage starts",
          "[lsr][damage]") {
  lsr::RecorderOptions opt;
  opt.chunk_ticks = 20;
  const Recorded rec = record("wander/yard.json", 200, opt);
  const auto whole = lsr::Recording::from_bytes(rec.bytes, "whole.lsr");
  const auto& frames = whole.frames();
  const std::size_t header_end = frames.front().offset;
  for (std::size_t cut = 0; cut < rec.bytes.size(); cut += (cut < header_end ? 97 : 61)) {
    INFO("cut at byte " << cut);
    std::vector<uint8_t> part(rec.bytes.begin(), rec.bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    if (cut < header_end) {
      CHECK_THROWS_AS(lsr::Recording::from_bytes(part, "cut.lsr"), InputError);
      continue;
    }
    const auto r = lsr::Recording::from_bytes(part, "cut.lsr");
    REQUIRE(r.damage());
    CHECK(r.damage()->truncated);
    // Every frame that ends at or before the cut is recovered, and nothing else.
    uint64_t expect_ticks = 0;
    std::size_t expect_frames = 0;
    for (const auto& f : frames)
      if (f.offset + f.compressed <= cut) {
        expect_ticks += f.ticks;
        ++expect_frames;
      }
    CHECK(r.frames().size() == expect_frames);
    CHECK(r.ticks() == expect_ticks);
    const auto got = scanned_hashes(r);
    CHECK(got == std::vector<uint64_t>(rec.hashes.begin(), rec.hashes.begin() + static_cast<std::ptrdiff_t>(expect_ticks)));
  }
}

TEST_CASE("A flipped byte anywhere is reported, and no wrong tick is presented as good", "[lsr][damage]") {
  lsr::RecorderOptions opt;
  opt.chunk_ticks = 25;
  const Recorded rec = record("wander/yard.json", 150, opt);
  int reported = 0, refused = 0;
  for (std::size_t at = 0; at < rec.bytes.size(); at += 13) {
    INFO("flip at byte " << at);
    auto bad = rec.bytes;
    bad[at] ^= 0x20;
    try {
      const auto r = lsr::Recording::from_bytes(bad, "flip.lsr");
      CHECK(r.damage());  // every byte is covered by a checksum or a structural check
      if (r.damage()) {
        ++reported;
        CHECK(r.damage()->offset <= at);
      }
      const auto got = scanned_hashes(r);
      REQUIRE(got.size() <= rec.hashes.size());
      CHECK(got == std::vector<uint64_t>(rec.hashes.begin(), rec.hashes.begin() + static_cast<std::ptrdiff_t>(got.size())));
    } catch (const InputError& e) {
      ++refused;  // the header itself: nothing can be trusted
      CHECK(std::string(e.what()).find("flip.lsr") == 0);
    }
  }
  CHECK(reported > 100);
  CHECK(refused > 5);
}

TEST_CASE("A newer major version is refused by name and number, oversized headers before allocating", "[lsr][damage]") {
  auto bytes = record("wander/setpath.json", 30).bytes;
  auto newer = bytes;
  newer[12] = 2;
  CHECK_THROWS_WITH(lsr::Recording::from_bytes(newer, "new.lsr"),
                    "new.lsr: byte 12: format version 2.1 is newer than this reader's 1.1: use a newer lockstep");
  auto huge = bytes;
  huge[4] = huge[5] = huge[6] = huge[7] = 0xff;
  CHECK_THROWS_WITH(lsr::Recording::from_bytes(huge, "huge.lsr"), Catch::Contains("beyond the limit"));
  CHECK_THROWS_WITH(lsr::Recording::from_bytes({'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'}, "text.lsr"),
                    "text.lsr: byte 0: not a Lockstep recording (expected the header frame's magic 0x184D2A50)");
  CHECK_THROWS_WITH(lsr::Recording::open("/nonexistent.lsr"), "/nonexistent.lsr: cannot open the recording for reading");
}

TEST_CASE("Full 64-bit subsystem hashes can be kept per tick", "[lsr]") {
  lsr::RecorderOptions opt;
  opt.sub_hash_bytes = 8;
  const auto moved = record("wander/yard.json", 120, opt, [](Model& m, uint64_t tick) {
    if (tick == 60) nudge(m, "rng.wander_key");
  });
  const auto r = lsr::Recording::from_bytes(moved.bytes, "full.lsr");
  CHECK(r.header().sub_hash_bytes == 8);
  const auto res = replay::run(r, {});
  REQUIRE(res.first);
  CHECK(res.first->tick == 59);
  CHECK(res.first->subsystems == std::vector<std::string>{"rng"});
}

TEST_CASE("The header's seed is the model's own, through the contract", "[lsr]") {
  // warriors/turn_on_spot.json has no "seed": the model runs with its
  // default, 1 (Scenario::seed), and the header says so (it said 0 when the
  // recorder read the scenario's JSON itself). wander/yard.json gives its own.
  const auto spot = lsr::Recording::from_bytes(record("warriors/turn_on_spot.json", 5).bytes, "spot.lsr");
  CHECK(spot.header().seed == 1);
  CHECK(load_scenario_file(fixtures::path("warriors/turn_on_spot.json"))->seed() == 1);
  CHECK(load_scenario_file(fixtures::path("wander/yard.json"))->seed() == 20261130);
}

TEST_CASE("A model without a body view offers none", "[lsr][contract]") {
  register_model_type<Leaky>();
  struct Unregister {
    ~Unregister() { unregister_model("leaky"); }
  } unregister;
  auto m = load_scenario_text(R"({"model": "leaky", "seed": 9})", "leaky.json");
  CHECK(m->floors().empty());
  CHECK(m->bodies().empty());
  CHECK(m->seed() == 9);
}
