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

}  // namespace lockstep
