// The station scenario: bad input gets an InputError naming the JSON path.
#include <catch2/catch.hpp>

#include "lockstep/core/model.h"
#include "lockstep/trajectory/sqlite.h"
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

namespace {
// The error of making the model through the contract's factory (load, then
// build: the geometry checks run while the model builds), or "".
std::string build_error_of(const Json& j) {
  try {
    (void)lockstep::load_scenario_text(j.dump(), "bad.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
Json stream() {
  Json j = hall(20, 10);
  j["portals"] = Json::array({Json{{"id", "in"}, {"polygon", rect(0, 4, 1, 6)}, {"mode", "spawn"}, {"count", 5}, {"target", "out"}},
                              Json{{"id", "out"}, {"polygon", rect(19, 4, 20, 6)}, {"mode", "despawn"}}});
  return j;
}
}  // namespace

TEST_CASE("station scenario - what issue 14 found accepted without a word is refused at its JSON path", "[station][scenario]") {
  REQUIRE(build_error_of(stream()).empty());
  {
    Json j = stream();  // a portal that lies off the floor
    j["portals"][1]["polygon"] = rect(30, 4, 31, 6);
    CHECK_THAT(build_error_of(j), Catch::Contains("bad.json: $.portals[1].polygon: portal \"out\" lies off its floor \"f\""));
  }
  {
    Json j = stream();  // ... or wholly inside a solid
    j["floors"][0]["obstacles"] = Json::array({rect(18.5, 3, 20, 7)});
    CHECK_THAT(build_error_of(j), Catch::Contains("$.portals[1].polygon: portal \"out\" lies off its floor"));
  }
  {
    Json j = stream();  // a destination no walker of the portal can reach: a wall cuts the floor
    j["floors"][0]["walls"] = Json::array({Json{{"x0", 10}, {"y0", 0}, {"x1", 10}, {"y1", 10}}});
    CHECK_THAT(build_error_of(j), Catch::Contains("bad.json: $.portals[0].target: portal \"out\" on floor \"f\" cannot be reached from portal \"in\""));
    // ... named by the weighted target that cannot be reached
    j["portals"][0].erase("target");
    j["portals"][0]["targets"] = Json::array({Json{{"portal", "out"}, {"weight", 1}}});
    CHECK_THAT(build_error_of(j), Catch::Contains("$.portals[0].targets[0].portal: portal \"out\""));
    // A gap the spawned bodies fit through (0.61 m, 2 r + 0.1 for the largest, 0.255 m) is no cut.
    j["floors"][0]["walls"] = Json::array({Json{{"x0", 10}, {"y0", 0}, {"x1", 10}, {"y1", 4.7}}, Json{{"x0", 10}, {"y0", 5.31}, {"x1", 10}, {"y1", 10}}});
    CHECK(build_error_of(j).empty());
  }
  {
    Json j = stream();  // a placed walker whose body overlaps a wall (its centre on the floor)
    j["floors"][0]["walls"] = Json::array({Json{{"x0", 5}, {"y0", 0}, {"x1", 5}, {"y1", 3}}});
    j["walkers"] = Json::array({Json{{"position", {5.1, 1}}, {"destination", "out"}}});
    CHECK_THAT(build_error_of(j), Catch::Contains("bad.json: $.walkers[0].position: walker 0's body (radius 0.25 m) overlaps a wall"));
    j["walkers"][0]["position"] = {5.3, 1};  // 0.3 m off: clear
    CHECK(build_error_of(j).empty());
    j["floors"][0].erase("walls");  // ... or a solid's edge, or the floor's edge
    j["floors"][0]["obstacles"] = Json::array({rect(6, 6, 8, 8)});
    j["walkers"][0]["position"] = {7, 5.9};
    CHECK_THAT(build_error_of(j), Catch::Contains("$.walkers[0].position: walker 0's body (radius 0.25 m) overlaps a solid's edge"));
    j["walkers"][0]["position"] = {7, 9.9};
    CHECK_THAT(build_error_of(j), Catch::Contains("$.walkers[0].position: walker 0's body (radius 0.25 m) overlaps the floor's edge"));
  }
  {
    // A solid over the floor's edge: `trajectory` could not write its geometry
    // (each outline with the solids inside it as holes), so the loader refuses
    // it for every command alike.
    Json j = stream();
    j["floors"][0]["obstacles"] = Json::array({rect(15, 8, 17, 12)});
    CHECK_THAT(error_of(j), Catch::Contains("bad.json: $.floors[0].obstacles[0]: crosses the edge of walkable outline 0"));
    j["floors"][0]["obstacles"] = Json::array({rect(15, 8, 17, 10)});  // touching the edge from inside: fine
    CHECK(error_of(j).empty());
    j["floors"][0].erase("obstacles");
    j["floors"][0]["holes"] = Json::array({rect(-1, 2, 1, 3)});
    CHECK_THAT(error_of(j), Catch::Contains("$.floors[0].holes[0]: crosses the edge"));
  }
}

TEST_CASE("station scenario - every bundled station scenario loads, builds and has a trajectory geometry", "[station][scenario]") {
  // run and trajectory accept exactly the same scenarios: whatever builds, the
  // trajectory writer's floor geometry accepts.
  std::vector<std::string> files = {"station/corridor.json", "station/hall.json", "station/rimea6.json", "station/rimea12.json",
                                    "station/rimea9_small_four.json"};
  const Json manifest = fixture("station/flows/manifest.json");
  for (const auto& e : manifest["experiments"]) files.push_back("station/flows/" + e["file"].get<std::string>());
  for (const auto& f : files) {
    INFO(f);
    const Json j = fixture(f);
    REQUIRE(build_error_of(j).empty());
    auto m = make(j, f);
    for (const auto& fl : m.scenario().floors) {
      std::vector<lockstep::trajectory::Ring> walkable, solids;
      auto ring = [](const Polygon& p) {
        lockstep::trajectory::Ring r;
        for (const V2& q : p) r.emplace_back(q.x, q.y);
        return r;
      };
      for (const auto& p : fl.walkable) walkable.push_back(ring(p));
      for (const auto* set : {&fl.obstacles, &fl.holes, &fl.voids})
        for (const auto& p : *set) solids.push_back(ring(p));
      CHECK_NOTHROW(lockstep::trajectory::wkt_floor(walkable, solids));
    }
  }
}
