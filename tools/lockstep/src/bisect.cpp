// lockstep bisect: where two runs part, over keyframes (--keyframes A.lsr B.lsr), across two builds
// (--exe-a, --exe-b RUN.lsr, each as its own process through `chain` and `state`), or across commits (--git).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

#include "command.h"
#include "lockstep/core/fpenv.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/verify/bisect.h"

namespace lockstep::cli {

namespace {

struct BisectArgs {
  bool keyframes = false;
  std::string exe_a, exe_b, repo = ".", run_cmd;
  std::vector<std::string> git;
  std::vector<std::string> files;
};

void print_fields(const std::vector<lockstep::FieldDiff>& fields, std::size_t most = 8) {
  for (std::size_t i = 0; i < fields.size() && i < most; ++i) {
    const auto& f = fields[i];
    if (f.is_size) {
      std::printf("field       %s: %zu vs %zu elements\n", f.path.c_str(), f.size_a, f.size_b);
      continue;
    }
    std::printf("field       %s: %s vs %s", f.path.c_str(), f.a.text.c_str(), f.b.text.c_str());
    if (auto u = lockstep::ulp_distance(f.a, f.b)) std::printf(" (%llu ulps)", static_cast<unsigned long long>(*u));
    std::printf("\n");
  }
  if (fields.size() > most) std::printf("            ... and %zu more fields\n", fields.size() - most);
}

int cmd_bisect(const BisectArgs& a) {
  const int modes = (a.keyframes ? 1 : 0) + (!a.exe_a.empty() || !a.exe_b.empty() ? 1 : 0) + (!a.git.empty() ? 1 : 0);
  if (modes != 1) throw lockstep::InputError("", "bisect", "choose one of --keyframes, --exe-a/--exe-b or --git");
  if (a.keyframes) {
    if (a.files.size() != 2) throw lockstep::InputError("", "bisect --keyframes", "expected two recordings A.lsr B.lsr");
    const auto ra = lockstep::lsr::Recording::open(a.files[0]);
    const auto rb = lockstep::lsr::Recording::open(a.files[1]);
    for (const auto* r : {&ra, &rb}) print_damage(*r);
    const int damaged = ra.damage() || rb.damage() ? kExitBadInput : 0;  // bad input, after what could be compared
    const auto r = lockstep::verify::bisect_ticks(ra, rb);
    std::printf("keyframes   %zu common; the search read %llu pairs\n", r.keyframes.size(), static_cast<unsigned long long>(r.keyframes_read));
    if (!r.first_bad) {
      std::printf("result      every common keyframe matches\n");
      return damaged ? damaged : kExitOk;
    }
    std::printf("bracket     keyframe %s matches, keyframe %llu differs\n",
                r.last_good ? std::to_string(*r.last_good).c_str() : "(none)", static_cast<unsigned long long>(*r.first_bad));
    if (r.tick) std::printf("DIVERGED    at tick %llu (re-simulated from the matching keyframe with each recording's inputs)\n",
                            static_cast<unsigned long long>(*r.tick));
    else std::printf("DIVERGED    between them: this build re-simulates both alike (the builds differ); fields at keyframe %llu:\n",
                     static_cast<unsigned long long>(*r.first_bad));
    print_fields(r.fields);
    return damaged ? damaged : kExitDiffer;
  }
  if (!a.git.empty()) {
    if (a.git.size() != 2 || a.files.size() != 1) throw lockstep::InputError("", "bisect --git", "expected --git GOOD BAD RUN.lsr");
    namespace fs = std::filesystem;
    // The recording must outlive every checkout: use an absolute copy.
    const fs::path tmp = fs::temp_directory_path() / ("lockstep-gitbisect-" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    const std::string rec = (tmp / "run.lsr").string();
    fs::copy_file(a.files[0], rec, fs::copy_options::overwrite_existing);
    std::string cmd = a.run_cmd;
    if (cmd.empty()) {
      const std::string b = (tmp / "build").string();
      cmd = "cmake -S . -B '" + b + "' -DLOCKSTEP_TESTS=OFF -DLOCKSTEP_BENCH=OFF >/dev/null 2>&1 && cmake --build '" + b +
            "' --target lockstep -j2 >/dev/null 2>&1 || exit 125; '" + b + "/lockstep' replay '" + rec +
            "' >/dev/null 2>&1; s=$?; [ $s -eq 2 ] && exit 125; exit $s";
    } else {
      setenv("LOCKSTEP_RECORDING", rec.c_str(), 1);
    }
    std::fprintf(stderr, "bisect: git bisect run between %s (good) and %s (bad)...\n", a.git[0].c_str(), a.git[1].c_str());
    lockstep::verify::CommitBisect r;
    try {
      r = lockstep::verify::bisect_commits(a.repo, a.git[0], a.git[1], cmd);
    } catch (...) {
      fs::remove_all(tmp);
      throw;
    }
    fs::remove_all(tmp);
    if (r.first_bad.empty()) {
      std::printf("result      %s passes the step: nothing parts between %s and %s\n", a.git[1].c_str(), a.git[0].c_str(),
                  a.git[1].c_str());
      return kExitOk;
    }
    std::printf("first bad   %s %s\n", r.first_bad.c_str(), r.subject.c_str());
    return kExitDiffer;
  }
  if (a.exe_a.empty() || a.exe_b.empty() || a.files.size() != 1)
    throw lockstep::InputError("", "bisect", "expected --exe-a PATH --exe-b PATH RUN.lsr");
  const auto r = lockstep::verify::bisect_builds(a.exe_a, a.exe_b, a.files[0], [](const std::string& line) {
    std::fprintf(stderr, "bisect: %s\n", line.c_str());
  });
  std::printf("compared    %llu ticks of %s under two builds\n", static_cast<unsigned long long>(r.ticks_compared), a.files[0].c_str());
  if (r.a_fp_env != r.b_fp_env) {
    const std::string da = lockstep::fp_env_difference(r.a_fp_env), db = lockstep::fp_env_difference(r.b_fp_env);
    std::printf("note        %s (every model step runs in the IEEE default)\n",
                !db.empty() && da.empty()   ? ("build b " + db + " (" + r.b_fp_env + "); build a: " + r.a_fp_env).c_str()
                : !da.empty() && db.empty() ? ("build a " + da + " (" + r.a_fp_env + "); build b: " + r.b_fp_env).c_str()
                                            : ("floating-point modes differ: " + r.a_fp_env + " and " + r.b_fp_env).c_str());
  }
  if (!r.tick) {
    std::printf("result      the two builds compute the same hash chain\n");
    return kExitOk;
  }
  std::printf("DIVERGED    at tick %llu: a %s, b %s\n", static_cast<unsigned long long>(*r.tick), lockstep::hex64(r.hash_a).c_str(),
              lockstep::hex64(r.hash_b).c_str());
  print_fields(r.fields);
  return kExitDiffer;
}

class Bisect final : public Command {
 public:
  explicit Bisect(CLI::App& app) {
    sub = app.add_subcommand("bisect", "Find where runs part: over keyframes, across two builds, or across commits");
    sub->add_flag("--keyframes", a_.keyframes, "A.lsr B.lsr: binary search over common keyframes, then re-simulate");
    sub->add_option("--exe-a", a_.exe_a, "RUN.lsr under two lockstep executables, as separate processes");
    sub->add_option("--exe-b", a_.exe_b, "The second executable");
    sub->add_option("--git", a_.git, "GOOD BAD RUN.lsr: drive git bisect run with a build-and-replay step")
        ->expected(2)
        ->allow_extra_args(false);
    sub->add_option("--repo", a_.repo, "The repository for --git (default: .)");
    sub->add_option("--run", a_.run_cmd,
                    "The step for --git, run by sh in the checked-out tree: exit 0 good, 1-124 bad, 125 skip\n"
                    "(default: build the bundled lockstep there and replay the recording; a program of your own gives\n"
                    "its own step; $LOCKSTEP_RECORDING names the recording)");
    sub->add_option("files", a_.files, "Recordings");
    sub->footer("\nExamples:\n  lockstep bisect --keyframes a.lsr b.lsr\n"
                "  lockstep bisect --exe-a build-gcc/lockstep --exe-b build-clang/lockstep run.lsr\n"
                "  lockstep bisect --git v1.0 HEAD run.lsr\nExit 0 when nothing parts, 1 with the answer, 2 for bad input.");
  }
  int run() override { return cmd_bisect(a_); }

 private:
  BisectArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_bisect(CLI::App& app) { return std::make_unique<Bisect>(app); }

}  // namespace lockstep::cli
