// lockstep record SCENARIO -o RUN.lsr: run a scenario and record every tick's input and state hashes.
#include <cstdio>

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"
#include "progress.h"

namespace lockstep::cli {

namespace {

class Record final : public Command {
 public:
  explicit Record(CLI::App& app) {
    sub = app.add_subcommand("record", "Run a scenario and record every tick's input and state hashes (.lsr)");
    add_scenario_arg(sub, scenario_);
    add_ticks_option(sub, ticks_);
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
                "`zstd -dc yard.lsr` prints its raw tick stream (docs/format.md).");
  }

  int run() override {
    auto model = load_scenario_file(scenario_);
    const uint64_t ticks = ticks_or(ticks_, model->default_ticks());
    lsr::RecorderOptions opt;
    opt.keyframe_every = keyframe_every_;
    opt.chunk_ticks = chunk_ticks_;
    opt.sub_hash_bytes = static_cast<uint8_t>(sub_bytes_);
    opt.fsync = fsync_;
    lsr::Recorder rec(out_, *model, opt);
    {
      Progress progress("record", "tick", ticks);
      for (uint64_t k = 0; k < ticks; ++k) {
        const auto in = model->scripted_input();
        model->step(in);
        rec.tick(in, *model);
        progress.update(k + 1);
      }
    }
    rec.finish();
    const auto h = model->hashes();
    if (json_) {
      JsonOut j = json_result("record", true);
      j["ticks"] = model->tick();
      j["final_hash"] = hex64(h.whole);
      j["recording"] = out_;
      j["bytes"] = rec.bytes_written();
      print_json(j);
      return kExitOk;
    }
    std::printf("scenario    %s (model %s v%u)\n", scenario_.c_str(), model->info().name.c_str(), model->info().version);
    std::printf("ticks       %llu\n", static_cast<unsigned long long>(model->tick()));
    std::printf("final hash  %s\n", hex64(h.whole).c_str());
    std::printf("recording   %s (%llu bytes, %.1f bytes per tick with keyframes)\n", out_.c_str(),
                static_cast<unsigned long long>(rec.bytes_written()),
                ticks ? static_cast<double>(rec.bytes_written()) / static_cast<double>(ticks) : 0.0);
    return kExitOk;
  }

 private:
  std::string scenario_, out_;
  long long ticks_ = -1;
  uint32_t keyframe_every_ = 0, chunk_ticks_ = 0;
  int sub_bytes_ = 2;
  bool fsync_ = false, json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_record(CLI::App& app) { return std::make_unique<Record>(app); }

}  // namespace lockstep::cli
