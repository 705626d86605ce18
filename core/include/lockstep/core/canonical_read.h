// Reading the canonical encoding (hash.h) back, bounds-checked: every length
// is checked against the bytes that remain before anything is allocated, and
// every error names the source and the byte offset.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "lockstep/core/error.h"
#include "lockstep/core/reflect.h"

namespace lockstep {

class CanonicalReader {
 public:
  CanonicalReader(std::span<const uint8_t> bytes, std::string source, std::size_t base_offset = 0)
      : b_(bytes), source_(std::move(source)), base_(base_offset) {}

  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return b_.size() - pos_; }
  bool done() const { return pos_ == b_.size(); }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source_, "byte " + std::to_string(base_ + pos_), what);
  }

  const uint8_t* take(std::size_t n, const char* what) {
    if (n > remaining())
      fail(std::string("cut short: ") + what + " needs " + std::to_string(n) + " bytes, " +
           std::to_string(remaining()) + " remain");
    const uint8_t* p = b_.data() + pos_;
    pos_ += n;
    return p;
  }

  template <class U>
  U le(const char* what = "a number") {
    static_assert(std::is_unsigned_v<U>);
    const uint8_t* p = take(sizeof(U), what);
    U v = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i) v = static_cast<U>(v | (static_cast<U>(p[i]) << (8 * i)));
    return v;
  }

  /// A u32 length, refused when more elements than the remaining bytes could hold.
  uint32_t length(std::size_t min_element_bytes, const char* what) {
    const uint32_t n = le<uint32_t>(what);
    if (min_element_bytes > 0 && n > remaining() / min_element_bytes)
      fail(std::string(what) + " claims " + std::to_string(n) + " elements, more than the " +
           std::to_string(remaining()) + " remaining bytes can hold");
    return n;
  }

  template <class T>
  void read(T& v) {
    using U = std::remove_cv_t<T>;
    if constexpr (std::same_as<U, bool>) {
      const uint8_t b = le<uint8_t>("a flag");
      if (b > 1) fail("a flag must be 0 or 1, found " + std::to_string(b));
      v = b == 1;
    } else if constexpr (std::is_enum_v<U>) {
      std::underlying_type_t<U> raw{};
      read(raw);
      v = static_cast<U>(raw);
    } else if constexpr (std::is_integral_v<U>) {
      v = static_cast<U>(le<std::make_unsigned_t<U>>());
    } else if constexpr (std::same_as<U, float>) {
      v = std::bit_cast<float>(le<uint32_t>("an f32"));
    } else if constexpr (std::same_as<U, double>) {
      v = std::bit_cast<double>(le<uint64_t>("an f64"));
    } else if constexpr (std::same_as<U, std::string>) {
      const uint32_t n = length(1, "a string");
      const uint8_t* p = take(n, "a string");
      v.assign(reinterpret_cast<const char*>(p), n);
    } else if constexpr (is_std_array_v<U>) {
      for (auto& e : v) read(e);
    } else if constexpr (is_std_vector_v<U>) {
      const uint32_t n = length(1, "a list");
      v.clear();
      v.resize(n);
      for (auto& e : v) read(e);
    } else {
      static_assert(Reflected<U>);
      U::fields(v, [&](const FieldInfo&, auto& f) { read(f); });
    }
  }

 private:
  std::span<const uint8_t> b_;
  std::string source_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

/// Decode a whole canonical encoding into a T; trailing bytes are an error.
template <class T>
T decode_canonical(std::span<const uint8_t> bytes, const std::string& source) {
  T v{};
  CanonicalReader r(bytes, source);
  r.read(v);
  if (!r.done()) r.fail(std::to_string(r.remaining()) + " unexpected bytes after the end");
  return v;
}

}  // namespace lockstep
