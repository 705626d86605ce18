// A PINE client (PCSX2's IPC) and the trace capture built on it (docs/traces.md).
//
// PINE framing, little-endian: a message is a u32 total size (including those
// four bytes) and then batched commands, each an opcode byte and its
// arguments (reads: a u32 address). The reply is a u32 total size, a status
// byte (0 ok, 0xFF fail) and every command's result, concatenated.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lockstep/traces/trace.h"

namespace lockstep::traces::pine {

enum class Op : uint8_t {
  Read8 = 0x0, Read16 = 0x1, Read32 = 0x2, Read64 = 0x3,
  Write8 = 0x4, Write16 = 0x5, Write32 = 0x6, Write64 = 0x7,
  Version = 0x8, SaveState = 0x9, LoadState = 0xA, Title = 0xB,
  Id = 0xC, Uuid = 0xD, GameVersion = 0xE, Status = 0xF,
};

inline constexpr uint8_t kStatusOk = 0x00;
inline constexpr uint8_t kStatusFail = 0xFF;
inline constexpr uint32_t kDefaultSlot = 28011;
/// The largest message PCSX2 accepts (its MAX_IPC_SIZE) and the largest reply we take.
inline constexpr uint32_t kMaxMessage = 650000;
/// Torn samples (the two counter reads of one message disagree) in a row before
/// capture gives up: a real game's updates are far apart next to one message.
inline constexpr uint64_t kMaxTornInARow = 100;

/// PCSX2's socket for a slot: $XDG_RUNTIME_DIR/pcsx2.sock (or /tmp/pcsx2.sock
/// without XDG_RUNTIME_DIR); slots other than 28011 append ".<slot>".
std::string default_socket_path(uint32_t slot = kDefaultSlot);

/// What MsgStatus returns: "running", "paused", "shutdown" or "status N".
std::string status_name(uint32_t status);

/// Commands batched into one message.
class Batch {
 public:
  /// Read `bytes` (1, 2, 4 or 8) at `address`; returns the index of its result.
  std::size_t read(unsigned bytes, uint32_t address);
  /// The emulator's status (a u32 result).
  std::size_t status();
  /// The message: u32 total size, then the commands.
  std::vector<uint8_t> message() const;
  /// How many result bytes a reply must carry after its status byte.
  std::size_t result_bytes() const;
  std::size_t size() const { return widths_.size(); }
  /// Each command's result width in bytes, in order.
  const std::vector<unsigned>& widths() const { return widths_; }

 private:
  std::vector<uint8_t> body_;
  std::vector<unsigned> widths_;
};

/// The results of `batch` in a whole reply (size, status, results), each a
/// little-endian unsigned integer of its width. Throws InputError naming
/// `source` for a failed status, a short or a long reply.
std::vector<uint64_t> parse_reply(const Batch& batch, std::span<const uint8_t> reply, const std::string& source);

/// One connection to a PINE server over a Unix socket.
class Client {
 public:
  /// Connects; a missing socket, a refused connection and other failures are InputError.
  explicit Client(std::string socket_path, int timeout_ms = 5000);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  /// Send one message, return the whole reply (size, status, results); the
  /// status is not checked here. Errors: the connection closing; the whole
  /// exchange not done within the timeout (one deadline for the message and
  /// its reply, however the bytes trickle in); a reply that says it is shorter
  /// than 5 bytes, or longer than `max_reply` (refused before its bytes are read).
  std::vector<uint8_t> exchange(std::span<const uint8_t> message, std::size_t max_reply = kMaxMessage);
  /// Send a batch and return its results (parse_reply).
  std::vector<uint64_t> run(const Batch& batch);
  const std::string& path() const { return path_; }
  uint64_t messages() const { return messages_; }

 private:
  int fd_ = -1;
  std::string path_;
  int timeout_ms_;
  uint64_t messages_ = 0;
};

struct CaptureOptions {
  std::string socket;                        ///< the PINE socket
  std::string output_name;                   ///< the trace's file name, for errors
  uint64_t steps = 0;                        ///< samples (rows) to keep
  std::optional<uint32_t> counter_address;   ///< overrides the map's capture.counter_address
  std::optional<uint32_t> ticks_per_update;  ///< overrides the map's capture.ticks_per_update
  int poll_ms = 1;                           ///< the wait between polls while the update count stands still
  int timeout_ms = 5000;                     ///< the update count must move within this; each message's whole reply too
  uint64_t max_torn = kMaxTornInARow;        ///< torn samples in a row before giving up
  std::function<void(uint64_t rows, uint64_t steps)> progress;
};

struct CaptureResult {
  uint64_t rows = 0;          ///< samples kept (CSV rows)
  uint64_t last_step = 0;
  uint64_t first_update = 0;  ///< the game's update count at step 0
  uint64_t polls = 0;         ///< messages sent
  uint64_t repeats = 0;       ///< samples dropped because the update count had not moved
  uint64_t torn = 0;          ///< samples dropped because the count moved during the message
  uint64_t missed = 0;        ///< updates that passed between two kept samples (gaps in `step`)
  uint32_t counter_address = 0;
  uint32_t ticks_per_update = 1;
  std::size_t columns = 0;
};

/// The columns of `map` that a capture reads (those with an address), in map order.
std::vector<std::size_t> captured_columns(const Map& map);

/// The message one sample sends: the counter, every captured column (widths
/// from their types), the counter again (docs/traces.md, "Capture").
Batch sample_batch(const Map& map, uint32_t counter_address);

/// Poll the emulator and write the trace as CSV to `out` (`step` and one
/// column per captured field; floats as 0x IEEE bits, integers in decimal).
/// Each row is flushed as it is written.
CaptureResult capture(const Map& map, const CaptureOptions& opt, std::ostream& out);

}  // namespace lockstep::traces::pine
