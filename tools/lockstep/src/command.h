// The commands of the lockstep command line: one file each (run.cpp, record.cpp, ...), one
// Command per file, made by its make_* function and put on the app by cli.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lockstep::lsr {
class Recording;
}

namespace lockstep::cli {

constexpr int kExitOk = 0;
constexpr int kExitDiffer = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 3;
/// The most ticks a command steps or a range names: a recording's index counts its frames in a
/// u32 and a chunk holds at least one tick (docs/format.md), so 2^32 - 1 ticks always fit.
constexpr unsigned long long kMaxTicks = 4294967295ULL;

/// One command: its constructor adds its subcommand and options to the app; run() runs it
/// once the command line is parsed and it was the one given. run() returns the exit status and
/// throws InputError for bad input (exit 2).
class Command {
 public:
  virtual ~Command() = default;
  virtual int run() = 0;
  CLI::App* sub = nullptr;
};

std::unique_ptr<Command> make_run(CLI::App& app);
std::unique_ptr<Command> make_fields(CLI::App& app);
std::unique_ptr<Command> make_trajectory(CLI::App& app);
std::unique_ptr<Command> make_view(CLI::App& app);
std::unique_ptr<Command> make_record(CLI::App& app);
std::unique_ptr<Command> make_replay(CLI::App& app);
std::unique_ptr<Command> make_inspect(CLI::App& app);
std::unique_ptr<Command> make_export(CLI::App& app);
std::unique_ptr<Command> make_diff(CLI::App& app);
std::unique_ptr<Command> make_gate(CLI::App& app);
std::unique_ptr<Command> make_verify(CLI::App& app);
std::unique_ptr<Command> make_capture(CLI::App& app);
std::unique_ptr<Command> make_bisect(CLI::App& app);
std::unique_ptr<Command> make_chain(CLI::App& app);
std::unique_ptr<Command> make_state(CLI::App& app);
std::unique_ptr<Command> make_profile(CLI::App& app);

// ---- the flags several commands share, named once here (flags.cpp)

/// SCENARIO, a scenario JSON file (its "model" key picks the model).
CLI::Option* add_scenario_arg(CLI::App* sub, std::string& path);
/// RECORDING, a .lsr file.
CLI::Option* add_recording_arg(CLI::App* sub, std::string& path);
/// --ticks,-n N: how many ticks to step (-1: the scenario's own run length).
CLI::Option* add_ticks_option(CLI::App* sub, long long& ticks);
/// -o,--output FILE.
CLI::Option* add_output_option(CLI::App* sub, std::string& path, const std::string& what);
/// --from T and --to T: a tick range (-1: the recording's own ends).
/// InputError when --from is after --to (ranges are inclusive everywhere).
void check_tick_range(const std::string& file, long long from, long long to);
void add_tick_range(CLI::App* sub, long long& from, long long& to, const std::string& from_what, const std::string& to_what);
/// --threads N: how many threads a model that can use several steps on (workers.h); 0 (the
/// default) means every core. The results are the same on any number.
CLI::Option* add_threads_option(CLI::App* sub, unsigned& threads);
/// --json: the command's result as JSON on stdout.
CLI::Option* add_json_flag(CLI::App* sub, bool& json);

// ---- shared output

std::string join(const std::vector<std::string>& v, const char* sep = ", ");
/// A damaged recording's damage and what was recovered before it, on stderr.
void print_damage(const lsr::Recording& r);
/// --ticks when given (>= 0), else the model's own run length.
uint64_t ticks_or(long long given, uint64_t model_default);

}  // namespace lockstep::cli
