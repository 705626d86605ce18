#include "progress.h"

#include <unistd.h>

namespace lockstep::cli {

namespace {
double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Progress::Progress(std::string what, std::string unit, uint64_t total, Data data)
    : Progress(std::move(what), std::move(unit), total, data, stderr, isatty(fileno(stderr)) != 0, isatty(fileno(stdout)) != 0,
               &steady_seconds) {}

Progress::Progress(std::string what, std::string unit, uint64_t total, std::FILE* out, bool terminal, Clock clock)
    : what_(std::move(what)), unit_(std::move(unit)), total_(total), out_(out), terminal_(terminal), clock_(std::move(clock)) {
  if (terminal_) start_ = last_ = clock_();
}

void Progress::update(uint64_t done) {
  if (!terminal_) return;
  // The clock is read on every call (tens of nanoseconds against a tick's microseconds, or a
  // capture's update of tens of milliseconds): the first line comes after a second whatever the pace.
  const double now = clock_();
  if (now - start_ < kDelaySeconds || (shown_ && now - last_ < kRedrawSeconds)) return;
  last_ = now;
  shown_ = true;
  if (total_)
    std::fprintf(out_, "\r%s: %s %llu of %llu (%3.0f%%)", what_.c_str(), unit_.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total_), 100.0 * static_cast<double>(done) / static_cast<double>(total_));
  else
    std::fprintf(out_, "\r%s: %s %llu", what_.c_str(), unit_.c_str(), static_cast<unsigned long long>(done));
  std::fflush(out_);
}

Progress::~Progress() {
  if (shown_) {
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
  }
}

}  // namespace lockstep::cli
