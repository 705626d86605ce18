// The one progress reporter of the command line: for long work only, on a terminal only.
//
// It stays silent for the first second of work (most commands finish before it would show), then
// redraws one line on stderr at most ten times a second: "replay: tick 41000 of 90000 (45%)". It
// never writes to stdout, so it can never mix with the data a command prints there, and it writes
// nothing at all when stderr is not a terminal (a pipe, a file, CI). The destructor erases its line.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace lockstep::cli {

class Progress {
 public:
  using Clock = std::function<double()>;  ///< seconds, monotonic

  /// `what` names the work ("replay"), `unit` what is counted ("tick"), `total` how many (0: unknown).
  Progress(std::string what, std::string unit, uint64_t total);
  /// For tests: where to write, whether that is a terminal, and the clock.
  Progress(std::string what, std::string unit, uint64_t total, std::FILE* out, bool terminal, Clock clock);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  /// `done` units of the work are done.
  void update(uint64_t done);
  /// Whether the line has been drawn (the work took longer than the delay).
  bool shown() const { return shown_; }

  static constexpr double kDelaySeconds = 1.0;
  static constexpr double kRedrawSeconds = 0.1;

 private:
  std::string what_, unit_;
  uint64_t total_;
  std::FILE* out_;
  bool terminal_;
  Clock clock_;
  double start_ = 0, last_ = 0;
  bool shown_ = false;
};

}  // namespace lockstep::cli
