// The trace commands of the lockstep command line: `verify` and `capture`.
//
// In main():
//   auto traces = lockstep::traces::add_commands(app);   // before app.parse()
//   ...
//   if (traces->parsed()) return traces->run();           // inside the try that catches InputError
//
// run() returns the exit status (verify: 0 within tolerance, 1 divergent;
// capture: 0) and throws lockstep::InputError for bad input (exit 2).
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace lockstep::traces {

class Commands {
 public:
  virtual ~Commands() = default;
  /// True when one of these commands was given on the command line.
  virtual bool parsed() const = 0;
  /// Run it; the exit status.
  virtual int run() = 0;
};

/// Add `verify` and `capture` to `app`. The returned object holds the parsed
/// options: keep it alive until run() returns.
std::unique_ptr<Commands> add_commands(CLI::App& app);

}  // namespace lockstep::traces
