// Checks every model's inputs and restored states get before a step, through
// the field listing (reflect.h): a NaN or an infinity in an input or a state
// is never something a model made, and a step must not see one.
#pragma once

#include <bit>
#include <charconv>
#include <cstdint>
#include <string>
#include <type_traits>

#include "lockstep/core/diff.h"  // shortest()
#include "lockstep/core/reflect.h"
#include "lockstep/core/vec.h"

namespace lockstep {

/// True for every float that is neither an infinity nor a NaN (by its bits, so no
/// floating-point mode or optimisation can change the answer).
inline bool finite_bits(float v) { return (std::bit_cast<uint32_t>(v) & 0x7f800000u) != 0x7f800000u; }
inline bool finite_bits(double v) {
  return (std::bit_cast<uint64_t>(v) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}

/// The path of the first float or double leaf of `value` (listing order) that is not
/// finite, or "" when every one is: "events[2].value.x".
template <class T>
std::string first_nonfinite(const T& value) {
  Path p;
  std::string found;
  walk_leaves(value, p, [&](const Path& path, const auto& leaf) {
    using L = std::remove_cvref_t<decltype(leaf)>;
    if constexpr (std::is_floating_point_v<L>) {
      if (found.empty() && !finite_bits(leaf)) found = path.str();
    }
  });
  return found;
}

// ---------------------------------------------------------------- range checks of models

/// -bound <= v <= bound (false for a NaN).
inline bool within(float v, float bound) { return v >= -bound && v <= bound; }

/// The first component of v beyond +-bound ("x", "y" or "z"), or nullptr when none is.
inline const char* beyond(Vec3 v, float bound) {
  if (!within(v.x, bound)) return "x";
  if (!within(v.y, bound)) return "y";
  if (!within(v.z, bound)) return "z";
  return nullptr;
}

/// The component `beyond` named.
inline float component(Vec3 v, const char* c) { return c[0] == 'x' ? v.x : (c[0] == 'y' ? v.y : v.z); }

}  // namespace lockstep
