// Field-path access and diff of reflected values (reflect.h).
//
// Paths look like `entities[3].velocity.x`. "First" divergent field means
// first in listing order: top-level fields in their listing order, arrays and
// vectors by index, each struct's fields in its listing order (docs/architecture.md).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
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
