// Plumbing for bisect across builds: one build's view of a recording.
//   lockstep chain RUN.lsr            this build's whole-state hash after every tick
//   lockstep state RUN.lsr --tick T   this build's state at a tick (snapshot or JSON)
#include <cstdio>

#include "command.h"
#include "json_out.h"
#include "lockstep/core/fpenv.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"

namespace lockstep::cli {

namespace {

class Chain final : public Command {
 public:
  explicit Chain(CLI::App& app) {
    sub = app.add_subcommand("chain", "Plumbing: re-simulate a recording, print this build's hash after every tick");
    add_recording_arg(sub, path_);
    sub->group("Plumbing");
    sub->footer("\nExample:\n  lockstep chain yard.lsr > mine.txt   (then diff it with another build's)\n\n"
                "Exit 0 when every tick is printed, 2 for a damaged recording (after the ticks before the damage) or an\n"
                "unreadable one.");
  }

  int run() override {
    const auto r = lsr::Recording::open(path_);
    if (r.damage()) print_damage(r);
    auto m = replay::model_for(r);
    std::printf("# chain %s model %s v%u\n", path_.c_str(), m->info().name.c_str(), m->info().version);
    std::printf("# fp %s\n", process_fp_env().text().c_str());
    r.scan(r.first_tick(), UINT64_MAX, [&](const lsr::TickRecord& t) {
      m->step(t.input, path_ + " tick " + std::to_string(t.tick));
      std::printf("%llu %s\n", static_cast<unsigned long long>(t.tick), hex64(m->hashes().whole).c_str());
    }, nullptr);
    return r.damage() ? kExitBadInput : kExitOk;
  }

 private:
  std::string path_;
};

class State final : public Command {
 public:
  explicit State(CLI::App& app) {
    sub = app.add_subcommand("state", "Plumbing: this build's state at a tick of a recording (snapshot or JSON)");
    add_recording_arg(sub, path_);
    sub->add_option("--tick", tick_, "The state when the model's tick is this")->required();
    add_output_option(sub, out_, "Write the snapshot (cereal portable binary) here");
    sub->add_flag("--json", json_, "Print the state as JSON instead (its \"state\" key)");
    sub->group("Plumbing");
    sub->footer("\nExample:\n  lockstep state yard.lsr --tick 300 --json\n\n"
                "Exit 0 when the state is written, 2 for a damaged recording (after what it could give), a tick outside\n"
                "it, or an unreadable recording or unwritable file.");
  }

  int run() override {
    if (!json_ && out_.empty()) throw InputError("", "state", "give -o FILE or --json");
    const auto r = lsr::Recording::open(path_);
    if (r.damage()) print_damage(r);
    const int ok = r.damage() ? kExitBadInput : kExitOk;  // a damaged recording is bad input, after what it could give
    const uint64_t end = r.first_tick() + r.ticks();
    if (tick_ < static_cast<long long>(r.first_tick()) || static_cast<uint64_t>(tick_) > end)
      throw InputError(path_, "--tick", "expected a tick from " + std::to_string(r.first_tick()) + " to " + std::to_string(end));
    auto m = replay::state_at(r, static_cast<uint64_t>(tick_));
    if (json_) {
      JsonOut j = json_result("state", ok == kExitOk);
      j["recording"] = path_;
      j["model"] = m->info().name;
      j["tick"] = m->tick();
      // state_json() is the state as cereal writes it, under one key "state". A state holding a NaN or an
      // infinity (a model gone wrong) is not JSON there (cereal writes them as bare words): then the
      // state is given as that text, under "state_text", and "state" is null.
      const std::string text = m->state_json();
      JsonOut doc = JsonOut::parse(text, nullptr, false);
      if (doc.is_discarded()) {
        j["state"] = nullptr;
        j["state_text"] = text;
      } else {
        j["state"] = doc.is_object() && doc.size() == 1 && doc.contains("state") ? doc["state"] : doc;
      }
      print_json(j);
      return ok;
    }
    const auto bytes = m->snapshot();
    std::FILE* f = std::fopen(out_.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
      if (f) std::fclose(f);
      throw InputError(out_, "", "cannot write the state");
    }
    std::fclose(f);
    return ok;
  }

 private:
  std::string path_, out_;
  long long tick_ = -1;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_chain(CLI::App& app) { return std::make_unique<Chain>(app); }
std::unique_ptr<Command> make_state(CLI::App& app) { return std::make_unique<State>(app); }

}  // namespace lockstep::cli
