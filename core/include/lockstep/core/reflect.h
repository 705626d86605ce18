// The single field listing that every state, input and scenario struct gives.
//
// A reflected struct lists its fields once, in order:
//
//   struct Brain {
//     float move_speed = 0;   ///< m/s
//     template <class S, class V> static void fields(S& s, V&& v) {
//       v(FieldInfo{"move_speed", 0x114}, s.move_speed);   // brain+0x114
//     }
//   };
//
// `S` is the struct itself or its const version, so one listing serves readers
// and writers. Everything that looks at state goes through this listing:
// hashing (hash.h), snapshots and JSON (snapshot.h), field-path diff and leaf
// access (diff.h), scenario loading (json_load.h). So a dump can never cover
// less than the hash.
//
// Supported field types: bool, fixed-width integers, float, double, enums,
// std::string, std::array<T, N>, std::vector<T>, and reflected structs.
#pragma once

#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace lockstep {

/// One field's entry in a listing.
struct FieldInfo {
  const char* name;     ///< field name as it appears in paths and JSON
  int32_t offset = -1;  ///< byte offset in the original program's record (e.g. 0x114), -1 when none
};

namespace detail {
struct NullVisitor {
  template <class T>
  void operator()(const FieldInfo&, T&) const {}
};
}  // namespace detail

template <class T>
concept Reflected = std::is_class_v<T> && requires(T& t) { T::fields(t, detail::NullVisitor{}); };

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_std_vector : std::false_type {};
template <class T, class A>
struct is_std_vector<std::vector<T, A>> : std::true_type {};

template <class T>
inline constexpr bool is_std_array_v = is_std_array<std::remove_cv_t<T>>::value;
template <class T>
inline constexpr bool is_std_vector_v = is_std_vector<std::remove_cv_t<T>>::value;

/// Scalar field types: the leaves of a state tree.
template <class T>
concept Scalar = std::is_arithmetic_v<std::remove_cv_t<T>> || std::is_enum_v<std::remove_cv_t<T>>;
template <class T>
concept Leaf = Scalar<T> || std::same_as<std::remove_cv_t<T>, std::string>;

enum class LeafKind : uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F32, F64, String };

const char* leaf_kind_name(LeafKind k);

template <class T>
constexpr LeafKind leaf_kind_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_enum_v<U>) {
    return leaf_kind_of<std::underlying_type_t<U>>();
  } else if constexpr (std::same_as<U, bool>) {
    return LeafKind::Bool;
  } else if constexpr (std::same_as<U, float>) {
    static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559);
    return LeafKind::F32;
  } else if constexpr (std::same_as<U, double>) {
    return LeafKind::F64;
  } else if constexpr (std::same_as<U, std::string>) {
    return LeafKind::String;
  } else {
    static_assert(std::is_integral_v<U>, "unsupported leaf type");
    constexpr bool s = std::is_signed_v<U>;
    if constexpr (sizeof(U) == 1) return s ? LeafKind::I8 : LeafKind::U8;
    if constexpr (sizeof(U) == 2) return s ? LeafKind::I16 : LeafKind::U16;
    if constexpr (sizeof(U) == 4) return s ? LeafKind::I32 : LeafKind::U32;
    if constexpr (sizeof(U) == 8) return s ? LeafKind::I64 : LeafKind::U64;
  }
}

/// A typed pointer to one leaf, for tools that handle leaves generically.
struct LeafRef {
  LeafKind kind;
  void* ptr;
};
struct ConstLeafRef {
  LeafKind kind;
  const void* ptr;
};

/// A field path under construction: `entities[3].velocity.x`.
/// Segments are kept as pointers/indices; text is made only when asked.
class Path {
 public:
  void push_name(const char* n, int32_t offset = -1) { segs_.push_back({n, 0, offset}); }
  void push_index(std::size_t i) { segs_.push_back({nullptr, i, -1}); }
  void pop() { segs_.pop_back(); }
  std::size_t depth() const { return segs_.size(); }
  std::string str() const;
  /// Index of the first segment (top-level field) name, or nullptr.
  const char* top() const { return segs_.empty() ? nullptr : segs_.front().name; }
  /// Where the leaf lives in the original program's records, from the innermost field listed
  /// with an offset: "brain+0x114", "humans+0x1ac" (a slot of `humans`), "brain+0x90.x" (a
  /// component of a field at +0x90). Empty when no field on the path has an offset.
  std::string original() const;

 private:
  struct Seg {
    const char* name;
    std::size_t index;
    int32_t offset;
  };
  std::vector<Seg> segs_;
};

/// Visit every leaf of `value` in listing order, calling f(path, leaf&).
/// Arrays and vectors are walked by index; a vector's length is not a leaf.
template <class T, class F>
void walk_leaves(T& value, Path& path, F&& f) {
  using U = std::remove_cv_t<T>;
  if constexpr (Leaf<U>) {
    f(path, value);
  } else if constexpr (is_std_array_v<U> || is_std_vector_v<U>) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      path.push_index(i);
      walk_leaves(value[i], path, f);
      path.pop();
    }
  } else {
    static_assert(Reflected<U>, "field type has no field listing");
    U::fields(value, [&](const FieldInfo& fi, auto& field) {
      path.push_name(fi.name, fi.offset);
      walk_leaves(field, path, f);
      path.pop();
    });
  }
}

/// Visit the direct fields of a reflected struct: f(info, field&).
template <class T, class F>
  requires Reflected<std::remove_cv_t<T>>
void for_each_field(T& value, F&& f) {
  std::remove_cv_t<T>::fields(value, f);
}

template <Leaf T>
LeafRef leaf_ref(T& v) {
  return {leaf_kind_of<T>(), static_cast<void*>(&v)};
}
template <Leaf T>
ConstLeafRef leaf_ref(const T& v) {
  return {leaf_kind_of<T>(), static_cast<const void*>(&v)};
}

namespace detail {
template <class T>
bool compute_is_raw();
}

/// True when a value's memory bytes are exactly its canonical (little-endian,
/// listing-order, no padding) encoding, so it may be hashed or copied as one
/// block. Checked once per type at run time from the listing itself.
template <class T>
bool is_raw() {
  static const bool raw = detail::compute_is_raw<std::remove_cv_t<T>>();
  return raw;
}

namespace detail {
template <class T>
bool compute_is_raw() {
  if constexpr (std::endian::native != std::endian::little) {
    return false;
  } else if constexpr (Scalar<T>) {
    return true;  // bool is stored as 0 or 1, integers and floats as LE bytes
  } else if constexpr (is_std_array_v<T>) {
    return is_raw<typename T::value_type>();
  } else if constexpr (is_std_vector_v<T> || std::same_as<T, std::string>) {
    return false;
  } else if constexpr (!std::is_trivially_copyable_v<T> || !std::is_default_constructible_v<T>) {
    return false;
  } else {
    static_assert(Reflected<T>);
    T probe{};
    std::size_t expect = 0;
    bool ok = true;
    T::fields(probe, [&](const FieldInfo&, auto& f) {
      using F = std::remove_cvref_t<decltype(f)>;
      const auto off = static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&f) -
                                                reinterpret_cast<const unsigned char*>(&probe));
      if (off != expect || !is_raw<F>()) ok = false;
      expect += sizeof(F);
    });
    return ok && expect == sizeof(T);
  }
}
}  // namespace detail

}  // namespace lockstep
