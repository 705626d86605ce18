// Field-path access and diff of reflected values (reflect.h).
//
// Paths look like `entities[3].velocity.x`. "First" divergent field means
// first in listing order: top-level fields in their listing order, arrays and
// vectors by index, each struct's fields in its listing order (docs/architecture.md).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <type_traits>
#include <vector>

#include "lockstep/core/reflect.h"

namespace lockstep {

/// A leaf's value in text and bits, for reports.
struct LeafValue {
  LeafKind kind = LeafKind::U8;
  std::string text;   ///< decimal (floats: shortest round-trip form)
  uint64_t bits = 0;  ///< raw bits (floats) or the integer as two's complement
};

/// A float as the shortest decimal text that reads back to the same bits ("1e+06", "0.35"): how every
/// report, message and export shows a float.
std::string shortest(float v);
std::string shortest(double v);

LeafValue read_leaf(ConstLeafRef ref);

/// Distance in units in the last place between two floats of the same kind
/// (F32 or F64), counting across zero; nullopt when either is NaN.
std::optional<uint64_t> ulp_distance(const LeafValue& a, const LeafValue& b);

/// One divergent field (or a list whose length differs: then `size_a/size_b`).
struct FieldDiff {
  std::string path;
  std::string subsystem;  ///< the top-level field the path is under
  LeafValue a, b;
  bool is_size = false;
  std::size_t size_a = 0, size_b = 0;
};

namespace detail {

template <class T>
void diff_walk(const T& a, const T& b, Path& path, std::vector<FieldDiff>& out, std::size_t limit) {
  using U = std::remove_cv_t<T>;
  if (out.size() >= limit) return;
  if constexpr (Leaf<U>) {
    const bool same = [&] {
      if constexpr (std::same_as<U, float> || std::same_as<U, double>) {
        return std::memcmp(&a, &b, sizeof(U)) == 0;  // bits, so -0 != 0 and NaN == same NaN
      } else {
        return a == b;
      }
    }();
    if (!same) {
      FieldDiff d;
      d.path = path.str();
      d.subsystem = path.top() ? path.top() : "";
      d.a = read_leaf(leaf_ref(a));
      d.b = read_leaf(leaf_ref(b));
      out.push_back(std::move(d));
    }
  } else if constexpr (is_std_array_v<U> || is_std_vector_v<U>) {
    if (a.size() != b.size()) {
      FieldDiff d;
      d.path = path.str();
      d.subsystem = path.top() ? path.top() : "";
      d.is_size = true;
      d.size_a = a.size();
      d.size_b = b.size();
      out.push_back(std::move(d));
      return;
    }
    for (std::size_t i = 0; i < a.size() && out.size() < limit; ++i) {
      path.push_index(i);
      diff_walk(a[i], b[i], path, out, limit);
      path.pop();
    }
  } else {
    static_assert(Reflected<U>);
    // Visit b first to collect its field addresses, then a in the same order.
    std::vector<const void*> bf;
    U::fields(b, [&](const FieldInfo&, const auto& f) { bf.push_back(&f); });
    std::size_t i = 0;
    U::fields(a, [&](const FieldInfo& fi, const auto& f) {
      using F = std::remove_cvref_t<decltype(f)>;
      const F& g = *static_cast<const F*>(bf[i++]);
      if (out.size() >= limit) return;
      path.push_name(fi.name);
      diff_walk(f, g, path, out, limit);
      path.pop();
    });
  }
}

}  // namespace detail

/// The divergent fields of two values of one type, in listing order, at most `limit`.
template <class T>
std::vector<FieldDiff> diff_fields(const T& a, const T& b, std::size_t limit = SIZE_MAX) {
  std::vector<FieldDiff> out;
  Path p;
  detail::diff_walk(a, b, p, out, limit);
  return out;
}

/// One leaf of a value: its path and a typed pointer to read it by.
struct ConstLeafEntry {
  std::string path;
  ConstLeafRef ref;
  std::string original;  ///< where the original program keeps it ("brain+0x114"), empty when unknown
};
/// One leaf of a value with a pointer to write it by (list_mutable_leaves).
struct LeafEntry {
  std::string path;
  LeafRef ref;
  std::string original;
};

/// Every leaf of `value`, in listing order, to read.
template <class T>
std::vector<ConstLeafEntry> list_leaves(const T& value) {
  std::vector<ConstLeafEntry> out;
  Path p;
  walk_leaves(value, p, [&](const Path& path, const auto& leaf) { out.push_back({path.str(), leaf_ref(leaf), path.original()}); });
  return out;
}

struct PathStep;
struct FoundLeaf;
/// One step of a field path: a field's name, or an index into an array or a vector.
struct PathStep {
  std::string name;  ///< empty for an index
  std::size_t index = 0;
  bool is_index() const { return name.empty(); }
  /// For a name: its place in its struct's listing, learnt by the first find_leaf that follows
  /// it (a listing never changes), so a path followed every tick compares numbers, not names.
  mutable int32_t slot = -1;
  /// For a name, also learnt by the first find_leaf: the struct type it was followed in, the
  /// field's offset in it and how to follow the rest of the path from the field. A type's layout
  /// never changes, so a path followed every tick goes straight to the field instead of visiting
  /// the struct's listing (export's cost per column).
  mutable const void* owner = nullptr;
  mutable std::ptrdiff_t offset = 0;
  mutable FoundLeaf (*rest)(const void*, std::span<const PathStep>) = nullptr;
};
/// `walkers[3].pos.x` as its steps; nullopt when it is no plain path (a glob, a stray bracket).
std::optional<std::vector<PathStep>> parse_path(std::string_view path);

/// What a plain field path names in a value.
enum class LeafLookup {
  Found,    ///< a leaf held now (`ref` reads it)
  Absent,   ///< a leaf the value's type can hold but this value does not now (an element past a vector's end)
  NotLeaf,  ///< a struct, array or vector, not one leaf
  Never,    ///< nothing the value's type can hold (a misspelt name, an index past an array's fixed size)
};
struct FoundLeaf {
  LeafLookup status = LeafLookup::Never;
  ConstLeafRef ref{};
  /// NotLeaf: the leaves under it, as paths relative to it ("x", "[0].pos.x"): those it holds now, or
  /// for an element past a vector's end those an element holds when made (a default element's).
  std::vector<std::string> under;
};

template <class T>
FoundLeaf find_leaf(const T& value, std::span<const PathStep> path);

namespace detail {
template <class U>
const void* type_tag() {
  static const char tag = 0;
  return &tag;
}
template <class F>
FoundLeaf find_leaf_from(const void* field, std::span<const PathStep> path) {
  return find_leaf(*static_cast<const F*>(field), path);
}
template <class T>
std::vector<std::string> leaf_paths_under(const T& value) {
  std::vector<std::string> out;
  Path p;
  walk_leaves(value, p, [&](const Path& path, const auto&) { out.push_back(path.str()); });
  return out;
}
}  // namespace detail

/// Follow `path` down `value` along its field listing, visiting only the fields on the path (not
/// every leaf, as list_leaves does): what a tool reading a few fields every tick uses.
template <class T>
FoundLeaf find_leaf(const T& value, std::span<const PathStep> path) {
  using U = std::remove_cv_t<T>;
  if constexpr (Leaf<U>) {
    if (!path.empty()) return {LeafLookup::Never, {}, {}};
    return {LeafLookup::Found, leaf_ref(value), {}};
  } else if constexpr (is_std_array_v<U> || is_std_vector_v<U>) {
    if (path.empty()) return {LeafLookup::NotLeaf, {}, detail::leaf_paths_under(value)};
    if (!path[0].is_index()) return {LeafLookup::Never, {}, {}};
    if (path[0].index < value.size()) return find_leaf(value[path[0].index], path.subspan(1));
    if constexpr (is_std_array_v<U>) {
      return {LeafLookup::Never, {}, {}};
    } else {
      // Past the vector's end now: whether an element could hold the rest is the element type's answer.
      const typename U::value_type probe{};
      auto r = find_leaf(probe, path.subspan(1));
      return {r.status == LeafLookup::Found ? LeafLookup::Absent : r.status, {}, std::move(r.under)};
    }
  } else {
    static_assert(Reflected<U>, "field type has no field listing");
    if (path.empty()) return {LeafLookup::NotLeaf, {}, detail::leaf_paths_under(value)};
    if (path[0].is_index()) return {LeafLookup::Never, {}, {}};
    const PathStep& step = path[0];
    const char* base = reinterpret_cast<const char*>(&value);
    if (step.rest && step.owner == detail::type_tag<U>()) return step.rest(base + step.offset, path.subspan(1));
    FoundLeaf out;
    bool seen = false;
    int32_t k = 0;
    U::fields(value, [&](const FieldInfo& fi, const auto& field) {
      const int32_t at = k++;
      if (seen || (step.slot >= 0 && at != step.slot) || step.name != fi.name) return;
      seen = true;
      step.slot = at;
      // Only a member stored in the struct itself is reached by its offset (a listing could hand
      // over a value it computes).
      const char* f = reinterpret_cast<const char*>(&field);
      if (f >= base && f < base + sizeof(U)) {
        step.owner = detail::type_tag<U>();
        step.offset = f - base;
        step.rest = &detail::find_leaf_from<std::remove_cvref_t<decltype(field)>>;
      }
      out = find_leaf(field, path.subspan(1));
    });
    return out;
  }
}

/// Every leaf of `value`, in listing order, to write: for perturbing a value on purpose.
template <class T>
std::vector<LeafEntry> list_mutable_leaves(T& value) {
  std::vector<LeafEntry> out;
  Path p;
  walk_leaves(value, p, [&](const Path& path, auto& leaf) { out.push_back({path.str(), leaf_ref(leaf), path.original()}); });
  return out;
}

/// Change one leaf by the smallest step: one ulp up for floats (toward +inf),
/// +1 for integers (wrapping), flip for bools, append a char for strings.
void nudge_leaf(LeafRef ref);

/// Glob match of a field path: `*` matches any run of characters except `.`
/// and `[`; `[*]` matches any index; `**` matches anything.
bool path_matches(std::string_view pattern, std::string_view path);

}  // namespace lockstep
