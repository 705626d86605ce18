// One seeded, counter-based RNG per world, with named streams.
//
// The generator is SplitMix64 (Steele, Lea, Flood 2014; Vigna's reference
// splitmix64.c) read as a counter-based generator: its n-th output from state
// `key` is mix64(key + (n + 1) * golden), so any draw can be made from
// (key, n) alone, without the draws before it. A stream is a key derived from
// the world's seed and the stream's name; its counter lives in the reflected
// state, so it is hashed, snapshotted and diffed like any other field.
// Floats are made from the top 24 bits with exact operations: the same bits
// everywhere. No std::*_distribution (their algorithms differ between
// standard libraries).
#pragma once

#include <cstdint>
#include <string_view>

#include "lockstep/core/reflect.h"

namespace lockstep {

inline constexpr uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ull;

/// SplitMix64's output function.
constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The n-th output (n = 0, 1, ...) of SplitMix64 seeded with `key`.
constexpr uint64_t splitmix_at(uint64_t key, uint64_t n) { return mix64(key + (n + 1) * kSplitMixGamma); }

/// FNV-1a 64 of a name: stream ids are fixed by their names.
constexpr uint64_t fnv1a64(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

/// The key of the stream `name` of a world seeded with `seed`.
constexpr uint64_t stream_key(uint64_t seed, std::string_view name) { return mix64(seed ^ mix64(fnv1a64(name))); }

/// A float in [0, 1) from the top 24 bits of a draw: exactly k / 2^24.
constexpr float unit_float(uint64_t draw) { return static_cast<float>(draw >> 40) * 0x1.0p-24f; }

/// lo + (hi - lo) * u: a float in [lo, hi] (hi only by rounding), as Unity's
/// Random.Range(float, float) is used by the seeds.
constexpr float range_float(uint64_t draw, float lo, float hi) { return lo + (hi - lo) * unit_float(draw); }

/// An integer in [lo, hi] inclusive, by multiply-high (no modulo bias beyond 2^-32).
constexpr int32_t range_int_inclusive(uint64_t draw, int32_t lo, int32_t hi) {
  const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - static_cast<int64_t>(lo)) + 1u;
  return static_cast<int32_t>(static_cast<int64_t>(lo) + static_cast<int64_t>(((draw >> 32) * span) >> 32));
}

/// A stream: its key and how many draws it has made. Reflected: part of the state.
struct RngStream {
  uint64_t key = 0;
  uint64_t counter = 0;

  constexpr RngStream() = default;
  constexpr RngStream(uint64_t seed, std::string_view name) : key(stream_key(seed, name)) {}

  constexpr uint64_t next_u64() { return splitmix_at(key, counter++); }
  constexpr float next_unit() { return unit_float(next_u64()); }
  constexpr float next_range(float lo, float hi) { return range_float(next_u64(), lo, hi); }
  constexpr int32_t next_int(int32_t lo, int32_t hi) { return range_int_inclusive(next_u64(), lo, hi); }

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"key"}, s.key);
    v(FieldInfo{"counter"}, s.counter);
  }
};

}  // namespace lockstep
