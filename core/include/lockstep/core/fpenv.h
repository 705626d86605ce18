// The floating-point environment a model steps in.
//
// Same inputs give the same bits only under one floating-point environment:
// IEEE 754 round-to-nearest-even with subnormal numbers kept, and no traps.
// A host program can change it behind our back: a program linked with
// -ffast-math gets crtfastmath.o, whose constructor sets flush-to-zero and
// denormals-are-zero before main() (x86-64 MXCSR FZ and DAZ; aarch64 FPCR FZ),
// even when every Lockstep source was compiled without fast-math; fesetround
// changes the rounding; feenableexcept turns an overflow into SIGFPE.
//
// So every model step runs inside an IeeeFpScope (model.h): it reads the
// control register (a few cycles), and only when it is not the IEEE default
// sets the default for the step and puts the caller's mode back afterwards.
// The environment a process started in is recorded in a recording's build
// info (docs/format.md) and shown by `inspect`, `diff` and `bisect`.
#pragma once

#include <cstdint>
#include <string>

namespace lockstep {

struct FpEnv {
  uint32_t control = 0;            ///< x86-64: MXCSR without its sticky flags; aarch64: FPCR
  bool flush_to_zero = false;      ///< results that would be subnormal become zero (MXCSR FZ, FPCR FZ)
  bool denormals_are_zero = false; ///< subnormal operands read as zero (MXCSR DAZ; aarch64's FZ does both)
  int rounding = 0;                ///< 0 nearest-even, 1 toward -inf, 2 toward +inf, 3 toward zero
  bool traps = false;              ///< some floating-point exception traps (SIGFPE) instead of giving inf or NaN

  /// Round-to-nearest-even, subnormals kept, no traps: the only environment Lockstep steps in.
  bool ieee_default() const { return !flush_to_zero && !denormals_are_zero && rounding == 0 && !traps; }
  /// "IEEE default", or what differs: "flush-to-zero, denormals-are-zero (MXCSR 0x9f80)".
  std::string text() const;
  /// A short phrase for a report about one build: "flushes denormals to zero", "rounds toward zero", ...
  std::string difference() const;
};

/// What an environment's text (FpEnv::text, as a recording keeps it) says a build does, for
/// reports: "flushes denormals to zero", "rounds toward zero", ... ("" for the IEEE default or
/// an unknown text).
std::string fp_env_difference(const std::string& text);

/// The calling thread's floating-point environment.
FpEnv current_fp_env();

/// The environment of this process as the first call found it (the command line asks first
/// thing in main, after every constructor, crtfastmath.o's included). Recorded in a
/// recording's build info.
FpEnv process_fp_env();

/// Sets the IEEE default for its lifetime when the thread is in another mode, and restores the
/// caller's mode after. Costs one read of the control register when the mode is already right.
class IeeeFpScope {
 public:
  IeeeFpScope();
  ~IeeeFpScope();
  IeeeFpScope(const IeeeFpScope&) = delete;
  IeeeFpScope& operator=(const IeeeFpScope&) = delete;
  /// Whether the caller's mode had to be changed.
  bool changed() const { return changed_; }

 private:
  uint64_t saved_ = 0;
  bool changed_ = false;
};

}  // namespace lockstep
