#include "lockstep/traces/trace.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace lockstep::traces {

// ---------------------------------------------------------------- small helpers

std::string hex_address(uint32_t a) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", a);
  return buf;
}

namespace {

std::string num(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// A name or a value from a file, quoted for a message: control characters escaped
/// (a NUL would end the message where it stands), as in a JSON string, and a long
/// one cut short (a trace's line may hold 16 MiB).
std::string qt(const std::string& s) {
  constexpr std::size_t kShown = 200;
  if (s.size() <= kShown) return "\"" + json_escape(s) + "\"";
  return "\"" + json_escape(s.substr(0, kShown)) + "\"... (" + std::to_string(s.size()) + " bytes)";
}

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : sep) + s;
  return o;
}

bool is_signed_kind(LeafKind k) {
  return k == LeafKind::I8 || k == LeafKind::I16 || k == LeafKind::I32 || k == LeafKind::I64;
}
bool is_float_kind(LeafKind k) { return k == LeafKind::F32 || k == LeafKind::F64; }

/// "an i32", "a u8", "a bool": a type name with its article.
std::string with_article(const std::string& type) { return (type[0] == 'i' || type[0] == 'f' ? "an " : "a ") + type; }

uint64_t type_mask(ValueType t) {
  const unsigned b = type_bytes(t);
  return b >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * b)) - 1;
}

/// Sign-extend the low `bytes` bytes of v.
uint64_t sign_extend(uint64_t v, unsigned bytes) {
  if (bytes >= 8) return v;
  const unsigned shift = 64 - 8 * bytes;
  return static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift);
}

}  // namespace

// ---------------------------------------------------------------- value types

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::Bool: return "bool";
    case ValueType::I8: return "i8";
    case ValueType::U8: return "u8";
    case ValueType::I16: return "i16";
    case ValueType::U16: return "u16";
    case ValueType::I32: return "i32";
    case ValueType::U32: return "u32";
    case ValueType::I64: return "i64";
    case ValueType::U64: return "u64";
    case ValueType::F32: return "f32";
    case ValueType::F64: return "f64";
  }
  return "?";
}

std::optional<ValueType> parse_type(const std::string& s) {
  static const ValueType all[] = {ValueType::Bool, ValueType::I8,  ValueType::U8,  ValueType::I16,
                                  ValueType::U16,  ValueType::I32, ValueType::U32, ValueType::I64,
                                  ValueType::U64,  ValueType::F32, ValueType::F64};
  for (auto t : all)
    if (s == type_name(t)) return t;
  return std::nullopt;
}

unsigned type_bytes(ValueType t) {
  switch (t) {
    case ValueType::Bool:
    case ValueType::I8:
    case ValueType::U8: return 1;
    case ValueType::I16:
    case ValueType::U16: return 2;
    case ValueType::I32:
    case ValueType::U32:
    case ValueType::F32: return 4;
    case ValueType::I64:
    case ValueType::U64:
    case ValueType::F64: return 8;
  }
  return 0;
}

bool is_float_type(ValueType t) { return t == ValueType::F32 || t == ValueType::F64; }
bool is_signed_type(ValueType t) {
  return t == ValueType::I8 || t == ValueType::I16 || t == ValueType::I32 || t == ValueType::I64;
}

double Value::as_double() const {
  switch (type) {
    case ValueType::F32: return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    case ValueType::F64: return std::bit_cast<double>(bits);
    default:
      if (is_signed_type(type)) return static_cast<double>(static_cast<int64_t>(bits));
      return static_cast<double>(bits);
  }
}

std::string Value::text() const {
  switch (type) {
    case ValueType::F32: return shortest(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    case ValueType::F64: return shortest(std::bit_cast<double>(bits));
    case ValueType::Bool: return bits ? "true" : "false";
    default:
      if (is_signed_type(type)) return std::to_string(static_cast<int64_t>(bits));
      return std::to_string(bits);
  }
}

Value parse_value(std::string_view text, ValueType type) {
  Value v;
  v.type = type;
  std::string_view s = trim(text);
  if (s.empty()) throw std::invalid_argument("an empty value");
  if (type == ValueType::Bool) {
    if (s == "true" || s == "1") {
      v.bits = 1;
      return v;
    }
    if (s == "false" || s == "0") {
      v.bits = 0;
      return v;
    }
    throw std::invalid_argument("expected 0, 1, true or false");
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    const std::string_view digits = s.substr(2);
    const unsigned max_digits = 2 * type_bytes(type);
    if (digits.size() > max_digits)
      throw std::invalid_argument("more than " + std::to_string(max_digits) + " hex digits for a " + type_name(type));
    uint64_t raw = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), raw, 16);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) throw std::invalid_argument("bad hex digits");
    v.bits = is_signed_type(type) ? sign_extend(raw, type_bytes(type)) : raw;
    return v;
  }
  if (s.front() == '+') s.remove_prefix(1);
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (type == ValueType::F32) {
    float f = 0;
    auto r = std::from_chars(b, e, f);
    if (r.ec == std::errc::result_out_of_range) throw std::invalid_argument("out of the range of an f32");
    if (r.ec != std::errc() || r.ptr != e) throw std::invalid_argument("not a number");
    v.bits = std::bit_cast<uint32_t>(f);
    return v;
  }
  if (type == ValueType::F64) {
    double d = 0;
    auto r = std::from_chars(b, e, d);
    if (r.ec == std::errc::result_out_of_range) throw std::invalid_argument("out of the range of an f64");
    if (r.ec != std::errc() || r.ptr != e) throw std::invalid_argument("not a number");
    v.bits = std::bit_cast<uint64_t>(d);
    return v;
  }
  const unsigned bytes = type_bytes(type);
  if (is_signed_type(type)) {
    int64_t x = 0;
    auto r = std::from_chars(b, e, x);
    if (r.ec == std::errc() && r.ptr == e) {
      const int64_t lo = bytes >= 8 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (8 * bytes - 1));
      const int64_t hi = bytes >= 8 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (8 * bytes - 1)) - 1;
      if (x < lo || x > hi)
        throw std::invalid_argument("out of the range of an " + std::string(type_name(type)) + " (" + std::to_string(lo) +
                                    " to " + std::to_string(hi) + ")");
      v.bits = static_cast<uint64_t>(x);
      return v;
    }
    if (r.ec == std::errc::result_out_of_range) throw std::invalid_argument("out of the range of an i64");
  } else {
    uint64_t x = 0;
    auto r = std::from_chars(b, e, x);
    if (r.ec == std::errc() && r.ptr == e) {
      if (x > type_mask(type))
        throw std::invalid_argument("out of the range of a " + std::string(type_name(type)) + " (0 to " +
                                    std::to_string(type_mask(type)) + ")");
      v.bits = x;
      return v;
    }
    if (r.ec == std::errc::result_out_of_range) throw std::invalid_argument("out of the range of a u64");
    if (!s.empty() && s.front() == '-') throw std::invalid_argument("negative, and the type is unsigned");
  }
  throw std::invalid_argument("not an integer");
}

Value value_from_memory(uint64_t raw, ValueType type) {
  Value v;
  v.type = type;
  const unsigned bytes = type_bytes(type);
  raw &= type_mask(type);
  if (type == ValueType::Bool)
    v.bits = raw != 0 ? 1 : 0;
  else if (is_signed_type(type))
    v.bits = sign_extend(raw, bytes);
  else
    v.bits = raw;
  return v;
}

// ---------------------------------------------------------------- the map

std::string Tolerance::text() const {
  if (exact()) return "exact";
  std::string o;
  if (abs) o = "abs " + num(*abs);
  if (ulps) o += (o.empty() ? "" : " or ") + std::to_string(*ulps) + (*ulps == 1 ? " ulp" : " ulps");
  if (modulo) o += (o.empty() ? "" : " ") + std::string("modulo ") + num(*modulo);
  return o;
}

namespace {

/// An `ignore` glob (docs/traces.md, "The map"): `*` matches any run of
/// characters, none included; every other character matches itself. Matched
/// by a bit-parallel automaton over the pattern's positions in one 64-bit word,
/// so a name costs time linear in its length whatever the pattern (a
/// backtracking matcher takes exponential time on "*a*a*a*a*b" and recurses as
/// deep as the pattern is long).
class Glob {
 public:
  explicit Glob(std::string_view pattern) {
    std::string p;
    for (char c : pattern)
      if (!(c == '*' && !p.empty() && p.back() == '*')) p += c;  // "**" is "*"
    m_ = static_cast<unsigned>(p.size());  // 1..kMaxIgnoreGlobLength, checked by parse_map
    if (m_ == 0 || m_ > kMaxIgnoreGlobLength) {  // a Map made by hand: such a glob matches nothing
      m_ = 0;
      return;
    }
    for (unsigned i = 0; i < m_; ++i) {
      if (p[i] == '*')
        star_ |= uint64_t{1} << i;
      else
        lit_[static_cast<unsigned char>(p[i])] |= uint64_t{1} << i;
    }
    mask_ = m_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << m_) - 1;
  }

  bool matches(std::string_view s) const {
    // Bit i: the first i pattern characters match what was read; `acc`: all of them.
    if (m_ == 0) return false;
    uint64_t d = 1;
    bool acc = false;
    close(d, acc);
    for (const char ch : s) {
      if (d == 0) return false;
      const uint64_t lit = lit_[static_cast<unsigned char>(ch)];
      acc = ((d & lit) >> (m_ - 1)) & 1;
      d = (((d & lit) << 1) | (d & star_)) & mask_;
      close(d, acc);
    }
    return acc;
  }

 private:
  // A star matches nothing too: being before it is being after it ("**" is collapsed, so one step).
  void close(uint64_t& d, bool& acc) const {
    acc = acc || (((d & star_) >> (m_ - 1)) & 1);
    d |= ((d & star_) << 1) & mask_;
  }
  std::array<uint64_t, 256> lit_{};
  uint64_t star_ = 0, mask_ = 0;
  unsigned m_ = 0;
};

bool is_glob(const std::string& p) { return p.find('*') != std::string::npos; }

/// A map's trace names in hash tables (mapped columns, exact `ignore` names) and
/// its globs compiled: a trace's header, or a JSON line's keys, is checked in
/// time linear in its length (a scan of the map per name made 30,000 columns
/// take a minute).
class ColumnIndex {
 public:
  explicit ColumnIndex(const Map& m) {
    for (std::size_t i = 0; i < m.columns.size(); ++i) add_column(m.columns[i].name, i);
    for (const auto& p : m.ignore) add_ignore(p);
  }
  ColumnIndex() = default;
  void add_column(const std::string& name, std::size_t i) { mapped_.emplace(name, static_cast<int>(i)); }
  void add_ignore(const std::string& p) {
    if (is_glob(p))
      globs_.emplace_back(p);
    else
      exact_.insert(p);
  }
  /// The mapped column with this trace name, or -1.
  int find(const std::string& name) const {
    auto it = mapped_.find(name);
    return it == mapped_.end() ? -1 : it->second;
  }
  bool ignored(const std::string& name) const {
    if (exact_.count(name)) return true;
    for (const auto& g : globs_)
      if (g.matches(name)) return true;
    return false;
  }

 private:
  std::unordered_map<std::string, int> mapped_;
  std::unordered_set<std::string> exact_;
  std::vector<Glob> globs_;
};

/// The mapped columns' names for a message: the first few, and how many in all.
std::string mapped_names(const Map& m) {
  constexpr std::size_t kShown = 8;
  std::string o;
  for (std::size_t i = 0; i < m.columns.size() && i < kShown; ++i) o += (i ? ", " : "") + json_escape(m.columns[i].name);
  if (m.columns.size() > kShown) o += ", ... (" + std::to_string(m.columns.size()) + " in all)";
  return o;
}

}  // namespace

bool Map::ignored(const std::string& column) const {
  for (const auto& p : ignore)
    if (p == column || (is_glob(p) && Glob(p).matches(column))) return true;
  return false;
}

int Map::find(const std::string& column) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == column) return static_cast<int>(i);
  return -1;
}

namespace {

class MapReader {
 public:
  explicit MapReader(std::string source) : source_(std::move(source)) {}
  [[noreturn]] void fail(const std::string& path, const std::string& what) const { throw InputError(source_, path, what); }

  void keys(const Json& j, const std::string& path, std::initializer_list<const char*> known) const {
    if (!j.is_object()) fail(path, "expected an object, got " + json_kind(j));
    for (auto it = j.begin(); it != j.end(); ++it) {
      bool ok = false;
      for (const char* k : known) ok = ok || it.key() == k;
      if (!ok) {
        std::string list;
        for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(path + "." + it.key(), "unknown key (known keys: " + list + ")");
      }
    }
  }
  std::string str(const Json& j, const std::string& path) const {
    if (!j.is_string()) fail(path, "expected a string, got " + json_kind(j));
    return j.get<std::string>();
  }
  uint64_t unsig(const Json& j, const std::string& path, uint64_t lo, uint64_t hi) const {
    if (!j.is_number_unsigned() || j.get<uint64_t>() < lo || j.get<uint64_t>() > hi)
      fail(path, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                     (j.is_number() ? j.dump() : json_kind(j)));
    return j.get<uint64_t>();
  }
  int64_t sig(const Json& j, const std::string& path) const {
    if (!j.is_number_integer() || (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)))
      fail(path, "expected an integer, got " + (j.is_number() ? j.dump() : json_kind(j)));
    return j.get<int64_t>();
  }
  double number(const Json& j, const std::string& path) const {
    if (!j.is_number()) fail(path, "expected a number, got " + json_kind(j));
    const double d = j.get<double>();
    if (!std::isfinite(d)) fail(path, "expected a finite number");
    return d;
  }
  uint32_t address(const Json& j, const std::string& path) const {
    if (j.is_number_unsigned() && j.get<uint64_t>() <= 0xffffffffu) return static_cast<uint32_t>(j.get<uint64_t>());
    if (j.is_string()) {
      const std::string s = j.get<std::string>();
      if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s.size() <= 10) {
        uint32_t a = 0;
        auto r = std::from_chars(s.data() + 2, s.data() + s.size(), a, 16);
        if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return a;
      }
    }
    fail(path, "expected a 32-bit address such as \"0x00714b10\", got " + (j.is_string() ? qt(j.get<std::string>()) : json_kind(j)));
  }
  ValueType type(const Json& j, const std::string& path) const {
    const std::string s = str(j, path);
    auto t = parse_type(s);
    if (!t) fail(path, "unknown type " + qt(s) + " (known: f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, bool)");
    return *t;
  }

 private:
  std::string source_;
};

Tolerance read_tolerance(const MapReader& r, const Json& j, const std::string& path) {
  Tolerance t;
  if (j.is_string()) {
    if (j.get<std::string>() != "exact")
      r.fail(path, "expected \"exact\" or an object {\"abs\": ..., \"ulps\": ..., \"modulo\": ...}, got " + qt(j.get<std::string>()));
    return t;
  }
  r.keys(j, path, {"abs", "ulps", "modulo", "exact"});
  if (j.contains("exact")) {
    if (!j["exact"].is_boolean() || !j["exact"].get<bool>() || j.size() > 1)
      r.fail(path + ".exact", "\"exact\": true stands alone (drop abs, ulps and modulo)");
    return t;
  }
  if (j.contains("abs")) {
    const double a = r.number(j["abs"], path + ".abs");
    if (a < 0) r.fail(path + ".abs", "expected a tolerance >= 0");
    t.abs = a;
  }
  if (j.contains("ulps")) t.ulps = r.unsig(j["ulps"], path + ".ulps", 0, UINT64_MAX);
  if (j.contains("modulo")) {
    const Json& m = j["modulo"];
    double p = 0;
    if (m.is_string()) {
      const std::string s = m.get<std::string>();
      if (s == "2pi" || s == "tau")
        p = 2.0 * std::numbers::pi;
      else if (s == "360")
        p = 360.0;
      else
        r.fail(path + ".modulo", "expected a period: a number, \"360\" or \"2pi\", got " + qt(s));
    } else {
      p = r.number(m, path + ".modulo");
    }
    if (!(p > 0)) r.fail(path + ".modulo", "expected a period > 0");
    t.modulo = p;
    if (!t.abs && !t.ulps) t.abs = 0.0;  // the shortest way round must be 0
  }
  if (t.exact()) r.fail(path, "an empty tolerance: give abs, ulps or modulo, or write \"exact\"");
  return t;
}

}  // namespace

Map parse_map(const Json& j, const std::string& source, const std::string& base_dir) {
  MapReader r(source);
  Map m;
  m.source = source;
  r.keys(j, "$", {"model", "scenario", "name", "description", "ticks_per_step", "tick_offset", "first_step", "last_step",
                  "columns", "ignore", "capture"});
  if (!j.contains("model")) r.fail("$.model", "missing: the model's name (one of: " + join(model_names()) + ")");
  m.model = r.str(j["model"], "$.model");
  {
    const auto names = model_names();
    if (std::find(names.begin(), names.end(), m.model) == names.end())
      r.fail("$.model", "unknown model " + qt(m.model) + " (known: " + join(names) + ")");
  }
  if (j.contains("scenario")) {
    const std::string s = r.str(j["scenario"], "$.scenario");
    if (s.empty()) r.fail("$.scenario", "expected a scenario file");
    // A NUL ends a path where it stands (the message would name only the folder), and no file name
    // wants a control character: refuse them, shown escaped.
    for (const char c : s)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        r.fail("$.scenario", "a scenario path with a control character in it: " + qt(s));
    std::filesystem::path p(s);
    if (p.is_relative() && !base_dir.empty()) p = std::filesystem::path(base_dir) / p;
    m.scenario = p.lexically_normal().string();
  }
  if (j.contains("name")) m.name = r.str(j["name"], "$.name");
  if (j.contains("description")) m.description = r.str(j["description"], "$.description");
  if (j.contains("ticks_per_step")) m.ticks_per_step = r.unsig(j["ticks_per_step"], "$.ticks_per_step", 1, 1u << 20);
  if (j.contains("tick_offset")) m.tick_offset = r.sig(j["tick_offset"], "$.tick_offset");
  if (j.contains("first_step")) m.first_step = r.unsig(j["first_step"], "$.first_step", 0, UINT64_MAX);
  if (j.contains("last_step")) m.last_step = r.unsig(j["last_step"], "$.last_step", 0, UINT64_MAX);
  if (m.first_step && m.last_step && *m.first_step > *m.last_step)
    r.fail("$.last_step", "last_step " + std::to_string(*m.last_step) + " is before first_step " + std::to_string(*m.first_step));
  ColumnIndex index;  // what is mapped and ignored so far: checking each column stays linear
  if (j.contains("ignore")) {
    const Json& ig = j["ignore"];
    if (!ig.is_array()) r.fail("$.ignore", "expected an array of column names, got " + json_kind(ig));
    std::size_t globs = 0;
    for (std::size_t i = 0; i < ig.size(); ++i) {
      const std::string at = "$.ignore[" + std::to_string(i) + "]";
      m.ignore.push_back(r.str(ig[i], at));
      if (!is_glob(m.ignore.back())) continue;
      if (m.ignore.back().size() > kMaxIgnoreGlobLength)
        r.fail(at, "a glob of " + std::to_string(m.ignore.back().size()) + " characters: at most " +
                       std::to_string(kMaxIgnoreGlobLength) + " (list long names without a *)");
      if (++globs > kMaxIgnoreGlobs)
        r.fail("$.ignore", "more than " + std::to_string(kMaxIgnoreGlobs) + " globs (entries with a *): list the names instead, " +
                               "as many as you like");
    }
    for (const auto& p : m.ignore) index.add_ignore(p);
  }
  if (j.contains("capture")) {
    const Json& c = j["capture"];
    r.keys(c, "$.capture", {"counter_address", "counter_type", "ticks_per_update"});
    if (c.contains("counter_address")) m.capture.counter_address = r.address(c["counter_address"], "$.capture.counter_address");
    if (c.contains("counter_type")) {
      m.capture.counter_type = r.type(c["counter_type"], "$.capture.counter_type");
      if (is_float_type(m.capture.counter_type) || m.capture.counter_type == ValueType::Bool)
        r.fail("$.capture.counter_type", "the update counter is an integer (u8 to u64, i8 to i64)");
    }
    if (c.contains("ticks_per_update"))
      m.capture.ticks_per_update = static_cast<uint32_t>(r.unsig(c["ticks_per_update"], "$.capture.ticks_per_update", 1, 1000));
  }
  if (!j.contains("columns")) r.fail("$.columns", "missing: the list of mapped columns");
  const Json& cols = j["columns"];
  if (!cols.is_array() || cols.empty()) r.fail("$.columns", "expected a non-empty array of columns, got " + json_kind(cols));
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const std::string at = "$.columns[" + std::to_string(i) + "]";
    const Json& c = cols[i];
    r.keys(c, at, {"column", "address", "field", "type", "scale", "offset", "tolerance", "note"});
    Column col;
    col.json_path = at;
    if (c.contains("address")) col.address = r.address(c["address"], at + ".address");
    if (c.contains("column")) {
      col.name = r.str(c["column"], at + ".column");
      if (col.name.empty()) r.fail(at + ".column", "expected a column name");
    } else if (col.address) {
      col.name = hex_address(*col.address);
    } else {
      r.fail(at, "a column needs \"column\" (its name in the trace) or \"address\" (for capture), or both");
    }
    if (col.name == "step") r.fail(at + ".column", "\"step\" is the trace's own step column");
    if (col.name.find_first_of(",\"\n\r") != std::string::npos)
      r.fail(at + ".column", "a column name must not contain a comma, a quote or a line break");
    if (const int k = index.find(col.name); k >= 0)
      r.fail(at + ".column", "column " + qt(col.name) + " is already mapped by " + m.columns[static_cast<std::size_t>(k)].json_path);
    if (index.ignored(col.name)) r.fail(at + ".column", "column " + qt(col.name) + " is both mapped and in \"ignore\"");
    index.add_column(col.name, m.columns.size());
    if (!c.contains("field")) r.fail(at + ".field", "missing: the model field path, e.g. entities[0].actioncooldown");
    col.field = r.str(c["field"], at + ".field");
    if (!c.contains("type")) r.fail(at + ".type", "missing: how the trace writes the value (f32, f64, i8..i64, u8..u64, bool)");
    col.type = r.type(c["type"], at + ".type");
    col.scale_text = "1";
    if (c.contains("scale")) {
      const Json& s = c["scale"];
      if (s.is_string()) {
        const std::string name = s.get<std::string>();
        if (name == "deg_to_rad")
          col.scale = std::numbers::pi / 180.0;
        else if (name == "rad_to_deg")
          col.scale = 180.0 / std::numbers::pi;
        else
          r.fail(at + ".scale", "expected a number, \"deg_to_rad\" or \"rad_to_deg\", got " + qt(name));
        col.scale_text = name;
      } else {
        col.scale = r.number(s, at + ".scale");
        if (col.scale == 0) r.fail(at + ".scale", "a scale of 0 makes every value 0");
        col.scale_text = num(col.scale);
      }
    }
    if (c.contains("offset")) col.offset = r.number(c["offset"], at + ".offset");
    if (c.contains("tolerance")) col.tolerance = read_tolerance(r, c["tolerance"], at + ".tolerance");
    if (c.contains("note")) (void)r.str(c["note"], at + ".note");
    if (col.type == ValueType::Bool && col.converts()) r.fail(at + ".scale", "a bool column takes no scale or offset");
    m.columns.push_back(std::move(col));
  }
  for (std::size_t i = 0; i < m.ignore.size(); ++i)
    if (m.ignore[i] == "step") r.fail("$.ignore[" + std::to_string(i) + "]", "the step column cannot be ignored");
  return m;
}

Map load_map(const std::string& path) {
  const Json j = parse_json_file(path);
  const auto dir = std::filesystem::path(path).parent_path().string();
  return parse_map(j, path, dir);
}

// ---------------------------------------------------------------- binding to a model

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

/// The path with its indices taken out (`entities[].yaw`), and the indices.
std::string skeleton(const std::string& path, std::vector<std::string>* indices) {
  std::string o;
  bool in = false;
  std::string idx;
  for (char c : path) {
    if (c == '[') {
      in = true;
      idx.clear();
      o += c;
    } else if (c == ']') {
      in = false;
      if (indices) indices->push_back(idx);
      o += c;
    } else if (in) {
      idx += c;
    } else {
      o += c;
    }
  }
  return o;
}

std::string instantiate(const std::string& skel, const std::vector<std::string>& indices) {
  std::string o;
  std::size_t k = 0;
  for (std::size_t i = 0; i < skel.size(); ++i) {
    o += skel[i];
    if (skel[i] == '[' && i + 1 < skel.size() && skel[i + 1] == ']') {
      if (k >= indices.size()) return "";
      o += indices[k++];
    }
  }
  return k == indices.size() ? o : "";
}

}  // namespace

std::vector<std::string> similar_paths(const std::string& path, const std::vector<ConstLeafEntry>& leaves, std::size_t limit) {
  // The edit distance costs the two lengths' product for every field shape: a path longer than
  // any a model lists (a map's typo is a few characters off) gets no suggestions.
  constexpr std::size_t kLongestSuggested = 256;
  if (path.size() > kLongestSuggested) return {};
  // Compare shapes (indices taken out), then put the asked indices back when that leaf exists.
  std::vector<std::string> want_idx;
  const std::string want = skeleton(path, &want_idx);
  std::vector<std::string> skels;
  std::map<std::string, std::pair<std::size_t, std::size_t>> range;  // skeleton -> first, last leaf
  std::set<std::string_view> all;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    all.insert(leaves[i].path);
    std::string s = skeleton(leaves[i].path, nullptr);
    auto it = range.find(s);
    if (it == range.end()) {
      range.emplace(s, std::make_pair(i, i));
      skels.push_back(std::move(s));
    } else {
      it->second.second = i;
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> scored;  // distance, index into skels
  for (std::size_t i = 0; i < skels.size(); ++i) scored.emplace_back(edit_distance(want, skels[i]), i);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [d, i] : scored) {
    if (out.size() >= limit) break;
    const std::string inst = instantiate(skels[i], want_idx);
    if (!inst.empty() && inst != path && all.count(inst)) {
      out.push_back(inst);
      continue;
    }
    const auto [first, last] = range[skels[i]];
    if (first == last)
      out.push_back(leaves[first].path);
    else
      out.push_back(leaves[first].path + " ... " + leaves[last].path);
  }
  return out;
}

std::vector<BoundColumn> bind_map(const Map& map, Model& model) {
  if (model.info().name != map.model)
    throw InputError(map.source, "$.model",
                     "the map is for the " + qt(map.model) + " model, the scenario makes a " + qt(model.info().name) + " model");
  // Verify steps the model no further than its scenario runs (docs/traces.md, "Alignment"):
  // an offset beyond that leaves no row that could be compared.
  if (map.tick_offset > 0 && static_cast<uint64_t>(map.tick_offset) > model.default_ticks())
    throw InputError(map.source, "$.tick_offset",
                     "tick_offset " + std::to_string(map.tick_offset) + " is beyond the scenario's run length of " +
                         std::to_string(model.default_ticks()) +
                         " ticks: no step could be compared (raise \"ticks\" in the scenario to verify further)");
  const auto leaves = model.leaves();
  std::map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < leaves.size(); ++i) index.emplace(leaves[i].path, i);
  std::vector<BoundColumn> out;
  for (const auto& c : map.columns) {
    auto it = index.find(c.field);
    if (it == index.end()) {
      const auto near = similar_paths(c.field, leaves);
      throw InputError(map.source, c.json_path + ".field",
                       "no field " + qt(c.field) + " in the " + model.info().name + " state at tick " +
                           std::to_string(model.tick()) + (near.empty() ? "" : " (closest: " + join(near) + ")"));
    }
    BoundColumn b;
    b.leaf = it->second;
    b.kind = leaves[b.leaf].ref.kind;
    if (b.kind == LeafKind::String)
      throw InputError(map.source, c.json_path + ".field", c.field + " is a string; traces compare numbers and bools");
    if (!is_float_kind(b.kind) && !c.tolerance.exact())
      throw InputError(map.source, c.json_path + ".tolerance",
                       c.field + " is " + with_article(leaf_kind_name(b.kind)) +
                           ": integers and bools compare exactly (drop the tolerance)");
    if (b.kind == LeafKind::Bool && c.type != ValueType::Bool && c.converts())
      throw InputError(map.source, c.json_path + ".scale", c.field + " is a bool: no scale or offset");
    out.push_back(b);
  }
  return out;
}

// ---------------------------------------------------------------- reading traces

const char* format_name(TraceFormat f) { return f == TraceFormat::Csv ? "CSV" : "JSON lines"; }

TraceFormat detect_format(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".jsonl" || ext == ".ndjson" || ext == ".json") return TraceFormat::JsonLines;
  if (ext == ".csv") return TraceFormat::Csv;
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  while (in.get(c))
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
  return c == '{' ? TraceFormat::JsonLines : TraceFormat::Csv;
}

struct TraceReader::Impl {
  const Map* map = nullptr;
  ColumnIndex index;
  std::string path;
  std::ifstream in;
  std::vector<char> buf = std::vector<char>(std::size_t{1} << 16);  // read ahead
  std::size_t buf_pos = 0, buf_end = 0;
  bool at_eof = false;
  std::size_t line = 0;
  std::optional<uint64_t> last_step;
  std::size_t last_step_line = 0;
  // CSV
  bool header_done = false;
  std::vector<int> col_of;  // CSV field -> map column; -1 ignored, -2 the step
  std::vector<std::string> header;
  // JSON lines
  std::vector<bool> seen;

  [[noreturn]] void fail(const std::string& place, const std::string& what) const { throw InputError(path, place, what); }
  std::string at_line() const { return "line " + std::to_string(line); }
  std::string at_cell(const std::string& col) const { return at_line() + ", column " + qt(col); }

  /// The next line, without its line end; a line longer than kMaxTraceLineBytes is
  /// refused before more of it is held (a file with no line break, /dev/zero, ...).
  bool getline(std::string& s) {
    s.clear();
    bool any = false;
    while (true) {
      if (buf_pos == buf_end) {
        if (at_eof) break;
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf_pos = 0;
        buf_end = static_cast<std::size_t>(in.gcount());
        if (in.bad()) fail("line " + std::to_string(line + 1), "read error");
        if (buf_end == 0) {
          at_eof = true;
          break;
        }
      }
      any = true;
      const char* b = buf.data() + buf_pos;
      const auto* nl = static_cast<const char*>(std::memchr(b, '\n', buf_end - buf_pos));
      const std::size_t n = nl ? static_cast<std::size_t>(nl - b) : buf_end - buf_pos;
      if (s.size() + n > kMaxTraceLineBytes + 1)  // one more for a CR before the LF
        fail("line " + std::to_string(line + 1), "a line longer than " + std::to_string(kMaxTraceLineBytes >> 20) +
                                                     " MiB (" + std::to_string(kMaxTraceLineBytes) +
                                                     " bytes), the longest a trace may hold: is this a trace?");
      s.append(b, n);
      buf_pos += n;
      if (nl) {
        ++buf_pos;
        break;
      }
    }
    if (!any) return false;
    ++line;
    if (!s.empty() && s.back() == '\r') s.pop_back();
    if (s.size() > kMaxTraceLineBytes)
      fail(at_line(), "a line longer than " + std::to_string(kMaxTraceLineBytes >> 20) + " MiB (" +
                          std::to_string(kMaxTraceLineBytes) + " bytes), the longest a trace may hold: is this a trace?");
    return true;
  }

  static bool skip(std::string_view s) {
    s = trim(s);
    return s.empty() || s.front() == '#';
  }

  std::vector<std::string> split_csv(const std::string& s) const {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (true) {
      std::string field;
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
      if (i < s.size() && s[i] == '"') {
        ++i;
        bool closed = false;
        while (i < s.size()) {
          if (s[i] == '"') {
            if (i + 1 < s.size() && s[i + 1] == '"') {
              field += '"';
              i += 2;
              continue;
            }
            closed = true;
            ++i;
            break;
          }
          field += s[i++];
        }
        if (!closed) fail(at_line(), "a quoted value is not closed (values cannot span lines)");
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        if (i < s.size() && s[i] != ',') fail(at_line(), "text after a quoted value");
      } else {
        const std::size_t comma = s.find(',', i);
        const std::size_t end = comma == std::string::npos ? s.size() : comma;
        field = std::string(trim(std::string_view(s).substr(i, end - i)));
        i = end;
      }
      out.push_back(std::move(field));
      if (i >= s.size()) break;
      ++i;  // the comma
      if (i == s.size()) {
        out.emplace_back();
        break;
      }
    }
    return out;
  }

  void read_header() {
    std::string s;
    bool found = false;
    while (!found && getline(s)) {
      if (line == 1 && s.rfind("\xEF\xBB\xBF", 0) == 0) s.erase(0, 3);  // a UTF-8 byte order mark
      found = !skip(s);
    }
    if (!found) fail("", "empty trace: expected a header row (step and one column per field)");
    header = split_csv(s);
    col_of.assign(header.size(), -1);
    int step_at = -1;
    std::unordered_set<std::string> names;
    std::vector<bool> present(map->columns.size(), false);
    for (std::size_t i = 0; i < header.size(); ++i) {
      const std::string& h = header[i];
      if (h.empty()) fail(at_line() + " (the header)", "column " + std::to_string(i + 1) + " has no name");
      if (!names.insert(h).second) fail(at_line() + " (the header)", "column " + qt(h) + " appears twice");
      if (h == "step") {
        step_at = static_cast<int>(i);
        col_of[i] = -2;
        continue;
      }
      const int c = index.find(h);
      if (c >= 0) {
        col_of[i] = c;
        present[static_cast<std::size_t>(c)] = true;
      } else if (!index.ignored(h)) {
        fail(at_cell(h), "not in the map " + map->source + ": map it to a field or list it under \"ignore\" (mapped: " +
                             mapped_names(*map) + ")");
      }
    }
    if (step_at < 0) fail(at_line() + " (the header)", "no \"step\" column (the trace's update count since its first row)");
    for (std::size_t c = 0; c < map->columns.size(); ++c)
      if (!present[c])
        fail(at_line() + " (the header)", "no column " + qt(map->columns[c].name) + ", which " + map->source + " " +
                                              map->columns[c].json_path + " maps to " + map->columns[c].field);
    header_done = true;
  }

  void check_step(uint64_t step) {
    if (last_step && step <= *last_step)
      fail(at_cell("step"), "step " + std::to_string(step) + " after step " + std::to_string(*last_step) + " (line " +
                                std::to_string(last_step_line) + "): steps must rise");
    last_step = step;
    last_step_line = line;
  }

  void put(TraceRow& row, std::size_t c, std::string_view text) {
    const Column& col = map->columns[c];
    row.texts[c] = std::string(trim(text));
    if (row.texts[c].empty()) return;
    try {
      row.cells[c] = parse_value(row.texts[c], col.type);
    } catch (const std::invalid_argument& e) {
      fail(at_cell(col.name), "expected " + with_article(type_name(col.type)) + " value (" +
                                  (is_float_type(col.type) ? "a decimal number or 0x and its IEEE bits" : "a decimal integer or 0x hex") +
                                  "), got " + qt(row.texts[c]) + ": " + e.what());
    }
  }

  bool next_csv(TraceRow& row) {
    if (!header_done) read_header();
    std::string s;
    while (getline(s)) {
      if (skip(s)) continue;
      const auto f = split_csv(s);
      if (f.size() != header.size())
        fail(at_line(), std::to_string(f.size()) + " values, the header has " + std::to_string(header.size()) + " columns");
      row.line = line;
      row.cells.assign(map->columns.size(), std::nullopt);
      row.texts.assign(map->columns.size(), std::string());
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (col_of[i] == -2) {
          uint64_t st = 0;
          const auto& t = f[i];
          auto r = std::from_chars(t.data(), t.data() + t.size(), st);
          if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
            fail(at_cell("step"), "expected the step as an integer >= 0, got " + qt(t));
          row.step = st;
        } else if (col_of[i] >= 0) {
          put(row, static_cast<std::size_t>(col_of[i]), f[i]);
        }
      }
      check_step(row.step);
      return true;
    }
    return false;
  }

  bool next_jsonl(TraceRow& row) {
    std::string s;
    while (getline(s)) {
      if (trim(s).empty()) continue;
      Json j;
      JsonSyntaxError err;
      if (!try_parse_json(s, j, err)) fail(at_line() + ", byte " + std::to_string(err.byte + 1), "invalid JSON: " + err.what);
      if (!j.is_object()) fail(at_line(), "expected one JSON object per line, got " + json_kind(j));
      row.line = line;
      row.cells.assign(map->columns.size(), std::nullopt);
      row.texts.assign(map->columns.size(), std::string());
      auto st = j.find("step");
      if (st == j.end()) fail(at_line(), "no \"step\" key (the trace's update count since its first row)");
      if (!st->is_number_unsigned()) fail(at_cell("step"), "expected the step as an integer >= 0, got " + st->dump());
      row.step = st->get<uint64_t>();
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "step") continue;
        const int c = index.find(it.key());
        if (c < 0) {
          if (index.ignored(it.key())) continue;
          fail(at_cell(it.key()), "not in the map " + map->source + ": map it to a field or list it under \"ignore\" (mapped: " +
                                      mapped_names(*map) + ")");
        }
        const auto ci = static_cast<std::size_t>(c);
        seen[ci] = true;
        const Json& v = it.value();
        if (v.is_null()) continue;
        if (v.is_string())
          put(row, ci, v.get<std::string>());
        else if (v.is_boolean())
          put(row, ci, v.get<bool>() ? "true" : "false");
        else if (v.is_number())
          put(row, ci, v.dump());
        else
          fail(at_cell(it.key()), "expected a number, a string or null, got " + json_kind(v));
      }
      check_step(row.step);
      return true;
    }
    return false;
  }
};

TraceReader::TraceReader(const std::string& path, const Map& map, std::optional<TraceFormat> format)
    : impl_(std::make_unique<Impl>()), path_(path), format_(format ? *format : detect_format(path)) {
  impl_->map = &map;
  impl_->index = ColumnIndex(map);
  impl_->path = path;
  impl_->in.open(path, std::ios::binary);
  if (!impl_->in) throw InputError(path, "", "cannot open the trace for reading");
  impl_->seen.assign(map.columns.size(), false);
}

TraceReader::~TraceReader() = default;

bool TraceReader::next(TraceRow& row) {
  return format_ == TraceFormat::Csv ? impl_->next_csv(row) : impl_->next_jsonl(row);
}

std::vector<std::string> TraceReader::never_seen() const {
  std::vector<std::string> out;
  if (format_ != TraceFormat::JsonLines) return out;
  for (std::size_t c = 0; c < impl_->seen.size(); ++c)
    if (!impl_->seen[c]) out.push_back(impl_->map->columns[c].name);
  return out;
}

// ---------------------------------------------------------------- comparing

namespace {

struct Compared {
  bool outside = false;
  double error = 0;
  std::optional<uint64_t> ulps;
  LeafValue expected, actual;
};

double leaf_double(const LeafValue& v) {
  switch (v.kind) {
    case LeafKind::F32: return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(v.bits)));
    case LeafKind::F64: return std::bit_cast<double>(v.bits);
    case LeafKind::Bool: return v.bits ? 1.0 : 0.0;
    default:
      if (is_signed_kind(v.kind)) return static_cast<double>(static_cast<int64_t>(v.bits));
      return static_cast<double>(v.bits);
  }
}

bool is_integral_value(double d) { return std::isfinite(d) && std::trunc(d) == d; }

Compared compare(const Column& col, const Value& v, ConstLeafRef leaf) {
  Compared o;
  o.actual = read_leaf(leaf);
  const LeafKind kind = leaf.kind;
  if (is_float_kind(kind)) {
    double d = v.as_double();
    if (col.converts()) d = d * col.scale + col.offset;
    double ex = 0;
    if (kind == LeafKind::F32) {
      const float e = static_cast<float>(d);
      o.expected = read_leaf(leaf_ref(e));
      ex = static_cast<double>(e);
    } else {
      const double e = d;
      o.expected = read_leaf(leaf_ref(e));
      ex = d;
    }
    const double a = leaf_double(o.actual);
    o.ulps = ulp_distance(o.expected, o.actual);
    if (std::isnan(a) || std::isnan(ex)) {
      const bool both = std::isnan(a) && std::isnan(ex);
      o.error = both ? 0.0 : std::numeric_limits<double>::quiet_NaN();
      o.outside = !both;
      return o;
    }
    double err = a == ex ? 0.0 : std::fabs(a - ex);
    if (col.tolerance.modulo && std::isfinite(err)) {
      const double m = *col.tolerance.modulo;
      const double r = std::fmod(err, m);
      err = std::min(r, m - r);
    }
    o.error = err;
    const Tolerance& t = col.tolerance;
    bool inside = false;
    if (t.exact())
      inside = a == ex;
    else
      inside = (t.abs && err <= *t.abs) || (t.ulps && o.ulps && *o.ulps <= *t.ulps);
    o.outside = !inside;
    return o;
  }
  // An integer or bool field: exact.
  const bool int_trace = !is_float_type(v.type);
  if (int_trace && !col.converts()) {
    o.expected.kind = kind;
    o.expected.bits = v.bits;
    o.expected.text = v.text();
    if (kind == LeafKind::Bool && v.type != ValueType::Bool) o.expected.text = std::to_string(v.bits);
    const bool neg_a = is_signed_kind(kind) && static_cast<int64_t>(o.actual.bits) < 0;
    const bool neg_e = is_signed_type(v.type) && static_cast<int64_t>(v.bits) < 0;
    const uint64_t a = o.actual.bits, e = v.bits;
    if (neg_a == neg_e) {
      o.outside = a != e;
      o.error = static_cast<double>(a > e ? a - e : e - a);
    } else {
      o.outside = true;
      const uint64_t mag_a = neg_a ? ~a + 1 : a, mag_e = neg_e ? ~e + 1 : e;
      o.error = static_cast<double>(mag_a) + static_cast<double>(mag_e);
    }
    return o;
  }
  double d = v.as_double();
  if (col.converts()) d = d * col.scale + col.offset;
  o.expected.kind = kind;
  if (is_integral_value(d) && std::fabs(d) < 9.2e18) {
    const auto i = static_cast<int64_t>(d);
    o.expected.bits = static_cast<uint64_t>(i);
    o.expected.text = kind == LeafKind::Bool ? (i == 1 ? "true" : (i == 0 ? "false" : std::to_string(i))) : std::to_string(i);
  } else {
    o.expected.bits = std::bit_cast<uint64_t>(d);
    o.expected.text = shortest(d);
  }
  const double a = leaf_double(o.actual);
  o.outside = !(a == d);
  o.error = std::isnan(d) ? std::numeric_limits<double>::quiet_NaN() : std::fabs(a - d);
  return o;
}

bool worse(double e, double than) {
  if (std::isnan(e)) return !std::isnan(than);
  if (std::isnan(than)) return false;
  return e > than;
}

}  // namespace

namespace {

// ---- verify_trace's phases: align a row with a tick, find its fields, compare, keep the first divergence

/// The tick a row is compared at: step s is the model state at tick s x ticks_per_step + tick_offset,
/// within the ticks the model can be stepped to (from where it is, to the scenario's run length).
uint64_t row_tick(const TraceRow& row, const Map& map, const Model& model, uint64_t start_tick, const std::string& trace_path,
                  const VerifyOptions& opt) {
  const std::string place = "line " + std::to_string(row.line);
  int64_t t = 0;
  if (row.step > static_cast<uint64_t>(INT64_MAX) / map.ticks_per_step ||
      __builtin_add_overflow(static_cast<int64_t>(row.step * map.ticks_per_step), map.tick_offset, &t))
    throw InputError(trace_path, place, "step " + std::to_string(row.step) + " is beyond any tick");
  if (t < 0 || static_cast<uint64_t>(t) < model.tick())
    throw InputError(trace_path, place,
                     "step " + std::to_string(row.step) + " is tick " + std::to_string(t) + ", before the model's first tick " +
                         std::to_string(start_tick) + " (raise tick_offset in " + map.source + ", or skip it with first_step)");
  // The work is bounded by what the scenario honestly runs, not by what a trace asks for
  // (a last step of 10^12, or ticks_per_step 2^20 times a few hundred steps).
  if (static_cast<uint64_t>(t) > model.default_ticks())
    throw InputError(trace_path, place,
                     "step " + std::to_string(row.step) + " is tick " + std::to_string(t) + ", beyond the scenario's run length of " +
                         std::to_string(model.default_ticks()) + " ticks" + (opt.scenario.empty() ? "" : " (" + opt.scenario + ")") +
                         ": verify steps no further than the scenario runs; raise \"ticks\" in the scenario to verify further, "
                         "or stop at an earlier step with last_step in " + map.source);
  return static_cast<uint64_t>(t);
}

/// Point `b` at its field again when the state changed shape (a list grew or shrank).
void rebind(BoundColumn& b, const Column& col, const std::vector<ConstLeafEntry>& leaves, uint64_t tick, const Map& map,
            const std::string& trace_path, const TraceRow& row) {
  if (b.leaf < leaves.size() && leaves[b.leaf].path == col.field) return;
  std::size_t k = 0;
  while (k < leaves.size() && leaves[k].path != col.field) ++k;
  if (k == leaves.size())
    throw InputError(map.source, col.json_path + ".field",
                     "field " + qt(col.field) + " no longer exists at tick " + std::to_string(tick) + " (trace " + trace_path +
                         " line " + std::to_string(row.line) + ")");
  b.leaf = k;
}

/// One compared value into its column's summary.
void note(ColumnSummary& s, const Compared& cmp, uint64_t step, uint64_t tick) {
  ++s.compared;
  if (!s.max_step || worse(cmp.error, s.max_error)) {  // the first place of the largest error
    s.max_error = cmp.error;
    s.max_step = step;
    s.max_tick = tick;
  }
  if (cmp.ulps && (!s.max_ulps || *cmp.ulps > *s.max_ulps)) s.max_ulps = cmp.ulps;
  if (cmp.outside) {
    ++s.outside;
    if (!s.first_step) {
      s.first_step = step;
      s.first_tick = tick;
    }
  }
}

/// The first divergence: column c of `row`, with the rows before it and its own.
Divergence divergence(const Map& map, const TraceRow& row, uint64_t tick, std::size_t c, const Compared& cmp,
                      const std::deque<ContextRow>& before, ContextRow here) {
  Divergence d;
  d.step = row.step;
  d.tick = tick;
  d.line = row.line;
  d.column = c;
  d.column_name = map.columns[c].name;
  d.field = map.columns[c].field;
  d.trace_text = row.texts[c];
  d.expected = cmp.expected;
  d.actual = cmp.actual;
  d.error = cmp.error;
  d.ulps = cmp.ulps;
  d.tolerance = map.columns[c].tolerance;
  d.before.assign(before.begin(), before.end());
  d.row = std::move(here);
  return d;
}

}  // namespace

VerifyResult verify_trace(Model& model, const std::string& trace_path, const Map& map, const VerifyOptions& opt) {
  VerifyResult res;
  res.trace = trace_path;
  res.map = map.source;
  res.model = model.info().name;
  res.model_version = model.info().version;
  auto bound = bind_map(map, model);
  TraceReader reader(trace_path, map, opt.format);
  res.format = reader.format();
  for (const auto& c : map.columns) {
    ColumnSummary s;
    s.column = c.name;
    s.field = c.field;
    s.tolerance = c.tolerance;
    res.columns.push_back(std::move(s));
  }
  // Compare in listing order of the fields, so "first" means what it means everywhere else.
  std::vector<std::size_t> order(map.columns.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bound[a].leaf < bound[b].leaf; });

  std::deque<ContextRow> context;
  const uint64_t start_tick = model.tick();
  TraceRow row;
  while (reader.next(row)) {
    if ((map.first_step && row.step < *map.first_step) || (map.last_step && row.step > *map.last_step)) {
      ++res.skipped;
      continue;
    }
    const uint64_t tick = row_tick(row, map, model, start_tick, trace_path, opt);
    while (model.tick() < tick) {
      model.step_scripted();
      ++res.ticks_stepped;
    }
    if (res.rows == 0) {
      res.first_step = row.step;
      res.first_tick = tick;
    }
    res.last_step = row.step;
    res.last_tick = tick;
    ++res.rows;
    const auto leaves = model.leaves();
    const bool keep_context = !res.first;  // until the first divergence: the rows before it, and its own
    ContextRow ctx;
    if (keep_context) {
      ctx.step = row.step;
      ctx.tick = tick;
      ctx.line = row.line;
      ctx.cells.resize(map.columns.size());
    }
    std::optional<std::pair<std::size_t, Compared>> first_here;
    for (const std::size_t c : order) {
      const Column& col = map.columns[c];
      rebind(bound[c], col, leaves, tick, map, trace_path, row);
      if (!row.cells[c]) continue;
      const auto cmp = compare(col, *row.cells[c], leaves[bound[c].leaf].ref);
      note(res.columns[c], cmp, row.step, tick);
      if (cmp.outside && !first_here) first_here = std::make_pair(c, cmp);
      if (keep_context) ctx.cells[c] = ContextCell{true, row.texts[c], cmp.expected.text, cmp.actual.text, cmp.outside};
    }
    if (keep_context) {
      if (first_here) {
        res.first = divergence(map, row, tick, first_here->first, first_here->second, context, std::move(ctx));
        context.clear();
      } else if (opt.context_rows > 0) {
        context.push_back(std::move(ctx));
        if (context.size() > opt.context_rows) context.pop_front();
      }
    }
    if (opt.progress) opt.progress(res.rows, tick);
  }
  const auto missing = reader.never_seen();
  if (!missing.empty())
    throw InputError(trace_path, "", "no row holds the mapped column" + std::string(missing.size() > 1 ? "s " : " ") + join(missing));
  if (res.rows == 0)
    throw InputError(trace_path, "", res.skipped ? "every row is outside first_step..last_step of " + map.source : "no rows to compare");
  return res;
}

// ---------------------------------------------------------------- reports

namespace {

std::string steps_text(const VerifyResult& r) {
  if (!r.first_step) return "none";
  return std::to_string(*r.first_step) + "-" + std::to_string(*r.last_step);
}

/// Rows of cells as a table with columns padded to their widest cell.
std::string table(const std::vector<std::vector<std::string>>& rows, const std::string& indent_first,
                  const std::string& indent) {
  std::vector<std::size_t> w;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (w.size() <= i) w.push_back(0);
      w[i] = std::max(w[i], r[i].size());
    }
  std::string o;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line = k == 0 ? indent_first : indent;
    for (std::size_t i = 0; i < rows[k].size(); ++i) {
      line += rows[k][i];
      if (i + 1 < rows[k].size()) line += std::string(w[i] - rows[k][i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    o += line + "\n";
  }
  return o;
}

std::string error_text(double e, const std::optional<uint64_t>& ulps) {
  std::string s = num(e);
  if (ulps) s += ", " + std::to_string(*ulps) + (*ulps == 1 ? " ulp" : " ulps");
  return s;
}

std::string bits_hex(const LeafValue& v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, v.kind == LeafKind::F32 ? "0x%08llx" : "0x%016llx", static_cast<unsigned long long>(v.bits));
  return buf;
}

}  // namespace

std::string report_text(const VerifyResult& r) {
  std::string o;
  auto line = [&](const std::string& label, const std::string& text) {
    std::string l = label;
    if (l.size() < 12) l += std::string(12 - l.size(), ' ');
    o += l + text + "\n";
  };
  std::size_t cols_outside = 0;
  uint64_t values = 0, outside = 0;
  for (const auto& c : r.columns) {
    cols_outside += c.outside ? 1 : 0;
    values += c.compared;
    outside += c.outside;
  }
  line("trace", r.trace + " (" + format_name(r.format) + "): " + std::to_string(r.rows) + " rows, steps " + steps_text(r) +
                    (r.skipped ? ", " + std::to_string(r.skipped) + " rows outside first_step..last_step skipped" : ""));
  line("map", r.map + ": " + std::to_string(r.columns.size()) + " columns");
  if (!r.scenario.empty()) line("scenario", r.scenario);
  line("model", r.model + " v" + std::to_string(r.model_version) + ", ticks " + std::to_string(r.first_tick) + "-" +
                    std::to_string(r.last_tick) + " (" + std::to_string(r.ticks_stepped) + " ticks stepped, scripted inputs)");
  if (r.first) {
    const auto& d = *r.first;
    line("DIVERGED", "at step " + std::to_string(d.step) + " (tick " + std::to_string(d.tick) + ", line " + std::to_string(d.line) +
                         "): column " + d.column_name + ", field " + d.field);
    line("  trace", d.trace_text);
    line("  expected", value_with_bits(d.expected));
    line("  model", value_with_bits(d.actual));
    line("  error", error_text(d.error, d.ulps) + " (tolerance: " + d.tolerance.text() + ")");
    std::vector<std::vector<std::string>> ctx;
    ctx.push_back({"step", "tick", "line", "trace", "model", ""});
    for (const auto& row : d.before) {
      const auto& cell = row.cells[d.column];
      ctx.push_back({std::to_string(row.step), std::to_string(row.tick), std::to_string(row.line),
                     cell.present ? cell.trace : "(blank)", cell.present ? cell.model : "", ""});
    }
    const auto& cell = d.row.cells[d.column];
    ctx.push_back({std::to_string(d.step), std::to_string(d.tick), std::to_string(d.line), cell.trace, cell.model, "<- first outside"});
    o += table(ctx, "context     ", "            ");
  }
  std::vector<std::vector<std::string>> t;
  t.push_back({"column", "field", "tolerance", "rows", "outside", "first outside", "largest error"});
  for (const auto& c : r.columns) {
    std::string largest = !c.max_step ? "-" : c.max_error == 0 ? "0" : error_text(c.max_error, std::nullopt) + " at step " + std::to_string(*c.max_step);
    if (c.max_ulps && *c.max_ulps > 0) largest += " (max " + std::to_string(*c.max_ulps) + (*c.max_ulps == 1 ? " ulp)" : " ulps)");
    t.push_back({c.column, c.field, c.tolerance.text(), std::to_string(c.compared), std::to_string(c.outside),
                 c.first_step ? "step " + std::to_string(*c.first_step) : "-", largest});
  }
  o += table(t, "columns     ", "            ");
  if (r.first)
    line("result", "divergent: " + std::to_string(outside) + " of " + std::to_string(values) + " values outside their tolerance, in " +
                       std::to_string(cols_outside) + " of " + std::to_string(r.columns.size()) + " columns");
  else
    line("result", "every value within its tolerance: " + std::to_string(values) + " values in " + std::to_string(r.rows) + " rows");
  return o;
}

nlohmann::ordered_json report_json(const VerifyResult& r) {
  using J = nlohmann::ordered_json;
  auto opt = [](const std::optional<uint64_t>& v) { return v ? J(*v) : J(nullptr); };
  // A non-finite error as text ("inf", "nan"), as the text report shows it; a finite one as a number.
  auto num_or_text = [](double d) { return std::isfinite(d) ? J(d) : J(num(d)); };
  auto ctx_json = [&](const ContextRow& row) {
    J cells = J::object();
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      const auto& cell = row.cells[c];
      cells[r.columns[c].column] = cell.present ? J{{"trace", cell.trace}, {"expected", cell.expected}, {"model", cell.model},
                                                    {"outside", cell.outside}}
                                                : J(nullptr);
    }
    return J{{"step", row.step}, {"tick", row.tick}, {"line", row.line}, {"cells", std::move(cells)}};
  };
  J o = J::object();
  o["match"] = r.ok();
  o["trace"] = r.trace;
  o["format"] = r.format == TraceFormat::Csv ? "csv" : "jsonl";
  o["map"] = r.map;
  o["scenario"] = r.scenario;
  o["model"] = r.model;
  o["model_version"] = r.model_version;
  o["rows"] = r.rows;
  o["skipped"] = r.skipped;
  o["first_step"] = opt(r.first_step);
  o["last_step"] = opt(r.last_step);
  o["first_tick"] = r.first_tick;
  o["last_tick"] = r.last_tick;
  o["ticks_stepped"] = r.ticks_stepped;
  if (r.first) {
    const auto& d = *r.first;
    J f{{"step", d.step}, {"tick", d.tick}, {"line", d.line}, {"column", d.column_name}, {"field", d.field},
        {"trace", d.trace_text}, {"expected", d.expected.text}, {"actual", d.actual.text}};
    if (is_float_kind(d.actual.kind)) {
      f["expected_bits"] = bits_hex(d.expected);
      f["actual_bits"] = bits_hex(d.actual);
    }
    f["error"] = num_or_text(d.error);
    f["ulps"] = opt(d.ulps);
    f["tolerance"] = d.tolerance.text();
    J context = J::array();
    for (const auto& row : d.before) context.push_back(ctx_json(row));
    f["context"] = std::move(context);
    f["row"] = ctx_json(d.row);
    o["first_divergence"] = std::move(f);
  } else {
    o["first_divergence"] = nullptr;
  }
  J columns = J::array();
  for (const auto& c : r.columns)
    columns.push_back(J{{"column", c.column}, {"field", c.field}, {"tolerance", c.tolerance.text()}, {"compared", c.compared},
                        {"outside", c.outside}, {"first_step", opt(c.first_step)}, {"first_tick", opt(c.first_tick)},
                        {"max_error", num_or_text(c.max_error)}, {"max_step", opt(c.max_step)}, {"max_tick", opt(c.max_tick)},
                        {"max_ulps", opt(c.max_ulps)}});
  o["columns"] = std::move(columns);
  return o;
}

}  // namespace lockstep::traces
