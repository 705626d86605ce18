// The suite's own test names. Catch2 v2's console reporter wraps a failing test's name with the lines after the
// first ": " indented to it; when that ": " sits past about column 70 the wrapping never ends and the run hangs
// (seen with Catch 2.13.10). So any ": " in a name comes before column 60.
#include <catch2/catch.hpp>

#include <string>

TEST_CASE("Test names keep clear of the reporter's colon wrapping hang", "[support]") {
  const auto& tests = Catch::getRegistryHub().getTestCaseRegistry().getAllTests();
  REQUIRE(tests.size() > 100);
  for (const auto& t : tests) {
    std::string shown = t.name;
    for (auto& c : shown)
      if (c == ':') c = '.';  // the message itself must not trip the wrapping it guards against
    INFO(shown);
    const auto colon = t.name.find(": ");
    CHECK((colon == std::string::npos || colon < 60));
  }
}
