// The one progress reporter of the command line: for long work only, on a terminal only.
//
// It stays silent for the first second of work (most commands finish before it would show), then
// redraws one line on stderr at most ten times a second: "replay: tick 41000 of 90000 (45%)". It
// never writes to stdout, and it writes nothing at all when stderr is not a terminal (a pipe, a
// file, CI). The destructor erases its line.
//
// A command that writes its data to stdout while it works (export's rows) says so (Data::Streamed):
// when that stdout is a terminal too, the rows and a redrawn line would share one screen and a row
// could be printed over the line's remains, so the reporter stays silent. When stdout is a file or
// a pipe, stderr's terminal shows the line as usual. (docs/cli.md, "Progress")
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
  /// Where the command's own data goes while the reporter runs.
  enum class Data {
    AtEnd,     ///< to stdout after the work (a summary), or to a file
    Streamed,  ///< to stdout while the work runs (export's rows)
  };

  /// `what` names the work ("replay"), `unit` what is counted ("tick"), `total` how many (0: unknown).
  Progress(std::string what, std::string unit, uint64_t total, Data data = Data::AtEnd);
  /// For tests: where to write, whether that is a terminal, and the clock.
  Progress(std::string what, std::string unit, uint64_t total, std::FILE* out, bool terminal, Clock clock);
  /// For tests: as the first, with whether stderr (`out`) and stdout are terminals given.
  Progress(std::string what, std::string unit, uint64_t total, Data data, std::FILE* out, bool stderr_terminal,
           bool stdout_terminal, Clock clock)
      : Progress(std::move(what), std::move(unit), total, out, draws(stderr_terminal, data, stdout_terminal), std::move(clock)) {}

  /// The rule: draw on stderr when it is a terminal, except when the command streams its data to
  /// stdout and stdout is a terminal as well (the line would be drawn among the rows).
  static bool draws(bool stderr_terminal, Data data, bool stdout_terminal) {
    return stderr_terminal && !(data == Data::Streamed && stdout_terminal);
  }
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
