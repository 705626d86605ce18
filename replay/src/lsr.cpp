// The .lsr recording format: writer and reader (docs/format.md).
#include "lockstep/replay/lsr.h"

#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lockstep/core/canonical_read.h"

#ifndef LOCKSTEP_BUILD_FLAGS
#define LOCKSTEP_BUILD_FLAGS "unknown"
#endif
#ifndef LOCKSTEP_REVISION
#define LOCKSTEP_REVISION "unknown"
#endif

namespace lockstep::lsr {

namespace {

void put_le(std::vector<uint8_t>& o, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) o.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void put_varint(std::vector<uint8_t>& o, uint64_t v) {
  while (v >= 0x80) {
    o.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  o.push_back(static_cast<uint8_t>(v));
}

uint64_t read_varint(CanonicalReader& r, const char* what) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const uint8_t b = r.le<uint8_t>(what);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  r.fail(std::string(what) + ": a length longer than 10 bytes");
}

uint32_t get_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

uint32_t checksum32(const void* data, std::size_t n) { return static_cast<uint32_t>(XXH64(data, n, 0)); }

// A chunk's error, with its place inside the decompressed content when it has one.
std::string chunk_error(const InputError& e, uint64_t chunk_offset) {
  if (e.place() == "byte " + std::to_string(chunk_offset) || e.place().empty()) return e.message();
  return e.message() + " (at " + e.place() + " of its decompressed content)";
}

std::string tick_range(uint64_t first, uint32_t n) {
  if (n == 0) return "no ticks";
  return "ticks " + std::to_string(first) + "-" + std::to_string(first + n - 1);
}

}  // namespace

BuildInfo this_build() {
  BuildInfo b;
#if defined(__clang__)
  b.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  b.compiler = std::string("gcc ") + __VERSION__;
#else
  b.compiler = "unknown";
#endif
  b.flags = LOCKSTEP_BUILD_FLAGS;
#if defined(__x86_64__)
  b.arch = "x86_64";
#elif defined(__aarch64__)
  b.arch = "aarch64";
#else
  b.arch = "unknown";
#endif
  b.revision = LOCKSTEP_REVISION;
  return b;
}

// ------------------------------------------------------------ Recorder

namespace {
std::vector<uint8_t> skippable(uint32_t magic, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> frame;
  put_le(frame, magic, 4);
  put_le(frame, payload.size(), 4);
  frame.insert(frame.end(), payload.begin(), payload.end());
  return frame;
}
}  // namespace

Recorder::Recorder(const std::string& path, const Model& model, const RecorderOptions& opt)
    : path_(path), opt_(opt) {
  const auto& info = model.info();
  if (info.subsystems.size() > kMaxSubsystems) throw InputError(path, "", "a model with more than 16 subsystems");
  if (opt.sub_hash_bytes != 2 && opt.sub_hash_bytes != 8)
    throw InputError("", "--subsystem-hash-bytes", "expected 2 or 8");
  header_.model = info.name;
  header_.model_version = info.version;
  header_.tick_rate_hz = info.tick_rate_hz;
  header_.first_tick = model.tick();
  header_.chunk_ticks = opt.chunk_ticks ? opt.chunk_ticks : info.tick_rate_hz;
  header_.keyframe_every = opt.keyframe_every ? opt.keyframe_every : info.tick_rate_hz;
  if (header_.chunk_ticks == 0 || header_.chunk_ticks > kMaxChunkTicks)
    throw InputError("", "--chunk-ticks", "expected 1 to " + std::to_string(kMaxChunkTicks));
  header_.sub_hash_bytes = opt.sub_hash_bytes;
  header_.subsystems = info.subsystems;
  header_.scenario_json = model.scenario_json();
  try {
    const auto j = parse_json_text(header_.scenario_json, "scenario");
    if (j.contains("seed") && j["seed"].is_number_unsigned()) header_.seed = j["seed"].get<uint64_t>();
  } catch (const InputError&) {
  }
  header_.build = this_build();

  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw InputError(path, "", std::string("cannot open for writing: ") + std::strerror(errno));
  cctx_ = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_compressionLevel, opt.zstd_level);
  ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_contentSizeFlag, 1);

  // The header: a skippable frame.
  std::vector<uint8_t> payload = {'L', 'S', 'R', 0x1a};
  put_le(payload, kMajor, 2);
  put_le(payload, kMinor, 2);
  ByteSink body;
  write_canonical(body, header_);
  payload.insert(payload.end(), body.out.begin(), body.out.end());
  put_le(payload, xxh3(payload.data(), payload.size()), 8);
  const auto frame = skippable(kHeaderMagic, payload);
  write(frame.data(), frame.size());
  header_bytes_ = static_cast<uint32_t>(frame.size());
  std::fflush(f_);

  chunk_first_ = model.tick();
  keyframe(model);
}

Recorder::~Recorder() {
  // Without finish() (an exception, a crash) the file keeps its complete
  // frames and no index: exactly what a reader recovers from.
  if (cctx_) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
  if (f_) std::fclose(f_);
}

void Recorder::write(const void* p, std::size_t n) {
  if (std::fwrite(p, 1, n, f_) != n) throw InputError(path_, "byte " + std::to_string(offset_), "write failed");
  offset_ += n;
}

void Recorder::write_frame(uint8_t kind, uint64_t first_tick, uint32_t ticks, std::vector<uint8_t>& content) {
  put_le(content, xxh3(content.data(), content.size()), 8);
  out_.resize(ZSTD_compressBound(content.size()));
  const std::size_t n =
      ZSTD_compress2(static_cast<ZSTD_CCtx*>(cctx_), out_.data(), out_.size(), content.data(), content.size());
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  index_.push_back({offset_, static_cast<uint32_t>(n), static_cast<uint32_t>(content.size()), kind, first_tick, ticks,
                    xxh3(out_.data(), n), checksum32(content.data(), content.size())});
  write(out_.data(), n);
  std::fflush(f_);
  if (opt_.fsync) ::fsync(fileno(f_));
}

void Recorder::keyframe(const Model& m) {
  const auto snap = m.snapshot();
  const StateHashes h = m.hashes();
  std::vector<uint8_t> content;
  content.reserve(snap.size() + 160);
  put_le(content, kKeyframeMagic, 4);
  put_le(content, m.tick(), 8);
  put_varint(content, snap.size());
  content.insert(content.end(), snap.begin(), snap.end());
  put_le(content, h.whole, 8);
  for (uint32_t i = 0; i < h.count; ++i) put_le(content, h.sub[i], 8);
  write_frame(kFrameKeyframe, m.tick(), 0, content);
}

void Recorder::tick(std::span<const uint8_t> input, const Model& after) {
  if (finished_) throw std::logic_error("Recorder::tick after finish");
  const StateHashes h = after.hashes();
  put_le(chunk_, h.whole, 8);
  for (uint32_t i = 0; i < h.count; ++i) put_le(chunk_, h.sub[i], header_.sub_hash_bytes);
  // An input is stored when it differs from the tick before; a chunk is
  // self-contained, so its first tick always stores one.
  const bool same = chunk_ticks_ > 0 && input.size() == last_input_.size() &&
                    std::equal(input.begin(), input.end(), last_input_.begin());
  if (!same) {
    put_varint(inputs_, chunk_ticks_);
    put_varint(inputs_, input.size());
    inputs_.insert(inputs_.end(), input.begin(), input.end());
    last_input_.assign(input.begin(), input.end());
    ++chunk_inputs_;
  }
  ++chunk_ticks_;
  ++ticks_;
  const bool key_due = header_.keyframe_every && (after.tick() - header_.first_tick) % header_.keyframe_every == 0;
  if (chunk_ticks_ >= header_.chunk_ticks || key_due) flush_ticks();
  if (key_due) keyframe(after);
  if (chunk_ticks_ == 0) chunk_first_ = after.tick();
}

void Recorder::flush_ticks() {
  if (chunk_ticks_ == 0) return;
  std::vector<uint8_t> content;
  content.reserve(chunk_.size() + inputs_.size() + 32);
  put_le(content, kChunkMagic, 4);
  put_le(content, chunk_first_, 8);
  put_le(content, chunk_ticks_, 4);
  content.insert(content.end(), chunk_.begin(), chunk_.end());
  put_le(content, chunk_inputs_, 4);
  content.insert(content.end(), inputs_.begin(), inputs_.end());
  write_frame(kFrameTicks, chunk_first_, chunk_ticks_, content);
  chunk_.clear();
  inputs_.clear();
  chunk_ticks_ = 0;
  chunk_inputs_ = 0;
}

void Recorder::finish() {
  if (finished_) return;
  flush_ticks();
  // The index: a skippable frame.
  std::vector<uint8_t> payload = {'L', 'S', 'I', 'X'};
  put_le(payload, index_.size(), 4);
  for (const auto& e : index_) {
    put_le(payload, e.offset, 8);
    put_le(payload, e.compressed, 4);
    put_le(payload, e.decompressed, 4);
    payload.push_back(e.kind);
    put_le(payload, e.first_tick, 8);
    put_le(payload, e.ticks, 4);
    put_le(payload, e.frame_hash, 8);
    put_le(payload, e.checksum, 4);
  }
  put_le(payload, xxh3(payload.data(), payload.size()), 8);
  const auto ix = skippable(kIndexMagic, payload);
  write(ix.data(), ix.size());

  // The seek table, in the layout of zstd's seekable format: every frame before it.
  std::vector<uint8_t> st;
  const std::size_t nframes = index_.size() + 2;
  put_le(st, kSeekTableMagic, 4);
  put_le(st, nframes * 12 + 9, 4);
  auto entry = [&](uint32_t c, uint32_t d, uint32_t sum) {
    put_le(st, c, 4);
    put_le(st, d, 4);
    put_le(st, sum, 4);
  };
  entry(header_bytes_, 0, checksum32(nullptr, 0));
  for (const auto& e : index_) entry(e.compressed, e.decompressed, e.checksum);
  entry(static_cast<uint32_t>(ix.size()), 0, checksum32(nullptr, 0));
  put_le(st, nframes, 4);
  st.push_back(0x80);  // Seek_Table_Descriptor: checksums present
  put_le(st, kSeekFooterMagic, 4);
  write(st.data(), st.size());
  if (std::fflush(f_) != 0) throw InputError(path_, "", "write failed");
  if (opt_.fsync) ::fsync(fileno(f_));
  std::fclose(f_);
  f_ = nullptr;
  finished_ = true;
}

// ------------------------------------------------------------ Recording

Recording Recording::open(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw InputError(path, "", "cannot open the recording for reading");
  const std::streamoff size = in.tellg();
  if (size < 0) throw InputError(path, "", "cannot read the recording");
  std::vector<uint8_t> bytes(static_cast<std::size_t>(size));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) throw InputError(path, "", "cannot read the recording");
  return from_bytes(std::move(bytes), path);
}

Recording Recording::from_bytes(std::vector<uint8_t> bytes, const std::string& source) {
  Recording r;
  r.source_ = source;
  r.bytes_ = std::move(bytes);
  r.dctx_ = std::shared_ptr<void>(ZSTD_createDCtx(), [](void* p) { ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(p)); });
  r.read_header();
  if (!r.read_index()) r.walk_frames(r.frames_start_);
  return r;
}

void Recording::read_header() {
  const auto& b = bytes_;
  if (b.size() < 8) throw InputError(source_, "byte 0", "not a Lockstep recording: " + std::to_string(b.size()) + " bytes");
  if (get_u32(b.data()) != kHeaderMagic)
    throw InputError(source_, "byte 0", "not a Lockstep recording (expected the header frame's magic 0x184D2A50)");
  const uint32_t size = get_u32(b.data() + 4);
  if (size > kMaxHeaderBytes)
    throw InputError(source_, "byte 4", "the header claims " + std::to_string(size) + " bytes, beyond the limit of " +
                                            std::to_string(kMaxHeaderBytes));
  if (size > b.size() - 8)
    throw InputError(source_, "byte 4", "cut short inside the header: it claims " + std::to_string(size) +
                                            " bytes, the file has " + std::to_string(b.size() - 8) + " after it");
  if (size < 16 || std::memcmp(b.data() + 8, "LSR\x1a", 4) != 0)
    throw InputError(source_, "byte 8", "not a Lockstep recording (no LSR signature in the header)");
  const uint16_t major = static_cast<uint16_t>(b[12] | (b[13] << 8));
  const uint16_t minor = static_cast<uint16_t>(b[14] | (b[15] << 8));
  if (major > kMajor)
    throw InputError(source_, "byte 12", "format version " + std::to_string(major) + "." + std::to_string(minor) +
                                             " is newer than this reader's " + std::to_string(kMajor) + "." +
                                             std::to_string(kMinor) + ": use a newer lockstep");
  if (major < 1) throw InputError(source_, "byte 12", "format version 0 is not a released version");
  const uint64_t stored =
      get_u32(b.data() + 8 + size - 8) | (static_cast<uint64_t>(get_u32(b.data() + 8 + size - 4)) << 32);
  if (xxh3(b.data() + 8, size - 8) != stored)
    throw InputError(source_, "bytes 8-" + std::to_string(8 + size), "the header is damaged (its checksum does not match)");
  CanonicalReader rd(std::span<const uint8_t>(b.data() + 16, size - 16), source_, 16);
  try {
    rd.read(header_);
  } catch (const InputError& e) {
    throw InputError(source_, e.place(), "the header is malformed: " + e.message());
  }
  if (!rd.done()) rd.fail("the header has " + std::to_string(rd.remaining()) + " unexpected bytes");
  if (header_.subsystems.size() > kMaxSubsystems) rd.fail("the header lists more than 16 subsystems");
  if (header_.sub_hash_bytes != 2 && header_.sub_hash_bytes != 8)
    rd.fail("sub_hash_bytes must be 2 or 8, found " + std::to_string(header_.sub_hash_bytes));
  if (header_.chunk_ticks == 0 || header_.chunk_ticks > kMaxChunkTicks) rd.fail("chunk_ticks out of range");
  frames_start_ = 8 + size;
}

std::string Recording::frame_name(std::size_t i) const {
  if (i >= frames_.size()) return "frame " + std::to_string(i + 1);
  const auto& f = frames_[i];
  if (f.kind == kFrameKeyframe) return "frame " + std::to_string(i + 1) + " (the keyframe of tick " + std::to_string(f.first_tick) + ")";
  return "frame " + std::to_string(i + 1) + " (the chunk of " + tick_range(f.first_tick, f.ticks) + ")";
}

bool Recording::read_index() {
  const auto& b = bytes_;
  constexpr uint64_t kEntry = 8 + 4 + 4 + 1 + 8 + 4 + 8 + 4;
  if (b.size() < frames_start_ + 17) return false;
  if (get_u32(b.data() + b.size() - 4) != kSeekFooterMagic) return false;  // cut off, or never finished
  auto index_damage = [&](uint64_t at, const std::string& what) {
    damage_ = Damage{at, "the index", what, false};
    return false;
  };
  const uint64_t footer = b.size() - 9;
  const uint32_t nframes = get_u32(b.data() + footer);
  const uint64_t table_bytes = static_cast<uint64_t>(nframes) * 12 + 9;
  if (nframes < 2 || table_bytes + 8 > b.size() - frames_start_)
    return index_damage(footer, "the seek table claims " + std::to_string(nframes) + " frames");
  const uint64_t st = b.size() - table_bytes - 8;
  if (get_u32(b.data() + st) != kSeekTableMagic || get_u32(b.data() + st + 4) != table_bytes)
    return index_damage(st, "the seek table's frame header is wrong");
  if (b[b.size() - 5] != 0x80) return index_damage(b.size() - 5, "the seek table descriptor is not 0x80 (checksums present)");
  // The frames must tile the file exactly up to the seek table.
  std::vector<ChunkInfo> table;
  uint64_t off = 0;
  for (uint32_t i = 0; i < nframes; ++i) {
    const uint8_t* e = b.data() + st + 8 + 12 * static_cast<uint64_t>(i);
    ChunkInfo ci;
    ci.offset = off;
    ci.compressed = get_u32(e);
    ci.decompressed = get_u32(e + 4);
    ci.checksum = get_u32(e + 8);
    off += ci.compressed;
    if (off > st)
      return index_damage(st, "the seek table's entries up to " + std::to_string(i) + " run past the table");
    table.push_back(ci);
  }
  if (off != st) return index_damage(st, "the seek table's frames do not reach the table");
  if (table.front().compressed != frames_start_) return index_damage(st + 8, "the seek table's first frame is not the header");
  for (uint32_t i : {0u, nframes - 1})
    if (table[i].decompressed != 0 || table[i].checksum != checksum32(nullptr, 0))
      return index_damage(st + 8 + 12 * static_cast<uint64_t>(i), "seek table entry " + std::to_string(i) + " is wrong for a skippable frame");
  // The last frame before the table is the index.
  const ChunkInfo& ix = table.back();
  const uint8_t* p = b.data() + ix.offset;
  if (ix.compressed < 24 || get_u32(p) != kIndexMagic || get_u32(p + 4) != ix.compressed - 8 || std::memcmp(p + 8, "LSIX", 4) != 0)
    return index_damage(ix.offset, "the index frame is not where the seek table puts it");
  const uint32_t payload = ix.compressed - 8;
  const uint64_t stored = get_u32(p + 8 + payload - 8) | (static_cast<uint64_t>(get_u32(p + 8 + payload - 4)) << 32);
  if (xxh3(p + 8, payload - 8) != stored) return index_damage(ix.offset, "the index is damaged (its checksum does not match)");
  CanonicalReader rd(std::span<const uint8_t>(p + 12, payload - 12), source_, ix.offset + 12);
  const uint32_t n = rd.le<uint32_t>();
  if (n != nframes - 2 || static_cast<uint64_t>(n) * kEntry != rd.remaining())
    return index_damage(ix.offset, "the index lists " + std::to_string(n) + " frames, the seek table " + std::to_string(nframes - 2));
  std::vector<ChunkInfo> frames;
  uint64_t expect_tick = header_.first_tick;
  for (uint32_t i = 0; i < n; ++i) {
    ChunkInfo c;
    c.offset = rd.le<uint64_t>();
    c.compressed = rd.le<uint32_t>();
    c.decompressed = rd.le<uint32_t>();
    c.kind = rd.le<uint8_t>();
    c.first_tick = rd.le<uint64_t>();
    c.ticks = rd.le<uint32_t>();
    c.frame_hash = rd.le<uint64_t>();
    c.checksum = rd.le<uint32_t>();
    const ChunkInfo& fr = table[i + 1];
    const bool kind_ok = (c.kind == kFrameTicks && c.ticks > 0) || (c.kind == kFrameKeyframe && c.ticks == 0);
    if (c.offset != fr.offset || c.compressed != fr.compressed || c.decompressed != fr.decompressed ||
        c.checksum != fr.checksum || !kind_ok ||
        c.first_tick != expect_tick)
      return index_damage(ix.offset + 16 + kEntry * i, "index entry " + std::to_string(i) + " disagrees with the seek table or the tick count");
    expect_tick += c.ticks;
    frames.push_back(c);
  }
  frames_ = std::move(frames);
  index_used_ = true;
  // Check every frame's bytes against the index's hash of them: any changed
  // byte is found without decompressing. The first bad frame ends the good
  // part. (Contents are decompressed and checked again as they are read.)
  for (std::size_t i = 0; i < frames_.size(); ++i) {
    try {
      if (xxh3(b.data() + frames_[i].offset, frames_[i].compressed) != frames_[i].frame_hash)
        throw InputError(source_, "byte " + std::to_string(frames_[i].offset),
                         "the frame's bytes do not match the index's hash of them");
    } catch (const InputError& e) {
      damage_ = Damage{frames_[i].offset, frame_name(i), chunk_error(e, frames_[i].offset), false};
      frames_.resize(i);
      break;
    }
  }
  return true;
}

void Recording::walk_frames(uint64_t from) {
  const auto& b = bytes_;
  uint64_t off = from;
  uint64_t expect_tick = header_.first_tick;
  const bool index_was_damaged = damage_.has_value();
  frames_.clear();
  while (off < b.size()) {
    const std::string where = "frame " + std::to_string(frames_.size() + 1);
    if (b.size() - off < 8) {
      damage_ = Damage{off, where, "the file ends " + std::to_string(b.size() - off) + " bytes into a frame header", true};
      return;
    }
    const uint32_t magic = get_u32(b.data() + off);
    if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
      // A skippable frame: the index or the seek table end the data. We are
      // walking because they could not be read: say so.
      if (magic == kIndexMagic || magic == kSeekTableMagic) {
        if (!index_was_damaged)
          damage_ = Damage{off, "the index", "the index or seek table is cut off (every frame before it is whole)", true};
        return;
      }
      const uint32_t size = get_u32(b.data() + off + 4);
      if (size > b.size() - off - 8) {
        damage_ = Damage{off, where, "a skippable frame runs past the end of the file", true};
        return;
      }
      off += 8 + static_cast<uint64_t>(size);
      continue;
    }
    if (magic != kZstdMagic) {
      damage_ = Damage{off, where, "expected a zstd frame (magic 0xFD2FB528), found 0x" + hex64(magic).substr(8), false};
      return;
    }
    const std::size_t n = ZSTD_findFrameCompressedSize(b.data() + off, b.size() - off);
    if (ZSTD_isError(n)) {
      const bool cut = ZSTD_getErrorCode(n) == ZSTD_error_srcSize_wrong;
      damage_ = Damage{off, where, cut ? "the file ends inside this frame (cut off)" : std::string("not a valid zstd frame: ") + ZSTD_getErrorName(n), cut};
      return;
    }
    const unsigned long long content = ZSTD_getFrameContentSize(b.data() + off, n);
    if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR || content > kMaxChunkBytes || n > UINT32_MAX) {
      damage_ = Damage{off, where, "the frame header has no sane content size", false};
      return;
    }
    ChunkInfo ci;
    ci.offset = off;
    ci.compressed = static_cast<uint32_t>(n);
    ci.decompressed = static_cast<uint32_t>(content);
    frames_.push_back(ci);
    try {
      check_frame(frames_.size() - 1);  // fills kind, first_tick, ticks
    } catch (const InputError& e) {
      frames_.pop_back();
      damage_ = Damage{off, where, chunk_error(e, off), false};
      return;
    }
    if (frames_.back().first_tick != expect_tick) {
      damage_ = Damage{off, frame_name(frames_.size() - 1),
                       "starts at tick " + std::to_string(frames_.back().first_tick) + ", expected " + std::to_string(expect_tick), false};
      frames_.pop_back();
      return;
    }
    expect_tick += frames_.back().ticks;
    off += n;
  }
  if (!index_was_damaged)
    damage_ = Damage{off, "the end", "no index (the recording was cut off after its last complete frame)", true};
}

std::vector<uint8_t> Recording::decompress(std::size_t i) const {
  std::vector<uint8_t> out = decompress_unchecked(i);
  const auto& ci = frames_[i];
  if (index_used_ && checksum32(out.data(), out.size()) != ci.checksum)
    throw InputError(source_, "byte " + std::to_string(ci.offset), "the frame's content does not match its seek table checksum");
  return out;
}

std::vector<uint8_t> Recording::decompress_unchecked(std::size_t i) const {
  const auto& ci = frames_.at(i);
  std::vector<uint8_t> out(ci.decompressed);
  const std::size_t n = ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(dctx_.get()), out.data(), out.size(),
                                            bytes_.data() + ci.offset, ci.compressed);
  if (ZSTD_isError(n))
    throw InputError(source_, "byte " + std::to_string(ci.offset), std::string("the frame does not decompress: ") + ZSTD_getErrorName(n));
  if (n != out.size())
    throw InputError(source_, "byte " + std::to_string(ci.offset),
                     "the frame decompresses to " + std::to_string(n) + " bytes, not " + std::to_string(out.size()));
  return out;
}

void Recording::parse(std::size_t i, const std::vector<uint8_t>& content,
                      const std::function<void(const TickRecord&)>& on_tick,
                      const std::function<void(const Keyframe&)>& on_keyframe) const {
  const auto& ci = frames_.at(i);
  const std::string src = source_ + " (frame at byte " + std::to_string(ci.offset) + ", decompressed)";
  if (content.size() < 20) throw InputError(src, "byte 0", "a frame of " + std::to_string(content.size()) + " bytes is too short");
  const std::size_t body = content.size() - 8;
  uint64_t stored = 0;
  for (int k = 0; k < 8; ++k) stored |= static_cast<uint64_t>(content[body + static_cast<std::size_t>(k)]) << (8 * k);
  if (xxh3(content.data(), body) != stored) throw InputError(src, "byte " + std::to_string(body), "the frame's checksum does not match");
  CanonicalReader r(std::span<const uint8_t>(content.data(), body), src);
  const uint32_t S = static_cast<uint32_t>(header_.subsystems.size());
  const uint32_t magic = r.le<uint32_t>();
  if (magic == kKeyframeMagic) {
    Keyframe k;
    k.tick = r.le<uint64_t>("a keyframe tick");
    const uint64_t len = read_varint(r, "a snapshot length");
    k.snapshot = std::span<const uint8_t>(r.take(len, "a snapshot"), len);
    k.hashes.whole = r.le<uint64_t>("a state hash");
    k.hashes.count = S;
    for (uint32_t s = 0; s < S; ++s) k.hashes.sub[s] = r.le<uint64_t>("a subsystem hash");
    if (!r.done()) r.fail("unexpected bytes after the keyframe");
    if (index_used_ && (ci.kind != kFrameKeyframe || ci.first_tick != k.tick))
      r.fail("the keyframe of tick " + std::to_string(k.tick) + " disagrees with the index");
    on_keyframe(k);
    return;
  }
  if (magic != kChunkMagic) r.fail("neither a chunk (LSCK) nor a keyframe (LSKF)");
  const uint64_t first = r.le<uint64_t>();
  const uint32_t nticks = r.le<uint32_t>();
  if (nticks == 0 || nticks > kMaxChunkTicks) r.fail("the chunk claims " + std::to_string(nticks) + " ticks");
  if (index_used_ && (ci.kind != kFrameTicks || ci.first_tick != first || ci.ticks != nticks))
    r.fail("the chunk of " + tick_range(first, nticks) + " disagrees with the index");
  const std::size_t per_tick = 8 + static_cast<std::size_t>(S) * header_.sub_hash_bytes;
  const std::size_t hashes_at = r.pos();
  r.take(per_tick * nticks, "the chunk's hashes");
  // The inputs: (tick offset, length, bytes), the first at offset 0, offsets rising.
  const uint32_t ninputs = r.length(2, "the chunk's inputs");
  if (ninputs == 0 || ninputs > nticks) r.fail("the chunk has " + std::to_string(ninputs) + " inputs for " + std::to_string(nticks) + " ticks");
  struct In {
    uint64_t at;
    std::span<const uint8_t> bytes;
  };
  std::vector<In> inputs;
  inputs.reserve(ninputs);
  for (uint32_t k = 0; k < ninputs; ++k) {
    const uint64_t at = read_varint(r, "an input's tick");
    if (at >= nticks || (k == 0 && at != 0) || (k > 0 && at <= inputs.back().at))
      r.fail("input " + std::to_string(k) + " is for tick offset " + std::to_string(at) + ", out of order or range");
    const uint64_t len = read_varint(r, "an input length");
    inputs.push_back({at, std::span<const uint8_t>(r.take(len, "an input"), len)});
  }
  if (!r.done()) r.fail(std::to_string(r.remaining()) + " unexpected bytes after the inputs");
  TickRecord t;
  const uint8_t* hp = content.data() + hashes_at;
  std::size_t next_input = 0;
  for (uint32_t k = 0; k < nticks; ++k, hp += per_tick) {
    t.tick = first + k;
    if (next_input < inputs.size() && inputs[next_input].at == k) t.input = inputs[next_input++].bytes;
    uint64_t w = 0;
    for (int b = 0; b < 8; ++b) w |= static_cast<uint64_t>(hp[b]) << (8 * b);
    t.whole = w;
    for (uint32_t s2 = 0; s2 < S; ++s2) {
      uint64_t v = 0;
      const uint8_t* p = hp + 8 + static_cast<std::size_t>(s2) * header_.sub_hash_bytes;
      for (uint8_t b = 0; b < header_.sub_hash_bytes; ++b) v |= static_cast<uint64_t>(p[b]) << (8 * b);
      t.sub[s2] = v;
    }
    on_tick(t);
  }
}

// Walking without an index: decompress and parse a frame to learn what it is.
void Recording::check_frame(std::size_t i) {
  auto& ci = frames_[i];
  const auto content = decompress(i);
  uint8_t kind = 0;
  uint64_t first = 0;
  uint32_t ticks = 0;
  parse(i, content, [&](const TickRecord& t) {
    if (kind == 0) first = t.tick;
    kind = kFrameTicks;
    ++ticks;
  }, [&](const Keyframe& k) {
    kind = kFrameKeyframe;
    first = k.tick;
  });
  ci.kind = kind;
  ci.first_tick = first;
  ci.ticks = ticks;
}

void Recording::scan(uint64_t from, uint64_t to, const std::function<void(const TickRecord&)>& on_tick,
                     const std::function<void(const Keyframe&)>& on_keyframe) const {
  for (std::size_t i = 0; i < frames_.size(); ++i) {
    const auto& f = frames_[i];
    if (f.kind == kFrameKeyframe) {
      if (!on_keyframe || f.first_tick < from || f.first_tick >= to) continue;
    } else {
      if (f.first_tick + f.ticks <= from) continue;
      if (f.first_tick >= to) break;
    }
    parse(i, decompress(i), [&](const TickRecord& t) {
      if (t.tick >= from && t.tick < to) on_tick(t);
    }, on_keyframe);
  }
}

uint64_t Recording::ticks() const {
  uint64_t n = 0;
  for (const auto& f : frames_) n += f.ticks;
  return n;
}

uint64_t Recording::chunk_count() const {
  uint64_t n = 0;
  for (const auto& f : frames_) n += f.kind == kFrameTicks ? 1 : 0;
  return n;
}

uint64_t Recording::keyframe_count() const {
  uint64_t n = 0;
  for (const auto& f : frames_) n += f.kind == kFrameKeyframe ? 1 : 0;
  return n;
}

uint64_t Recording::raw_bytes() const {
  uint64_t n = 0;
  for (const auto& f : frames_) n += f.decompressed;
  return n;
}

std::optional<Recording::OwnedKeyframe> Recording::keyframe_at_or_before(uint64_t tick) const {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < frames_.size() && frames_[i].first_tick <= tick; ++i)
    if (frames_[i].kind == kFrameKeyframe) best = i;
  if (!best) return std::nullopt;
  std::optional<OwnedKeyframe> out;
  parse(*best, decompress(*best), [](const TickRecord&) {}, [&](const Keyframe& k) {
    out = OwnedKeyframe{k.tick, std::vector<uint8_t>(k.snapshot.begin(), k.snapshot.end()), k.hashes};
  });
  return out;
}

}  // namespace lockstep::lsr
