// lockstep: the command line. Exit status as cmp(1): 0 same or pass,
// 1 divergent or fail, 2 bad usage or bad input.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

#include "lockstep/core/model.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o;
}

/// Progress on a terminal for long work; silent when stderr is not a terminal.
class Progress {
 public:
  Progress(const char* what, uint64_t total) : what_(what), total_(total), on_(isatty(2) != 0 && total >= 20000) {}
  void update(uint64_t done) {
    if (!on_ || (done & 0x3ff) != 0) return;
    std::fprintf(stderr, "\r%s: tick %llu of %llu (%3.0f%%)", what_, static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total_), 100.0 * static_cast<double>(done) / static_cast<double>(total_));
  }
  ~Progress() {
    if (on_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  const char* what_;
  uint64_t total_;
  bool on_;
};

int cmd_run(const std::string& scenario_path, long long ticks_opt, bool json) {
  auto model = lockstep::load_scenario_file(scenario_path);
  uint64_t ticks = 0;
  if (ticks_opt >= 0) {
    ticks = static_cast<uint64_t>(ticks_opt);
  } else {
    // The scenario's own default run length ("ticks"), when it has one.
    const auto j = lockstep::parse_json_text(model->scenario_json(), scenario_path);
    ticks = j.contains("ticks") && j["ticks"].is_number_unsigned() ? j["ticks"].get<uint64_t>() : 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  {
    Progress progress("run", ticks);
    for (uint64_t k = 0; k < ticks; ++k) {
      model->step_scripted();
      progress.update(k + 1);
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto h = model->hashes();
  const auto& info = model->info();
  if (json) {
    std::printf("{\"ticks\":%llu,\"final_hash\":\"%s\",\"model\":\"%s\",\"model_version\":%u,\"subsystems\":{",
                static_cast<unsigned long long>(model->tick()), lockstep::hex64(h.whole).c_str(),
                json_escape(info.name).c_str(), info.version);
    for (uint32_t i = 0; i < h.count; ++i)
      std::printf("%s\"%s\":\"%s\"", i ? "," : "", json_escape(info.subsystems[i]).c_str(),
                  lockstep::hex64(h.sub[i]).c_str());
    std::printf("}}\n");
    return kExitOk;
  }
  const double game_secs = static_cast<double>(ticks) / info.tick_rate_hz;
  std::printf("scenario    %s (model %s v%u)\n", scenario_path.c_str(), info.name.c_str(), info.version);
  std::printf("ticks       %llu (%.2f s of game time at %u Hz)\n", static_cast<unsigned long long>(model->tick()),
              game_secs, info.tick_rate_hz);
  std::printf("final hash  %s\n", lockstep::hex64(h.whole).c_str());
  for (uint32_t i = 0; i < h.count; ++i)
    std::printf("  %-9s %s\n", info.subsystems[i].c_str(), lockstep::hex64(h.sub[i]).c_str());
  std::printf("took        %.3f s (%.0fx real time)\n", secs, secs > 0 ? game_secs / secs : 0.0);
  std::printf("recording   none (recording arrives with 'lockstep record')\n");
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "lockstep: deterministic game-AI simulation. Step a model tick by tick and prove every build\n"
      "computes the same bits.\n\n"
      "Exit status as cmp(1): 0 same or pass, 1 divergent or fail, 2 bad usage or bad input.",
      "lockstep"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");

  std::string scenario;
  long long ticks = -1;
  bool json = false;
  auto* run = app.add_subcommand("run", "Step a scenario and print the tick count and the final state hash");
  run->add_option("scenario", scenario, "Scenario JSON file (its \"model\" key picks the model)")
      ->required()
      ->check(CLI::ExistingFile);
  run->add_option("--ticks,-n", ticks, "How many ticks to step (default: the scenario's \"ticks\")")
      ->check(CLI::NonNegativeNumber);
  run->add_flag("--json", json, "Print {\"ticks\":N,\"final_hash\":\"...\"} for tools");
  run->footer(
      "\nExample:\n  lockstep run fixtures/wander/yard.json --ticks 3600\n"
      "The final hash is XXH3-64 over the subsystem hashes (docs/architecture.md); two runs, builds or\n"
      "machines that print the same hash computed the same state, bit for bit.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    std::fprintf(stderr, "Run 'lockstep --help' for usage.\n");
    return kExitBadInput;
  }

  try {
    if (run->parsed()) return cmd_run(scenario, ticks, json);
  } catch (const lockstep::InputError& e) {
    std::fprintf(stderr, "lockstep: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lockstep: internal error: %s\n", e.what());
    return 3;
  }
  return kExitBadInput;
}
