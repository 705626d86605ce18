// json_load.h on hostile text: numbers beyond a double, nesting too deep, files too large.
// Every one is an InputError naming the file and the place, like any syntax error.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "lockstep/core/json_load.h"
#include "lockstep/core/model.h"

using namespace lockstep;

namespace {

std::string error_of(const std::string& text, const std::string& source = "s.json") {
  try {
    parse_json_text(text, source);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

class TempFile {
 public:
  TempFile() {
    char tmpl[] = "/tmp/lockstep-json-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    if (fd < 0) throw std::runtime_error("mkstemp");
    ::close(fd);
    path_ = tmpl;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

TEST_CASE("JSON numbers beyond a double are refused at their line and column", "[json][limits]") {
  CHECK(error_of("{\n  \"speed\": 1e999\n}") == "s.json: line 2, column 12: invalid JSON: a number beyond the range of a double (1e999)");
  CHECK(error_of("[1, -1e999]") == "s.json: line 1, column 5: invalid JSON: a number beyond the range of a double (-1e999)");
  CHECK(error_of("[2.5e308]") == "s.json: line 1, column 2: invalid JSON: a number beyond the range of a double (2.5e308)");
  // A 400-digit integer overflows every integer type and then the double it falls back to.
  const std::string big(400, '9');
  CHECK(error_of("{\"ticks\":\n\t" + big + "}") ==
        "s.json: line 2, column 2: invalid JSON: a number beyond the range of a double (" + big.substr(0, 32) +
            "... (400 characters))");
  // In range: the largest double, a 20-digit integer (a double), and the smallest subnormal still parse.
  CHECK(parse_json_text("[1.7976931348623157e308, 99999999999999999999, 5e-324, 1e-400]", "s.json").size() == 4);
  // A scenario names its file the same way.
  try {
    load_scenario_text("{\"model\": \"wander\",\n \"ticks\": 1e400}", "yard.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "yard.json: line 2, column 11: invalid JSON: a number beyond the range of a double (1e400)");
  }
}

TEST_CASE("JSON nesting deeper than 256 levels is refused where it goes too deep", "[json][limits]") {
  CHECK(kMaxJsonDepth == 256);
  const std::string ok = std::string(256, '[') + std::string(256, ']');
  CHECK(parse_json_text(ok, "s.json").is_array());
  CHECK(error_of(std::string(257, '[') + std::string(257, ']')) ==
        "s.json: line 1, column 257: invalid JSON: arrays and objects nested deeper than 256 levels");
  // Brackets inside strings are not nesting; objects count like arrays.
  std::string mixed = "{\"k\": \"[[[{{{\\\"[\", \"v\":\n";
  for (int i = 0; i < 255; ++i) mixed += "{\"a\":";
  mixed += "[1]";
  for (int i = 0; i < 255; ++i) mixed += "}";
  CHECK(error_of(mixed + "}") == "s.json: line 2, column " + std::to_string(255 * 5 + 1) +
                                     ": invalid JSON: arrays and objects nested deeper than 256 levels");
  // A million brackets: refused before a tree of them is built.
  CHECK_THAT(error_of(std::string(1000000, '[')), Catch::Contains("line 1, column 257: invalid JSON: arrays and objects nested deeper"));
}

TEST_CASE("JSON syntax errors keep their line and column", "[json]") {
  CHECK(error_of("{\"a\": 1,}") == "s.json: line 1, column 9: invalid JSON: syntax error while parsing object key - unexpected '}'; "
                                   "expected string literal");
  CHECK_THAT(error_of("[1]\n x"), Catch::StartsWith("s.json: line 2, column 2: invalid JSON: syntax error"));
  CHECK_THAT(error_of(""), Catch::StartsWith("s.json: line 1, column 1: invalid JSON"));
}

TEST_CASE("JSON files larger than 64 MiB are refused before they are read", "[json][limits]") {
  CHECK(kMaxJsonFileBytes == std::size_t{64} << 20);
  TempFile f;
  {
    std::ofstream(f.path()) << "[1]";
  }
  CHECK(parse_json_file(f.path()).size() == 1);
  // A sparse file: 64 MiB and one byte on paper, nothing on disk.
  std::filesystem::resize_file(f.path(), kMaxJsonFileBytes + 1);
  CHECK_THROWS_WITH(parse_json_file(f.path()),
                    f.path() + ": larger than 64 MiB (67108864 bytes), the most a JSON file may hold");
  // A device has no size to check first: it is read in blocks and refused past the limit.
  CHECK_THROWS_WITH(parse_json_file("/dev/zero"), "/dev/zero: larger than 64 MiB (67108864 bytes), the most a JSON file may hold");
}
