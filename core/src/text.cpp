#include "lockstep/core/text.h"

#include <cstdio>

namespace lockstep {

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o;
}

std::string hex_bits(const LeafValue& v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, v.kind == LeafKind::F32 ? "0x%08llx" : "0x%016llx", static_cast<unsigned long long>(v.bits));
  return buf;
}

std::string value_with_bits(const LeafValue& v) {
  if (v.kind == LeafKind::F32 || v.kind == LeafKind::F64) return v.text + " (" + hex_bits(v) + ")";
  return v.text;
}

}  // namespace lockstep
