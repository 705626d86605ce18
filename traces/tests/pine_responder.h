// A tiny PINE server for tests: a Unix socket in a temporary folder, served by
// a thread, over a fake memory image. It speaks the framing of PCSX2's PINE
// (a u32 total size, batched opcodes; a reply of u32 size, status byte,
// results) for reads (0-3), writes (4-7), version (8), save/load state (9,
// 0xA), title, serial, CRC, game version (0xB-0xE) and status (0xF), records
// every request byte for byte, and can be told to fail on purpose.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace lockstep::traces::testing {

class PineResponder {
 public:
  /// Sparse memory: absent bytes read as 0.
  using Memory = std::map<uint32_t, uint8_t>;

  enum class Fault {
    None,
    FailStatus,  ///< reply {5, 0, 0, 0, 0xFF}
    ShortClose,  ///< send the header and part of the results, then close the connection
    ShortSize,   ///< a well-framed reply missing its last result's bytes
    LongReply,   ///< a well-framed reply with 4 bytes too many
    NoReply,     ///< read the request and never answer
    Trickle,     ///< the right reply, one byte every 50 ms
    HugeSize,    ///< a header that says 650000 bytes (PINE's largest), then nothing
  };

  /// Called before each command of each request (0-based), under the lock:
  /// change the memory there to make the game "advance".
  using Hook = std::function<void(Memory& memory, std::size_t request, std::size_t command)>;

  PineResponder();
  ~PineResponder();
  PineResponder(const PineResponder&) = delete;
  PineResponder& operator=(const PineResponder&) = delete;

  const std::string& socket_path() const { return socket_; }
  const std::string& dir() const { return dir_; }

  void write(uint32_t address, uint64_t value, unsigned bytes);
  void write_f32(uint32_t address, float value);
  void write_f64(uint32_t address, double value);
  uint64_t read(uint32_t address, unsigned bytes) const;

  void on_command(Hook hook);
  void fault_at(std::size_t request, Fault fault);
  /// What MsgStatus answers: 0 running, 1 paused, 2 shutdown.
  void set_status(uint32_t status);

  /// Every request received so far, whole (size field included), in order.
  std::vector<std::vector<uint8_t>> requests() const;
  std::size_t request_count() const;

  static void put(Memory& m, uint32_t address, uint64_t value, unsigned bytes);
  static uint64_t get(const Memory& m, uint32_t address, unsigned bytes);

 private:
  void serve();
  bool handle(int fd);
  std::vector<uint8_t> answer(const std::vector<uint8_t>& request, std::size_t index, Fault& fault);

  std::string dir_, socket_;
  int listen_fd_ = -1;
  int stop_pipe_[2] = {-1, -1};
  mutable std::mutex mu_;
  Memory memory_;
  Hook hook_;
  std::map<std::size_t, Fault> faults_;
  uint32_t status_ = 0;
  std::vector<std::vector<uint8_t>> requests_;
  std::thread thread_;
};

}  // namespace lockstep::traces::testing
