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

namespace detail {
/// A length: u32 in the canonical encoding; a sink with its own length(n) (the snapshot's, with
/// cereal's u64 size tags) writes its own.
template <class Sink>
void write_length(Sink& s, std::size_t n) {
  if constexpr (requires { s.length(n); })
    s.length(n);
  else
    s.le(static_cast<uint32_t>(n));
}
}  // namespace detail

/// Write the canonical encoding of `v` into any sink with bytes()/u8()/le().
///
/// With allow_raw (the default), memory that is already canonical goes as blocks: a whole struct,
/// array or vector of raw elements (is_raw) in one bytes() call, and in any other struct each run
/// of raw fields that lie next to each other in memory, in listing order, as one block, up to a
/// field that is not raw (a vector, a string), a gap of padding, or a field listed out of memory
/// order. The bytes are those of the field walk (allow_raw = false) by is_raw's own definition:
/// each raw field's memory is its encoding, and the run is the fields in listing order.
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
    detail::write_length(s, v.size());
    s.bytes(v.data(), v.size());
  } else if constexpr (is_std_array_v<U> || is_std_vector_v<U>) {
    using E = typename U::value_type;
    if constexpr (is_std_vector_v<U>) detail::write_length(s, v.size());
    if constexpr (!std::same_as<E, bool>) {
      if (allow_raw && is_raw<E>()) {
        s.bytes(v.data(), v.size() * sizeof(E));
        return;
      }
    }
    for (const auto& e : v) write_canonical(s, e, allow_raw);
  } else {
    static_assert(Reflected<U>, "type has no field listing");
    if (!allow_raw) {
      U::fields(v, [&](const FieldInfo&, const auto& f) { write_canonical(s, f, false); });
      return;
    }
    if (is_raw<U>()) {
      s.bytes(&v, sizeof(U));
      return;
    }
    const unsigned char* run = nullptr;  // the run of raw fields not yet written
    std::size_t run_bytes = 0;
    U::fields(v, [&](const FieldInfo&, const auto& f) {
      using F = std::remove_cvref_t<decltype(f)>;
      if constexpr (!is_std_vector_v<F> && !std::same_as<F, std::string>) {
        if (is_raw<F>()) {
          const auto* at = reinterpret_cast<const unsigned char*>(&f);
          if (run_bytes > 0 && run + run_bytes == at) {
            run_bytes += sizeof(F);
            return;
          }
          if (run_bytes > 0) s.bytes(run, run_bytes);
          run = at;
          run_bytes = sizeof(F);
          return;
        }
      }
      if (run_bytes > 0) s.bytes(run, run_bytes);
      run_bytes = 0;
      write_canonical(s, f, true);
    });
    if (run_bytes > 0) s.bytes(run, run_bytes);
  }
}

/// XXH3-64 of the canonical encoding of `v`.
template <class T>
uint64_t hash_of(const T& v, bool allow_raw = true) {
  using U = std::remove_cv_t<T>;
  // A value whose memory is its canonical encoding (a raw struct, an array of raw elements: the
  // warriors' 60 human slots) is one block: XXH3 in one shot over its memory, without the
  // streaming state (the digest depends only on the bytes, not on how they are fed).
  if constexpr (is_std_array_v<U>) {
    using E = typename U::value_type;
    if constexpr (!std::same_as<E, bool>)
      if (allow_raw && is_raw<E>()) return xxh3(v.data(), v.size() * sizeof(E));
  } else if constexpr (Reflected<U>) {
    if (allow_raw && is_raw<U>()) return xxh3(&v, sizeof(U));
  }
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
    static_assert(std::is_unsigned_v<U>);
    unsigned char b[sizeof(U)];
    for (std::size_t i = 0; i < sizeof(U); ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    bytes(b, sizeof(U));
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
