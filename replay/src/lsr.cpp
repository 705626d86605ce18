// The .lsr recording format: writer and reader (docs/format.md).
#include "lockstep/replay/lsr.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <fstream>
#include <functional>
#include <optional>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lockstep/core/canonical_read.h"
#include "lockstep/core/fpenv.h"

#ifndef LOCKSTEP_BUILD_FLAGS
#define LOCKSTEP_BUILD_FLAGS "unknown"
#endif

namespace lockstep::lsr {

namespace detail {
extern const char* const kSourceRevision;  // the build's revision.cpp (cmake/revision.cmake)
}

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
  b.revision = detail::kSourceRevision;
  b.fp_env = process_fp_env().text();
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

namespace {
constexpr std::size_t kChunkHead = 16;  // a chunk's magic, first tick and tick count
// The file's stdio buffer: the frames a writer finds at one look go to the file in one write.
constexpr std::size_t kFileBuffer = 1u << 20;

void store_le(uint8_t* p, uint64_t v, int bytes) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, static_cast<std::size_t>(bytes));
  } else {
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
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
  header_.seed = model.seed();
  header_.build = this_build();

  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw InputError(path, "", std::string("cannot open for writing: ") + std::strerror(errno));
  std::setvbuf(f_, nullptr, _IOFBF, kFileBuffer);
  cctx_ = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_compressionLevel, opt.zstd_level);
  ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(cctx_), ZSTD_c_contentSizeFlag, 1);

  try {
    // The header: a skippable frame.
    std::vector<uint8_t> payload = {'L', 'S', 'R', 0x1a};
    put_le(payload, kMajor, 2);
    put_le(payload, kMinor, 2);
    ByteSink body;
    write_canonical(body, header_);
    write_canonical(body, header_.build.fp_env);  // format 1.1
    payload.insert(payload.end(), body.out.begin(), body.out.end());
    put_le(payload, xxh3(payload.data(), payload.size()), 8);
    const auto frame = skippable(kHeaderMagic, payload);
    write(frame.data(), frame.size());
    header_bytes_ = static_cast<uint32_t>(frame.size());
    std::fflush(f_);

    chunk_.resize(kChunkHead);
    chunk_end_ = kChunkHead;
    chunk_first_ = model.tick();
    tick_bytes_ = 8 + header_.subsystems.size() * header_.sub_hash_bytes;
    next_tick_ = model.tick() + 1;
    to_keyframe_ = header_.keyframe_every;
    if (opt.writer_thread) writer_ = std::thread([this] { writer_loop(); });
    const StateHashes h = [&] {
      const auto phase = phases_.scope(kHash);
      return model.hashes();
    }();
    Frame first = keyframe(model, h);
    submit(&first, 1);
  } catch (...) {
    stop_writer();
    ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
    std::fclose(f_);
    throw;
  }
}

Recorder::~Recorder() {
  // Without finish() (an exception) the file keeps its complete frames, the queued ones written
  // now, and no index: exactly what a reader recovers from, as after a crash.
  stop_writer();
  if (cctx_) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
  if (f_) std::fclose(f_);
}

void Recorder::set_phase_observer(PhaseObserver* o) {
  if (o && writer_.joinable()) {  // an observer is called on the stepping thread only
    stop_writer();
    rethrow_writer_error();
  }
  phases_.set(o);
}

void Recorder::write(const void* p, std::size_t n) {
  if (std::fwrite(p, 1, n, f_) != n)
    throw InputError(path_, "byte " + std::to_string(offset_.load(std::memory_order_relaxed)), "write failed");
  offset_.fetch_add(n, std::memory_order_relaxed);
}

void Recorder::flush() {
  if (std::fflush(f_) != 0)
    throw InputError(path_, "byte " + std::to_string(offset_.load(std::memory_order_relaxed)), "write failed");
  if (opt_.fsync) ::fsync(fileno(f_));
  flushed_ticks_.store(written_ticks_, std::memory_order_release);
}

void Recorder::write_frame(Frame& f, bool then_flush) {
  std::vector<uint8_t>* content = &f.content;
  if (f.kind == kFrameKeyframe) {  // the snapshot framed with its tick and hashes
    framing_.clear();
    framing_.reserve(f.content.size() + 160);
    put_le(framing_, kKeyframeMagic, 4);
    put_le(framing_, f.first_tick, 8);
    put_varint(framing_, f.content.size());
    framing_.insert(framing_.end(), f.content.begin(), f.content.end());
    put_le(framing_, f.hashes.whole, 8);
    for (uint32_t i = 0; i < f.hashes.count; ++i) put_le(framing_, f.hashes.sub[i], 8);
    content = &framing_;
  }
  std::size_t n = 0;
  {
    const auto phase = phases_.scope(kCompress);
    put_le(*content, xxh3(content->data(), content->size()), 8);
    out_.resize(ZSTD_compressBound(content->size()));
    n = ZSTD_compress2(static_cast<ZSTD_CCtx*>(cctx_), out_.data(), out_.size(), content->data(), content->size());
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    index_.push_back({offset_.load(std::memory_order_relaxed), static_cast<uint32_t>(n),
                      static_cast<uint32_t>(content->size()), f.kind, f.first_tick, f.ticks, xxh3(out_.data(), n),
                      checksum32(content->data(), content->size())});
  }
  const auto phase = phases_.scope(kWrite);
  write(out_.data(), n);
  written_ticks_ += f.ticks;
  if (then_flush) flush();
}

// The hand-over. The stepping thread fills the ring's slots [pushed_, taken_ + kMaxQueuedFrames)
// and publishes them by advancing pushed_; the writer writes the slots [taken_, pushed_) and
// gives them back by advancing taken_. Neither takes a lock or makes a system call on its way,
// except to wake the other from a wait: the writer's state and stepper_waiting_ say who waits,
// each stored (sequentially consistent) before its owner looks at the counters one last time and
// waits, and read by the other after it advances its counter, so one of the two always sees the
// other's move.
void Recorder::writer_loop() {
  // Signals go to the stepping thread, as without a writer (record's SIGINT and SIGTERM), and a
  // handler never interrupts the writer's calls.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  uint64_t t = 0;  // == taken_
  auto idle_since = std::chrono::steady_clock::now();
  for (;;) {
    const uint64_t p = pushed_.load(std::memory_order_acquire);
    if (t < p) {
      // Every frame handed over so far, written in file order and flushed in one write.
      if (!failed_.load(std::memory_order_relaxed)) {  // after a failed write, the frames behind it are dropped
        try {
          for (uint64_t k = t; k < p; ++k) write_frame(ring_[k % kMaxQueuedFrames], k + 1 == p);
        } catch (...) {
          std::lock_guard lk(mu_);
          error_ = std::current_exception();
          failed_.store(true, std::memory_order_relaxed);
        }
      }
      t = p;
      taken_.store(t, std::memory_order_seq_cst);
      if (stepper_waiting_.load(std::memory_order_seq_cst)) {
        { std::lock_guard lk(mu_); }  // the stepper is inside its wait, or has not begun it
        wake_stepper_.notify_one();
      }
      idle_since = std::chrono::steady_clock::now();
      continue;
    }
    if (stopping_.load(std::memory_order_acquire)) {
      if (pushed_.load(std::memory_order_acquire) == t) return;  // every frame written
      continue;
    }
    // Nothing to write: look again in kWriterPoll, or, after kWriterLinger with nothing, sleep
    // until a hand-over wakes this thread. A look costs the stepping thread nothing; waking a
    // sleeping thread costs the waker 10 to 15 us on a virtual machine, a tenth of a small tick.
    const bool looking = std::chrono::steady_clock::now() - idle_since < kWriterLinger;
    std::unique_lock lk(mu_);
    writer_state_.store(looking ? kLooking : kAsleep, std::memory_order_seq_cst);
    if (pushed_.load(std::memory_order_seq_cst) == t && !stopping_.load(std::memory_order_seq_cst)) {
      if (looking)
        wake_writer_.wait_for(lk, kWriterPoll);
      else
        wake_writer_.wait(lk);  // a wake-up without a frame only looks again
    }
    writer_state_.store(kWriting, std::memory_order_relaxed);
  }
}

void Recorder::stop_writer() noexcept {
  if (!writer_.joinable()) return;
  stopping_.store(true, std::memory_order_seq_cst);
  { std::lock_guard lk(mu_); }  // the writer is inside its wait, or has not yet looked at stopping_
  wake_writer_.notify_one();
  writer_.join();
  reclaim();
}

void Recorder::rethrow_writer_error() {
  std::exception_ptr e;
  {
    std::lock_guard lk(mu_);
    e = error_;
  }
  if (e) std::rethrow_exception(e);
}

void Recorder::recycle(Frame& f) {
  // A written frame's buffer, for the next frame of its kind: a chunk's is as large as a chunk, a
  // keyframe's as large as a snapshot (whose pages are then not faulted in again).
  auto& spare = f.kind == kFrameKeyframe ? spare_keyframes_ : spare_chunks_;
  if (spare.size() < kMaxSpareBuffers && f.content.capacity() > 0) {
    f.content.clear();
    spare.push_back(std::move(f.content));
  }
  f.content = {};
}

void Recorder::reclaim() {
  const uint64_t t = taken_.load(std::memory_order_acquire);
  for (; reclaimed_ < t; ++reclaimed_) recycle(ring_[reclaimed_ % kMaxQueuedFrames]);
}

std::vector<uint8_t> Recorder::take_spare(bool keyframe) {
  reclaim();
  std::vector<uint8_t> out;
  auto& spare = keyframe ? spare_keyframes_ : spare_chunks_;
  if (!spare.empty()) {
    out = std::move(spare.back());
    spare.pop_back();
  }
  return out;
}

void Recorder::wait_for_room(uint64_t pushed, std::size_t n) {
  const auto room = [&] { return pushed + n - taken_.load(std::memory_order_seq_cst) <= kMaxQueuedFrames; };
  std::unique_lock lk(mu_);
  stepper_waiting_.store(true, std::memory_order_seq_cst);
  if (writer_state_.load(std::memory_order_seq_cst) != kWriting) wake_writer_.notify_one();  // it looks now
  wake_stepper_.wait(lk, [&] { return room() || error_ != nullptr; });
  stepper_waiting_.store(false, std::memory_order_relaxed);
  if (error_) std::rethrow_exception(error_);
}

void Recorder::submit(Frame* frames, std::size_t n) {
  if (!writer_.joinable()) {
    for (std::size_t i = 0; i < n; ++i) write_frame(frames[i], i + 1 == n);
    for (std::size_t i = 0; i < n; ++i) recycle(frames[i]);
    return;
  }
  // One hand-over for the frames due at one tick (a chunk and a keyframe).
  const uint64_t p = pushed_.load(std::memory_order_relaxed);
  if (p + n - taken_.load(std::memory_order_acquire) > kMaxQueuedFrames) wait_for_room(p, n);
  reclaim();  // the slots about to be filled: their last frames' buffers kept
  for (std::size_t i = 0; i < n; ++i) ring_[(p + i) % kMaxQueuedFrames] = std::move(frames[i]);
  pushed_.store(p + n, std::memory_order_seq_cst);
  // A writer that looks on its own is left to find them, unless they pile up (a writer short of
  // a core); a sleeping one is woken.
  const int state = writer_state_.load(std::memory_order_seq_cst);
  if (state == kAsleep || (state == kLooking && p + n - taken_.load(std::memory_order_relaxed) >= kWakeWriterAt)) {
    { std::lock_guard lk(mu_); }  // the writer is inside its wait, or has not yet looked at pushed_
    wake_writer_.notify_one();
  }
}

Recorder::Frame Recorder::keyframe(const Model& m, const StateHashes& h) {
  Frame f;
  f.kind = kFrameKeyframe;
  f.first_tick = m.tick();
  f.content = take_spare(true);
  {
    const auto phase = phases_.scope(kSnapshot);
    m.snapshot_into(f.content);
  }
  if (f.content.size() + 160 + 8 * kMaxSubsystems > kMaxFrameBytes)
    throw InputError(path_, "tick " + std::to_string(m.tick()), "the state's snapshot of " + std::to_string(f.content.size()) +
                                                                   " bytes is beyond the format's frame limit of " + std::to_string(kMaxFrameBytes));
  f.hashes = h;
  return f;
}

void Recorder::tick(std::span<const uint8_t> input, const Model& after) {
  if (finished_) throw std::logic_error("Recorder::tick after finish");
  if (failed_.load(std::memory_order_relaxed)) rethrow_writer_error();
  if (input.size() > kMaxFrameBytes / 2)
    throw InputError(path_, "tick " + std::to_string(after.tick() - 1), "an input of " + std::to_string(input.size()) +
                                                                           " bytes is beyond the format's limit of " + std::to_string(kMaxFrameBytes / 2));
  // A chunk's content stays within the frame limit: close it early when this tick would pass it.
  if (chunk_ticks_ > 0 && chunk_end_ - kChunkHead + inputs_.size() + tick_bytes_ + input.size() + 64 > kMaxFrameBytes) {
    Frame chunk = chunk_frame();
    submit(&chunk, 1);
    chunk_first_ = after.tick() - 1;
  }
  const StateHashes h = [&] {
    const auto phase = phases_.scope(kHash);
    return after.hashes();
  }();
  // The tick's record: the whole hash, then each subsystem's kept bytes, little-endian.
  const uint8_t sub_bytes = header_.sub_hash_bytes;
  const std::size_t record = 8 + std::size_t{h.count} * sub_bytes;
  if (chunk_end_ + record > chunk_.size()) chunk_.resize(std::max(chunk_.capacity(), 2 * (chunk_end_ + record)));
  uint8_t* p = chunk_.data() + chunk_end_;
  chunk_end_ += record;
  store_le(p, h.whole, 8);
  p += 8;
  if (sub_bytes == 2) {
    for (uint32_t i = 0; i < h.count; ++i, p += 2) store_le(p, h.sub[i], 2);
  } else {
    for (uint32_t i = 0; i < h.count; ++i, p += 8) store_le(p, h.sub[i], 8);
  }
  // An input is stored when it differs from the tick before; a chunk is
  // self-contained, so its first tick always stores one.
  const bool same = chunk_ticks_ > 0 && input.size() == last_input_.size() &&
                    (input.empty() || std::memcmp(input.data(), last_input_.data(), input.size()) == 0);
  if (!same) {
    put_varint(inputs_, chunk_ticks_);
    put_varint(inputs_, input.size());
    inputs_.insert(inputs_.end(), input.begin(), input.end());
    last_input_.assign(input.begin(), input.end());
    ++chunk_inputs_;
  }
  ++chunk_ticks_;
  ++ticks_;
  // A keyframe is due when tick() - first_tick is a multiple of keyframe_every: counted down
  // while the model's ticks follow on one by one, worked out again when they do not.
  const uint64_t now = after.tick();
  bool key_due = false;
  if (header_.keyframe_every) {
    if (now == next_tick_) {
      key_due = --to_keyframe_ == 0;
    } else {
      const uint64_t since = (now - header_.first_tick) % header_.keyframe_every;
      key_due = since == 0;
      to_keyframe_ = header_.keyframe_every - since;
    }
    if (key_due) to_keyframe_ = header_.keyframe_every;
  }
  next_tick_ = now + 1;
  if (chunk_ticks_ >= header_.chunk_ticks || key_due) close_chunk(after, h, key_due);
  if (chunk_ticks_ == 0) chunk_first_ = now;
}

void Recorder::close_chunk(const Model& after, const StateHashes& h, bool key_due) {
  Frame due[2];
  std::size_t n = 0;
  due[n++] = chunk_frame();
  if (key_due) {
    try {
      due[n] = keyframe(after, h);  // the state just hashed
    } catch (...) {
      submit(due, n);  // the complete chunk is kept, as before the keyframe was due
      throw;
    }
    ++n;
  }
  submit(due, n);
}

Recorder::Frame Recorder::chunk_frame() {
  Frame f;
  f.kind = kFrameTicks;
  f.first_tick = chunk_first_;
  f.ticks = chunk_ticks_;
  chunk_.resize(chunk_end_);
  store_le(chunk_.data(), kChunkMagic, 4);
  store_le(chunk_.data() + 4, chunk_first_, 8);
  store_le(chunk_.data() + 12, chunk_ticks_, 4);
  put_le(chunk_, chunk_inputs_, 4);
  chunk_.insert(chunk_.end(), inputs_.begin(), inputs_.end());
  f.content = std::move(chunk_);
  chunk_ = take_spare(false);  // a written chunk's buffer, already as large as a chunk
  chunk_.resize(std::max(chunk_.capacity(), kChunkHead));
  chunk_end_ = kChunkHead;
  inputs_.clear();
  chunk_ticks_ = 0;
  chunk_inputs_ = 0;
  return f;
}

void Recorder::finish() {
  if (finished_) return;
  if (failed_.load(std::memory_order_relaxed)) rethrow_writer_error();
  if (chunk_ticks_ > 0) {
    Frame last = chunk_frame();
    submit(&last, 1);
  }
  stop_writer();  // every frame written, and the index the writer's no more
  rethrow_writer_error();
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
  std::vector<uint8_t> bytes(static_cast<std::size_t>(size));  // the file's own size: nothing larger is read
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
  r.read_frames();
  return r;
}

namespace {

// The canonical Header (format 1.0's fields), with the subsystem count checked
// before the list is made.
void read_header_fields(CanonicalReader& rd, Header& h) {
  Header::fields(h, [&](const FieldInfo&, auto& f) {
    using F = std::remove_cvref_t<decltype(f)>;
    if constexpr (std::same_as<F, std::vector<std::string>>) {
      const uint32_t n = rd.le<uint32_t>("the subsystem count");
      if (n > kMaxSubsystems) rd.fail("the header lists " + std::to_string(n) + " subsystems, more than the format's 16");
      f.resize(n);
      for (auto& s : f) rd.read(s);
    } else {
      rd.read(f);
    }
  });
}

}  // namespace

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
  CanonicalReader rd(std::span<const uint8_t>(b.data() + 16, size - 16), source_, 16);  // up to the checksum
  try {
    read_header_fields(rd, header_);
    if (header_.major != major || header_.minor != minor) rd.fail("the header's versions disagree with its signature's");
    if (minor >= 1) rd.read(header_.build.fp_env);
    // A newer minor version only adds what this reader may ignore, at the end.
    if (minor <= kMinor && !rd.done()) rd.fail("the header has " + std::to_string(rd.remaining()) + " unexpected bytes");
  } catch (const InputError& e) {
    throw InputError(source_, e.place(), "the header is malformed: " + e.message());
  }
  if (header_.sub_hash_bytes != 2 && header_.sub_hash_bytes != 8)
    throw InputError(source_, "the header", "sub_hash_bytes must be 2 or 8, found " + std::to_string(header_.sub_hash_bytes));
  if (header_.chunk_ticks == 0 || header_.chunk_ticks > kMaxChunkTicks)
    throw InputError(source_, "the header", "chunk_ticks " + std::to_string(header_.chunk_ticks) + " is out of range (1 to 2^20)");
  frames_start_ = 8 + size;
}

namespace {
std::string frame_label(const ChunkInfo& f, std::size_t i) {
  if (f.kind == kFrameKeyframe) return "frame " + std::to_string(i + 1) + " (the keyframe of tick " + std::to_string(f.first_tick) + ")";
  return "frame " + std::to_string(i + 1) + " (the chunk of " + tick_range(f.first_tick, f.ticks) + ")";
}
}  // namespace

std::string Recording::frame_name(std::size_t i) const {
  if (i >= frames_.size()) return "frame " + std::to_string(i + 1);
  return frame_label(frames_[i], i);
}

namespace {

/// One frame as the file's framing gives it, before its content is looked at.
struct RawFrame {
  uint64_t offset = 0;
  uint64_t size = 0;  ///< the whole frame, magic included
  uint32_t magic = 0;
};

/// How a walk over the framing ended.
struct WalkEnd {
  enum Kind { Clean, CutOff, Bad } kind = Clean;
  uint64_t offset = 0;  ///< where the frame that ended it starts
  std::string what;
};

bool is_skippable(uint32_t magic) { return (magic & 0xFFFFFFF0u) == 0x184D2A50u; }

/// Walk the frames from `off` by their sizes alone (skippable frames by their
/// size field, zstd frames by their block headers): nothing is decompressed.
WalkEnd walk_framing(const std::vector<uint8_t>& b, uint64_t off, std::vector<RawFrame>& out) {
  while (off < b.size()) {
    const uint64_t left = b.size() - off;
    if (left < 4) return {WalkEnd::CutOff, off, "the file ends " + std::to_string(left) + " bytes into a frame"};
    const uint32_t magic = get_u32(b.data() + off);
    if (is_skippable(magic)) {
      if (left < 8) return {WalkEnd::CutOff, off, "the file ends inside a frame header"};
      const uint64_t size = 8 + static_cast<uint64_t>(get_u32(b.data() + off + 4));
      if (size > left)
        return {WalkEnd::CutOff, off, "the frame claims " + std::to_string(size) + " bytes, the file has " + std::to_string(left) + " from here"};
      out.push_back({off, size, magic});
      off += size;
      continue;
    }
    if (magic != kZstdMagic)
      return {WalkEnd::Bad, off, "expected a zstd frame (magic 0xFD2FB528) or the index, found 0x" + hex64(magic).substr(8)};
    const std::size_t n = ZSTD_findFrameCompressedSize(b.data() + off, static_cast<std::size_t>(left));
    if (ZSTD_isError(n)) {
      if (ZSTD_getErrorCode(n) == ZSTD_error_srcSize_wrong)
        return {WalkEnd::CutOff, off, "the file ends inside this frame"};
      return {WalkEnd::Bad, off, std::string("not a valid zstd frame: ") + ZSTD_getErrorName(n)};
    }
    if (n > UINT32_MAX) return {WalkEnd::Bad, off, "a frame of more than 4 GiB"};
    out.push_back({off, n, magic});
    off += n;
  }
  return {WalkEnd::Clean, off, ""};
}

constexpr uint64_t kIndexEntryBytes = 8 + 4 + 4 + 1 + 8 + 4 + 8 + 4;

/// The seek table and the index as the end of the file gives them, each checked
/// on its own (the seek table's framing, the index's checksum), so a failure in
/// the walk can be named by what the file says should be there.
struct Trailer {
  bool table_ok = false;       ///< a seek table frame ends the file, its footer and size agree
  uint64_t table_offset = 0;
  std::vector<ChunkInfo> table;  ///< per frame before the table: offset, compressed, decompressed, checksum
  std::optional<Damage> table_damage;
  bool index_ok = false;       ///< the index frame where the table puts it, whole, its checksum right
  uint64_t index_offset = 0;
  std::vector<ChunkInfo> index;  ///< per data frame
  std::optional<Damage> index_damage;
};

Trailer read_trailer(const std::vector<uint8_t>& b, uint64_t frames_start, const std::vector<RawFrame>& raw) {
  Trailer t;
  auto table_bad = [&](uint64_t at, const std::string& what) { t.table_damage = Damage{at, "seek table", "the seek table", what, false}; };
  auto index_bad = [&](uint64_t at, const std::string& what) { t.index_damage = Damage{at, "index", "the index", what, false}; };
  if (b.size() < frames_start + 17 || get_u32(b.data() + b.size() - 4) != kSeekFooterMagic) return t;
  const uint64_t footer = b.size() - 9;
  const uint32_t nframes = get_u32(b.data() + footer);
  const uint64_t table_bytes = static_cast<uint64_t>(nframes) * 12 + 9;
  if (nframes < 2 || table_bytes + 8 > b.size() - frames_start) {
    table_bad(footer, "the seek table's footer counts " + std::to_string(nframes) + " frames, more than the file can hold");
    return t;
  }
  const uint64_t st = b.size() - table_bytes - 8;
  if (get_u32(b.data() + st) != kSeekTableMagic || get_u32(b.data() + st + 4) != table_bytes) {
    // Which byte is wrong: the footer's count (a whole seek table frame the walk met ends the
    // file), the table frame's size field, or its magic.
    const RawFrame* found = nullptr;
    for (const auto& f : raw)
      if (f.magic == kSeekTableMagic) found = &f;
    if (found && found->offset + found->size == b.size() && found->offset != st)
      table_bad(footer, "the seek table's footer counts " + std::to_string(nframes) + " frames, the seek table at byte " +
                            std::to_string(found->offset) + " holds " + std::to_string(found->size >= 17 ? (found->size - 17) / 12 : 0));
    else if (get_u32(b.data() + st) == kSeekTableMagic)
      table_bad(st + 4, "the seek table frame's size field is " + std::to_string(get_u32(b.data() + st + 4)) + ", its footer's count makes it " +
                            std::to_string(table_bytes));
    else
      table_bad(st, "expected the seek table's frame magic 0x184D2A5E here (its footer counts " + std::to_string(nframes) + " frames), found 0x" +
                        hex64(get_u32(b.data() + st)).substr(8));
    return t;
  }
  if (b[b.size() - 5] != 0x80) {
    table_bad(b.size() - 5, "the seek table descriptor is not 0x80 (checksums present)");
    return t;
  }
  auto entry_at = [&](uint64_t i) { return st + 8 + 12 * i; };
  for (uint32_t i = 0; i < nframes; ++i) {
    const uint8_t* e = b.data() + entry_at(i);
    ChunkInfo ci;
    ci.compressed = get_u32(e);
    ci.decompressed = get_u32(e + 4);
    ci.checksum = get_u32(e + 8);
    t.table.push_back(ci);
  }
  t.table_offset = st;

  // The index is the frame just before the table, of the size the table's last entry gives:
  // found from the end, so a wrong entry elsewhere in the table cannot hide it.
  const uint32_t ix_size = t.table.back().compressed;
  if (ix_size < 24 || ix_size > st - frames_start) {
    table_bad(entry_at(nframes - 1), "its last entry gives the index " + std::to_string(ix_size) + " bytes, which cannot be");
    return t;
  }
  for (const auto& f : raw)
    if (f.magic == kIndexMagic && f.offset + f.size == st && f.size != ix_size) {
      table_bad(entry_at(nframes - 1), "its last entry gives the index " + std::to_string(ix_size) + " bytes, the index frame before the table has " +
                                           std::to_string(f.size));
      return t;
    }
  const uint64_t ix = st - ix_size;
  t.index_offset = ix;
  const uint8_t* p = b.data() + ix;
  const uint32_t payload = ix_size - 8;
  const uint64_t stored = payload >= 16 ? get_u32(p + 8 + payload - 8) | (static_cast<uint64_t>(get_u32(p + 8 + payload - 4)) << 32) : 0;
  if (get_u32(p) != kIndexMagic) {
    index_bad(ix, "the index frame's magic is 0x" + hex64(get_u32(p)).substr(8) + ", expected 0x184D2A51");
  } else if (get_u32(p + 4) != payload) {
    index_bad(ix + 4, "the index frame's size field is " + std::to_string(get_u32(p + 4)) + ", the seek table gives it " + std::to_string(payload));
  } else if (std::memcmp(p + 8, "LSIX", 4) != 0 || xxh3(p + 8, payload - 8) != stored) {
    index_bad(ix, "the index is damaged (its checksum does not match)");
  } else {
    const uint64_t body = payload - 8 - 4;  // after "LSIX", before the checksum
    const uint32_t n = get_u32(p + 12);
    if (body < 4 || static_cast<uint64_t>(n) * kIndexEntryBytes != body - 4) {
      index_bad(ix + 12, "the index lists " + std::to_string(n) + " frames in " + std::to_string(body - 4) + " bytes");
    } else {
      CanonicalReader rd(std::span<const uint8_t>(p + 16, body - 4), "index", ix + 16);
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
        t.index.push_back(c);
      }
      t.index_ok = true;
    }
  }

  // The table's entries: against the index where it is whole (checksummed, so the authority),
  // else against the frames the walk met; then they must tile the file up to the table.
  const uint32_t empty = checksum32(nullptr, 0);
  for (uint32_t i = 0; i < nframes && !t.table_damage; ++i) {
    const ChunkInfo& te = t.table[i];
    const bool skippable = i == 0 || i + 1 == nframes;
    if (skippable && (te.decompressed != 0 || te.checksum != empty)) {
      table_bad(entry_at(i), "seek table entry " + std::to_string(i) + " is wrong for a skippable frame");
    } else if (i == 0 && te.compressed != frames_start) {
      table_bad(entry_at(i), "its first entry gives " + std::to_string(te.compressed) + " bytes, the header has " + std::to_string(frames_start));
    } else if (!skippable && t.index_ok) {
      if (i - 1 >= t.index.size()) {
        table_bad(footer, "the seek table counts " + std::to_string(nframes) + " frames, the index " + std::to_string(t.index.size()) + " data frames");
        break;
      }
      const ChunkInfo& c = t.index[i - 1];
      if (te.compressed != c.compressed || te.decompressed != c.decompressed || te.checksum != c.checksum)
        table_bad(entry_at(i), "seek table entry " + std::to_string(i) + " disagrees with the index (" + frame_label(c, i - 1) + ")");
    } else if (!skippable && i - 1 < raw.size()) {
      if (te.compressed != raw[i - 1].size)
        table_bad(entry_at(i), "seek table entry " + std::to_string(i) + " gives " + std::to_string(te.compressed) + " bytes, the frame at byte " +
                                   std::to_string(raw[i - 1].offset) + " has " + std::to_string(raw[i - 1].size));
    }
  }
  if (!t.table_damage && t.index_ok && t.index.size() + 2 != nframes)
    table_bad(footer, "the seek table counts " + std::to_string(nframes) + " frames, the index " + std::to_string(t.index.size()) + " data frames");
  uint64_t off = 0;
  for (auto& te : t.table) {
    te.offset = off;
    off += te.compressed;
  }
  if (!t.table_damage && off != st)
    table_bad(st + 8, "the seek table's frames end at byte " + std::to_string(off) + ", not at the table (byte " + std::to_string(st) + ")");
  t.table_ok = !t.table_damage;
  return t;
}

/// Decompress one zstd frame of `compressed` bytes that claims `content` bytes, growing the
/// output only as the frame really produces bytes: a frame that claims far more than it holds
/// fails after what it holds, not after zero-filling what it claims.
std::vector<uint8_t> bounded_decompress(ZSTD_DCtx* dctx, const uint8_t* src, std::size_t compressed, uint64_t content,
                                        const std::string& source, uint64_t offset) {
  auto fail = [&](const std::string& what) -> std::vector<uint8_t> { throw InputError(source, "byte " + std::to_string(offset), what); };
  if (content > kMaxFrameBytes)
    return fail("the frame claims " + std::to_string(content) + " bytes of content, beyond the format's limit of " +
                std::to_string(kMaxFrameBytes));
  // No zstd block yields more than 128 KiB from fewer than 4 bytes (an RLE block): a frame
  // that claims more is damaged, and neither we nor zstd's window may be sized by the claim.
  if (content > static_cast<uint64_t>(compressed) * 32768)
    return fail("the frame claims " + std::to_string(content) + " bytes of content from " + std::to_string(compressed) +
                " compressed bytes, more than zstd can expand them to");
  ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
  std::vector<uint8_t> out;
  out.resize(static_cast<std::size_t>(std::min<uint64_t>(content, 1u << 20)));
  ZSTD_inBuffer in{src, compressed, 0};
  ZSTD_outBuffer ob{out.data(), out.size(), 0};
  for (;;) {
    const std::size_t r = ZSTD_decompressStream(dctx, &ob, &in);
    if (ZSTD_isError(r)) return fail(std::string("the frame does not decompress: ") + ZSTD_getErrorName(r));
    if (r == 0) break;  // the frame is complete
    if (ob.pos == ob.size) {
      if (ob.size >= content)
        return fail("the frame decompresses to more than the " + std::to_string(content) + " bytes it claims");
      const std::size_t grown = static_cast<std::size_t>(std::min<uint64_t>(content, std::max<uint64_t>(2 * ob.size, 1)));
      out.resize(grown);
      ob.dst = out.data();
      ob.size = out.size();
    } else if (in.pos == in.size) {
      return fail("the frame ends after " + std::to_string(ob.pos) + " of the " + std::to_string(content) + " bytes it claims");
    }
  }
  if (in.pos != in.size) return fail("the frame ends " + std::to_string(in.size - in.pos) + " bytes before its given size");
  if (ob.pos != content)
    return fail("the frame decompresses to " + std::to_string(ob.pos) + " bytes, not the " + std::to_string(content) + " it claims");
  out.resize(ob.pos);
  return out;
}

}  // namespace

void Recording::read_frames() {
  const auto& b = bytes_;
  std::vector<RawFrame> raw;
  const WalkEnd end = walk_framing(b, frames_start_, raw);
  const Trailer tr = read_trailer(b, frames_start_, raw);
  auto kind_of = [](const ChunkInfo& c) { return std::string(c.kind == kFrameKeyframe ? "keyframe" : "data frame"); };

  // The data frames to check, and what is wrong after them (in file order), if anything.
  std::vector<ChunkInfo> data;
  std::optional<Damage> after;
  bool index_trusted = false;
  if (tr.index_ok) {
    // A finished recording whose index is whole: its checksum makes it the authority on
    // where every data frame is and what it holds. A seek table that disagrees with it is
    // damage after the data frames (tr.table_damage), not a reason to doubt them.
    index_trusted = true;
    uint64_t off = frames_start_, expect_tick = header_.first_tick;
    for (std::size_t i = 0; i < tr.index.size() && !after; ++i) {
      const ChunkInfo& c = tr.index[i];
      const bool kind_ok = (c.kind == kFrameTicks && c.ticks > 0) || (c.kind == kFrameKeyframe && c.ticks == 0);
      if (c.offset != off || !kind_ok || c.first_tick != expect_tick || c.compressed == 0)
        after = Damage{tr.index_offset + 16 + kIndexEntryBytes * i, "index", "the index",
                       "entry " + std::to_string(i) + " does not follow the one before it (offset, kind or tick)", false};
      off += c.compressed;
      expect_tick += c.ticks;
    }
    if (!after && off != tr.index_offset)
      after = Damage{tr.index_offset, "index", "the index", "its frames end at byte " + std::to_string(off) + ", not at the index", false};
    if (after) index_trusted = false;  // a writer's error: walk the frames instead
    else {
      data = tr.index;
      after = tr.table_damage;
    }
  }
  if (!index_trusted) {
    // The frames as the walk found them: the zstd frames before the index (skippable frames
    // of kinds this reader does not know are passed over: a newer minor version may add them).
    std::size_t next = 0;
    while (next < raw.size() && raw[next].magic != kIndexMagic && raw[next].magic != kSeekTableMagic) {
      if (raw[next].magic == kZstdMagic) {
        ChunkInfo ci;
        ci.offset = raw[next].offset;
        ci.compressed = static_cast<uint32_t>(raw[next].size);
        data.push_back(ci);
      }
      ++next;
    }
    const bool walked_to_index = next < raw.size() && raw[next].magic == kIndexMagic;
    const bool table_follows = walked_to_index && next + 1 < raw.size() && raw[next + 1].magic == kSeekTableMagic;
    if (after) {
      // the index or seek table disagree (above)
    } else if (tr.index_damage) {
      after = tr.index_damage;
    } else if (tr.table_damage) {
      after = tr.table_damage;
    } else if (walked_to_index && table_follows && next + 2 == raw.size() && end.kind == WalkEnd::Clean) {
      // Index and seek table whole, yet no footer magic ends the file: a wrong byte, not a cut.
      after = Damage{b.size() - 4, "seek table", "the seek table",
                     "its footer magic is 0x" + hex64(get_u32(b.data() + b.size() - 4)).substr(8) +
                         ", expected 0x8F92EAB1 (the seek table is whole: a wrong byte, not a cut)", false};
    } else if (walked_to_index && next + 1 == raw.size() && end.kind != WalkEnd::Bad) {
      after = Damage{end.kind == WalkEnd::CutOff ? end.offset : b.size(), "seek table", "the seek table",
                     "the file ends after the index, inside or before the seek table (cut off; every frame before it is whole)", true};
    } else if (walked_to_index) {
      const uint64_t at = end.kind == WalkEnd::Bad ? end.offset : raw[next].offset;
      after = Damage{at, "seek table", "the seek table", end.kind == WalkEnd::Bad ? end.what : "the frames after the index are not the seek table", false};
    } else if (end.kind == WalkEnd::Clean) {
      after = Damage{end.offset, "index", "the end", "no index (the recording was cut off after its last complete frame)", true};
    } else {
      // The walk stopped inside the data. A whole seek table at the end of the file says
      // the recording was finished, so this is a wrong byte, not a cut.
      std::string where = "frame " + std::to_string(data.size() + 1), kind = "data frame";
      if (tr.table_ok && end.offset == tr.index_offset) kind = where = "the index";
      if (kind == "the index") kind = "index";
      std::string what = end.what;
      if (end.kind == WalkEnd::CutOff && tr.table_ok) what += ", yet a whole seek table ends the file: a wrong byte in the frame's framing, not a cut";
      else if (end.kind == WalkEnd::CutOff) what += " (cut off)";
      after = Damage{end.offset, kind, where, what, end.kind == WalkEnd::CutOff && !tr.table_ok};
    }
  }

  // Every data frame, in order: its bytes against the index, its content decompressed
  // within the limits and parsed. The first failure ends the good part.
  frames_.clear();
  index_used_ = index_trusted;
  uint64_t expect_tick = header_.first_tick;
  std::optional<uint64_t> last_record;  // the whole hash of the last tick record read
  for (std::size_t i = 0; i < data.size(); ++i) {
    ChunkInfo ci = data[i];
    const std::string kind = index_trusted ? kind_of(ci) : "data frame";
    const std::string where = index_trusted ? frame_label(ci, i) : "frame " + std::to_string(i + 1);
    if (index_trusted && xxh3(b.data() + ci.offset, ci.compressed) != ci.frame_hash) {
      damage_ = Damage{ci.offset, kind, where, "the frame's bytes do not match the index's hash of them", false};
      return;
    }
    if (!index_trusted) {
      const unsigned long long content = ZSTD_getFrameContentSize(b.data() + ci.offset, ci.compressed);
      if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR || content > UINT32_MAX) {
        damage_ = Damage{ci.offset, kind, where, "the frame header gives no content size", false};
        return;
      }
      ci.decompressed = static_cast<uint32_t>(content);
    }
    frames_.push_back(ci);
    uint64_t whole = 0;
    try {
      whole = check_frame(frames_.size() - 1);  // decompresses and parses; fills kind, first_tick, ticks
    } catch (const InputError& e) {
      frames_.pop_back();
      damage_ = Damage{ci.offset, kind, where, chunk_error(e, ci.offset), false};
      return;
    }
    const ChunkInfo& got = frames_.back();
    if (got.first_tick != expect_tick) {
      damage_ = Damage{got.offset, kind_of(got), frame_name(frames_.size() - 1),
                       "starts at tick " + std::to_string(got.first_tick) + ", expected " + std::to_string(expect_tick), false};
      frames_.pop_back();
      return;
    }
    // A keyframe of tick t is the state after step t - 1: it hashes as that tick's record says.
    if (got.kind == kFrameKeyframe && last_record && *last_record != whole) {
      damage_ = Damage{got.offset, "keyframe", frame_name(frames_.size() - 1),
                       "its state hash " + hex64(whole) + " is not the " + hex64(*last_record) + " the record of step " +
                           std::to_string(got.first_tick - 1) + " gives (a keyframe that contradicts its recording)", false};
      frames_.pop_back();
      return;
    }
    if (got.kind == kFrameTicks) last_record = whole;
    expect_tick += got.ticks;
  }
  damage_ = after;
}

std::vector<uint8_t> Recording::decompress(std::size_t i) const {
  const auto& ci = frames_.at(i);
  std::vector<uint8_t> out = bounded_decompress(static_cast<ZSTD_DCtx*>(dctx_.get()), bytes_.data() + ci.offset, ci.compressed,
                                                ci.decompressed, source_, ci.offset);
  if (index_used_ && checksum32(out.data(), out.size()) != ci.checksum)
    throw InputError(source_, "byte " + std::to_string(ci.offset), "the frame's content does not match its seek table checksum");
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
uint64_t Recording::check_frame(std::size_t i) {
  auto& ci = frames_[i];
  const auto content = decompress(i);
  uint8_t kind = 0;
  uint64_t first = 0, whole = 0;
  uint32_t ticks = 0;
  parse(i, content, [&](const TickRecord& t) {
    if (kind == 0) first = t.tick;
    kind = kFrameTicks;
    whole = t.whole;
    ++ticks;
  }, [&](const Keyframe& k) {
    kind = kFrameKeyframe;
    first = k.tick;
    whole = k.hashes.whole;
  });
  ci.kind = kind;
  ci.first_tick = first;
  ci.ticks = ticks;
  return whole;
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
