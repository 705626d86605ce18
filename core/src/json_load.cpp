#include "lockstep/core/json_load.h"

#include <fstream>
#include <sstream>

namespace lockstep {

std::string json_kind(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    case Json::value_t::number_float: return "a number with a fraction";
    default: return "a value of another kind";
  }
}

Json parse_json_text(const std::string& text, const std::string& source) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based: the byte at which the parser stopped.
    std::size_t line = 1, col = 1;
    const std::size_t stop = e.byte == 0 ? 0 : e.byte - 1;
    for (std::size_t i = 0; i < stop && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line L, column C: "; keep the reason.
    const auto colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError(source, "line " + std::to_string(line) + ", column " + std::to_string(col),
                     "invalid JSON: " + what);
  } catch (const Json::exception& e) {
    // For example a number beyond the range of a double (1e400).
    std::string what = e.what();
    const auto bracket = what.find("] ");
    if (bracket != std::string::npos) what = what.substr(bracket + 2);
    throw InputError(source, "", "invalid JSON: " + what);
  }
}

Json parse_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the file for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_json_text(ss.str(), path);
}

}  // namespace lockstep
