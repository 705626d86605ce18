// lockstep capture --map M --steps N -o T: record a trace of the original game from an emulator over PINE (docs/traces.md).
#include <charconv>
#include <cstdio>
#include <fstream>

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/traces/pine.h"
#include "lockstep/traces/trace.h"
#include "progress.h"

namespace lockstep::cli {

namespace {

using namespace lockstep::traces;

uint32_t parse_address(const std::string& s, const std::string& flag) {
  std::string_view v = s;
  int base = 10;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    v.remove_prefix(2);
    base = 16;
  }
  uint64_t a = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), a, base);
  if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || a > 0xffffffffu)
    throw InputError("", flag + " " + s, "expected a 32-bit address such as 0x005104f4");
  return static_cast<uint32_t>(a);
}

struct CaptureArgs {
  std::string pine, map, out, counter, scenario;
  uint64_t steps = 0;
  uint32_t ticks_per_update = 0;
  double timeout_s = 5.0;
  int poll_ms = 1;
  bool json = false;
};

int cmd_capture(const CaptureArgs& a) {
  const Map map = load_map(a.map);
  // Field paths are checked when there is a scenario to check them against.
  const std::string scenario = a.scenario.empty() ? map.scenario : a.scenario;
  if (!scenario.empty()) {
    auto model = load_scenario_file(scenario);
    (void)bind_map(map, *model);
  }
  pine::CaptureOptions opt;
  opt.socket = a.pine.empty() ? pine::default_socket_path() : a.pine;
  if (!a.pine.empty() && a.pine.find('/') == std::string::npos && !a.pine.empty() &&
      a.pine.find_first_not_of("0123456789") == std::string::npos) {
    // A bare number is a PINE slot.
    const unsigned long slot = std::stoul(a.pine);
    if (slot == 0 || slot > 65535) throw InputError("", "--pine " + a.pine, "expected a socket path or a slot from 1 to 65535");
    opt.socket = pine::default_socket_path(static_cast<uint32_t>(slot));
  }
  opt.output_name = a.out;
  opt.steps = a.steps;
  if (!a.counter.empty()) opt.counter_address = parse_address(a.counter, "--update-count-address");
  if (a.ticks_per_update) opt.ticks_per_update = a.ticks_per_update;
  opt.poll_ms = a.poll_ms;
  opt.timeout_ms = static_cast<int>(a.timeout_s * 1000.0);
  std::ofstream out(a.out, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(a.out, "", "cannot open for writing");
  pine::CaptureResult res;
  uint64_t written = 0;
  try {
    Progress progress("capture", "step", a.steps);
    opt.progress = [&](uint64_t rows, uint64_t) {
      written = rows;
      progress.update(rows);
    };
    res = pine::capture(map, opt, out);
  } catch (...) {
    // Keep a partial trace (the error says how many rows it holds); drop one with no rows.
    out.close();
    if (written == 0) std::remove(a.out.c_str());
    throw;
  }
  out.close();
  if (!out) throw InputError(a.out, "", "cannot write the trace");
  if (a.json) {
    JsonOut j = json_result("capture", true);
    j["trace"] = a.out;
    j["socket"] = opt.socket;
    j["rows"] = res.rows;
    j["last_step"] = res.last_step;
    j["first_update"] = res.first_update;
    j["polls"] = res.polls;
    j["repeats"] = res.repeats;
    j["torn"] = res.torn;
    j["missed_updates"] = res.missed;
    j["columns"] = res.columns;
    j["counter_address"] = hex_address(res.counter_address);
    j["ticks_per_update"] = res.ticks_per_update;
    print_json(j);
    return kExitOk;
  }
  std::printf("socket      %s (PINE)\n", opt.socket.c_str());
  std::printf("counter     %s, %u ticks per update; %zu columns per sample, one message each\n",
              hex_address(res.counter_address).c_str(), res.ticks_per_update, res.columns);
  std::printf("trace       %s: %llu rows, steps 0-%llu (update %llu was step 0)\n", a.out.c_str(),
              static_cast<unsigned long long>(res.rows), static_cast<unsigned long long>(res.last_step),
              static_cast<unsigned long long>(res.first_update));
  std::printf("polls       %llu messages: %llu repeats of an update already kept, %llu torn samples read again\n",
              static_cast<unsigned long long>(res.polls), static_cast<unsigned long long>(res.repeats),
              static_cast<unsigned long long>(res.torn));
  if (res.missed)
    std::printf("missed      %llu updates passed unsampled: gaps in the step column (verify skips them)\n",
                static_cast<unsigned long long>(res.missed));
  else
    std::printf("missed      none: every update from step 0 to %llu was sampled\n", static_cast<unsigned long long>(res.last_step));
  return kExitOk;
}

class Capture final : public Command {
 public:
  explicit Capture(CLI::App& app) {
    sub = app.add_subcommand("capture", "Record a trace of the original game from an emulator over PINE (PCSX2)");
    sub->add_option("--pine,-p", a_.pine,
                         "The PINE socket, or a slot number (default: $XDG_RUNTIME_DIR/pcsx2.sock, else /tmp/pcsx2.sock)");
    sub->add_option("--map,-m", a_.map, "The map (JSON): the columns with an \"address\" are read")
        ->required()
        ->check(CLI::ExistingFile);
    sub->add_option("--steps", a_.steps, "How many samples (rows) to keep")->required()->check(CLI::PositiveNumber);
    add_output_option(sub, a_.out, "The trace to write (CSV)")->required();
    sub->add_option("--update-count-address", a_.counter,
                         "Address of the game's update (tick) counter (default: the map's capture.counter_address)");
    sub->add_option("--ticks-per-update", a_.ticks_per_update,
                         "Counter ticks per game update: the update is ceil(counter / N) (default: the map's, else 1)")
        ->check(CLI::Range(1u, 1000u));
    sub->add_option("--scenario,-s", a_.scenario, "Check the map's field paths against this scenario (default: the map's)")
        ->check(CLI::ExistingFile);
    sub->add_option("--timeout", a_.timeout_s,
                         "Seconds the update count may stand still, and each message's whole reply may take, before "
                         "giving up (default 5)")
        ->check(CLI::Range(0.1, 3600.0));
    sub->add_option("--poll-ms", a_.poll_ms, "Milliseconds between polls while the count stands still (default 1)")
        ->check(CLI::Range(0, 1000));
    add_json_flag(sub, a_.json);
    sub->footer(
        std::string("\nExample (PCSX2 with PINE enabled, the game running):\n"
        "  lockstep capture --pine /run/user/1000/pcsx2.sock --map brawler.map.json --steps 600 -o run1.csv\n"
        "\n"
        "Each sample is ONE PINE message: the counter, every mapped address (read width from the column's\n"
        "type), the counter again. A sample is kept only when the update count has moved on since the last\n"
        "kept one (and the two counter reads agree); `step` is updates since the first kept sample, so a\n"
        "missed update shows as a gap. Floats are written as 0x IEEE bits (no precision lost), integers in\n"
        "decimal. For the brawler: counter 0x005104f4, 2 ticks per update ((ticks + 1) / 2).\n"
        "\n"
        "Limits: each message's whole reply must arrive within --timeout (however its bytes trickle in),\n"
        "and a reply longer than the message needs is refused on its size field; a count that stands\n"
        "still for --timeout, or ") +
        std::to_string(pine::kMaxTornInARow) +
        " torn samples in a row (the two counter reads disagree every time),\n"
        "end the capture.\n"
        "Exit 0 done, 2 no socket, connection refused, status 0xFF, a short or long reply, no whole reply\n"
        "within --timeout, a count that stands still, or counter reads that never agree.");
  }
  int run() override { return cmd_capture(a_); }

 private:
  CaptureArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_capture(CLI::App& app) { return std::make_unique<Capture>(app); }

}  // namespace lockstep::cli
