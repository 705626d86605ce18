// Snapshots (cereal portable binary, little-endian) and JSON (cereal JSON),
// both driven by the field listing (reflect.h).
//
// Restoring never trusts sizes in the input: every vector length is checked
// against the bytes that could possibly hold it before anything is allocated,
// and a short or damaged snapshot throws InputError and leaves the target
// state untouched.
//
// Note: this header serialises std::vector itself (size-checked); do not
// include <cereal/types/vector.hpp> in the same program.
#pragma once

#include <algorithm>
#include <bit>
#include <cstring>
#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>
#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "lockstep/core/error.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/reflect.h"

namespace lockstep::detail {

/// Bytes in the snapshot being restored (per thread; restores do not nest).
inline thread_local std::size_t restore_budget = 0;

/// The fewest bytes one value of T takes in the portable binary encoding.
template <class T>
std::size_t min_encoded_size() {
  using U = std::remove_cv_t<T>;
  if constexpr (Scalar<U>) {
    return sizeof(U);
  } else if constexpr (std::same_as<U, std::string> || is_std_vector_v<U>) {
    return sizeof(uint64_t);  // the size tag
  } else if constexpr (is_std_array_v<U>) {
    return std::tuple_size_v<U> * min_encoded_size<typename U::value_type>();
  } else {
    std::size_t n = 0;
    U probe{};
    U::fields(probe, [&](const FieldInfo&, auto& f) { n += min_encoded_size<std::remove_cvref_t<decltype(f)>>(); });
    return n;
  }
}

/// Every bool leaf of a value holds 0 or 1 (read as bytes, never as bool).
template <class T>
bool bools_valid(const T& v) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::same_as<U, bool>) {
    unsigned char b = 0;
    std::memcpy(&b, &v, 1);
    return b <= 1;
  } else if constexpr (Scalar<U> || std::same_as<U, std::string>) {
    return true;
  } else if constexpr (is_std_array_v<U> || is_std_vector_v<U>) {
    for (const auto& e : v)
      if (!bools_valid(e)) return false;
    return true;
  } else {
    bool ok = true;
    U::fields(v, [&](const FieldInfo&, const auto& f) { ok = ok && bools_valid(f); });
    return ok;
  }
}

}  // namespace lockstep::detail

namespace cereal {

/// Every reflected struct serialises through its field listing.
template <class Archive, class T>
  requires lockstep::Reflected<T>
void serialize(Archive& ar, T& value) {
  T::fields(value, [&](const lockstep::FieldInfo& fi, auto& field) { ar(cereal::make_nvp(fi.name, field)); });
}

template <class Archive, class T, class A>
void save(Archive& ar, const std::vector<T, A>& v) {
  static_assert(!std::is_same_v<T, bool>, "std::vector<bool> is not supported in state");
  ar(make_size_tag(static_cast<size_type>(v.size())));
  if constexpr (std::is_same_v<Archive, PortableBinaryOutputArchive>) {
    // Elements whose memory is their little-endian encoding go as one block:
    // the same bytes the field-by-field path writes (reflect.h, is_raw).
    if (lockstep::is_raw<T>()) {
      ar.template saveBinary<1>(v.data(), v.size() * sizeof(T));
      return;
    }
  }
  for (const auto& e : v) ar(e);
}

template <class Archive, class T, class A>
void load(Archive& ar, std::vector<T, A>& v) {
  size_type n = 0;
  ar(make_size_tag(n));
  const std::size_t each = std::max<std::size_t>(1, lockstep::detail::min_encoded_size<T>());
  if (n > lockstep::detail::restore_budget / each)
    throw Exception("a list claims " + std::to_string(n) + " elements, more than the " +
                    std::to_string(lockstep::detail::restore_budget) + "-byte input can hold");
  v.clear();
  v.resize(static_cast<std::size_t>(n));
  if constexpr (std::is_same_v<Archive, PortableBinaryInputArchive>) {
    if (lockstep::is_raw<T>()) {
      ar.template loadBinary<1>(v.data(), v.size() * sizeof(T));
      // A flag must be 0 or 1 before anything reads it as a bool.
      for (const auto& e : v)
        if (!lockstep::detail::bools_valid(e)) throw Exception("a flag in a list is neither 0 nor 1");
      return;
    }
  }
  for (auto& e : v) ar(e);
}

}  // namespace cereal

namespace lockstep {

/// Portable binary snapshot of a reflected value, written by cereal's archive (the reference
/// snapshot_bytes is tested against, and the writer on a big-endian host).
template <class T>
std::vector<uint8_t> snapshot_bytes_cereal(const T& value) {
  std::ostringstream os(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(value);
  }
  const std::string s = std::move(os).str();
  return std::vector<uint8_t>(s.begin(), s.end());
}

namespace detail {
/// cereal's portable binary encoding of a reflected value is its canonical encoding (hash.h) with
/// cereal's u64 size tags for lengths, after one byte saying the stream is little-endian (1):
/// scalars as their little-endian bytes, a std::array's elements, a vector's and a string's size
/// tag then their elements, a struct's fields in listing order. So write_canonical writes it, its
/// raw blocks at memory speed, into a vector of the caller's.
struct SnapshotSink {
  std::vector<uint8_t>& out;
  void bytes(const void* d, std::size_t n) {
    const auto* p = static_cast<const uint8_t*>(d);
    out.insert(out.end(), p, p + n);
  }
  void u8(uint8_t v) { out.push_back(v); }
  template <class U>
  void le(U v) {
    static_assert(std::is_unsigned_v<U>);
    uint8_t b[sizeof(U)];
    for (std::size_t i = 0; i < sizeof(U); ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
    bytes(b, sizeof(U));
  }
  void length(std::size_t n) { le(static_cast<uint64_t>(n)); }
};
}  // namespace detail

/// Portable binary snapshot of a reflected value (cereal's PortableBinaryOutputArchive's bytes,
/// which restore_bytes reads) written into `out`: its bytes replaced, its capacity kept, so that
/// one buffer serves snapshot after snapshot (a recorder's keyframes) without allocating or
/// touching fresh pages.
template <class T>
void snapshot_bytes_into(const T& value, std::vector<uint8_t>& out) {
  out.clear();
  if constexpr (std::endian::native == std::endian::little) {
    detail::SnapshotSink s{out};
    s.u8(1);  // cereal's endianness byte: little-endian
    write_canonical(s, value);
  } else {
    out = snapshot_bytes_cereal(value);
  }
}

/// Portable binary snapshot of a reflected value, in a vector of its own.
template <class T>
std::vector<uint8_t> snapshot_bytes(const T& value) {
  // The last snapshot's size of this type on this thread, as a first guess: a state's snapshot
  // is written without growing its vector again and again.
  static thread_local std::size_t guess = 0;
  std::vector<uint8_t> out;
  out.reserve(guess + guess / 8 + 64);
  snapshot_bytes_into(value, out);
  guess = out.size();
  return out;
}

/// Restore a snapshot into `out`. On any error `out` is unchanged and an
/// InputError names `source` and what was wrong; trailing bytes are an error.
template <class T>
void restore_bytes(std::span<const uint8_t> bytes, T& out, const std::string& source = "snapshot") {
  T tmp = out;  // keeps fixed-size members' shapes; replaced wholesale on success
  std::istringstream is(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), std::ios::binary);
  detail::restore_budget = bytes.size();
  try {
    cereal::PortableBinaryInputArchive ar(is);
    ar(tmp);
  } catch (const cereal::Exception& e) {
    is.clear();
    const long long at = static_cast<long long>(is.tellg());
    throw InputError(source, "byte " + std::to_string(at < 0 ? 0 : at), std::string("damaged snapshot: ") + e.what());
  } catch (const std::bad_alloc&) {
    throw InputError(source, "", "damaged snapshot: a size beyond what memory allows");
  }
  is.peek();
  if (!is.eof()) {
    throw InputError(source, "byte " + std::to_string(static_cast<long long>(is.tellg())),
                     "damaged snapshot: " + std::to_string(bytes.size() - static_cast<std::size_t>(is.tellg())) +
                         " unexpected bytes after the end");
  }
  out = std::move(tmp);
}

/// Pretty JSON of a reflected value, every field named as in its listing.
template <class T>
std::string to_json(const T& value, const char* root_name = "state") {
  std::ostringstream os;
  {
    cereal::JSONOutputArchive ar(os, cereal::JSONOutputArchive::Options(
                                         std::numeric_limits<double>::max_digits10,
                                         cereal::JSONOutputArchive::Options::IndentChar::space, 2));
    ar(cereal::make_nvp(root_name, value));
  }
  return os.str();
}

}  // namespace lockstep
