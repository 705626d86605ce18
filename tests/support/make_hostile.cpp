// Writes hostile recordings for tools/tests/hostile-test: each small, each
// aimed at one promise of docs/format.md ("Reading, damage and recovery"),
// most with every checksum right so the reader's checks behind them are
// reached. The command line must answer every one with exit 2 under a memory
// limit: never a crash, a hang, or an allocation the file did not earn.
//
// usage: lockstep_make_hostile DIR    (prints the file names it wrote)
#include <bit>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "fixtures.h"
#include "lockstep/models/bundled.h"
#include "lockstep/core/model.h"
#include "lockstep/replay/lsr.h"
#include "lsr_builder.h"

using namespace lockstep;
namespace fs = std::filesystem;

namespace {

fs::path dir;

void write(const std::string& name, const std::vector<uint8_t>& bytes) {
  std::ofstream out(dir / name, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  std::printf("%s\n", name.c_str());
}

std::vector<uint8_t> read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// A recording's frames written again behind a format 1.0 header (every file here is one a 1.0
/// reader would take, so older builds can be tried on them too). `replace` may give a keyframe's
/// content anew (its tick in, the content out; empty: keep the frame).
std::vector<uint8_t> as_format_1_0(const std::vector<uint8_t>& b, const std::string& name,
                                   const std::function<std::vector<uint8_t>(uint64_t)>& replace = {},
                                   uint64_t patch_tick = UINT64_MAX, uint64_t patch_whole = 0) {
  const auto r = lsr::Recording::from_bytes(b, name);
  const auto& h = r.header();
  test::HeaderSpec spec;
  spec.minor = 0;
  spec.model = h.model;
  spec.model_version = h.model_version;
  spec.tick_rate_hz = h.tick_rate_hz;
  spec.seed = h.seed;
  spec.first_tick = h.first_tick;
  spec.chunk_ticks = h.chunk_ticks;
  spec.keyframe_every = h.keyframe_every;
  spec.sub_hash_bytes = h.sub_hash_bytes;
  spec.subsystems = h.subsystems;
  spec.scenario_json = h.scenario_json;
  test::LsrBuilder out(spec);
  for (const auto& f : r.frames()) {
    if (replace && f.kind == lsr::kFrameKeyframe) {
      auto content = replace(f.first_tick);
      if (!content.empty()) {
        out.frame(std::move(content), f.kind, f.first_tick, 0);
        continue;
      }
    }
    if (f.kind == lsr::kFrameTicks && patch_tick >= f.first_tick && patch_tick < f.first_tick + f.ticks) {
      // The chunk again, the whole-state hash of one tick's record replaced (and sealed anew).
      std::vector<uint8_t> content(f.decompressed);
      ZSTD_decompress(content.data(), content.size(), b.data() + f.offset, f.compressed);
      content.resize(content.size() - 8);
      const std::size_t per_tick = 8 + h.subsystems.size() * h.sub_hash_bytes;
      const std::size_t at = 16 + (patch_tick - f.first_tick) * per_tick;
      for (int k = 0; k < 8; ++k) content[at + static_cast<std::size_t>(k)] = static_cast<uint8_t>(patch_whole >> (8 * k));
      out.frame(std::move(content), f.kind, f.first_tick, f.ticks);
      continue;
    }
    out.raw_frame(std::vector<uint8_t>(b.begin() + static_cast<std::ptrdiff_t>(f.offset),
                                       b.begin() + static_cast<std::ptrdiff_t>(f.offset + f.compressed)),
                  f.kind, f.first_tick, f.ticks, f.decompressed, f.checksum);
  }
  return out.finish();
}

/// A real recording of a bundled scenario; the input recorded for step `at` may be replaced.
std::vector<uint8_t> recorded(const std::string& scenario, uint64_t ticks, uint32_t keyframe_every = 0, uint64_t at = UINT64_MAX,
                              const std::vector<uint8_t>& input_at = {}) {
  auto m = load_scenario_file(fixtures::path(scenario));
  const fs::path p = dir / ".tmp.lsr";
  {
    lsr::RecorderOptions opt;
    opt.keyframe_every = keyframe_every;
    lsr::Recorder rec(p.string(), *m, opt);
    for (uint64_t k = 0; k < ticks; ++k) {
      auto in = m->scripted_input();
      m->step(in);
      rec.tick(k == at ? input_at : in, *m);
    }
    rec.finish();
  }
  const auto b = read(p);
  fs::remove(p);
  return b;
}

/// The station's Input in its canonical encoding, written by hand: one impulse event.
std::vector<uint8_t> station_impulse(uint32_t walker, float x, float y) {
  std::vector<uint8_t> o;
  test::put(o, 1, 4);       // events: one
  test::put(o, walker, 4);  // walker
  test::put(o, 0, 4);       // kind: impulse
  test::put(o, std::bit_cast<uint32_t>(x), 4);
  test::put(o, std::bit_cast<uint32_t>(y), 4);
  return o;
}

/// A keyframe of `scenario` at tick `at` whose leaf `path` is set to `value` (hashes of that state).
std::pair<std::vector<uint8_t>, uint64_t> keyframe_with(const std::string& scenario, uint64_t at, const std::string& path, float value) {
  auto m = load_scenario_file(fixtures::path(scenario));
  while (m->tick() < at) m->step_scripted();
  bool found = false;
  for (auto& leaf : m->mutable_leaves())
    if (leaf.path == path) {
      *static_cast<float*>(leaf.ref.ptr) = value;
      found = true;
    }
  if (!found) throw std::runtime_error("no leaf " + path + " in " + scenario);
  const auto h = m->hashes();
  return {test::keyframe_content(at, m->snapshot(), h.whole, std::vector<uint64_t>(h.sub.begin(), h.sub.begin() + h.count)), h.whole};
}

uint32_t u32_at(const std::vector<uint8_t>& b, std::size_t at) {
  return static_cast<uint32_t>(b[at]) | (static_cast<uint32_t>(b[at + 1]) << 8) | (static_cast<uint32_t>(b[at + 2]) << 16) |
         (static_cast<uint32_t>(b[at + 3]) << 24);
}

}  // namespace

int main(int argc, char** argv) {
  lockstep::register_bundled_models();
  if (argc != 2) {
    std::fprintf(stderr, "usage: lockstep_make_hostile DIR\n");
    return 2;
  }
  dir = argv[1];
  fs::create_directories(dir);
  test::HeaderSpec h;
  h.minor = 0;  // format 1.0: what every release reads
  h.scenario_json = R"({"model":"wander","seed":1,"entities":[{}]})";

  // A 1 MiB header (checksum right) that claims a million subsystems.
  {
    test::HeaderSpec big = h;
    big.claimed_subsystems = 1000000;
    write("damaged-header-million-subsystems.lsr", test::LsrBuilder(big).finish());
  }
  // An index and seek table that agree a frame holds 0xFFFFFFFF bytes.
  {
    test::LsrBuilder b(h);
    b.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10, true, 0xFFFFFFFFu);
    write("damaged-index-claims-4gib-frame.lsr", b.finish());
  }
  // A 17-byte zstd frame claiming 1 GiB, with no index (found by walking), and one claiming 60 MiB.
  {
    test::LsrBuilder b(h);
    b.raw_frame(test::rle_frame(1u << 30, 100), lsr::kFrameTicks, 0, 10, 1u << 30, 0);
    write("damaged-frame-17-bytes-claims-1gib.lsr", b.bytes());
    test::LsrBuilder c(h);
    c.raw_frame(test::rle_frame(60u << 20, 100), lsr::kFrameTicks, 0, 10, 60u << 20, 0);
    write("damaged-frame-17-bytes-claims-60mib.lsr", c.finish());
  }
  // A frame that really decompresses to 64 MiB (512 RLE blocks of 128 KiB, 2 KiB of file):
  // within the limits, so decompressed, then refused for what it holds.
  {
    std::vector<uint8_t> z;
    test::put(z, lsr::kZstdMagic, 4);
    z.push_back(0xE0);
    test::put(z, uint64_t{64} << 20, 8);
    for (int k = 0; k < 512; ++k) test::put(z, (uint64_t{128 * 1024} << 3) | (1u << 1) | (k == 511 ? 1u : 0u), 3), z.push_back(0x4c);
    test::LsrBuilder b(h);
    b.raw_frame(z, lsr::kFrameTicks, 0, 10, 64u << 20, 0);
    write("damaged-frame-rle-64mib.lsr", b.finish());
  }
  // A keyframe whose snapshot length is 2^63, every checksum right.
  {
    test::LsrBuilder b(h);
    b.frame(test::keyframe_content(0, {1, 2, 3}, 7, {1, 2, 3}, uint64_t{1} << 63), lsr::kFrameKeyframe, 0, 0);
    b.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10);
    write("damaged-keyframe-snapshot-length-2e63.lsr", b.finish());
  }
  // One flipped byte in each of the trailer's structures of a real recording.
  {
    const auto real = as_format_1_0(recorded("wander/yard.json", 200), "yard");
    const std::size_t table = real.size() - (static_cast<std::size_t>(u32_at(real, real.size() - 9)) * 12 + 9) - 8;
    // The index frame is the one before the seek table: the seek table's last entry gives its size.
    const uint32_t index_size = u32_at(real, real.size() - 9 - 12);
    const std::size_t index_at = table - index_size;
    auto flip = [&](const char* name, std::size_t at, uint8_t bits) {
      auto b = real;
      b[at] ^= bits;
      write(name, b);
    };
    flip("damaged-seek-table-footer-magic.lsr", real.size() - 2, 0x10);
    flip("damaged-seek-table-footer-count.lsr", real.size() - 9, 0x04);
    flip("damaged-index-magic.lsr", index_at, 0x01);
    flip("damaged-index-entry.lsr", index_at + 20, 0x01);
    flip("damaged-data-frame-byte.lsr", u32_at(real, 4) + 8 + 40, 0x20);
    write("damaged-cut-inside-a-chunk.lsr", std::vector<uint8_t>(real.begin(), real.begin() + static_cast<std::ptrdiff_t>(index_at - 30)));
  }
  // Hostile content behind sound framing: a station recording whose step 10 carries an impulse
  // of (NaN, NaN), one of (inf, inf), one of (3e38, 3e38) (finite, and far beyond any walker);
  // and one whose keyframe of tick 20 puts walker 0 at x = 3e38.
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  write("input-station-impulse-nan.lsr", as_format_1_0(recorded("station/hall.json", 40, 20, 10, station_impulse(0, nan, nan)), "nan"));
  write("input-station-impulse-inf.lsr", as_format_1_0(recorded("station/hall.json", 40, 20, 10, station_impulse(0, inf, inf)), "inf"));
  write("input-station-impulse-3e38.lsr", as_format_1_0(recorded("station/hall.json", 40, 20, 10, station_impulse(0, 3e38f, 3e38f)), "3e38"));
  // The lie is told consistently: the record of step 19 carries the forged state's hash too.
  {
    const auto [forged, forged_whole] = keyframe_with("station/hall.json", 20, "walkers[0].pos.x", 3e38f);
    write("state-station-walker-x-3e38.lsr",
          as_format_1_0(recorded("station/hall.json", 40, 20), "pos",
                        [&, &content = forged](uint64_t tick) { return tick == 20 ? content : std::vector<uint8_t>{}; }, 19,
                        forged_whole));
  }
  return 0;
}
