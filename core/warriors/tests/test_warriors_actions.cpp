// warriors tests (actions): see the seed sections named in each test.
#include <catch2/catch.hpp>

#include "warriors_test_util.h"

using namespace wtest;

TEST_CASE("warriors actions: the test file builds", "[warriors]") {
  WarriorsModel m = fixture("runtime_case");
  CHECK(m.state().humans[1].is_ai == 1);
}
