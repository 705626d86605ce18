// Hand-made recordings for tests: every frame, index entry and seek table
// entry written by hand from docs/format.md, each checksum right unless a test
// says otherwise, so a test reaches what the checksums guard. Independent of
// lsr::Recorder (it shares only the constants), so a writer bug cannot hide a
// reader bug.
#pragma once

#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/core/hash.h"
#include "lockstep/replay/lsr.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace lockstep::test {

inline void put(std::vector<uint8_t>& o, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) o.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_varint(std::vector<uint8_t>& o, uint64_t v) {
  while (v >= 0x80) {
    o.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  o.push_back(static_cast<uint8_t>(v));
}
inline void put_string(std::vector<uint8_t>& o, const std::string& s) {
  put(o, s.size(), 4);
  o.insert(o.end(), s.begin(), s.end());
}
inline uint32_t checksum32(const std::vector<uint8_t>& c) { return static_cast<uint32_t>(XXH64(c.data(), c.size(), 0)); }
inline void seal(std::vector<uint8_t>& content) { put(content, xxh3(content.data(), content.size()), 8); }

/// The header frame: the canonical Header of format 1.1 written field by field.
struct HeaderSpec {
  uint16_t minor = 1;
  std::string model = "wander";
  uint32_t model_version = 1, tick_rate_hz = 60;
  uint64_t seed = 0, first_tick = 0;
  uint32_t chunk_ticks = 10, keyframe_every = 10;
  uint8_t sub_hash_bytes = 2;
  std::vector<std::string> subsystems = {"tick", "rng", "entities"};
  std::optional<uint32_t> claimed_subsystems;  ///< a count written without the names
  std::string scenario_json = R"({"model":"wander"})";
  std::string fp_env = "IEEE default";
};

inline std::vector<uint8_t> header_frame(const HeaderSpec& h) {
  std::vector<uint8_t> p = {'L', 'S', 'R', 0x1a};
  put(p, 1, 2);
  put(p, h.minor, 2);
  put(p, 1, 2);
  put(p, h.minor, 2);
  put_string(p, h.model);
  put(p, h.model_version, 4);
  put(p, h.tick_rate_hz, 4);
  put(p, h.seed, 8);
  put(p, h.first_tick, 8);
  put(p, h.chunk_ticks, 4);
  put(p, h.keyframe_every, 4);
  put(p, h.sub_hash_bytes, 1);
  if (h.claimed_subsystems) {
    put(p, *h.claimed_subsystems, 4);
    for (uint32_t i = 0; i < *h.claimed_subsystems && p.size() < (1u << 20); ++i) put_string(p, "");  // empty names
  } else {
    put(p, h.subsystems.size(), 4);
    for (const auto& s : h.subsystems) put_string(p, s);
  }
  put_string(p, h.scenario_json);
  for (const char* s : {"gcc test", "-O2", "x86_64", "test"}) put_string(p, s);
  if (h.minor >= 1) put_string(p, h.fp_env);
  seal(p);
  std::vector<uint8_t> f;
  put(f, lsr::kHeaderMagic, 4);
  put(f, p.size(), 4);
  f.insert(f.end(), p.begin(), p.end());
  return f;
}

/// A keyframe's content (before its XXH3).
inline std::vector<uint8_t> keyframe_content(uint64_t tick, const std::vector<uint8_t>& snapshot, uint64_t whole,
                                             const std::vector<uint64_t>& subs, std::optional<uint64_t> claimed_len = {}) {
  std::vector<uint8_t> c;
  put(c, lsr::kKeyframeMagic, 4);
  put(c, tick, 8);
  put_varint(c, claimed_len ? *claimed_len : snapshot.size());
  c.insert(c.end(), snapshot.begin(), snapshot.end());
  put(c, whole, 8);
  for (auto s : subs) put(c, s, 8);
  return c;
}

/// A chunk's content (before its XXH3): n ticks of hashes, each tick's input given.
inline std::vector<uint8_t> chunk_content(uint64_t first, uint32_t n, uint32_t subsystems, uint8_t sub_bytes,
                                          const std::vector<uint8_t>& input) {
  std::vector<uint8_t> c;
  put(c, lsr::kChunkMagic, 4);
  put(c, first, 8);
  put(c, n, 4);
  for (uint32_t k = 0; k < n; ++k) {
    put(c, 0x1000 + first + k, 8);
    for (uint32_t s = 0; s < subsystems; ++s) put(c, k, sub_bytes);
  }
  put(c, 1, 4);  // one input, at offset 0
  put_varint(c, 0);
  put_varint(c, input.size());
  c.insert(c.end(), input.begin(), input.end());
  return c;
}

/// Writes a recording frame by frame; `finish` adds the index and the seek table.
class LsrBuilder {
 public:
  explicit LsrBuilder(const HeaderSpec& h) : bytes_(header_frame(h)), header_bytes_(bytes_.size()) {}

  /// Compress and append a data frame; `content` gets its XXH3 appended first (unless sealed).
  /// `index_content` overrides the content size the index and seek table give.
  void frame(std::vector<uint8_t> content, uint8_t kind, uint64_t first_tick, uint32_t ticks, bool add_xxh3 = true,
             std::optional<uint32_t> index_content = {}) {
    if (add_xxh3) seal(content);
    std::vector<uint8_t> z(ZSTD_compressBound(content.size()));
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    const std::size_t n = ZSTD_compress2(c, z.data(), z.size(), content.data(), content.size());
    ZSTD_freeCCtx(c);
    z.resize(n);
    raw_frame(z, kind, first_tick, ticks, index_content ? *index_content : static_cast<uint32_t>(content.size()), checksum32(content));
  }

  /// Append bytes as a data frame as they are (a hand-made zstd frame), with the index entry given.
  void raw_frame(const std::vector<uint8_t>& z, uint8_t kind, uint64_t first_tick, uint32_t ticks, uint32_t content,
                 uint32_t checksum) {
    entries_.push_back({bytes_.size(), static_cast<uint32_t>(z.size()), content, kind, first_tick, ticks,
                        xxh3(z.data(), z.size()), checksum});
    bytes_.insert(bytes_.end(), z.begin(), z.end());
  }

  std::vector<uint8_t> finish() {
    std::vector<uint8_t> p = {'L', 'S', 'I', 'X'};
    put(p, entries_.size(), 4);
    for (const auto& e : entries_) {
      put(p, e.offset, 8);
      put(p, e.compressed, 4);
      put(p, e.content, 4);
      p.push_back(e.kind);
      put(p, e.first_tick, 8);
      put(p, e.ticks, 4);
      put(p, e.hash, 8);
      put(p, e.checksum, 4);
    }
    seal(p);
    const uint64_t index_at = bytes_.size();
    put(bytes_, lsr::kIndexMagic, 4);
    put(bytes_, p.size(), 4);
    bytes_.insert(bytes_.end(), p.begin(), p.end());
    const uint32_t empty = static_cast<uint32_t>(XXH64(nullptr, 0, 0));
    std::vector<uint8_t> st;
    const std::size_t nframes = entries_.size() + 2;
    put(st, lsr::kSeekTableMagic, 4);
    put(st, nframes * 12 + 9, 4);
    put(st, header_bytes_, 4), put(st, 0, 4), put(st, empty, 4);
    for (const auto& e : entries_) put(st, e.compressed, 4), put(st, e.content, 4), put(st, e.checksum, 4);
    put(st, bytes_.size() - index_at, 4), put(st, 0, 4), put(st, empty, 4);
    put(st, nframes, 4);
    st.push_back(0x80);
    put(st, lsr::kSeekFooterMagic, 4);
    bytes_.insert(bytes_.end(), st.begin(), st.end());
    return bytes_;
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  struct Entry {
    uint64_t offset;
    uint32_t compressed, content;
    uint8_t kind;
    uint64_t first_tick;
    uint32_t ticks;
    uint64_t hash;
    uint32_t checksum;
  };
  std::vector<uint8_t> bytes_;
  std::size_t header_bytes_;
  std::vector<Entry> entries_;
};

/// A zstd frame made by hand: a content size it claims, one last RLE block of `repeats` bytes,
/// no checksum: 17 bytes that say they hold `claimed` bytes.
inline std::vector<uint8_t> rle_frame(uint64_t claimed, uint32_t repeats, uint8_t value = 0) {
  std::vector<uint8_t> f;
  put(f, lsr::kZstdMagic, 4);
  f.push_back(0xE0);  // Frame_Header_Descriptor: 8-byte content size, single segment, no checksum, no dictionary
  put(f, claimed, 8);
  put(f, (static_cast<uint64_t>(repeats) << 3) | (1u << 1) | 1u, 3);  // last block, type RLE, size = repeats
  f.push_back(value);
  return f;
}

}  // namespace lockstep::test
