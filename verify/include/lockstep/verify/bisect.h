// Bisecting a divergence: over ticks (keyframes), across two builds, across
// commits (docs/verify.md).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/core/diff.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::verify {

// ------------------------------------------------------------ over ticks

struct TickBisect {
  std::vector<uint64_t> keyframes;      ///< keyframe ticks both recordings hold
  std::optional<uint64_t> last_good;    ///< the last common keyframe whose hashes match
  std::optional<uint64_t> first_bad;    ///< the first whose hashes differ
  uint64_t keyframes_read = 0;          ///< how many the search restored (about 2 log2 n)
  std::optional<uint64_t> tick;         ///< the first divergent step, by re-simulating from last_good
  std::vector<FieldDiff> fields;        ///< at that tick, or at first_bad when re-simulation cannot show it
  bool resimulated = false;             ///< `tick` came from re-simulating both recordings' inputs here
};

/// Find the first divergence between two recordings from their keyframes
/// alone (for recordings whose per-tick hashes are sparse or not trusted):
/// binary search for the first common keyframe whose hashes differ, then
/// re-simulate both from the last matching one with their own inputs.
/// Assumes, as every bisection does, that once runs part they stay apart.
TickBisect bisect_ticks(const lsr::Recording& a, const lsr::Recording& b);

// ------------------------------------------------------------ across builds

struct BuildBisect {
  uint64_t ticks_compared = 0;
  std::optional<uint64_t> tick;  ///< the first step after which the builds' states differ
  uint64_t hash_a = 0, hash_b = 0;
  std::vector<FieldDiff> fields;  ///< the states each build dumped after that step
  std::string a_version, b_version;
  std::string a_fp_env, b_fp_env;  ///< the floating-point environment each process started in (its chain says)
};

/// Replay a recording under two executables (each `lockstep`), as separate
/// processes: compare their hash chains, then have both dump the state after
/// the first divergent step and walk its fields.
BuildBisect bisect_builds(const std::string& exe_a, const std::string& exe_b, const std::string& recording,
                          const std::function<void(const std::string&)>& log = {});

// ------------------------------------------------------------ across commits

struct CommitBisect {
  std::string first_bad;  ///< the commit id; empty when BAD itself passes the step (nothing to bisect)
  std::string subject;    ///< its subject line
  std::string log;        ///< what git bisect printed
};

/// Drive `git bisect run` in `repo` between GOOD and BAD with `command` (run
/// by /bin/sh in the checked-out tree: exit 0 good, 1-124 bad, 125 skip).
/// The repository must be clean; it is left as it was (git bisect reset).
CommitBisect bisect_commits(const std::string& repo, const std::string& good, const std::string& bad,
                            const std::string& command);

/// Run a command, capturing its standard output; returns the exit status (-1 when it could not run).
int run_capture(const std::vector<std::string>& argv, std::string* out, std::string* err = nullptr);

}  // namespace lockstep::verify
