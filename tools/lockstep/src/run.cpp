// lockstep run SCENARIO: step a scenario, print the tick count and the final state hash.
#include <chrono>
#include <cstdio>

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/pool/thread_pool.h"
#include "progress.h"

namespace lockstep::cli {

namespace {

class Run final : public Command {
 public:
  explicit Run(CLI::App& app) {
    sub = app.add_subcommand("run", "Step a scenario and print the tick count and the final state hash");
    add_scenario_arg(sub, scenario_);
    add_ticks_option(sub, ticks_);
    add_threads_option(sub, threads_);
    add_json_flag(sub, json_);
    sub->footer(
        "\nExample:\n  lockstep run fixtures/wander/yard.json --ticks 3600\n"
        "The final hash is XXH3-64 over the subsystem hashes (docs/architecture.md); two runs, builds or\n"
        "machines that print the same hash computed the same state, bit for bit.\n\n"
        "Exit 0 when the run is done, 2 for a bad scenario or flag.");
  }

  int run() override {
    auto model = load_scenario_file(scenario_);
    ThreadPool pool(threads_ > 0 ? threads_ : ThreadPool::cores());
    model->set_workers(&pool);
    const uint64_t ticks = ticks_or(ticks_, model->default_ticks());
    const auto t0 = std::chrono::steady_clock::now();
    {
      Progress progress("run", "tick", ticks);
      for (uint64_t k = 0; k < ticks; ++k) {
        model->step_scripted();
        progress.update(k + 1);
      }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto h = model->hashes();
    const auto& info = model->info();
    if (json_) {
      JsonOut j = json_result("run", true);
      add_state_hashes(j, *model);
      print_json(j);
      return kExitOk;
    }
    const double game_secs = static_cast<double>(ticks) / info.tick_rate_hz;
    std::printf("scenario    %s (model %s v%u)\n", scenario_.c_str(), info.name.c_str(), info.version);
    std::printf("ticks       %llu (%.2f s of game time at %u Hz)\n", static_cast<unsigned long long>(model->tick()), game_secs,
                info.tick_rate_hz);
    std::printf("final hash  %s\n", hex64(h.whole).c_str());
    for (uint32_t i = 0; i < h.count; ++i) std::printf("  %-9s %s\n", info.subsystems[i].c_str(), hex64(h.sub[i]).c_str());
    std::printf("took        %.3f s (%.0fx real time)\n", secs, secs > 0 ? game_secs / secs : 0.0);
    std::printf("recording   none (lockstep record ... -o RUN.lsr makes one)\n");
    return kExitOk;
  }

 private:
  std::string scenario_;
  long long ticks_ = -1;
  unsigned threads_ = 0;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_run(CLI::App& app) { return std::make_unique<Run>(app); }

}  // namespace lockstep::cli
