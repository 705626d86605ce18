#include "lockstep/core/reflect.h"

namespace lockstep {

const char* leaf_kind_name(LeafKind k) {
  switch (k) {
    case LeafKind::Bool: return "bool";
    case LeafKind::I8: return "i8";
    case LeafKind::U8: return "u8";
    case LeafKind::I16: return "i16";
    case LeafKind::U16: return "u16";
    case LeafKind::I32: return "i32";
    case LeafKind::U32: return "u32";
    case LeafKind::I64: return "i64";
    case LeafKind::U64: return "u64";
    case LeafKind::F32: return "f32";
    case LeafKind::F64: return "f64";
    case LeafKind::String: return "string";
  }
  return "?";
}

std::string Path::str() const {
  std::string s;
  for (const auto& seg : segs_) {
    if (seg.name) {
      if (!s.empty()) s += '.';
      s += seg.name;
    } else {
      s += '[';
      s += std::to_string(seg.index);
      s += ']';
    }
  }
  return s;
}

std::string Path::original() const {
  std::size_t j = segs_.size();
  for (std::size_t k = segs_.size(); k-- > 0;)
    if (segs_[k].name && segs_[k].offset >= 0) {
      j = k;
      break;
    }
  if (j == segs_.size()) return "";
  std::string holder;
  for (std::size_t k = j; k-- > 0;)
    if (segs_[k].name) {
      holder = segs_[k].name;
      break;
    }
  static const char* hex = "0123456789abcdef";
  std::string off;
  for (auto v = static_cast<uint32_t>(segs_[j].offset); v != 0 || off.empty(); v >>= 4) off.insert(off.begin(), hex[v & 15u]);
  if (off.size() < 2) off.insert(off.begin(), '0');
  std::string s = holder + "+0x" + off;
  for (std::size_t k = j + 1; k < segs_.size(); ++k) {
    if (segs_[k].name) {
      s += '.';
      s += segs_[k].name;
    } else {
      s += '[' + std::to_string(segs_[k].index) + ']';
    }
  }
  return s;
}

}  // namespace lockstep
