// A model's step as a list of named phases, reported to an optional observer (the model
// contract's profiling hook, model.h; `lockstep profile`, docs/profile.md).
//
// A model lists its phases once, in the order its step runs them,
//   static constexpr std::array<std::string_view, 3> kPhases{"inputs", "think", "control"};
// holds a PhaseHook (never part of its State: not hashed, not snapshotted), gives it to the
// adapter with
//   void set_phase_observer(PhaseObserver* o) { phases_.set(o); }
// and marks each phase of its step with a scope:
//   { const auto p = phases_.scope(0); ...the inputs... }
// With no observer (always, except under a profiler) a scope is one test of a null pointer on
// entry and one on exit: no call, no clock, no change to what the step computes.
//
// core/ reads no clock (docs/architecture.md): an observer that times the phases lives in a tool
// (tools/lockstep/src/profile.cpp). Observers are called on the stepping thread, in order.
#pragma once

#include <cstdint>

namespace lockstep {

/// Told when a step and each of its phases begin and end. The adapter (model.h) calls step_begin
/// and step_end around the model's own step; the model calls phase_begin and phase_end, by the
/// phase's index in its kPhases, nested inside them. Another reporter (the recorder, lsr.h) calls
/// the phase calls with its own indices on its own observer.
class PhaseObserver {
 public:
  virtual ~PhaseObserver() = default;
  /// `tick` is the model's tick() before the step (the step's index, as in a recording).
  virtual void step_begin(uint64_t tick) { (void)tick; }
  virtual void step_end(uint64_t tick) { (void)tick; }
  virtual void phase_begin(uint32_t phase) = 0;
  virtual void phase_end(uint32_t phase) = 0;
};

/// One phase for the length of a scope: begin on entry, end on exit (an exception too).
/// Nothing at all when there is no observer.
class PhaseScope {
 public:
  PhaseScope(PhaseObserver* o, uint32_t phase) : o_(o), phase_(phase) {
    if (o_) [[unlikely]]
      o_->phase_begin(phase_);
  }
  ~PhaseScope() {
    if (o_) [[unlikely]]
      o_->phase_end(phase_);
  }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  PhaseObserver* o_;
  uint32_t phase_;
};

/// What a model (or the recorder) holds to report its phases: the observer, or none.
class PhaseHook {
 public:
  void set(PhaseObserver* o) { o_ = o; }
  PhaseObserver* observer() const { return o_; }
  /// Scope of phase `phase` (an index in the reporter's list of phase names).
  [[nodiscard]] PhaseScope scope(uint32_t phase) const { return PhaseScope(o_, phase); }

 private:
  PhaseObserver* o_ = nullptr;
};

}  // namespace lockstep
