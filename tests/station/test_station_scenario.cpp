// The station scenario: bad input gets an InputError naming the JSON path.
#include <catch2/catch.hpp>

#include "lockstep/core/model.h"
#include "station_test_util.h"

using namespace station_test;

namespace {
// The error message for a scenario, or "" when it loads.
std::string error_of(const Json& j) {
  try {
    JsonReader r("bad.json");
    (void)StationModel::load_scenario(j, r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
Json good() {
  Json j = hall(20, 10);
  j["portals"] = Json::array({Json{{"id", "street_a"}, {"polygon", rect(0, 0, 2, 10)}, {"mode", "both"}, {"count", 5}},
                              Json{{"id", "b"}, {"polygon", rect(18, 0, 20, 10)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {5, 5}}, {"destination", "b"}}});
  return j;
}
}  // namespace

TEST_CASE("station scenario - the bundled fixtures load", "[station][scenario]") {
  for (const char* f : {"station/corridor.json", "station/hall.json", "station/rimea6.json"}) {
    INFO(f);
    CHECK_NOTHROW(make_model(fixture(f), f));
  }
  CHECK(error_of(good()).empty());
}

TEST_CASE("station scenario - errors name the JSON path", "[station][scenario]") {
  struct Case {
    const char* what;
    Json j;
    const char* needle;
  };
  std::vector<Case> cases;
  auto with = [](auto edit) {
    Json j = good();
    edit(j);
    return j;
  };
  cases.push_back({"dt other than 0.05 (S1)", with([](Json& j) { j["dt"] = 0.1; }), "bad.json: $.dt: the station model steps at 20 Hz"});
  cases.push_back({"keep", with([](Json& j) { j["keep"] = "middle"; }), "$.keep: expected \"right\" or \"left\""});
  cases.push_back({"no floors", with([](Json& j) { j["floors"] = Json::array(); }), "$.floors: expected at least one floor"});
  cases.push_back({"two-corner outline", with([](Json& j) { j["floors"][0]["walkable"][0] = Json::array({{0, 0}, {1, 1}}); }),
                   "$.floors[0].walkable[0]: a polygon needs at least 3 corners"});
  cases.push_back({"unknown key", with([](Json& j) { j["portals"][0]["rate"] = 3; }), "$.portals[0].rate: unknown field"});
  cases.push_back({"bad mode", with([](Json& j) { j["portals"][1]["mode"] = "exit"; }), "$.portals[1].mode: expected \"spawn\""});
  cases.push_back({"unknown target", with([](Json& j) { j["portals"][0]["targets"] = Json::array({Json{{"portal", "zz"}}}); }),
                   "$.portals[0].targets[0].portal: no portal \"zz\""});
  cases.push_back({"spawn-only target",
                   with([](Json& j) {
                     j["portals"][1]["mode"] = "spawn";
                     j["portals"][0]["target"] = "b";
                   }),
                   "$.portals[0].target: portal \"b\" does not accept arrivals"});
  cases.push_back({"all weights zero",
                   with([](Json& j) { j["portals"][0]["targets"] = Json::array({Json{{"portal", "b"}, {"weight", 0}}}); }),
                   "$.portals[0].targets: expected at least one target with a weight > 0"});
  cases.push_back({"negative rate", with([](Json& j) { j["portals"][0]["rate_per_min"] = -1; }), "$.portals[0].rate_per_min"});
  cases.push_back({"unknown floor", with([](Json& j) { j["portals"][0]["floor"] = "mezzanine"; }),
                   "$.portals[0].floor: no floor \"mezzanine\""});
  cases.push_back({"walker in a column",
                   with([](Json& j) { j["floors"][0]["obstacles"] = Json::array({rect(4, 4, 6, 6)}); }),
                   "$.walkers[0].position: the walker stands outside the walkable floor or inside a solid"});
  for (double size : {3000.0, 1e7}) {  // a vast floor: a scenario error, not a failed allocation
    cases.push_back({"vast floor", with([size](Json& j) {
                       j["floors"][0]["walkable"][0] = Json::array({{0, 0}, {size, 0}, {size, size}, {0, size}});
                     }),
                     "bad.json: $.floors[0].walkable: the floor spans"});
  }
  cases.push_back({"walker outside", with([](Json& j) { j["walkers"][0]["position"] = {25, 5}; }), "$.walkers[0].position"});
  cases.push_back({"walker destination", with([](Json& j) { j["walkers"][0]["destination"] = "nowhere"; }),
                   "$.walkers[0].destination: no portal \"nowhere\""});
  cases.push_back({"walker trip", with([](Json& j) { j["walkers"][0]["trip"] = "shop"; }), "$.walkers[0].trip"});
  cases.push_back({"population speed", with([](Json& j) { j["population"] = Json{{"desired_speed", 0}}; }),
                   "$.population.desired_speed"});
  cases.push_back({"probability", with([](Json& j) { j["population"] = Json{{"p_impaired", 1.5}}; }), "$.population.p_impaired"});
  cases.push_back({"script kind", with([](Json& j) { j["script"] = Json::array({Json{{"kind", "teleport"}}}); }),
                   "$.script[0].kind"});
  cases.push_back({"script walker", with([](Json& j) { j["script"] = Json::array({Json{{"walker", 99}}}); }),
                   "$.script[0].walker: no walker 99"});
  cases.push_back({"duplicate portal", with([](Json& j) { j["portals"][1]["id"] = "street_a"; }),
                   "$.portals[1].id: duplicate portal id"});
  cases.push_back({"nowhere to go",
                   with([](Json& j) {
                     j["portals"][1]["mode"] = "spawn";
                     j["walkers"] = Json::array();
                   }),
                   "$.portals[0]: spawns walkers but no other portal accepts arrivals"});
  for (const auto& c : cases) {
    INFO(c.what);
    const std::string e = error_of(c.j);
    CHECK_THAT(e, Catch::Contains(c.needle));
  }
}

TEST_CASE("station scenario - the model is registered and its dt is the contract's 20 Hz", "[station][scenario]") {
  auto m = make_model(good(), "good");
  CHECK(m->info().name == "station");
  CHECK(m->info().tick_rate_hz == 20u);
  CHECK(StationModel::kTickRateHz * kDt == 1.0f);
}
