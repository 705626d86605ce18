// Bad input: a scenario, a recording, a trace, a map or a flag that cannot be
// used. It names the file, the place in it (a JSON path, line and column, a
// byte offset, a field) and what was expected. Tools turn it into exit status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace lockstep {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string place, std::string what)
      : std::runtime_error(format(file, place, what)),
        file_(std::move(file)),
        place_(std::move(place)),
        message_(std::move(what)) {}

  const std::string& file() const { return file_; }
  const std::string& place() const { return place_; }
  const std::string& message() const { return message_; }

 private:
  static std::string format(const std::string& file, const std::string& place, const std::string& what) {
    // No file: the input is a command-line argument, and the place names it ("--steps: ...").
    std::string s = file;
    if (!place.empty()) s += (s.empty() ? "" : ": ") + place;
    return s.empty() ? what : s + ": " + what;
  }
  std::string file_, place_, message_;
};

}  // namespace lockstep
