#include "lockstep/core/json_load.h"

#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

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

namespace {

/// nlohmann's own tree builder, told not to throw, with two additions: the
/// place of every error (its DOM parser throws out_of_range 406, "number
/// overflow", with no position at all), and a nesting limit, checked as each
/// array or object opens, so a line of "[[[[..." never becomes a tree.
class LimitedDom : public nlohmann::detail::json_sax_dom_parser<Json> {
  using Base = nlohmann::detail::json_sax_dom_parser<Json>;

 public:
  explicit LimitedDom(Json& out) : Base(out, false) {}

  bool start_object(std::size_t n) { return deeper() && Base::start_object(n); }
  bool start_array(std::size_t n) { return deeper() && Base::start_array(n); }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool end_array() {
    --depth_;
    return Base::end_array();
  }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& ex) {
    position_ = position;
    token_ = last_token;
    id_ = ex.id;
    what_ = ex.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  std::size_t position() const { return position_; }
  const std::string& token() const { return token_; }
  int id() const { return id_; }
  const std::string& what() const { return what_; }

 private:
  bool deeper() {
    if (++depth_ <= kMaxJsonDepth) return true;
    too_deep_ = true;
    return false;
  }
  std::size_t depth_ = 0;
  bool too_deep_ = false;
  std::size_t position_ = 0;
  std::string token_, what_;
  int id_ = 0;
};

/// The offset of the bracket that opens nesting level kMaxJsonDepth + 1. Called
/// only when the parser stopped there, so the text before it is valid JSON and
/// strings are told apart from structure exactly as the parser did.
std::size_t too_deep_at(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return text.size();
}

}  // namespace

bool try_parse_json(std::string_view text, Json& out, JsonSyntaxError& err) {
  out = Json();
  LimitedDom dom(out);
  if (Json::sax_parse(text, &dom)) return true;
  std::size_t at = 0;
  if (dom.too_deep()) {
    at = too_deep_at(text);
    err.what = "arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  } else if (dom.id() == 406) {
    // Reported after the number was read: point at its first digit (or sign).
    const std::size_t len = dom.token().size();
    at = dom.position() >= len ? dom.position() - len : 0;
    std::string number = dom.token();
    if (number.size() > 40) number = number.substr(0, 32) + "... (" + std::to_string(dom.token().size()) + " characters)";
    err.what = "a number beyond the range of a double (" + number + ")";
  } else {
    // position is 1-based for syntax errors: the byte at which the parser stopped.
    at = dom.position() == 0 ? 0 : dom.position() - 1;
    err.what = dom.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line L, column C: "; keep the reason.
    const auto colon = err.what.find(": ");
    if (colon != std::string::npos) err.what = err.what.substr(colon + 2);
  }
  out = Json();
  err.byte = at;
  err.line = 1;
  err.column = 1;
  for (std::size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++err.line;
      err.column = 1;
    } else {
      ++err.column;
    }
  }
  return false;
}

Json parse_json_text(const std::string& text, const std::string& source) {
  Json j;
  JsonSyntaxError err;
  if (!try_parse_json(text, j, err))
    throw InputError(source, "line " + std::to_string(err.line) + ", column " + std::to_string(err.column),
                     "invalid JSON: " + err.what);
  return j;
}

Json parse_json_file(const std::string& path) {
  const std::string too_big = "larger than " + std::to_string(kMaxJsonFileBytes >> 20) + " MiB (" +
                              std::to_string(kMaxJsonFileBytes) + " bytes), the most a JSON file may hold";
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > kMaxJsonFileBytes && !ec)
    throw InputError(path, "", too_big);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the file for reading");
  // Read in blocks and stop past the limit: a pipe or a device (/dev/zero) has no size to check first.
  std::string text;
  std::vector<char> block(std::size_t{1} << 16);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxJsonFileBytes) throw InputError(path, "", too_big);
  }
  if (in.bad()) throw InputError(path, "", "read error");
  return parse_json_text(text, path);
}

}  // namespace lockstep
