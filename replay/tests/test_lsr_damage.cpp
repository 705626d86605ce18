// Hostile recordings (docs/format.md, "Reading, damage and recovery"): every
// damaged byte is named where it is and as what it hit, a wrong byte is never
// taken for a cut, and no size in a file is allocated before it is checked.
// Recordings with every checksum right are made by hand (lsr_builder.h).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "alloc_probe.h"
#include "fixtures.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"
#include "lsr_builder.h"

using namespace lockstep;
using lockstep::test::AllocProbe;
using lockstep::test::LsrBuilder;

namespace {

constexpr std::size_t kFewMegabytes = 4u << 20;

std::vector<uint8_t> record_bytes(const std::string& scenario, uint64_t ticks, lsr::RecorderOptions opt) {
  auto m = load_scenario_file(fixtures::path(scenario));
  const std::string p = (std::filesystem::temp_directory_path() / ("lockstep-damage-" + std::to_string(::getpid()) + ".lsr")).string();
  {
    lsr::Recorder rec(p, *m, opt);
    for (uint64_t k = 0; k < ticks; ++k) {
      auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    rec.finish();
  }
  std::ifstream in(p, std::ios::binary);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(p);
  return b;
}

uint32_t u32_at(const std::vector<uint8_t>& b, std::size_t at) {
  return static_cast<uint32_t>(b[at]) | (static_cast<uint32_t>(b[at + 1]) << 8) | (static_cast<uint32_t>(b[at + 2]) << 16) |
         (static_cast<uint32_t>(b[at + 3]) << 24);
}

/// Where each structure of a sound recording lies.
struct Layout {
  uint64_t header_end = 0, index_at = 0, table_at = 0, end = 0;
  std::vector<lsr::ChunkInfo> frames;
  /// The kind of structure byte `at` belongs to, and how many data frames lie wholly before it.
  std::pair<std::string, std::size_t> at(uint64_t off) const {
    for (std::size_t i = 0; i < frames.size(); ++i)
      if (off >= frames[i].offset && off < frames[i].offset + frames[i].compressed)
        return {frames[i].kind == lsr::kFrameKeyframe ? "keyframe" : "data frame", i};
    return {off < table_at ? "index" : "seek table", frames.size()};
  }
};

Layout layout_of(const std::vector<uint8_t>& b) {
  const auto r = lsr::Recording::from_bytes(b, "sound.lsr");
  REQUIRE_FALSE(r.damage());
  Layout l;
  l.frames = r.frames();
  l.header_end = l.frames.front().offset;
  l.index_at = l.frames.back().offset + l.frames.back().compressed;
  l.table_at = l.index_at + 8 + u32_at(b, l.index_at + 4);
  l.end = b.size();
  return l;
}

lsr::Recording open_bytes(std::vector<uint8_t> b) { return lsr::Recording::from_bytes(std::move(b), "hostile.lsr"); }

}  // namespace

TEST_CASE("Every flipped byte is reported at or before it, as the structure it hit, and never as a cut", "[lsr][damage]") {
  lsr::RecorderOptions opt;
  opt.chunk_ticks = 10;
  opt.keyframe_every = 20;
  const auto bytes = record_bytes("wander/setpath.json", 40, opt);
  const Layout l = layout_of(bytes);
  for (uint8_t pattern : {uint8_t{0x01}, uint8_t{0x80}}) {
    for (std::size_t at = 0; at < bytes.size(); ++at) {
      INFO("byte " << at << " ^ " << int(pattern) << " (of " << bytes.size() << "; index at " << l.index_at << ", seek table at "
                   << l.table_at << ")");
      auto bad = bytes;
      bad[at] ^= pattern;
      if (at < l.header_end) {
        CHECK_THROWS_AS(open_bytes(bad), InputError);  // nothing can be trusted without the header
        continue;
      }
      const auto r = open_bytes(bad);
      REQUIRE(r.damage());
      const auto& d = *r.damage();
      INFO(d.kind << " at byte " << d.offset << ", " << d.where << ": " << d.what);
      CHECK_FALSE(d.truncated);
      CHECK(d.offset <= at);
      const auto [kind, before] = l.at(at);
      CHECK(d.kind == kind);
      CHECK(r.frames().size() == before);  // every frame before the damage, none after
    }
  }
}

TEST_CASE("A recording cut at any byte is a cut: truncated, every whole frame kept", "[lsr][damage]") {
  lsr::RecorderOptions opt;
  opt.chunk_ticks = 10;
  opt.keyframe_every = 20;
  const auto bytes = record_bytes("wander/setpath.json", 40, opt);
  const Layout l = layout_of(bytes);
  for (std::size_t cut = l.header_end; cut < bytes.size(); ++cut) {
    INFO("cut at byte " << cut);
    const auto r = open_bytes(std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut)));
    REQUIRE(r.damage());
    CHECK(r.damage()->truncated);
    CHECK(r.damage()->offset <= cut);
    std::size_t whole = 0;
    for (const auto& f : l.frames) whole += f.offset + f.compressed <= cut ? 1 : 0;
    CHECK(r.frames().size() == whole);
  }
}

TEST_CASE("Damage in the index and seek table is named there, not as a cut or a data frame", "[lsr][damage]") {
  const auto bytes = record_bytes("wander/yard.json", 200, {});
  const Layout l = layout_of(bytes);
  SECTION("the seek table's footer magic (the last four bytes): not a cut, so --allow-truncated cannot take it") {
    auto bad = bytes;
    bad[bad.size() - 2] ^= 0x10;
    const auto r = open_bytes(bad);
    REQUIRE(r.damage());
    CHECK_FALSE(r.damage()->truncated);
    CHECK(r.damage()->kind == "seek table");
    CHECK(r.damage()->offset == bytes.size() - 4);
    CHECK_THAT(r.damage()->what, Catch::Contains("footer magic is 0x8f82eab1, expected 0x8F92EAB1"));
    CHECK(r.ticks() == 200);
  }
  SECTION("the footer's frame count: named at the footer") {
    auto bad = bytes;
    bad[bytes.size() - 9] ^= 0x04;
    const auto r = open_bytes(bad);
    REQUIRE(r.damage());
    CHECK(r.damage()->kind == "seek table");
    CHECK(r.damage()->offset == bytes.size() - 9);
    CHECK_THAT(r.damage()->what, Catch::Contains("footer counts"));
    CHECK(r.ticks() == 200);
  }
  SECTION("the index frame's magic: named as the index") {
    auto bad = bytes;
    bad[l.index_at] ^= 0x01;
    const auto r = open_bytes(bad);
    REQUIRE(r.damage());
    CHECK(r.damage()->kind == "index");
    CHECK(r.damage()->offset == l.index_at);
    CHECK(r.damage()->what == "the index frame's magic is 0x184d2a50, expected 0x184D2A51");
    CHECK(r.ticks() == 200);
  }
}

TEST_CASE("A header claiming a million subsystems is refused before the list is made", "[lsr][damage][alloc]") {
  test::HeaderSpec h;
  h.claimed_subsystems = 1000000;
  LsrBuilder b(h);
  const auto bytes = b.finish();
  REQUIRE(bytes.size() > (1u << 20));  // a 1 MiB header, every checksum right
  AllocProbe probe;
  CHECK_THROWS_WITH(open_bytes(bytes), Catch::Contains("the header lists 1000000 subsystems, more than the format's 16"));
  CHECK(probe.largest() < bytes.size() + kFewMegabytes);  // the copy of the file, and no 32 MB list of names
}

TEST_CASE("A keyframe whose snapshot length is 2^63, every checksum right, is damage at open", "[lsr][damage]") {
  test::HeaderSpec h;
  LsrBuilder b(h);
  b.frame(test::keyframe_content(0, {1, 2, 3}, 7, {1, 2, 3}, uint64_t{1} << 63), lsr::kFrameKeyframe, 0, 0);
  b.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10);
  const auto bytes = b.finish();
  const auto r = open_bytes(bytes);
  REQUIRE(r.damage());
  CHECK(r.damage()->kind == "keyframe");
  CHECK(r.damage()->offset == test::header_frame(h).size());  // the first data frame
  CHECK_THAT(r.damage()->what, Catch::Contains("a snapshot needs 9223372036854775808 bytes"));
  CHECK(r.frames().empty());
}

TEST_CASE("Frame sizes are checked against the format's limit and what zstd can expand before anything is allocated",
          "[lsr][damage][alloc]") {
  test::HeaderSpec h;
  const uint64_t first = test::header_frame(h).size();
  SECTION("an index and seek table that agree a frame holds 0xFFFFFFFF bytes") {
    LsrBuilder b(h);
    b.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10, true, 0xFFFFFFFFu);
    const auto bytes = b.finish();
    AllocProbe probe;
    const auto r = open_bytes(bytes);
    REQUIRE(r.damage());
    CHECK(r.damage()->kind == "data frame");
    CHECK(r.damage()->offset == first);
    CHECK_THAT(r.damage()->what, Catch::Contains("claims 4294967295 bytes of content, beyond the format's limit of 67108864"));
    CHECK(probe.largest() < bytes.size() + kFewMegabytes);
  }
  SECTION("a 17-byte zstd frame that claims 1 GiB") {
    LsrBuilder b(h);
    const auto z = test::rle_frame(1u << 30, 100);
    REQUIRE(z.size() == 17);
    b.raw_frame(z, lsr::kFrameTicks, 0, 10, 1u << 30, 0);
    auto bytes = b.bytes();  // no index: the frame is found by walking
    AllocProbe probe;
    const auto r = open_bytes(bytes);
    REQUIRE(r.damage());
    CHECK(r.damage()->offset == first);
    CHECK_FALSE(r.damage()->truncated);
    CHECK_THAT(r.damage()->what, Catch::Contains("beyond the format's limit"));
    CHECK(probe.largest() < bytes.size() + kFewMegabytes);
  }
  SECTION("a 17-byte zstd frame that claims 8 MiB: more than 17 bytes of zstd can hold") {
    LsrBuilder b(h);
    b.raw_frame(test::rle_frame(8u << 20, 100), lsr::kFrameTicks, 0, 10, 8u << 20, 0);
    const auto bytes = b.finish();
    AllocProbe probe;
    const auto r = open_bytes(bytes);
    REQUIRE(r.damage());
    CHECK_THAT(r.damage()->what, Catch::Contains("claims 8388608 bytes of content from 17 compressed bytes, more than zstd can expand"));
    CHECK(probe.largest() < bytes.size() + kFewMegabytes);
  }
  SECTION("a frame that claims more than it holds fails after what it holds") {
    LsrBuilder b(h);
    b.raw_frame(test::rle_frame(500000, 100), lsr::kFrameTicks, 0, 10, 500000, 0);
    const auto bytes = b.finish();
    AllocProbe probe;
    const auto r = open_bytes(bytes);
    REQUIRE(r.damage());
    CHECK(r.damage()->kind == "data frame");
    CHECK_THAT(r.damage()->what, Catch::Contains("the frame does not decompress") || Catch::Contains("the frame ends after"));
    CHECK(probe.largest() <= (1u << 20) + bytes.size());
  }
}

TEST_CASE("Format 1.0 recordings still read; a newer minor version's additions are passed over", "[lsr]") {
  test::HeaderSpec old;
  old.minor = 0;
  LsrBuilder b0(old);
  b0.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10);
  const auto r0 = open_bytes(b0.finish());
  CHECK_FALSE(r0.damage());
  CHECK(r0.header().build.fp_env.empty());  // not known in 1.0
  CHECK(r0.ticks() == 10);
  test::HeaderSpec now;
  const auto r1 = open_bytes(LsrBuilder(now).finish());
  CHECK(r1.header().build.fp_env == "IEEE default");
}

namespace {
// A toy model whose inputs are 9 MB each: 60 ticks to a chunk would be 540 MB in one frame.
struct Bulky {
  struct Scenario {
    std::string model = "bulky";
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"model"}, s.model);
    }
  };
  struct Input {
    std::vector<uint8_t> blob;
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"blob"}, s.blob);
    }
  };
  struct State {
    uint64_t tick = 0;
    uint64_t sum = 0;
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"tick"}, s.tick);
      v(FieldInfo{"sum"}, s.sum);
    }
  };
  static constexpr std::string_view kName = "bulky";
  static constexpr uint32_t kVersion = 1;
  static constexpr uint32_t kTickRateHz = 60;
  static Scenario load_scenario(const Json& j, const JsonReader& r) {
    Scenario s;
    r.read(j, s, "$");
    return s;
  }
  explicit Bulky(Scenario) {}
  void step(const Input& in) {
    state_.sum += in.blob.size() + in.blob[state_.tick % in.blob.size()];
    ++state_.tick;
  }
  Input scripted_input() const {
    Input in;
    in.blob.assign(9u << 20, static_cast<uint8_t>(state_.tick * 37));
    return in;
  }
  uint64_t tick() const { return state_.tick; }
  const State& state() const { return state_; }
  void set_state(const State& s) { state_ = s; }
  State state_;
};
}  // namespace

TEST_CASE("The recorder closes a chunk early rather than pass the frame limit", "[lsr]") {
  register_model_type<Bulky>();
  struct Unregister {
    ~Unregister() { unregister_model("bulky"); }
  } unregister;
  auto m = load_scenario_text(R"({"model": "bulky"})", "bulky.json");
  const std::string p = (std::filesystem::temp_directory_path() / ("lockstep-bulky-" + std::to_string(::getpid()) + ".lsr")).string();
  {
    lsr::Recorder rec(p, *m);
    for (int k = 0; k < 16; ++k) {
      auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    rec.finish();
  }
  const auto r = lsr::Recording::open(p);
  std::filesystem::remove(p);
  CHECK_FALSE(r.damage());
  CHECK(r.ticks() == 16);
  CHECK(r.chunk_count() >= 3);
  for (const auto& f : r.frames()) CHECK(f.decompressed <= lsr::kMaxFrameBytes);
  CHECK(replay::run(r, {}).ok());
}

TEST_CASE("A keyframe whose hash contradicts its recording's chain is damage at open", "[lsr][damage]") {
  test::HeaderSpec h;
  LsrBuilder b(h);
  b.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10);  // step 9's state hashes 0x1009
  b.frame(test::keyframe_content(10, {}, 0x1009, {0, 0, 0}), lsr::kFrameKeyframe, 10, 0);
  CHECK_FALSE(open_bytes(LsrBuilder(b).finish()).damage());
  b.frame(test::chunk_content(10, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 10, 10);  // step 19's: 0x1013
  b.frame(test::keyframe_content(20, {}, 0x7777, {0, 0, 0}), lsr::kFrameKeyframe, 20, 0);
  const auto r = open_bytes(b.finish());
  REQUIRE(r.damage());
  CHECK(r.damage()->kind == "keyframe");
  CHECK_THAT(r.damage()->what, Catch::Contains("its state hash 0000000000007777 is not the 0000000000001013 the record of step 19 gives"));
  CHECK(r.ticks() == 20);
}
