#include "lockstep/verify/bisect.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lockstep/replay/replay.h"

namespace lockstep::verify {

namespace fs = std::filesystem;

// ------------------------------------------------------------ over ticks

TickBisect bisect_ticks(const lsr::Recording& a, const lsr::Recording& b) {
  if (a.header().model != b.header().model)
    throw InputError(b.source(), "the header", "a " + b.header().model + " recording cannot be compared with a " + a.header().model + " one");
  TickBisect r;
  std::vector<uint64_t> kb;
  for (const auto& f : b.frames())
    if (f.kind == lsr::kFrameKeyframe) kb.push_back(f.first_tick);
  for (const auto& f : a.frames())
    if (f.kind == lsr::kFrameKeyframe && std::binary_search(kb.begin(), kb.end(), f.first_tick)) r.keyframes.push_back(f.first_tick);
  if (r.keyframes.empty()) throw InputError(b.source(), "", "the recordings hold no keyframe at a common tick");
  auto same_at = [&](uint64_t t) {
    ++r.keyframes_read;
    return a.keyframe_at_or_before(t)->hashes.whole == b.keyframe_at_or_before(t)->hashes.whole;
  };
  // The first keyframe index whose hashes differ: lo matches (or is -1), hi differs.
  std::ptrdiff_t lo = -1, hi = static_cast<std::ptrdiff_t>(r.keyframes.size());
  if (!same_at(r.keyframes.back())) {
    hi = static_cast<std::ptrdiff_t>(r.keyframes.size()) - 1;
    while (hi - lo > 1) {
      const std::ptrdiff_t mid = lo + (hi - lo) / 2;
      if (same_at(r.keyframes[static_cast<std::size_t>(mid)])) lo = mid;
      else hi = mid;
    }
  } else {
    return r;  // the last common keyframe matches: no divergence among keyframes
  }
  r.first_bad = r.keyframes[static_cast<std::size_t>(hi)];
  if (lo >= 0) r.last_good = r.keyframes[static_cast<std::size_t>(lo)];
  // Re-simulate both, each with its own inputs, from the last matching keyframe.
  const uint64_t from = r.last_good.value_or(a.first_tick());
  auto ma = replay::state_at(a, from);
  auto mb = replay::state_at(b, from);
  std::vector<std::vector<uint8_t>> ia, ib;
  a.scan(from, *r.first_bad, [&](const lsr::TickRecord& t) { ia.emplace_back(t.input.begin(), t.input.end()); }, nullptr);
  b.scan(from, *r.first_bad, [&](const lsr::TickRecord& t) { ib.emplace_back(t.input.begin(), t.input.end()); }, nullptr);
  for (std::size_t k = 0; k < ia.size() && k < ib.size(); ++k) {
    ma->step(ia[k], a.source());
    mb->step(ib[k], b.source());
    if (ma->hashes().whole != mb->hashes().whole) {
      r.tick = from + k;
      r.fields = ma->diff(*mb);
      r.resimulated = true;
      return r;
    }
  }
  // This build re-simulates both alike: show the recorded states at the first bad keyframe.
  auto ka = replay::model_for(a);
  auto kbm = replay::model_for(b);
  replay::restore_keyframe(*ka, a, *a.keyframe_at_or_before(*r.first_bad));
  replay::restore_keyframe(*kbm, b, *b.keyframe_at_or_before(*r.first_bad));
  r.fields = ka->diff(*kbm);
  return r;
}

// ------------------------------------------------------------ processes

int run_capture(const std::vector<std::string>& argv, std::string* out, std::string* err) {
  int pout[2], perr[2];
  if (pipe(pout) != 0 || pipe(perr) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(pout[1], 1);
    dup2(perr[1], 2);
    close(pout[0]);
    close(perr[0]);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    std::vector<char*> args;
    for (const auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s\n", argv[0].c_str());
    _exit(127);
  }
  close(pout[1]);
  close(perr[1]);
  // Read both pipes to the end (stderr is small; read it after stdout would risk a full pipe, so interleave).
  std::string o, e;
  char buf[65536];
  bool open_o = true, open_e = true;
  while (open_o || open_e) {
    fd_set fds;
    FD_ZERO(&fds);
    if (open_o) FD_SET(pout[0], &fds);
    if (open_e) FD_SET(perr[0], &fds);
    if (select(std::max(pout[0], perr[0]) + 1, &fds, nullptr, nullptr, nullptr) < 0) break;
    if (open_o && FD_ISSET(pout[0], &fds)) {
      const ssize_t n = read(pout[0], buf, sizeof buf);
      if (n <= 0) open_o = false;
      else o.append(buf, static_cast<std::size_t>(n));
    }
    if (open_e && FD_ISSET(perr[0], &fds)) {
      const ssize_t n = read(perr[0], buf, sizeof buf);
      if (n <= 0) open_e = false;
      else e.append(buf, static_cast<std::size_t>(n));
    }
  }
  close(pout[0]);
  close(perr[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (out) *out = std::move(o);
  if (err) *err = std::move(e);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// ------------------------------------------------------------ across builds

namespace {

std::vector<uint64_t> parse_chain(const std::string& text, const std::string& who) {
  std::vector<uint64_t> chain;
  std::istringstream in(text);
  std::string line;
  std::size_t ln = 0;
  while (std::getline(in, line)) {
    ++ln;
    if (line.empty() || line[0] == '#') continue;
    const auto sp = line.find(' ');
    if (sp == std::string::npos || line.size() - sp - 1 != 16)
      throw InputError(who, "line " + std::to_string(ln), "expected 'TICK HASH', got '" + line.substr(0, 60) + "'");
    chain.push_back(std::stoull(line.substr(sp + 1), nullptr, 16));
  }
  return chain;
}

}  // namespace

BuildBisect bisect_builds(const std::string& exe_a, const std::string& exe_b, const std::string& recording,
                          const std::function<void(const std::string&)>& log) {
  BuildBisect r;
  const auto rec = lsr::Recording::open(recording);
  std::string out_a, out_b, err;
  for (const auto* exe : {&exe_a, &exe_b}) {
    std::string v;
    if (run_capture({*exe, "--version"}, &v, &err) != 0)
      throw InputError(*exe, "", "cannot run it as a lockstep executable: " + err.substr(0, 300));
    while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
    (exe == &exe_a ? r.a_version : r.b_version) = v;
  }
  if (log) log("build a: " + exe_a + " (" + r.a_version + ")");
  if (log) log("build b: " + exe_b + " (" + r.b_version + ")");
  if (run_capture({exe_a, "chain", recording}, &out_a, &err) != 0) throw InputError(exe_a, "", "its hash chain failed: " + err.substr(0, 500));
  if (run_capture({exe_b, "chain", recording}, &out_b, &err) != 0) throw InputError(exe_b, "", "its hash chain failed: " + err.substr(0, 500));
  const auto ca = parse_chain(out_a, exe_a + " chain"), cb = parse_chain(out_b, exe_b + " chain");
  // "# fp TEXT": the floating-point environment the process started in.
  auto fp_of = [](const std::string& text) {
    const auto at = text.find("\n# fp ");
    if (at == std::string::npos) return std::string();
    const auto end = text.find('\n', at + 1);
    return text.substr(at + 6, end == std::string::npos ? std::string::npos : end - at - 6);
  };
  r.a_fp_env = fp_of(out_a);
  r.b_fp_env = fp_of(out_b);
  r.ticks_compared = std::min(ca.size(), cb.size());
  const uint64_t first = rec.first_tick();
  for (uint64_t k = 0; k < r.ticks_compared; ++k)
    if (ca[k] != cb[k]) {
      r.tick = first + k;
      r.hash_a = ca[k];
      r.hash_b = cb[k];
      break;
    }
  if (!r.tick) return r;
  if (log) log("chains part at tick " + std::to_string(*r.tick) + "; both builds dump their state after it");
  const fs::path dir = fs::temp_directory_path() / ("lockstep-bisect-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string sa = (dir / "a.state").string(), sb = (dir / "b.state").string();
  const std::string at = std::to_string(*r.tick + 1);
  const int st_a = run_capture({exe_a, "state", recording, "--tick", at, "-o", sa}, nullptr, &err);
  const int st_b = st_a == 0 ? run_capture({exe_b, "state", recording, "--tick", at, "-o", sb}, nullptr, &err) : -1;
  if (st_a != 0 || st_b != 0) {
    fs::remove_all(dir);
    throw InputError(st_a != 0 ? exe_a : exe_b, "", "could not dump its state: " + err.substr(0, 500));
  }
  auto read = [](const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  auto ma = replay::model_for(rec);
  auto mb = replay::model_for(rec);
  ma->restore(read(sa), exe_a + " state");
  mb->restore(read(sb), exe_b + " state");
  fs::remove_all(dir);
  r.fields = ma->diff(*mb);
  return r;
}

// ------------------------------------------------------------ across commits

CommitBisect bisect_commits(const std::string& repo, const std::string& good, const std::string& bad,
                            const std::string& command) {
  std::string out, err;
  if (run_capture({"git", "-C", repo, "rev-parse", "--git-dir"}, &out, &err) != 0)
    throw InputError(repo, "", "not a git repository");
  if (run_capture({"git", "-C", repo, "status", "--porcelain", "--untracked-files=no"}, &out, &err) != 0 || !out.empty())
    throw InputError(repo, "", "the work tree has uncommitted changes: commit or stash them first (bisect checks out other commits)");
  // Each end as a commit id: once git bisect has checked out a midpoint, HEAD names that.
  std::string ids[2];
  for (int i = 0; i < 2; ++i) {
    const std::string& c = i == 0 ? good : bad;
    if (run_capture({"git", "-C", repo, "rev-parse", "--verify", "--quiet", c + "^{commit}"}, &out, &err) != 0)
      throw InputError(repo, c, "no such commit");
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    ids[i] = out;
  }
  const std::string good_id = ids[0], bad_id = ids[1];
  CommitBisect r;
  run_capture({"git", "-C", repo, "bisect", "reset"}, &out, &err);
  if (run_capture({"git", "-C", repo, "bisect", "start", bad, good}, &out, &err) != 0)
    throw InputError(repo, "", "git bisect start failed: " + err);
  // git bisect takes GOOD as good and BAD as bad without running the step there: a BAD that passes
  // would be named "the first bad commit" of a range with nothing bad in it, and a GOOD that fails
  // would blame a commit after it. Both ends run the step first (BAD first: a run whose BAD passes
  // needs no other build).
  auto step_at = [&](const std::string& commit) {
    std::string o, e;
    if (run_capture({"git", "-C", repo, "checkout", "--quiet", commit}, &o, &e) != 0) {
      run_capture({"git", "-C", repo, "bisect", "reset"}, &o, &e);
      throw InputError(repo, commit, "could not check it out: " + e);
    }
    // sh -c SCRIPT DIR STEP: the step runs in the checked-out tree, as git bisect run runs it.
    return run_capture({"/bin/sh", "-c", "cd \"$0\" && exec /bin/sh -c \"$1\"", repo, command}, &o, &e);
  };
  const int at_bad = step_at(bad_id);
  if (at_bad == 0) {
    run_capture({"git", "-C", repo, "bisect", "reset"}, &out, &err);
    r.log = bad + " passes the step";
    return r;
  }
  const int at_good = step_at(good_id);
  if (at_good != 0) {
    run_capture({"git", "-C", repo, "bisect", "reset"}, &out, &err);
    throw InputError(repo, good, at_good == 125 ? "the step could not test it (exit 125: it did not build?)"
                                                : "fails the step itself (exit " + std::to_string(at_good) + "): name an older good commit");
  }
  const int st = run_capture({"git", "-C", repo, "bisect", "run", "/bin/sh", "-c", command}, &out, &err);
  r.log = out + err;
  std::string bad_commit;
  const auto at = out.find(" is the first bad commit");
  if (st == 0 && at != std::string::npos) {
    const auto line_start = out.rfind('\n', at);
    bad_commit = out.substr(line_start == std::string::npos ? 0 : line_start + 1, at - (line_start == std::string::npos ? 0 : line_start + 1));
  }
  run_capture({"git", "-C", repo, "bisect", "reset"}, &out, &err);
  if (bad_commit.empty()) throw InputError(repo, "", "git bisect run found no first bad commit:\n" + r.log);
  r.first_bad = bad_commit;
  std::string subject;
  run_capture({"git", "-C", repo, "log", "-1", "--format=%s", bad_commit}, &subject, &err);
  while (!subject.empty() && subject.back() == '\n') subject.pop_back();
  r.subject = subject;
  return r;
}

}  // namespace lockstep::verify
