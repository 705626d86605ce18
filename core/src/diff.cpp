#include "lockstep/core/diff.h"

#include <bit>
#include <charconv>
#include <limits>

namespace lockstep {

namespace {

// Map float bits onto a line where adjacent floats are adjacent integers.
int64_t ordered(uint64_t bits, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  const uint64_t mag = bits & (sign - 1);
  return (bits & sign) ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
}

}  // namespace

std::string shortest(float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string shortest(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

LeafValue read_leaf(ConstLeafRef ref) {
  LeafValue v;
  v.kind = ref.kind;
  auto as_int = [&](auto x) {
    v.text = std::to_string(x);
    v.bits = static_cast<uint64_t>(x);
  };
  switch (ref.kind) {
    case LeafKind::Bool: {
      const bool b = *static_cast<const bool*>(ref.ptr);
      v.text = b ? "true" : "false";
      v.bits = b ? 1 : 0;
      break;
    }
    case LeafKind::I8: as_int(*static_cast<const int8_t*>(ref.ptr)); break;
    case LeafKind::U8: as_int(*static_cast<const uint8_t*>(ref.ptr)); break;
    case LeafKind::I16: as_int(*static_cast<const int16_t*>(ref.ptr)); break;
    case LeafKind::U16: as_int(*static_cast<const uint16_t*>(ref.ptr)); break;
    case LeafKind::I32: as_int(*static_cast<const int32_t*>(ref.ptr)); break;
    case LeafKind::U32: as_int(*static_cast<const uint32_t*>(ref.ptr)); break;
    case LeafKind::I64: as_int(*static_cast<const int64_t*>(ref.ptr)); break;
    case LeafKind::U64: as_int(*static_cast<const uint64_t*>(ref.ptr)); break;
    case LeafKind::F32: {
      const float f = *static_cast<const float*>(ref.ptr);
      v.text = shortest(f);
      v.bits = std::bit_cast<uint32_t>(f);
      break;
    }
    case LeafKind::F64: {
      const double d = *static_cast<const double*>(ref.ptr);
      v.text = shortest(d);
      v.bits = std::bit_cast<uint64_t>(d);
      break;
    }
    case LeafKind::String: {
      v.text = *static_cast<const std::string*>(ref.ptr);
      v.bits = 0;
      break;
    }
  }
  return v;
}

std::optional<uint64_t> ulp_distance(const LeafValue& a, const LeafValue& b) {
  if (a.kind != b.kind) return std::nullopt;
  int width = 0;
  if (a.kind == LeafKind::F32) {
    width = 32;
    if (std::isnan(std::bit_cast<float>(static_cast<uint32_t>(a.bits))) ||
        std::isnan(std::bit_cast<float>(static_cast<uint32_t>(b.bits))))
      return std::nullopt;
  } else if (a.kind == LeafKind::F64) {
    width = 64;
    if (std::isnan(std::bit_cast<double>(a.bits)) || std::isnan(std::bit_cast<double>(b.bits))) return std::nullopt;
  } else {
    return std::nullopt;
  }
  const int64_t x = ordered(a.bits, width), y = ordered(b.bits, width);
  return x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y) : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
}

void nudge_leaf(LeafRef ref) {
  switch (ref.kind) {
    case LeafKind::Bool: {
      auto* b = static_cast<bool*>(ref.ptr);
      *b = !*b;
      break;
    }
    case LeafKind::I8: { auto* p = static_cast<int8_t*>(ref.ptr); *p = static_cast<int8_t>(static_cast<uint8_t>(*p) + 1u); break; }
    case LeafKind::U8: { auto* p = static_cast<uint8_t*>(ref.ptr); *p = static_cast<uint8_t>(*p + 1u); break; }
    case LeafKind::I16: { auto* p = static_cast<int16_t*>(ref.ptr); *p = static_cast<int16_t>(static_cast<uint16_t>(*p) + 1u); break; }
    case LeafKind::U16: { auto* p = static_cast<uint16_t*>(ref.ptr); *p = static_cast<uint16_t>(*p + 1u); break; }
    case LeafKind::I32: { auto* p = static_cast<int32_t*>(ref.ptr); *p = static_cast<int32_t>(static_cast<uint32_t>(*p) + 1u); break; }
    case LeafKind::U32: { auto* p = static_cast<uint32_t*>(ref.ptr); *p = *p + 1u; break; }
    case LeafKind::I64: { auto* p = static_cast<int64_t*>(ref.ptr); *p = static_cast<int64_t>(static_cast<uint64_t>(*p) + 1u); break; }
    case LeafKind::U64: { auto* p = static_cast<uint64_t*>(ref.ptr); *p = *p + 1u; break; }
    case LeafKind::F32: {
      auto* p = static_cast<float*>(ref.ptr);
      *p = std::nextafter(*p, std::numeric_limits<float>::infinity());
      break;
    }
    case LeafKind::F64: {
      auto* p = static_cast<double*>(ref.ptr);
      *p = std::nextafter(*p, std::numeric_limits<double>::infinity());
      break;
    }
    case LeafKind::String: static_cast<std::string*>(ref.ptr)->push_back('x'); break;
  }
}

namespace {
bool match_from(std::string_view pat, std::string_view s) {
  if (pat.empty()) return s.empty();
  if (pat.substr(0, 2) == "**") {
    for (std::size_t i = 0; i <= s.size(); ++i)
      if (match_from(pat.substr(2), s.substr(i))) return true;
    return false;
  }
  if (pat.substr(0, 3) == "[*]") {
    if (s.empty() || s[0] != '[') return false;
    const auto close = s.find(']');
    if (close == std::string_view::npos) return false;
    return match_from(pat.substr(3), s.substr(close + 1));
  }
  if (pat[0] == '*') {
    for (std::size_t i = 0; i <= s.size(); ++i) {
      if (match_from(pat.substr(1), s.substr(i))) return true;
      if (i < s.size() && (s[i] == '.' || s[i] == '[')) break;
    }
    return false;
  }
  if (s.empty() || pat[0] != s[0]) return false;
  return match_from(pat.substr(1), s.substr(1));
}
}  // namespace

bool path_matches(std::string_view pattern, std::string_view path) {
  if (match_from(pattern, path)) return true;
  // A pattern naming a struct or list matches everything under it.
  for (std::size_t i = 0; i < path.size(); ++i)
    if ((path[i] == '.' || path[i] == '[') && match_from(pattern, path.substr(0, i))) return true;
  return false;
}

}  // namespace lockstep

namespace lockstep {

std::optional<std::vector<PathStep>> parse_path(std::string_view path) {
  std::vector<PathStep> out;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '[') {
      const auto close = path.find(']', i);
      if (close == std::string_view::npos || close == i + 1 || close - i - 1 > 19) return std::nullopt;
      std::size_t index = 0;
      for (std::size_t k = i + 1; k < close; ++k) {
        if (path[k] < '0' || path[k] > '9') return std::nullopt;  // [*] and the like: a glob, not a path
        index = index * 10 + static_cast<std::size_t>(path[k] - '0');
      }
      out.push_back({"", index});
      i = close + 1;
      if (i < path.size() && path[i] != '.' && path[i] != '[') return std::nullopt;
      if (i < path.size() && path[i] == '.') ++i;
      if (i == path.size() && path.back() == '.') return std::nullopt;
      continue;
    }
    const auto end = path.find_first_of(".[", i);
    const auto name = path.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    if (name.empty() || name.find_first_of("*]") != std::string_view::npos) return std::nullopt;
    out.push_back({std::string(name), 0});
    if (end == std::string_view::npos) break;
    i = end;
    if (path[i] == '.') {
      ++i;
      if (i == path.size()) return std::nullopt;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

}  // namespace lockstep
