// Rules of the core: nothing in core/ may make results depend on the platform,
// the standard library's algorithms, the clock or thread timing
// (docs/architecture.md, "What core/ must not use").
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Ban {
  const char* pattern;
  const char* why;
  std::vector<std::string> exempt = {};  ///< files allowed the spelling, each named by its path under the source tree
};

// The ban list. Each is a regular expression over one source line with
// comments removed.
const std::vector<Ban>& bans() {
  static const std::vector<Ban> b = {
      {R"(std::(sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|exp|exp2|expm1|log|log2|log10|log1p|pow|cbrt|hypot|fma)f?\s*\()",
       "std transcendentals differ between libms: use lockstep::dmath"},
      {R"((^|[^_A-Za-z0-9:.])(sin|cos|tan|asin|acos|atan|atan2|exp|log|pow|sinf|cosf|tanf|asinf|acosf|atanf|atan2f|expf|logf|powf|fma|fmaf)\s*\()",
       "C transcendentals differ between libms: use lockstep::dmath",
       // The core's own math declares and defines its sin, cos, exp, ...
       {"core/include/lockstep/core/dmath.h", "core/src/dmath.cpp"}},
      {R"((^|[^_A-Za-z0-9])s?ran[d]\s*\()", "the C library's generator is global, unseeded state"},
      {R"(random_devic[e])", "a hardware entropy source is nondeterministic"},
      {R"(_distributio[n])", "std distributions differ between standard libraries"},
      {R"(std::chron[o])", "wall-clock time in the core"},
      {R"((^|[^_A-Za-z0-9])time\s*\()", "wall-clock time in the core"},
      {R"(unordered_(map|set|multimap|multiset))", "iteration order of unordered containers is unspecified"},
      {R"(lon[g]\s+double)", "the extended type is 80-bit on x86-64 and 128-bit on aarch64"},
      {R"(std::(thread|jthread|async)|<thread>|pthread_)", "threads racing in the core"},
      {R"(-ffast-math|__FAST_MATH__\s*$)", "fast-math"},
  };
  return b;
}

// Remove // and /* */ comments and string literals, keeping line structure.
std::vector<std::string> code_lines(const std::string& text) {
  std::vector<std::string> lines(1);
  bool block = false, str = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char n = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\n') {
      lines.emplace_back();
      if (!block) str = false;
      continue;
    }
    if (block) {
      if (c == '*' && n == '/') {
        block = false;
        ++i;
      }
      continue;
    }
    if (str) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        str = false;
      }
      continue;
    }
    if (c == '/' && n == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '/' && n == '*') {
      block = true;
      ++i;
      continue;
    }
    if (c == '"') {
      str = true;
      lines.back() += "\"\"";
      continue;
    }
    lines.back() += c;
  }
  return lines;
}

std::vector<std::string> violations_in(const std::string& name, const std::string& text) {
  static const std::vector<std::regex> compiled = [] {
    std::vector<std::regex> r;
    for (const auto& ban : bans()) r.emplace_back(ban.pattern);
    return r;
  }();
  std::vector<std::string> out;
  const auto lines = code_lines(text);
  for (std::size_t ln = 0; ln < lines.size(); ++ln)
    for (std::size_t b = 0; b < bans().size(); ++b) {
      const Ban& ban = bans()[b];
      if (std::find(ban.exempt.begin(), ban.exempt.end(), name) != ban.exempt.end()) continue;
      if (std::regex_search(lines[ln], compiled[b]))
        out.push_back(name + ":" + std::to_string(ln + 1) + ": " + ban.why + ": " + lines[ln]);
    }
  return out;
}

// Every source file under core/, its tests included: a test computes its
// expected values through tests/support/math_reference.h, outside core/.
bool is_core_source(const fs::path& p) {
  const auto ext = p.extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".cpp" || ext == ".cc";
}

// What the scan reports for one file, named by its path under the source tree.
std::vector<std::string> scan(const fs::path& rel, const std::string& text) {
  if (!is_core_source(rel)) return {};
  return violations_in(rel.generic_string(), text);
}

}  // namespace

// The probes live outside core/ (tests/support/banlist-*.txt) so that core/
// itself never spells a banned construct, not even as test data.
static std::vector<std::string> probe_lines(const char* name) {
  std::ifstream in(fs::path(LOCKSTEP_SOURCE_DIR) / "tests" / "support" / name);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

TEST_CASE("The ban list catches every banned construct it names", "[banlist]") {
  const auto bad = probe_lines("banlist-bad.txt");
  REQUIRE(bad.size() >= 13);
  for (const auto& line : bad) {
    INFO(line);
    CHECK_FALSE(violations_in("probe.cpp", line).empty());
  }
}

TEST_CASE("The ban list passes the core's own spellings and comments", "[banlist]") {
  const auto good = probe_lines("banlist-good.txt");
  REQUIRE(good.size() >= 9);
  for (const auto& line : good) {
    INFO(line);
    CHECK(violations_in("probe.cpp", line).empty());
  }
}

// test_dmath.cpp: the C names' exemption is the two dmath files by name, not
// every path that spells "dmath".
TEST_CASE("The scan covers the tests under core/ and exempts only the files it names", "[banlist]") {
  const auto bad = probe_lines("banlist-bad.txt");
  REQUIRE(bad.size() >= 13);
  for (const char* path : {"core/station/tests/x.cpp", "core/warriors/tests/x.h", "core/wander/tests/x.cpp",
                           "core/tests/x.cpp", "core/tests/test_dmath.cpp"})
    for (const auto& line : bad) {
      INFO(path << ": " << line);
      CHECK_FALSE(scan(path, line).empty());
    }
}

TEST_CASE("core/ uses nothing on the determinism ban list", "[banlist]") {
  const fs::path core = fs::path(LOCKSTEP_SOURCE_DIR) / "core";
  REQUIRE(fs::is_directory(core));
  std::vector<std::string> found;
  int files = 0, test_files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(core)) {
    if (!entry.is_regular_file() || !is_core_source(entry.path())) continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    ++files;
    const fs::path rel = fs::relative(entry.path(), LOCKSTEP_SOURCE_DIR);
    if (std::find(rel.begin(), rel.end(), fs::path("tests")) != rel.end()) ++test_files;
    for (auto& v : scan(rel, ss.str())) found.push_back(std::move(v));
  }
  CHECK(files >= 10);
  CHECK(test_files >= 10);  // the models' and the core's own tests are scanned too
  for (const auto& v : found) UNSCOPED_INFO(v);
  CHECK(found.empty());
}
