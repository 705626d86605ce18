// lockstep replay RUN.lsr: re-simulate a recording and check every tick's hashes.
#include <cstdio>
#include "lockstep/replay/replay.h"
#include "progress.h"

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::cli {

namespace {

struct ReplayArgs {
  std::string path;
  long long from = -1, to = -1;
  bool synctest = false, json = false, allow_truncated = false;
};

int cmd_replay(const ReplayArgs& a) {
  const auto r = lockstep::lsr::Recording::open(a.path);
  const bool damaged = r.damage().has_value();
  if (damaged) print_damage(r);
  if (damaged && !(r.damage()->truncated && a.allow_truncated)) {
    if (r.ticks() == 0) return kExitBadInput;
  }
  lockstep::replay::Options opt;
  if (a.from >= 0) opt.from = static_cast<uint64_t>(a.from);
  if (a.to >= 0) opt.to = static_cast<uint64_t>(a.to) + 1;  // --to is the last tick checked (ranges are inclusive)
  opt.synctest = a.synctest;
  const uint64_t end = r.first_tick() + r.ticks();
  check_tick_range(a.path, a.from, a.to);
  if (opt.from > end)
    throw lockstep::InputError(a.path, "--from", "tick " + std::to_string(opt.from) + " is past the recording's end (" +
                                                     std::to_string(end) + ")");
  Progress progress("replay", "tick", opt.to.value_or(end) - opt.from);
  opt.progress = [&](uint64_t done, uint64_t) { progress.update(done); };
  const auto res = lockstep::replay::run(r, opt);
  // A damaged recording is bad input whatever its good part says (a cut-off one may be allowed).
  const int status = damaged && !(r.damage()->truncated && a.allow_truncated) ? kExitBadInput : !res.ok() ? kExitDiffer : kExitOk;
  if (a.json) {
    JsonOut j = json_result("replay", status == kExitOk);
    j["checked"] = res.checked;
    j["keyframes_checked"] = res.keyframes_checked;
    j["match"] = res.ok();
    if (res.first) {
      j["first_divergent_tick"] = res.first->tick;
      j["recorded"] = lockstep::hex64(res.first->recorded);
      j["replayed"] = lockstep::hex64(res.first->replayed);
      j["subsystems"] = res.first->subsystems;
      j["divergent_ticks"] = res.divergent_ticks;
      j["reconverged_at"] = res.reconverged_at && !res.divergent_at_end ? JsonOut(*res.reconverged_at) : JsonOut(nullptr);
    }
    if (res.sync) {
      j["synctest_failed_at"] = res.sync->tick;
      JsonOut fields = JsonOut::array();
      for (const auto& f : res.sync->fields) fields.push_back(f.path);
      j["synctest_fields"] = fields;
    }
    j["damaged"] = damaged;
    print_json(j);
    return status;
  }
  if (!res.model_note.empty()) std::printf("note        %s\n", res.model_note.c_str());
  const auto& mine = lockstep::lsr::this_build();
  const auto& theirs = r.header().build;
  if (mine.compiler != theirs.compiler || mine.arch != theirs.arch || mine.flags != theirs.flags)
    std::printf("note        recorded by %s on %s, replayed by %s on %s\n", theirs.compiler.c_str(), theirs.arch.c_str(),
                mine.compiler.c_str(), mine.arch.c_str());
  if (!theirs.fp_env.empty() && theirs.fp_env != mine.fp_env)
    std::printf("note        recorded in floating-point mode %s, replayed in %s (every model step runs in the IEEE default)\n",
                theirs.fp_env.c_str(), mine.fp_env.c_str());
  std::printf("checked     %llu ticks and %llu keyframes of %s\n", static_cast<unsigned long long>(res.checked),
              static_cast<unsigned long long>(res.keyframes_checked), a.path.c_str());
  if (res.first) {
    std::printf("DIVERGED    at tick %llu: recorded %s, replayed %s\n", static_cast<unsigned long long>(res.first->tick),
                lockstep::hex64(res.first->recorded).c_str(), lockstep::hex64(res.first->replayed).c_str());
    std::printf("subsystems  %s\n", res.first->subsystems.empty() ? "(their stored hashes match: see the whole hash)"
                                                                   : join(res.first->subsystems).c_str());
    if (res.divergent_at_end)
      std::printf("afterwards  still divergent at the end (%llu divergent ticks)\n", static_cast<unsigned long long>(res.divergent_ticks));
    else if (res.reconverged_at)
      std::printf("afterwards  re-converged at tick %llu (%llu divergent ticks in all)\n",
                  static_cast<unsigned long long>(*res.reconverged_at), static_cast<unsigned long long>(res.divergent_ticks));
    std::printf("next        lockstep diff, or lockstep export %s --fields ... around tick %llu\n", a.path.c_str(),
                static_cast<unsigned long long>(res.first->tick));
  }
  if (res.sync) {
    std::printf("SYNCTEST    a world restored from the snapshot before tick %llu parted after one step\n",
                static_cast<unsigned long long>(res.sync->tick));
    std::printf("subsystems  %s\n", join(res.sync->subsystems).c_str());
    for (const auto& f : res.sync->fields)
      std::printf("  %s: %s vs %s (restored)\n", f.path.c_str(), f.a.text.c_str(), f.b.text.c_str());
  }
  if (res.ok()) std::printf("result      every tick matches%s\n", a.synctest ? ", and every snapshot restores to the same bits" : "");
  return status;
}

class Replay final : public Command {
 public:
  explicit Replay(CLI::App& app) {
    sub = app.add_subcommand("replay", "Re-simulate a recording and check every tick's hashes");
    add_recording_arg(sub, a_.path);
    add_tick_range(sub, a_.from, a_.to, "First tick to check (starts from the nearest keyframe)", "Last tick to check (inclusive)");
    sub->add_flag("--synctest", a_.synctest,
                  "Every tick, also snapshot the state, restore it into a fresh world, step both and compare:\n"
                  "catches state that snapshots forget");
    sub->add_flag("--allow-truncated", a_.allow_truncated,
                  "Accept a recording cut off after a complete chunk (exit 0 when its ticks match)");
    add_json_flag(sub, a_.json);
    sub->footer("\nExample:\n  lockstep replay yard.lsr --from 100 --to 200\n\n"
                "Exit 0 when every tick matches, 1 at a divergence (the tick, the subsystems, whether it\n"
                "re-converges), 2 for a damaged or unreadable recording.");
  }
  int run() override { return cmd_replay(a_); }

 private:
  ReplayArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_replay(CLI::App& app) { return std::make_unique<Replay>(app); }

}  // namespace lockstep::cli
