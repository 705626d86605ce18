#include "lockstep/traces/commands.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <unistd.h>

#include "lockstep/core/model.h"
#include "lockstep/traces/pine.h"
#include "lockstep/traces/trace.h"

namespace lockstep::traces {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitDiffer = 1;

/// Progress on a terminal for long work; silent when stderr is not a terminal.
class Progress {
 public:
  Progress(const char* what, const char* unit, uint64_t total, uint64_t min_total)
      : what_(what), unit_(unit), total_(total), on_(isatty(2) != 0 && total >= min_total) {}
  void update(uint64_t done, uint64_t every) {
    if (!on_ || (every > 1 && done % every != 0 && done != total_)) return;
    if (total_)
      std::fprintf(stderr, "\r%s: %s %llu of %llu (%3.0f%%)", what_, unit_, static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total_), 100.0 * static_cast<double>(done) / static_cast<double>(total_));
    else
      std::fprintf(stderr, "\r%s: %s %llu", what_, unit_, static_cast<unsigned long long>(done));
    std::fflush(stderr);
  }
  ~Progress() {
    if (on_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  const char* what_;
  const char* unit_;
  uint64_t total_;
  bool on_;
};

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

struct VerifyArgs {
  std::string trace, map, scenario, format;
  bool json = false;
};

struct CaptureArgs {
  std::string pine, map, out, counter, scenario;
  uint64_t steps = 0;
  uint32_t ticks_per_update = 0;
  double timeout_s = 5.0;
  int poll_ms = 1;
  bool json = false;
};

int cmd_verify(const VerifyArgs& a) {
  const Map map = load_map(a.map);
  const std::string scenario = a.scenario.empty() ? map.scenario : a.scenario;
  if (scenario.empty())
    throw InputError(a.map, "$.scenario", "no scenario: give --scenario, or \"scenario\" in the map");
  auto model = load_scenario_file(scenario);
  VerifyOptions opt;
  opt.scenario = scenario;
  if (!a.format.empty()) opt.format = a.format == "csv" ? TraceFormat::Csv : TraceFormat::JsonLines;
  Progress progress("verify", "row", 0, 0);
  opt.progress = [&](uint64_t rows, uint64_t) { progress.update(rows, 4096); };
  auto res = verify_trace(*model, a.trace, map, opt);
  res.scenario = scenario;
  std::fputs((a.json ? report_json(res) : report_text(res)).c_str(), stdout);
  return res.ok() ? kExitOk : kExitDiffer;
}

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
    Progress progress("capture", "step", a.steps, 1);
    opt.progress = [&](uint64_t rows, uint64_t) {
      written = rows;
      progress.update(rows, 16);
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
    std::printf("{\"trace\":\"%s\",\"socket\":\"%s\",\"rows\":%llu,\"last_step\":%llu,\"first_update\":%llu,\"polls\":%llu,"
                "\"repeats\":%llu,\"torn\":%llu,\"missed_updates\":%llu,\"columns\":%zu,\"counter_address\":\"%s\","
                "\"ticks_per_update\":%u}\n",
                json_escape(a.out).c_str(), json_escape(opt.socket).c_str(), static_cast<unsigned long long>(res.rows),
                static_cast<unsigned long long>(res.last_step), static_cast<unsigned long long>(res.first_update),
                static_cast<unsigned long long>(res.polls), static_cast<unsigned long long>(res.repeats),
                static_cast<unsigned long long>(res.torn), static_cast<unsigned long long>(res.missed), res.columns,
                hex_address(res.counter_address).c_str(), res.ticks_per_update);
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

class CommandsImpl final : public Commands {
 public:
  explicit CommandsImpl(CLI::App& app) {
    verify_ = app.add_subcommand("verify", "Compare a model with a trace of the original program, value by value");
    verify_->add_option("--trace,-t", v_.trace, "The trace: CSV (step and one column per field) or JSON lines (.jsonl)")
        ->required()
        ->check(CLI::ExistingFile);
    verify_->add_option("--map,-m", v_.map, "The map (JSON): each column's model field, type, units and tolerance")
        ->required()
        ->check(CLI::ExistingFile);
    verify_->add_option("--scenario,-s", v_.scenario, "The scenario to run (default: the map's \"scenario\")")
        ->check(CLI::ExistingFile);
    verify_->add_option("--format", v_.format, "csv or jsonl (default: by extension, then by content)")
        ->check(CLI::IsMember({"csv", "jsonl"}));
    verify_->add_flag("--json", v_.json, "Print JSON for tools");
    verify_->footer(
        "\nExample:\n"
        "  lockstep verify --trace fixtures/traces/wander_setup.csv --map fixtures/traces/wander_setup.map.json\n"
        "\n"
        "A trace has a `step` column and one column per field:\n"
        "  step,actioncooldown,trycount,maxtries\n"
        "  0,120,0,0\n"
        "  1,119,0,0\n"
        "Values are decimal, or 0x and a float's IEEE bits (0x42f00000). A blank cell is not compared.\n"
        "The map names each column's model field and how to compare it:\n"
        "  {\"model\": \"wander\", \"scenario\": \"wander_setup.json\", \"ticks_per_step\": 1, \"tick_offset\": 0,\n"
        "   \"columns\": [{\"column\": \"actioncooldown\", \"field\": \"entities[0].actioncooldown\", \"type\": \"f32\",\n"
        "                \"tolerance\": \"exact\"}]}\n"
        "Step s is compared with the model's state at tick s x ticks_per_step + tick_offset (the state after\n"
        "that many ticks of the scenario's scripted inputs), and no further than the scenario runs: a row\n"
        "beyond its \"ticks\" (or the model's default run length) is refused. Tolerances: \"exact\" (the\n"
        "default; integers are always exact), {\"abs\": 0.001}, {\"ulps\": 2}, {\"abs\": 0.5, \"modulo\": 360}.\n"
        "docs/traces.md has the whole format.\n"
        "\n"
        "Reports the first value outside its tolerance (step, tick, column, field, expected, model, error,\n"
        "ULPs, three rows of context) and per column the first divergence and the largest error.\n"
        "Exit 0 every value within tolerance, 1 divergent, 2 bad trace, map or scenario.");

    capture_ = app.add_subcommand("capture", "Record a trace of the original game from an emulator over PINE (PCSX2)");
    capture_->add_option("--pine,-p", c_.pine,
                         "The PINE socket, or a slot number (default: $XDG_RUNTIME_DIR/pcsx2.sock, else /tmp/pcsx2.sock)");
    capture_->add_option("--map,-m", c_.map, "The map (JSON): the columns with an \"address\" are read")
        ->required()
        ->check(CLI::ExistingFile);
    capture_->add_option("--steps,-n", c_.steps, "How many samples (rows) to keep")->required()->check(CLI::PositiveNumber);
    capture_->add_option("-o,--output", c_.out, "The trace to write (CSV)")->required();
    capture_->add_option("--update-count-address", c_.counter,
                         "Address of the game's update (tick) counter (default: the map's capture.counter_address)");
    capture_->add_option("--ticks-per-update", c_.ticks_per_update,
                         "Counter ticks per game update: the update is ceil(counter / N) (default: the map's, else 1)")
        ->check(CLI::Range(1u, 1000u));
    capture_->add_option("--scenario,-s", c_.scenario, "Check the map's field paths against this scenario (default: the map's)")
        ->check(CLI::ExistingFile);
    capture_->add_option("--timeout", c_.timeout_s,
                         "Seconds the update count may stand still, and each message's whole reply may take, before "
                         "giving up (default 5)")
        ->check(CLI::Range(0.1, 3600.0));
    capture_->add_option("--poll-ms", c_.poll_ms, "Milliseconds between polls while the count stands still (default 1)")
        ->check(CLI::Range(0, 1000));
    capture_->add_flag("--json", c_.json, "Print a JSON summary");
    capture_->footer(
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

  bool parsed() const override { return verify_->parsed() || capture_->parsed(); }
  int run() override {
    if (verify_->parsed()) return cmd_verify(v_);
    return cmd_capture(c_);
  }

 private:
  CLI::App* verify_ = nullptr;
  CLI::App* capture_ = nullptr;
  VerifyArgs v_;
  CaptureArgs c_;
};

}  // namespace

std::unique_ptr<Commands> add_commands(CLI::App& app) { return std::make_unique<CommandsImpl>(app); }

}  // namespace lockstep::traces
