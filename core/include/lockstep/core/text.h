// Small text helpers every tool shares: JSON string escaping and the way a
// leaf's value is shown in reports (decimal, then its bits).
#pragma once

#include <string>

#include "lockstep/core/diff.h"

namespace lockstep {

/// The body of a JSON string (without the quotes).
std::string json_escape(const std::string& s);

/// A leaf's value for reports: floats as "1.5 (0x3fc00000)", others as their text.
std::string value_with_bits(const LeafValue& v);

/// A float leaf's bits as "0x3fc00000" (f32) or "0x3ff8000000000000" (f64).
std::string hex_bits(const LeafValue& v);

}  // namespace lockstep
