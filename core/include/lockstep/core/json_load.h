// Loading reflected structs (scenarios, inputs) from JSON, driven by the
// field listing: a missing key keeps the struct's default, an unknown key is
// an error (a typo must not silently become a default), and every error names
// the file, the JSON path ($.entities[3].speed) and what was expected.
#pragma once

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>

#include "lockstep/core/error.h"
#include "lockstep/core/reflect.h"

namespace lockstep {

using Json = nlohmann::json;

/// Arrays and objects nest at most this deep in any JSON input (a scenario,
/// a map, a trace's JSON line): deeper text is refused where it goes too deep,
/// before the tree grows (docs/architecture.md, "Errors").
inline constexpr std::size_t kMaxJsonDepth = 256;
/// The largest JSON file parse_json_file reads (64 MiB); a larger one is
/// refused before it is read.
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{64} << 20;

/// Where and why JSON text could not be parsed.
struct JsonSyntaxError {
  std::size_t byte = 0;  ///< 0-based offset of the byte where it went wrong
  std::size_t line = 1, column = 1;  ///< of that byte, 1-based (the column counts bytes)
  std::string what;      ///< "syntax error while parsing ...", "a number beyond the range of a double (1e999)"
};
/// Parse JSON text with no exception for bad text: false and `err` filled. A
/// syntax error, a number beyond the range of a double (1e999, a 400-digit
/// integer) and nesting deeper than kMaxJsonDepth all come back with their place.
bool try_parse_json(std::string_view text, Json& out, JsonSyntaxError& err);
/// Parse JSON text; bad text (see try_parse_json) names `source`, line and column.
Json parse_json_text(const std::string& text, const std::string& source);
/// Read and parse a JSON file of at most kMaxJsonFileBytes; errors name the file.
Json parse_json_file(const std::string& path);
/// "a string", "an array", ... for messages.
std::string json_kind(const Json& j);

class JsonReader {
 public:
  explicit JsonReader(std::string source) : source_(std::move(source)) {}

  template <class T>
  void read(const Json& j, T& out, const std::string& path) const {
    using U = std::remove_cv_t<T>;
    if constexpr (std::same_as<U, bool>) {
      if (!j.is_boolean()) fail(path, "expected true or false, got " + json_kind(j));
      out = j.get<bool>();
    } else if constexpr (std::is_enum_v<U>) {
      std::underlying_type_t<U> raw{};
      read(j, raw, path);
      out = static_cast<U>(raw);
    } else if constexpr (std::is_integral_v<U>) {
      if (!j.is_number_integer()) fail(path, "expected an integer, got " + json_kind(j));
      if (j.is_number_unsigned()) {
        const auto v = j.get<uint64_t>();
        if (v > static_cast<uint64_t>(std::numeric_limits<U>::max()))
          fail(path, "expected an integer at most " + std::to_string(std::numeric_limits<U>::max()) + ", got " +
                         std::to_string(v));
        out = static_cast<U>(v);
      } else {
        const auto v = j.get<int64_t>();
        if (v < static_cast<int64_t>(std::numeric_limits<U>::min()) ||
            (v > 0 && static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<U>::max())))
          fail(path, "expected an integer from " + std::to_string(std::numeric_limits<U>::min()) + " to " +
                         std::to_string(std::numeric_limits<U>::max()) + ", got " + std::to_string(v));
        out = static_cast<U>(v);
      }
    } else if constexpr (std::is_floating_point_v<U>) {
      if (!j.is_number()) fail(path, "expected a number, got " + json_kind(j));
      const double d = j.get<double>();
      if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(std::numeric_limits<U>::max()))
        fail(path, "expected a finite number within the range of " + std::string(sizeof(U) == 4 ? "f32" : "f64"));
      out = static_cast<U>(d);
    } else if constexpr (std::same_as<U, std::string>) {
      if (!j.is_string()) fail(path, "expected a string, got " + json_kind(j));
      out = j.get<std::string>();
    } else if constexpr (is_std_vector_v<U>) {
      if (!j.is_array()) fail(path, "expected an array, got " + json_kind(j));
      out.clear();
      out.resize(j.size());
      for (std::size_t i = 0; i < j.size(); ++i) read(j[i], out[i], path + "[" + std::to_string(i) + "]");
    } else if constexpr (is_std_array_v<U>) {
      if (!j.is_array() || j.size() != out.size())
        fail(path, "expected an array of " + std::to_string(out.size()) + ", got " + json_kind(j));
      for (std::size_t i = 0; i < j.size(); ++i) read(j[i], out[i], path + "[" + std::to_string(i) + "]");
    } else {
      static_assert(Reflected<U>, "type has no field listing");
      read_struct(j, out, path);
    }
  }

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(source_, path, what);
  }
  const std::string& source() const { return source_; }

 private:
  template <class U>
  void read_struct(const Json& j, U& out, const std::string& path) const {
    if (j.is_array()) {
      // Compact form for structs of scalars only: [x, y, z] in listing order.
      std::size_t n = 0;
      bool scalars = true;
      U::fields(out, [&](const FieldInfo&, auto& f) {
        ++n;
        if (!Scalar<std::remove_cvref_t<decltype(f)>>) scalars = false;
      });
      if (!scalars || j.size() != n)
        fail(path, scalars ? "expected an object or an array of " + std::to_string(n) + " numbers, got an array of " +
                                 std::to_string(j.size())
                           : "expected an object, got an array");
      std::size_t i = 0;
      U::fields(out, [&](const FieldInfo&, auto& f) {
        read(j[i], f, path + "[" + std::to_string(i) + "]");
        ++i;
      });
      return;
    }
    if (!j.is_object()) fail(path, "expected an object, got " + json_kind(j));
    std::string known;
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool found = false;
      known.clear();
      U::fields(out, [&](const FieldInfo& fi, auto&) {
        if (it.key() == fi.name) found = true;
        known += known.empty() ? "" : ", ";
        known += fi.name;
      });
      if (!found) fail(path + "." + it.key(), "unknown field (known fields: " + known + ")");
    }
    U::fields(out, [&](const FieldInfo& fi, auto& f) {
      auto it = j.find(fi.name);
      if (it != j.end()) read(*it, f, path + "." + fi.name);
    });
  }

  std::string source_;
};

}  // namespace lockstep
