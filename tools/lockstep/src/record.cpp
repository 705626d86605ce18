// lockstep record SCENARIO -o RUN.lsr: run a scenario and record every tick's input and state hashes.
#include <csignal>
#include <cstdio>

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/pool/thread_pool.h"
#include "lockstep/replay/lsr.h"
#include "progress.h"

namespace lockstep::cli {

namespace {

/// The signal that asked a record to stop (SIGINT, SIGTERM), 0 while none has: all the handler does.
volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }

/// Catches SIGINT and SIGTERM while it lives, and puts the previous handlers back after.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

class Record final : public Command {
 public:
  explicit Record(CLI::App& app) {
    sub = app.add_subcommand("record", "Run a scenario and record every tick's input and state hashes (.lsr)");
    add_scenario_arg(sub, scenario_);
    add_ticks_option(sub, ticks_);
    add_threads_option(sub, threads_);
    add_output_option(sub, out_, "The recording to write (.lsr)")->required();
    sub->add_option("--keyframe-every", keyframe_every_, "A full state snapshot every K ticks (default: one second)")
        ->check(CLI::Range(1u, 1u << 20));
    sub->add_option("--chunk-ticks", chunk_ticks_, "Ticks per chunk, the unit a crash can lose (default: one second)")
        ->check(CLI::Range(1u, 1u << 20));
    sub->add_option("--subsystem-hash-bytes", sub_bytes_, "Bytes of each subsystem hash kept per tick: 2 or 8")
        ->check(CLI::IsMember({2, 8}));
    sub->add_flag("--fsync", fsync_, "fsync after every chunk (survives power loss, not only a crash)");
    add_json_flag(sub, json_);
    sub->footer("\nExample:\n  lockstep record fixtures/wander/yard.json --ticks 3600 -o yard.lsr\n"
                "The recording embeds the scenario and the build; `zstd -t yard.lsr` checks it and\n"
                "`zstd -dc yard.lsr` prints its raw tick stream (docs/format.md).\n\n"
                "Exit 0 when the recording is written, 2 for a bad scenario or flag. Ctrl-C (SIGINT) or SIGTERM\n"
                "stops it after the current tick: the recording keeps the ticks made, closed with its index,\n"
                "and the status is 130 (SIGINT) or 143 (SIGTERM).");
  }

  int run() override {
    auto model = load_scenario_file(scenario_);
    ThreadPool pool(threads_ > 0 ? threads_ : ThreadPool::cores());
    model->set_workers(&pool);
    const uint64_t ticks = ticks_or(ticks_, model->default_ticks());
    lsr::RecorderOptions opt;
    opt.keyframe_every = keyframe_every_;
    opt.chunk_ticks = chunk_ticks_;
    opt.sub_hash_bytes = static_cast<uint8_t>(sub_bytes_);
    opt.fsync = fsync_;
    lsr::Recorder rec(out_, *model, opt);
    // SIGINT (Ctrl-C) or SIGTERM: stop after the tick being stepped, close the chunk being filled
    // and write the index, so the file is a whole recording of the ticks kept (not a damaged one).
    int stopped_by = 0;
    {
      StopSignals signals;
      Progress progress("record", "tick", ticks);
      for (uint64_t k = 0; k < ticks; ++k) {
        if (g_stop_signal) break;
        const auto in = model->scripted_input();
        model->step(in);
        rec.tick(in, *model);
        progress.update(k + 1);
      }
      rec.finish();
      stopped_by = g_stop_signal;
    }
    const auto h = model->hashes();
    const auto& info = model->info();
    const uint64_t kept = model->tick();
    // Stopped by a signal: the shell's status for a program that signal ended (128 + its number:
    // 130 for SIGINT, 143 for SIGTERM), so a script sees the run was cut short.
    const int status = stopped_by ? 128 + stopped_by : kExitOk;
    if (stopped_by)
      std::fprintf(stderr, "lockstep: %s: stopped by %s after %llu of %llu ticks; the recording keeps those %llu ticks, complete with its index\n",
                   out_.c_str(), stopped_by == SIGINT ? "SIGINT" : "SIGTERM", static_cast<unsigned long long>(kept),
                   static_cast<unsigned long long>(ticks), static_cast<unsigned long long>(kept));
    if (json_) {
      JsonOut j = json_result("record", !stopped_by);
      add_state_hashes(j, *model);
      j["recording"] = out_;
      j["bytes"] = rec.bytes_written();
      j["interrupted"] = stopped_by ? JsonOut(stopped_by == SIGINT ? "SIGINT" : "SIGTERM") : JsonOut(nullptr);
      print_json(j);
      return status;
    }
    std::printf("scenario    %s (model %s v%u)\n", scenario_.c_str(), info.name.c_str(), info.version);
    std::printf("ticks       %llu%s\n", static_cast<unsigned long long>(kept), stopped_by ? " (stopped by a signal)" : "");
    std::printf("final hash  %s\n", hex64(h.whole).c_str());
    std::printf("recording   %s (%llu bytes, %.1f bytes per tick with keyframes)\n", out_.c_str(),
                static_cast<unsigned long long>(rec.bytes_written()),
                kept ? static_cast<double>(rec.bytes_written()) / static_cast<double>(kept) : 0.0);
    return status;
  }

 private:
  std::string scenario_, out_;
  long long ticks_ = -1;
  unsigned threads_ = 0;
  uint32_t keyframe_every_ = 0, chunk_ticks_ = 0;
  int sub_bytes_ = 2;
  bool fsync_ = false, json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_record(CLI::App& app) { return std::make_unique<Record>(app); }

}  // namespace lockstep::cli
