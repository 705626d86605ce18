// Replaying a recording: re-simulate from its embedded scenario (or the
// nearest keyframe) with its recorded inputs and check every tick's hashes.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/core/model.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::replay {

struct Options {
  uint64_t from = 0;                ///< first tick to check (re-simulated from the nearest keyframe)
  std::optional<uint64_t> to;       ///< one past the last tick to check (default: the end)
  bool synctest = false;            ///< also snapshot, restore into a fresh world and step both, every tick
  std::function<void(uint64_t done, uint64_t total)> progress;
};

struct Mismatch {
  uint64_t tick = 0;  ///< the step whose resulting state differs
  uint64_t recorded = 0, replayed = 0;
  std::vector<std::string> subsystems;  ///< whose stored hashes differ
};

struct SyncFailure {
  uint64_t tick = 0;
  std::vector<FieldDiff> fields;  ///< where the restored world parted from the original after one step
  std::vector<std::string> subsystems;
};

struct Result {
  uint64_t checked = 0;                    ///< ticks whose hashes were compared
  uint64_t keyframes_checked = 0;
  std::optional<Mismatch> first;           ///< the first divergent tick
  uint64_t divergent_ticks = 0;
  std::optional<uint64_t> reconverged_at;  ///< first matching tick after the divergence, if any
  bool divergent_at_end = false;
  std::optional<SyncFailure> sync;         ///< --synctest's first failure
  std::string model_note;                  ///< a model version or build that differs from the recording's
  bool ok() const { return !first && !sync; }
};

/// Restore a keyframe into a model and check it hashes to its recorded hashes (InputError if not).
void restore_keyframe(Model& m, const lsr::Recording& rec, const lsr::Recording::OwnedKeyframe& k);

/// Make the recording's model from its embedded scenario.
std::unique_ptr<Model> model_for(const lsr::Recording& rec);

/// Bring a model to the state at `tick` (nearest keyframe, then re-simulation); returns the model.
std::unique_ptr<Model> state_at(const lsr::Recording& rec, uint64_t tick);
/// The same from a clone of `fresh`, the recording's model_for() never stepped, instead of building
/// the model from the scenario again: for a tool that seeks to several ticks of one recording.
std::unique_ptr<Model> state_at(const lsr::Recording& rec, uint64_t tick, const Model& fresh);

Result run(const lsr::Recording& rec, const Options& opt);

/// What `inspect` can check of a recording's inputs without stepping: each stored input decodes as
/// the model's Input and holds no NaN or infinity. (Whether the model can step it from the state it
/// meets, a walker that exists, a value in range, is checked when it is stepped: replay, export.)
struct InputCheck {
  bool checked = false;              ///< false when this build cannot make the recording's model
  std::string note;                  ///< why not checked
  uint64_t stored = 0;               ///< inputs stored (a held input is stored once per chunk)
  std::optional<std::string> error;  ///< the first that fails: file, tick and field
};
InputCheck check_inputs(const lsr::Recording& rec);

}  // namespace lockstep::replay
