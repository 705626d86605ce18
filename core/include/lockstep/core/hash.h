// Canonical bytes and XXH3-64 hashes of reflected state.
//
// The canonical encoding of a value, driven by its field listing (reflect.h):
//   bool            1 byte, 0 or 1
//   integer, enum   its width in bytes, little-endian (enums by underlying type)
//   float, double   IEEE bits, little-endian (so -0.0 and 0.0 differ, as do NaN payloads)
//   std::string     u32 length, then the bytes
//   std::array      the elements in order
//   std::vector     u32 length, then the elements in order
//   struct          its fields in listing order, no padding
// The hash of a state is not the hash of its memory: padding, layout and
// host endianness never enter it (docs/architecture.md). Structs whose memory is
// already canonical take a block fast path with identical results.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "lockstep/core/reflect.h"

namespace lockstep {

/// Streaming XXH3-64 over canonical bytes (seed 0).
class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  void bytes(const void* data, std::size_t n) {
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy must never see
    // Large blocks go straight to XXH3 (the digest depends only on the byte
    // stream, not on how it is cut); this shape also keeps gcc's bounds
    // analysis from flagging the buffer copy for large constant sizes.
    if (n >= kBuf) {
      flush();
      update(data, n);
      return;
    }
    if (n > kBuf - used_) flush();
    std::memcpy(buf_ + used_, data, n);
    used_ += n;
  }
  void u8(uint8_t v) { bytes(&v, 1); }
  void u32(uint32_t v) { le(v); }
  void u64(uint64_t v) { le(v); }
  uint64_t digest();

  template <class U>
  void le(U v) {
    static_assert(std::is_unsigned_v<U>);
    unsigned char b[sizeof(U)];
    for (std::size_t i = 0; i < sizeof(U); ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    bytes(b, sizeof(U));
  }

 private:
  static constexpr std::size_t kBuf = 512;
  void flush();
  void update(const void* data, std::size_t n);
  // The XXH3 streaming state lives inline (no allocation per hash) and is
  // only started once more than one buffer's worth has been written; a small
  // value is hashed in one shot from the buffer, with the same result.
  static constexpr std::size_t kStateBytes = 640;  // >= sizeof(XXH3_state_t), checked in hash.cpp
  alignas(64) unsigned char state_[kStateBytes];
  bool streaming_ = false;
  unsigned char buf_[kBuf];
  std::size_t used_ = 0;
};

/// One-shot XXH3-64 of a byte range.
uint64_t xxh3(const void* data, std::size_t n);
/// The same through the portable code path (tests compare the two).
uint64_t xxh3_portable(const void* data, std::size_t n);
/// Which code path XXH3 runs on this CPU: "avx2" or "portable".
const char* hash_implementation();

/// Write the canonical encoding of `v` into any sink with bytes()/u8()/le().
template <class Sink, class T>
void write_canonical(Sink& s, const T& v, bool allow_raw = true) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::same_as<U, bool>) {
    s.u8(v ? 1 : 0);
  } else if constexpr (std::is_enum_v<U>) {
    write_canonical(s, static_cast<std::underlying_type_t<U>>(v), allow_raw);
  } else if constexpr (std::is_integral_v<U>) {
    s.le(static_cast<std::make_unsigned_t<U>>(v));
  } else if constexpr (std::same_as<U, float>) {
    s.le(std::bit_cast<uint32_t>(v));
  } else if constexpr (std::same_as<U, double>) {
    s.le(std::bit_cast<uint64_t>(v));
  } else if constexpr (std::same_as<U, std::string>) {
    s.le(static_cast<uint32_t>(v.size()));
    s.bytes(v.data(), v.size());
  } else if constexpr (is_std_array_v<U> || is_std_vector_v<U>) {
    using E = typename U::value_type;
    if constexpr (is_std_vector_v<U>) s.le(static_cast<uint32_t>(v.size()));
    if constexpr (!std::same_as<E, bool>) {
      if (allow_raw && is_raw<E>()) {
        s.bytes(v.data(), v.size() * sizeof(E));
        return;
      }
    }
    for (const auto& e : v) write_canonical(s, e, allow_raw);
  } else {
    static_assert(Reflected<U>, "type has no field listing");
    if (allow_raw && is_raw<U>()) {
      s.bytes(&v, sizeof(U));
      return;
    }
    U::fields(v, [&](const FieldInfo&, const auto& f) { write_canonical(s, f, allow_raw); });
  }
}

/// XXH3-64 of the canonical encoding of `v`.
template <class T>
uint64_t hash_of(const T& v, bool allow_raw = true) {
  Hasher h;
  write_canonical(h, v, allow_raw);
  return h.digest();
}

/// The canonical bytes of `v` as a vector (tests, debugging, trace logs).
struct ByteSink {
  std::vector<unsigned char> out;
  void bytes(const void* d, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(d);
    out.insert(out.end(), p, p + n);
  }
  void u8(uint8_t v) { out.push_back(v); }
  template <class U>
  void le(U v) {
    for (std::size_t i = 0; i < sizeof(U); ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
  }
};

inline constexpr std::size_t kMaxSubsystems = 16;

/// A state's hashes: one per subsystem (a top-level field of the state, in
/// listing order) and the whole-state hash, which is XXH3-64 over the
/// subsystem hashes as little-endian u64s in order. Changing any leaf changes
/// exactly one subsystem hash and so the whole hash.
struct StateHashes {
  uint64_t whole = 0;
  uint32_t count = 0;
  std::array<uint64_t, kMaxSubsystems> sub{};
  bool operator==(const StateHashes&) const = default;
};

template <class State>
  requires Reflected<State>
StateHashes hash_state(const State& s) {
  StateHashes h;
  State::fields(s, [&](const FieldInfo&, const auto& f) {
    if (h.count < kMaxSubsystems) h.sub[h.count] = hash_of(f);
    ++h.count;
  });
  if (h.count > kMaxSubsystems) h.count = kMaxSubsystems;  // static check below makes this unreachable
  Hasher w;
  for (uint32_t i = 0; i < h.count; ++i) w.u64(h.sub[i]);
  h.whole = w.digest();
  return h;
}

template <class State>
  requires Reflected<State>
std::vector<std::string> subsystem_names() {
  std::vector<std::string> names;
  State probe{};
  State::fields(probe, [&](const FieldInfo& fi, const auto&) { names.emplace_back(fi.name); });
  return names;
}

/// 16 lowercase hex digits.
std::string hex64(uint64_t v);

}  // namespace lockstep
