// The main of every Catch2 test executable (lockstep_tests() in cmake/lockstep.cmake): the bundled
// models registered, the test names checked, then Catch's own session.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "lockstep/models/bundled.h"

namespace {

// Catch2 v2's console reporter wraps a failing test's name with the lines after the first ": "
// indented to it; when that ": " sits past about column 70 the wrapping never ends and the run
// hangs (seen with Catch 2.13.10). So any ": " in a name must come before column 60: checked
// here, before any test runs, and when CTest lists the tests at build time.
int check_test_names() {
  int bad = 0;
  for (const auto& t : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
    const auto colon = t.name.find(": ");
    if (colon != std::string::npos && colon >= 60) {
      std::fprintf(stderr, "test name with \": \" at column %zu (keep it before 60): %s\n", colon, t.name.c_str());
      ++bad;
    }
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  lockstep::register_bundled_models();
  if (check_test_names() != 0) return 2;
  return Catch::Session().run(argc, argv);
}
