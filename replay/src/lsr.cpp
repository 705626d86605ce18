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
  std::vector<uint8_t> frame;
  put_le(frame, kHeaderMagic, 4);
  put_le(frame, payload.size(), 4);
  frame.insert(frame.end(), payload.begin(), payload.end());
  write(frame.data(), frame.size());
  frames_.push_back({static_cast<uint32_t>(frame.size()), 0, checksum32(nullptr, 0)});
  std::fflush(f_);

  chunk_first_ = model.tick();
  keyframe(model);
}

Recorder::~Recorder() {
  // Without finish() (an exception, a crash) the file keeps its complete
  // chunks and no index: exactly what a reader recovers from.
  if (cctx_) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
  if (f_) std::fclose(f_);
}

void Recorder::write(const void* p, std::size_t n) {
  if (std::fwrite(p, 1, n, f_) != n) throw InputError(path_, "byte " + std::to_string(offset_), "write failed");
  offset_ += n;
}

void Recorder::keyframe(const Model& m) {
  const auto snap = m.snapshot();
  const StateHashes h = m.hashes();
  chunk_.push_back(kRecordKeyframe);
  put_le(chunk_, m.tick(), 8);
  put_varint(chunk_, snap.size());
  chunk_.insert(chunk_.end(), snap.begin(), snap.end());
  put_le(chunk_, h.whole, 8);
  for (uint32_t i = 0; i < h.count; ++i) put_le(chunk_, h.sub[i], 8);
  ++chunk_keyframes_;
}

void Recorder::tick(std::span<const uint8_t> input, const Model& after) {
  if (finished_) throw std::logic_error("Recorder::tick after finish");
  const StateHashes h = after.hashes();
  chunk_.push_back(kRecordTick);
  put_varint(chunk_, input.size());
  chunk_.insert(chunk_.end(), input.begin(), input.end());
  put_le(chunk_, h.whole, 8);
  for (uint32_t i = 0; i < h.count; ++i) put_le(chunk_, h.sub[i], header_.sub_hash_bytes);
  ++chunk_ticks_;
  ++ticks_;
  if (chunk_ticks_ >= header_.chunk_ticks) {
    flush_chunk();
    chunk_first_ = after.tick();
  }
  const uint64_t since = after.tick() - header_.first_tick;
  if (header_.keyframe_every && since % header_.keyframe_every == 0) keyframe(after);
}

void Recorder::flush_chunk() {
  if (chunk_ticks_ == 0 && chunk_keyframes_ == 0) return;
  std::vector<uint8_t> content;
  content.reserve(chunk_.size() + 28);
  put_le(content, kChunkMagic, 4);
  put_le(content, chunk_first_, 8);
  put_le(content, chunk_ticks_, 4);
  put_le(content, chunk_keyframes_, 4);
  content.insert(content.end(), chunk_.begin(), chunk_.end());
  put_le(content, xxh3(content.data(), content.size()), 8);
  out_.resize(ZSTD_compressBound(content.size()));
  const std::size_t n =
      ZSTD_compress2(static_cast<ZSTD_CCtx*>(cctx_), out_.data(), out_.size(), content.data(), content.size());
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  index_.push_back({offset_, static_cast<uint32_t>(n), static_cast<uint32_t>(content.size()), chunk_first_,
                    chunk_ticks_, chunk_keyframes_, xxh3(out_.data(), n)});
  frames_.push_back({static_cast<uint32_t>(n), static_cast<uint32_t>(content.size()),
                     checksum32(content.data(), content.size())});
  write(out_.data(), n);
  std::fflush(f_);
  if (opt_.fsync) ::fsync(fileno(f_));
  chunk_.clear();
  chunk_ticks_ = 0;
  chunk_keyframes_ = 0;
}

void Recorder::finish() {
  if (finished_) return;
  flush_chunk();
  // The index: a skippable frame.
  std::vector<uint8_t> payload = {'L', 'S', 'I', 'X'};
  put_le(payload, index_.size(), 4);
  for (const auto& e : index_) {
    put_le(payload, e.offset, 8);
    put_le(payload, e.compressed, 4);
    put_le(payload, e.decompressed, 4);
    put_le(payload, e.first_tick, 8);
    put_le(payload, e.ticks, 4);
    put_le(payload, e.keyframes, 4);
    put_le(payload, e.frame_hash, 8);
  }
  put_le(payload, xxh3(payload.data(), payload.size()), 8);
  std::vector<uint8_t> frame;
  put_le(frame, kIndexMagic, 4);
  put_le(frame, payload.size(), 4);
  frame.insert(frame.end(), payload.begin(), payload.end());
  write(frame.data(), frame.size());
  frames_.push_back({static_cast<uint32_t>(frame.size()), 0, checksum32(nullptr, 0)});

  // The seek table, in the layout of zstd's seekable format.
  std::vector<uint8_t> st;
  put_le(st, kSeekTableMagic, 4);
  put_le(st, frames_.size() * 12 + 9, 4);
  for (const auto& fr : frames_) {
    put_le(st, fr.compressed, 4);
    put_le(st, fr.decompressed, 4);
    put_le(st, fr.checksum, 4);
  }
  put_le(st, frames_.size(), 4);
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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the recording for reading");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return from_bytes(std::move(bytes), path);
}

Recording Recording::from_bytes(std::vector<uint8_t> bytes, const std::string& source) {
  Recording r;
  r.source_ = source;
  r.bytes_ = std::move(bytes);
  r.read_header();
  if (!r.read_index()) r.walk_frames(r.chunks_start_);
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
  const uint64_t stored = get_u32(b.data() + 8 + size - 8) | (static_cast<uint64_t>(get_u32(b.data() + 8 + size - 4)) << 32);
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
  chunks_start_ = 8 + size;
}

bool Recording::read_index() {
  const auto& b = bytes_;
  if (b.size() < chunks_start_ + 17) return false;
  if (get_u32(b.data() + b.size() - 4) != kSeekFooterMagic) return false;  // cut off, or never finished
  auto index_damage = [&](uint64_t at, const std::string& what) {
    damage_ = Damage{at, "the index", what, false};
    return false;
  };
  const uint64_t footer = b.size() - 9;
  const uint32_t nframes = get_u32(b.data() + footer);
  const uint64_t table_bytes = static_cast<uint64_t>(nframes) * 12 + 9;
  if (nframes < 2 || table_bytes + 8 > b.size() - chunks_start_)
    return index_damage(footer, "the seek table claims " + std::to_string(nframes) + " frames");
  const uint64_t st = b.size() - table_bytes - 8;
  if (get_u32(b.data() + st) != kSeekTableMagic || get_u32(b.data() + st + 4) != table_bytes)
    return index_damage(st, "the seek table's frame header is wrong");
  // The frames must tile the file exactly up to the seek table.
  std::vector<ChunkInfo> frames;
  uint64_t off = 0;
  for (uint32_t i = 0; i < nframes; ++i) {
    const uint8_t* e = b.data() + st + 8 + 12 * static_cast<uint64_t>(i);
    ChunkInfo ci;
    ci.offset = off;
    ci.compressed = get_u32(e);
    ci.decompressed = get_u32(e + 4);
    ci.checksum = get_u32(e + 8);
    off += ci.compressed;
    if (off > st) return index_damage(st + 8 + 12 * static_cast<uint64_t>(i), "seek table entry " + std::to_string(i) + " runs past the table");
    frames.push_back(ci);
  }
  if (off != st) return index_damage(st, "the seek table's frames do not reach the table");
  if (frames.front().compressed != chunks_start_) return index_damage(st + 8, "the seek table's first frame is not the header");
  if (b[b.size() - 5] != 0x80) return index_damage(b.size() - 5, "the seek table descriptor is not 0x80 (checksums present)");
  for (uint32_t i : {0u, nframes - 1})
    if (frames[i].decompressed != 0 || frames[i].checksum != checksum32(nullptr, 0))
      return index_damage(st + 8 + 12 * static_cast<uint64_t>(i), "seek table entry " + std::to_string(i) + " is wrong for a skippable frame");
  // The last frame before the table is the index.
  const ChunkInfo& ix = frames.back();
  const uint8_t* p = b.data() + ix.offset;
  if (ix.compressed < 20 || get_u32(p) != kIndexMagic || get_u32(p + 4) != ix.compressed - 8 ||
      std::memcmp(p + 8, "LSIX", 4) != 0)
    return index_damage(ix.offset, "the index frame is not where the seek table puts it");
  const uint32_t payload = ix.compressed - 8;
  const uint64_t stored = get_u32(p + 8 + payload - 8) | (static_cast<uint64_t>(get_u32(p + 8 + payload - 4)) << 32);
  if (xxh3(p + 8, payload - 8) != stored) return index_damage(ix.offset, "the index is damaged (its checksum does not match)");
  CanonicalReader rd(std::span<const uint8_t>(p + 12, payload - 12), source_, ix.offset + 12);
  const uint32_t n = rd.le<uint32_t>();
  if (n != nframes - 2 || static_cast<uint64_t>(n) * 40 != rd.remaining())
    return index_damage(ix.offset, "the index lists " + std::to_string(n) + " chunks, the seek table " + std::to_string(nframes - 2));
  std::vector<ChunkInfo> chunks;
  uint64_t expect_tick = header_.first_tick;
  for (uint32_t i = 0; i < n; ++i) {
    ChunkInfo c;
    c.offset = rd.le<uint64_t>();
    c.compressed = rd.le<uint32_t>();
    c.decompressed = rd.le<uint32_t>();
    c.first_tick = rd.le<uint64_t>();
    c.ticks = rd.le<uint32_t>();
    c.keyframes = rd.le<uint32_t>();
    c.frame_hash = rd.le<uint64_t>();
    const ChunkInfo& fr = frames[i + 1];
    c.checksum = fr.checksum;
    if (c.offset != fr.offset || c.compressed != fr.compressed || c.decompressed != fr.decompressed ||
        c.first_tick != expect_tick)
      return index_damage(ix.offset + 16 + 40 * static_cast<uint64_t>(i), "index entry " + std::to_string(i) + " disagrees with the seek table or the tick count");
    expect_tick += c.ticks;
    chunks.push_back(c);
  }
  chunks_ = std::move(chunks);
  index_used_ = true;
  // Check every chunk; the first bad one ends the good part.
  for (std::size_t c = 0; c < chunks_.size(); ++c) {
    try {
      check_chunk(c);
    } catch (const InputError& e) {
      const auto& ci = chunks_[c];
      damage_ = Damage{ci.offset, "chunk " + std::to_string(c) + " (" + tick_range(ci.first_tick, ci.ticks) + ")",
                       chunk_error(e, ci.offset), false};
      chunks_.resize(c);
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
  chunks_.clear();
  while (off < b.size()) {
    const std::string where = "chunk " + std::to_string(chunks_.size());
    if (b.size() - off < 8) {
      damage_ = Damage{off, where, "the file ends " + std::to_string(b.size() - off) + " bytes into a frame header", true};
      return;
    }
    const uint32_t magic = get_u32(b.data() + off);
    if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {
      // A skippable frame: the index or the seek table end the chunks. We are
      // walking because they could not be read: say so.
      if (magic == kIndexMagic || magic == kSeekTableMagic) {
        if (!index_was_damaged)
          damage_ = Damage{off, "the index", "the index or seek table is cut off (every chunk before it is whole)", true};
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
      damage_ = Damage{off, where, cut ? "the file ends inside this chunk (cut off)" : std::string("not a valid zstd frame: ") + ZSTD_getErrorName(n), cut};
      return;
    }
    const unsigned long long content = ZSTD_getFrameContentSize(b.data() + off, n);
    if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR || content > kMaxChunkBytes || n > UINT32_MAX) {
      damage_ = Damage{off, where, "the chunk's frame header has no sane content size", false};
      return;
    }
    ChunkInfo ci;
    ci.offset = off;
    ci.compressed = static_cast<uint32_t>(n);
    ci.decompressed = static_cast<uint32_t>(content);
    chunks_.push_back(ci);
    try {
      check_chunk(chunks_.size() - 1);  // fills first_tick, ticks, keyframes
    } catch (const InputError& e) {
      chunks_.pop_back();
      damage_ = Damage{off, where, chunk_error(e, off), false};
      return;
    }
    if (chunks_.back().first_tick != expect_tick) {
      damage_ = Damage{off, where, "starts at tick " + std::to_string(chunks_.back().first_tick) + ", expected " + std::to_string(expect_tick), false};
      chunks_.pop_back();
      return;
    }
    expect_tick += chunks_.back().ticks;
    off += n;
  }
  if (!index_was_damaged && off >= b.size()) {
    // Every chunk is whole, but the index and seek table never made it: cut off between chunks.
    damage_ = Damage{off, "the end", "no index (the recording was cut off after its last complete chunk)", true};
  }
}

std::vector<uint8_t> Recording::decompress_chunk(std::size_t c) const {
  const auto& ci = chunks_.at(c);
  if (ci.decompressed > kMaxChunkBytes) throw InputError(source_, "byte " + std::to_string(ci.offset), "a chunk claims more than 1 GiB");
  std::vector<uint8_t> out(ci.decompressed);
  const std::size_t n = ZSTD_decompress(out.data(), out.size(), bytes_.data() + ci.offset, ci.compressed);
  if (ZSTD_isError(n))
    throw InputError(source_, "byte " + std::to_string(ci.offset), std::string("the chunk does not decompress: ") + ZSTD_getErrorName(n));
  if (n != out.size())
    throw InputError(source_, "byte " + std::to_string(ci.offset), "the chunk decompresses to " + std::to_string(n) + " bytes, not " + std::to_string(out.size()));
  return out;
}

void Recording::parse_chunk(std::size_t c, const std::vector<uint8_t>& content,
                            const std::function<void(const TickRecord&)>& on_tick,
                            const std::function<void(const Keyframe&)>& on_keyframe) const {
  const auto& ci = chunks_.at(c);
  const std::string src = source_ + " (chunk " + std::to_string(c) + " at byte " + std::to_string(ci.offset) + ", decompressed)";
  if (content.size() < 28) throw InputError(src, "byte 0", "a chunk of " + std::to_string(content.size()) + " bytes is too short");
  const std::size_t body = content.size() - 8;
  uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= static_cast<uint64_t>(content[body + static_cast<std::size_t>(i)]) << (8 * i);
  if (xxh3(content.data(), body) != stored) throw InputError(src, "byte " + std::to_string(body), "the chunk's checksum does not match");
  CanonicalReader r(std::span<const uint8_t>(content.data(), body), src);
  if (r.le<uint32_t>() != kChunkMagic) r.fail("no chunk signature");
  const uint64_t first = r.le<uint64_t>();
  const uint32_t nticks = r.le<uint32_t>();
  const uint32_t nkeys = r.le<uint32_t>();
  if (nticks > kMaxChunkTicks) r.fail("the chunk claims " + std::to_string(nticks) + " ticks");
  const uint32_t S = static_cast<uint32_t>(header_.subsystems.size());
  uint64_t tick = first;
  uint32_t seen_ticks = 0, seen_keys = 0;
  while (!r.done()) {
    const uint8_t kind = r.le<uint8_t>("a record kind");
    if (kind == kRecordTick) {
      TickRecord t;
      t.tick = tick;
      const uint64_t len = read_varint(r, "an input length");
      t.input = std::span<const uint8_t>(r.take(len, "an input"), len);
      t.whole = r.le<uint64_t>("a state hash");
      for (uint32_t i = 0; i < S; ++i) {
        uint64_t v = 0;
        const uint8_t* p = r.take(header_.sub_hash_bytes, "a subsystem hash");
        for (uint8_t k = 0; k < header_.sub_hash_bytes; ++k) v |= static_cast<uint64_t>(p[k]) << (8 * k);
        t.sub[i] = v;
      }
      ++seen_ticks;
      ++tick;
      on_tick(t);
    } else if (kind == kRecordKeyframe) {
      Keyframe k;
      k.tick = r.le<uint64_t>("a keyframe tick");
      if (k.tick != tick) r.fail("a keyframe for tick " + std::to_string(k.tick) + " where tick " + std::to_string(tick) + " was expected");
      const uint64_t len = read_varint(r, "a snapshot length");
      k.snapshot = std::span<const uint8_t>(r.take(len, "a snapshot"), len);
      k.hashes.whole = r.le<uint64_t>("a state hash");
      k.hashes.count = S;
      for (uint32_t i = 0; i < S; ++i) k.hashes.sub[i] = r.le<uint64_t>("a subsystem hash");
      ++seen_keys;
      on_keyframe(k);
    } else {
      r.fail("unknown record kind " + std::to_string(kind));
    }
  }
  if (seen_ticks != nticks || seen_keys != nkeys)
    throw InputError(src, "byte 12", "the chunk says " + std::to_string(nticks) + " ticks and " + std::to_string(nkeys) +
                                         " keyframes, it holds " + std::to_string(seen_ticks) + " and " + std::to_string(seen_keys));
  (void)first;
}

void Recording::check_chunk(std::size_t c) {
  const auto content = decompress_chunk(c);
  auto& ci = chunks_[c];
  if (content.size() >= 20) {
    uint64_t first = 0;
    for (int i = 0; i < 8; ++i) first |= static_cast<uint64_t>(content[4 + static_cast<std::size_t>(i)]) << (8 * i);
    if (!index_used_) {
      ci.first_tick = first;
      ci.ticks = get_u32(content.data() + 12);
      ci.keyframes = get_u32(content.data() + 16);
    } else if (first != ci.first_tick || get_u32(content.data() + 12) != ci.ticks || get_u32(content.data() + 16) != ci.keyframes) {
      throw InputError(source_, "byte " + std::to_string(ci.offset), "the chunk disagrees with the index");
    }
  }
  if (index_used_ && xxh3(bytes_.data() + ci.offset, ci.compressed) != ci.frame_hash)
    throw InputError(source_, "byte " + std::to_string(ci.offset), "the chunk's bytes do not match the index's hash of them");
  if (index_used_ && checksum32(content.data(), content.size()) != ci.checksum)
    throw InputError(source_, "byte " + std::to_string(ci.offset), "the chunk's content does not match its seek table checksum");
  parse_chunk(c, content, [](const TickRecord&) {}, [](const Keyframe&) {});
}

uint64_t Recording::ticks() const {
  uint64_t n = 0;
  for (const auto& c : chunks_) n += c.ticks;
  return n;
}

uint64_t Recording::raw_bytes() const {
  uint64_t n = 0;
  for (const auto& c : chunks_) n += c.decompressed;
  return n;
}

uint64_t Recording::keyframe_count() const {
  uint64_t n = 0;
  for (const auto& c : chunks_) n += c.keyframes;
  return n;
}

std::optional<Recording::OwnedKeyframe> Recording::keyframe_at_or_before(uint64_t tick) const {
  std::optional<OwnedKeyframe> best;
  for (std::size_t c = 0; c < chunks_.size(); ++c) {
    const auto& ci = chunks_[c];
    if (ci.first_tick > tick) break;
    if (ci.keyframes == 0) continue;
    // A chunk's keyframes are at or after its first tick; read it only when it may hold a better one.
    const auto content = decompress_chunk(c);
    parse_chunk(c, content, [](const TickRecord&) {}, [&](const Keyframe& k) {
      if (k.tick <= tick && (!best || k.tick >= best->tick))
        best = OwnedKeyframe{k.tick, std::vector<uint8_t>(k.snapshot.begin(), k.snapshot.end()), k.hashes};
    });
  }
  return best;
}

}  // namespace lockstep::lsr
