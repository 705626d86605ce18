// Two runs: where they first part, down to the field (docs/verify.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lockstep/core/diff.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::verify {

struct DiffOptions {
  bool all = false;                 ///< every divergent field at the first divergent tick, not only the first
  std::vector<std::string> ignore;  ///< field-path globs declared harmless
};

struct RunDiff {
  std::vector<std::string> notes;   ///< header differences said plainly (scenario, model version, build)
  uint64_t first_tick = 0;          ///< the recordings' first tick
  uint64_t common_ticks = 0;        ///< ticks both recordings hold
  uint64_t ticks_a = 0, ticks_b = 0;
  std::optional<uint64_t> tick;     ///< the first step whose resulting states differ (in a field not ignored)
  std::optional<uint64_t> hash_tick;  ///< the first step whose hashes differ (may be earlier, in ignored fields)
  std::vector<std::string> subsystems;  ///< whose stored hashes differ at `tick`
  std::vector<FieldDiff> fields;        ///< in listing order; one unless `all`
  std::size_t ignored_fields = 0;       ///< divergent fields at `tick` the ignore list hid
  std::string input_a, input_b;         ///< the inputs of step `tick`, as JSON
  std::string prev_input_a, prev_input_b;  ///< and of the step before
  /// Re-simulated here, a recording did not reproduce its own hash at the
  /// divergent tick: it was made by a build that computes differently. Then the
  /// fields come from the first keyframe both recordings hold after the
  /// divergence (their recorded states), at `keyframe_tick`.
  std::vector<std::string> not_reproduced;  ///< which recordings ("a", "b")
  std::optional<uint64_t> keyframe_tick;
  bool same() const { return !tick && ticks_a == ticks_b; }
};

/// Compare two recordings of one model. InputError when they are of different models.
RunDiff diff_recordings(const lsr::Recording& a, const lsr::Recording& b, const DiffOptions& opt);

/// The human report of a comparison (what `lockstep diff` prints).
std::string report_text(const RunDiff& d, const lsr::Recording& a, const lsr::Recording& b);

}  // namespace lockstep::verify
