// The recording format (.lsr), specified byte by byte in docs/format.md.
//
// A recording is a sequence of zstd frames, so the stock `zstd -t` checks it
// and `zstd -dc` prints its raw tick stream:
//   1. a skippable frame (magic 0x184D2A50) with the header: format version,
//      model, the embedded scenario, the build that made it, tick rate, seed;
//   2. data frames, each one standard zstd frame (content size and checksum):
//      chunks of up to `chunk_ticks` ticks (per tick its input, whole-state
//      hash and subsystem hashes) and, every `keyframe_every` ticks, a
//      keyframe frame with the full state;
//   3. a skippable frame (magic 0x184D2A51) with the index of chunks;
//   4. a seek table in the layout of zstd's seekable format (skippable magic
//      0x184D2A5E, footer magic 0x8F92EAB1).
// A recording cut off anywhere keeps every complete chunk: the reader finds
// them by walking the frames when the index is missing.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"
#include "lockstep/core/reflect.h"

namespace lockstep::lsr {

inline constexpr uint16_t kMajor = 1;  ///< a reader refuses a newer major version
inline constexpr uint16_t kMinor = 1;  ///< 1.1 adds the build's floating-point environment
inline constexpr uint32_t kHeaderMagic = 0x184D2A50;      ///< skippable frame: the header
inline constexpr uint32_t kIndexMagic = 0x184D2A51;       ///< skippable frame: the chunk index
inline constexpr uint32_t kSeekTableMagic = 0x184D2A5E;   ///< skippable frame: zstd seekable format
inline constexpr uint32_t kSeekFooterMagic = 0x8F92EAB1;  ///< zstd seekable format footer
inline constexpr uint32_t kZstdMagic = 0xFD2FB528;
inline constexpr uint32_t kChunkMagic = 0x4B43534C;  ///< "LSCK" at the start of a chunk's content
inline constexpr uint32_t kKeyframeMagic = 0x464B534C;  ///< "LSKF" at the start of a keyframe's content

// Limits, checked before anything is allocated (docs/format.md). A frame's
// content is at most 64 MiB: a keyframe of a 10,000-walker station is about
// 2 MB, a chunk of 2^20 ticks of 16 subsystems at 8 bytes 136 MiB (so the
// writer closes a chunk early rather than pass the limit).
inline constexpr std::size_t kMaxHeaderBytes = 64u << 20;
inline constexpr std::size_t kMaxFrameBytes = 64u << 20;
inline constexpr uint32_t kMaxChunkTicks = 1u << 20;

/// The build that made a recording.
struct BuildInfo {
  std::string compiler;  ///< e.g. "gcc 12.2.0"
  std::string flags;     ///< compile flags of the core
  std::string arch;      ///< "x86_64", "aarch64"
  std::string revision;  ///< source revision (git), "-dirty" when the tree had changes
  /// The floating-point environment the recording process started in ("IEEE default", or e.g.
  /// "flush-to-zero, denormals-are-zero (MXCSR 0x9f80)"); since format 1.1, after the canonical
  /// header, so it is not in this listing. Empty in a 1.0 recording (not known).
  std::string fp_env;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"compiler"}, s.compiler);
    v(FieldInfo{"flags"}, s.flags);
    v(FieldInfo{"arch"}, s.arch);
    v(FieldInfo{"revision"}, s.revision);
  }
};

/// The build running now.
BuildInfo this_build();

struct Header {
  uint16_t major = kMajor;
  uint16_t minor = kMinor;
  std::string model;
  uint32_t model_version = 0;
  uint32_t tick_rate_hz = 0;
  uint64_t seed = 0;
  uint64_t first_tick = 0;       ///< the model's tick when recording started
  uint32_t chunk_ticks = 60;     ///< ticks per chunk (the last may be shorter)
  uint32_t keyframe_every = 60;  ///< a keyframe every this many ticks (0: only the first)
  uint8_t sub_hash_bytes = 2;    ///< bytes kept per subsystem hash in tick records: 2 (low 16 bits) or 8
  std::vector<std::string> subsystems;
  std::string scenario_json;
  BuildInfo build;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"major"}, s.major);
    v(FieldInfo{"minor"}, s.minor);
    v(FieldInfo{"model"}, s.model);
    v(FieldInfo{"model_version"}, s.model_version);
    v(FieldInfo{"tick_rate_hz"}, s.tick_rate_hz);
    v(FieldInfo{"seed"}, s.seed);
    v(FieldInfo{"first_tick"}, s.first_tick);
    v(FieldInfo{"chunk_ticks"}, s.chunk_ticks);
    v(FieldInfo{"keyframe_every"}, s.keyframe_every);
    v(FieldInfo{"sub_hash_bytes"}, s.sub_hash_bytes);
    v(FieldInfo{"subsystems"}, s.subsystems);
    v(FieldInfo{"scenario_json"}, s.scenario_json);
    v(FieldInfo{"build"}, s.build);
  }
};

/// One tick: the input of step `tick` and the hashes of the state after it.
struct TickRecord {
  uint64_t tick = 0;  ///< the step's index: the model's tick() before the step
  std::span<const uint8_t> input;
  uint64_t whole = 0;
  std::array<uint64_t, kMaxSubsystems> sub{};  ///< as stored: low sub_hash_bytes bytes
};

/// A full state snapshot: the state when the model's tick() == tick.
struct Keyframe {
  uint64_t tick = 0;
  std::span<const uint8_t> snapshot;
  StateHashes hashes;
};

struct RecorderOptions {
  uint32_t chunk_ticks = 0;     ///< 0: one second of game time
  uint32_t keyframe_every = 0;  ///< 0: one second of game time
  uint8_t sub_hash_bytes = 2;
  int zstd_level = 1;
  bool fsync = false;  ///< fsync after every chunk (slower; survives power loss, not just a crash)
  /// Compress and write the frames on a writer thread of the recorder's own (the default), or on
  /// the thread that calls tick(). The file's bytes are the same either way.
  bool writer_thread = true;
};

/// Writes a recording while a model runs: construct (writes the header and a
/// keyframe of the first state), `tick` after every step, `finish` at the end.
///
/// The stepping thread does only what must see the state: its hashes every tick and, every
/// keyframe_every ticks, its snapshot. A frame's checksums, its compression and its write happen
/// on a writer thread, one frame at a time in file order with one compression context, so the
/// file's bytes are those of writing each frame on the spot (RecorderOptions::writer_thread =
/// false). A complete frame is handed to the writer through a ring of kMaxQueuedFrames slots
/// without a lock or a system call (a chunk and the keyframe due at its last tick in one
/// hand-over). The writer looks for frames every kWriterPoll while frames keep coming, writes
/// what it finds and flushes it to the operating system in one write; after kWriterLinger with
/// none it sleeps, and the next hand-over wakes it at once. So a crash loses the chunk being
/// filled and the frames not yet flushed: those handed over within the last kWriterPoll (and the
/// writer's time to write them), never more than kMaxQueuedFrames, a limit tick() waits at when
/// the writer falls behind. A keyframe's snapshot is written into the buffer of one already
/// written (Model::snapshot_into). A write error is thrown by the next tick() or by finish().
class Recorder {
 public:
  Recorder(const std::string& path, const Model& model, const RecorderOptions& opt = {});
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Frames handed to the writer thread and not yet written, at most.
  static constexpr std::size_t kMaxQueuedFrames = 16;
  /// How often the writer looks for frames while they keep coming: a frame handed over is
  /// written at most this late (and the writer's time to write it). The stepping thread wakes
  /// no writer that is looking on its own, unless kWakeWriterAt frames are waiting.
  static constexpr std::chrono::microseconds kWriterPoll{1000};
  /// How long the writer, having written every frame it was given, keeps looking before it
  /// sleeps until a hand-over wakes it (a recording stepped in real time, a frame a second, has
  /// each frame written as it is handed over).
  static constexpr std::chrono::microseconds kWriterLinger{50000};
  /// Frames waiting that wake a writer between its looks: room for two more hand-overs (a chunk
  /// and a keyframe each) before tick() would wait.
  static constexpr std::size_t kWakeWriterAt = kMaxQueuedFrames - 4;

  /// The recorder's own phases (phases.h), by index: the state's hashes, a keyframe's snapshot,
  /// a frame's compression (with its checksums) and its write. What `lockstep profile` shows of a
  /// recording's cost. No observer (the default): nothing reported, nothing timed. An observer is
  /// called on the stepping thread only, so from the moment one is set the recorder compresses
  /// and writes its frames on that thread (as with writer_thread = false), where they are timed.
  static constexpr std::array<std::string_view, 4> kPhases{"hash", "snapshot", "compress", "write"};
  enum Phase : uint32_t { kHash, kSnapshot, kCompress, kWrite };
  void set_phase_observer(PhaseObserver* o);

  /// Record one step: its encoded input and the model after it.
  void tick(std::span<const uint8_t> input, const Model& after);
  /// Write the last chunk, the index and the seek table, and close.
  void finish();

  uint64_t ticks() const { return ticks_; }
  /// Bytes written to the file so far (frames still queued for the writer not counted).
  uint64_t bytes_written() const { return offset_.load(std::memory_order_relaxed); }
  /// Ticks whose chunks are flushed to the operating system: in the file even if the process
  /// dies now (a SIGKILL), not yet if the machine does (unless RecorderOptions::fsync).
  uint64_t ticks_flushed() const { return flushed_ticks_.load(std::memory_order_acquire); }
  const Header& header() const { return header_; }

 private:
  /// A complete frame on its way to the file: a chunk's content, or a keyframe's snapshot and
  /// hashes (its content is put together by whoever writes it).
  struct Frame {
    uint8_t kind = 0;
    uint64_t first_tick = 0;
    uint32_t ticks = 0;
    std::vector<uint8_t> content;  ///< a chunk's content; a keyframe's snapshot
    StateHashes hashes;            ///< a keyframe's
  };
  Frame keyframe(const Model& m, const StateHashes& h);  ///< the state's snapshot, in a reused buffer
  Frame chunk_frame();  ///< the chunk filled so far (chunk_ticks_ > 0), and a new one begun
  /// The frames due after tick `t`: the chunk, and the keyframe when one is due (off the fast path).
  void close_chunk(const Model& after, const StateHashes& h, bool key_due);
  /// Hand frames to the writer (or write them, without one), in one hand-over.
  void submit(Frame* frames, std::size_t n);
  void wait_for_room(uint64_t pushed, std::size_t n);  ///< the ring is full: wait for the writer
  void recycle(Frame& f);  ///< keep a written frame's buffer for the next of its kind (stepping thread)
  void reclaim();          ///< take back the buffers of the frames the writer has written
  std::vector<uint8_t> take_spare(bool keyframe);  ///< a kept buffer, or an empty one
  /// Checksums, compression, index entry, write (and then_flush: flush()): the writer's work.
  void write_frame(Frame& f, bool then_flush);
  void flush();  ///< hand what was written to the operating system (and fsync)
  void write(const void* p, std::size_t n);
  void writer_loop();
  void stop_writer() noexcept;  ///< let the writer write every queued frame, then join it
  void rethrow_writer_error();

  struct IndexEntry {
    uint64_t offset;
    uint32_t compressed;
    uint32_t decompressed;
    uint8_t kind;
    uint64_t first_tick;
    uint32_t ticks;
    uint64_t frame_hash;
    uint32_t checksum;
  };
  std::string path_;
  std::FILE* f_ = nullptr;
  Header header_;
  RecorderOptions opt_;
  void* cctx_ = nullptr;
  std::vector<uint8_t> chunk_;   ///< the chunk being filled: its 16 bytes of head, then its ticks' hashes
  std::size_t chunk_end_ = 0;    ///< the bytes of chunk_ in use (the rest is room for the next ticks)
  std::vector<uint8_t> inputs_;  ///< its inputs, where they change
  uint32_t chunk_inputs_ = 0;
  std::vector<uint8_t> last_input_;
  std::vector<uint8_t> out_;      ///< compression buffer (the writer's)
  std::vector<uint8_t> framing_;  ///< a keyframe's content (the writer's)
  uint64_t chunk_first_ = 0;
  uint32_t chunk_ticks_ = 0;
  uint64_t ticks_ = 0;
  std::size_t tick_bytes_ = 0;    ///< a tick record's bytes: the whole hash and the subsystems' kept bytes
  uint64_t next_tick_ = 0;        ///< the model's tick() expected after the next step
  uint64_t to_keyframe_ = 0;      ///< steps to the next keyframe, when the model's ticks follow on
  std::atomic<uint64_t> offset_{0};
  std::atomic<uint64_t> flushed_ticks_{0};
  uint64_t written_ticks_ = 0;  ///< the ticks of the chunks written, flushed or not (whoever writes)
  uint32_t header_bytes_ = 0;
  std::vector<IndexEntry> index_;  ///< the writer's until it is joined
  bool finished_ = false;
  PhaseHook phases_;

  // The writer thread and what it shares with the stepping thread. The ring's slots
  // [taken_, pushed_) belong to the writer, the others to the stepping thread.
  std::thread writer_;
  std::array<Frame, kMaxQueuedFrames> ring_;
  std::atomic<uint64_t> pushed_{0};  ///< frames handed over (written by the stepping thread)
  std::atomic<uint64_t> taken_{0};   ///< frames written or dropped (written by the writer)
  uint64_t reclaimed_ = 0;           ///< frames whose buffers the stepping thread has taken back
  enum WriterState : int { kWriting, kLooking, kAsleep };
  std::atomic<int> writer_state_{kWriting};
  std::atomic<bool> stepper_waiting_{false};  ///< tick() waits for room in the ring
  std::atomic<bool> stopping_{false};
  std::mutex mu_;  ///< only for the waits, and error_
  std::condition_variable wake_writer_, wake_stepper_;
  /// Buffers of written frames, for the next ones (the stepping thread's): a chunk's and a
  /// keyframe's apart, so that a keyframe's snapshot is written into a buffer of its size (no
  /// allocation, no fresh pages).
  static constexpr std::size_t kMaxSpareBuffers = 4;
  std::vector<std::vector<uint8_t>> spare_chunks_, spare_keyframes_;
  std::exception_ptr error_;  ///< under mu_
  std::atomic<bool> failed_{false};  ///< error_ is set: what tick() checks without the lock
};

/// Where a damaged recording stops being good.
struct Damage {
  uint64_t offset = 0;     ///< byte offset in the file of the damaged structure
  std::string kind;        ///< "data frame", "keyframe", "index", "seek table" (a bad header is an InputError)
  std::string where;       ///< "frame 12 (the chunk of ticks 720-779)", "the index", ...
  std::string what;
  /// The file is a prefix of a sound recording: it ends inside a frame or after a whole one with
  /// no index (a crash, a full disk). False for a wrong byte, even one that looks like an end.
  bool truncated = false;
};

inline constexpr uint8_t kFrameTicks = 1;
inline constexpr uint8_t kFrameKeyframe = 2;

/// One data frame: a chunk of ticks, or a keyframe.
struct ChunkInfo {
  uint64_t offset = 0;
  uint32_t compressed = 0, decompressed = 0;
  uint8_t kind = kFrameTicks;
  uint64_t first_tick = 0;   ///< a keyframe's tick
  uint32_t ticks = 0;        ///< 0 for a keyframe
  uint32_t checksum = 0;     ///< the seek table's checksum of the content (when read from the index)
  uint64_t frame_hash = 0;   ///< the index's XXH3-64 of the compressed frame (when read from the index)
};

/// A recording opened for reading: the header, the good frames (from the
/// index, or by walking the frames), and the first damage if any.
class Recording {
 public:
  /// Open a recording and check every frame, as far as the file can tell without the model: the
  /// framing, the index and seek table, and every data frame's content (decompressed within the
  /// limits, its checksums, its fields against the index and the tick count). InputError when it
  /// is not a recording at all (no whole, valid header); otherwise damage() says where the good
  /// part ends.
  static Recording open(const std::string& path);
  static Recording from_bytes(std::vector<uint8_t> bytes, const std::string& source);

  const Header& header() const { return header_; }
  /// The good data frames, in file (and tick) order.
  const std::vector<ChunkInfo>& frames() const { return frames_; }
  const std::optional<Damage>& damage() const { return damage_; }
  bool index_used() const { return index_used_; }
  uint64_t file_bytes() const { return bytes_.size(); }
  uint64_t first_tick() const { return header_.first_tick; }
  uint64_t ticks() const;           ///< ticks in the good chunks
  uint64_t chunk_count() const;     ///< frames of ticks
  uint64_t keyframe_count() const;  ///< keyframe frames
  uint64_t raw_bytes() const;       ///< decompressed bytes of the good frames
  const std::string& source() const { return source_; }

  /// Visit the tick records and keyframes with ticks in [from, to), in tick
  /// order (a keyframe of tick t comes before the record of tick t). Only the
  /// frames that overlap the range are decompressed; keyframes only when
  /// `on_keyframe` is set.
  void scan(uint64_t from, uint64_t to, const std::function<void(const TickRecord&)>& on_tick,
            const std::function<void(const Keyframe&)>& on_keyframe) const;

  struct OwnedKeyframe {
    uint64_t tick = 0;
    std::vector<uint8_t> snapshot;
    StateHashes hashes;
  };
  /// The last keyframe at or before `tick` (one frame is decompressed).
  std::optional<OwnedKeyframe> keyframe_at_or_before(uint64_t tick) const;

 private:
  void read_header();
  void read_frames();
  uint64_t check_frame(std::size_t i);  ///< the whole hash of its last tick, or of its keyframe
  std::vector<uint8_t> decompress(std::size_t i) const;
  void parse(std::size_t i, const std::vector<uint8_t>& content, const std::function<void(const TickRecord&)>& on_tick,
             const std::function<void(const Keyframe&)>& on_keyframe) const;
  std::string frame_name(std::size_t i) const;

  std::string source_;
  std::vector<uint8_t> bytes_;
  Header header_;
  uint64_t frames_start_ = 0;
  std::vector<ChunkInfo> frames_;
  std::optional<Damage> damage_;
  bool index_used_ = false;
  std::shared_ptr<void> dctx_;
};

/// The subsystem hash as a tick record keeps it.
inline uint64_t stored_sub(uint64_t h, uint8_t bytes) {
  return bytes >= 8 ? h : (h & ((uint64_t{1} << (8 * bytes)) - 1));
}

}  // namespace lockstep::lsr
