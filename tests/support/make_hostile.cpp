// Writes hostile recordings for tools/tests/hostile-test: each small, each
// aimed at one promise of docs/format.md ("Reading, damage and recovery"),
// most with every checksum right so the reader's checks behind them are
// reached. The command line must answer every one with exit 2 under a memory
// limit: never a crash, a hang, or an allocation the file did not earn.
//
// usage: lockstep_make_hostile DIR    (prints the file names it wrote)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "fixtures.h"
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

/// A real recording of a bundled scenario, its frames written again behind a format 1.0
/// header (every file here is one a 1.0 reader would take, so older builds can be tried too).
std::vector<uint8_t> recorded(const std::string& scenario, uint64_t ticks) {
  auto m = load_scenario_file(fixtures::path(scenario));
  const fs::path p = dir / ".tmp.lsr";
  {
    lsr::Recorder rec(p.string(), *m);
    for (uint64_t k = 0; k < ticks; ++k) {
      auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    rec.finish();
  }
  const auto b = read(p);
  fs::remove(p);
  const auto r = lsr::Recording::from_bytes(b, scenario);
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
  for (const auto& f : r.frames())
    out.raw_frame(std::vector<uint8_t>(b.begin() + static_cast<std::ptrdiff_t>(f.offset),
                                       b.begin() + static_cast<std::ptrdiff_t>(f.offset + f.compressed)),
                  f.kind, f.first_tick, f.ticks, f.decompressed, f.checksum);
  return out.finish();
}

uint32_t u32_at(const std::vector<uint8_t>& b, std::size_t at) {
  return static_cast<uint32_t>(b[at]) | (static_cast<uint32_t>(b[at + 1]) << 8) | (static_cast<uint32_t>(b[at + 2]) << 16) |
         (static_cast<uint32_t>(b[at + 3]) << 24);
}

}  // namespace

int main(int argc, char** argv) {
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
    write("header-million-subsystems.lsr", test::LsrBuilder(big).finish());
  }
  // An index and seek table that agree a frame holds 0xFFFFFFFF bytes.
  {
    test::LsrBuilder b(h);
    b.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10, true, 0xFFFFFFFFu);
    write("index-claims-4gib-frame.lsr", b.finish());
  }
  // A 17-byte zstd frame claiming 1 GiB, with no index (found by walking), and one claiming 60 MiB.
  {
    test::LsrBuilder b(h);
    b.raw_frame(test::rle_frame(1u << 30, 100), lsr::kFrameTicks, 0, 10, 1u << 30, 0);
    write("frame-17-bytes-claims-1gib.lsr", b.bytes());
    test::LsrBuilder c(h);
    c.raw_frame(test::rle_frame(60u << 20, 100), lsr::kFrameTicks, 0, 10, 60u << 20, 0);
    write("frame-17-bytes-claims-60mib.lsr", c.finish());
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
    write("frame-rle-64mib.lsr", b.finish());
  }
  // A keyframe whose snapshot length is 2^63, every checksum right.
  {
    test::LsrBuilder b(h);
    b.frame(test::keyframe_content(0, {1, 2, 3}, 7, {1, 2, 3}, uint64_t{1} << 63), lsr::kFrameKeyframe, 0, 0);
    b.frame(test::chunk_content(0, 10, 3, 2, {0, 0, 0, 0}), lsr::kFrameTicks, 0, 10);
    write("keyframe-snapshot-length-2e63.lsr", b.finish());
  }
  // One flipped byte in each of the trailer's structures of a real recording.
  {
    const auto real = recorded("wander/yard.json", 200);
    const std::size_t table = real.size() - (static_cast<std::size_t>(u32_at(real, real.size() - 9)) * 12 + 9) - 8;
    // The index frame is the one before the seek table: the seek table's last entry gives its size.
    const uint32_t index_size = u32_at(real, real.size() - 9 - 12);
    const std::size_t index_at = table - index_size;
    auto flip = [&](const char* name, std::size_t at, uint8_t bits) {
      auto b = real;
      b[at] ^= bits;
      write(name, b);
    };
    flip("seek-table-footer-magic.lsr", real.size() - 2, 0x10);
    flip("seek-table-footer-count.lsr", real.size() - 9, 0x04);
    flip("index-magic.lsr", index_at, 0x01);
    flip("index-entry.lsr", index_at + 20, 0x01);
    flip("data-frame-byte.lsr", u32_at(real, 4) + 8 + 40, 0x20);
    write("cut-inside-a-chunk.lsr", std::vector<uint8_t>(real.begin(), real.begin() + static_cast<std::ptrdiff_t>(index_at - 30)));
  }
  return 0;
}
