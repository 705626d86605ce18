// Helpers for the station tests: scenarios from JSON, stepping, geometry checks.
#pragma once

#include <cstring>
#include <string>

#include "fixtures.h"
#include "lockstep/core/json_load.h"
#include "station/station.h"

namespace station_test {

using namespace lockstep;
using namespace lockstep::station;

inline StationModel make(const Json& j, const std::string& source = "test") {
  JsonReader r(source);
  return StationModel(StationModel::load_scenario(j, r));
}

inline Json fixture(const std::string& rel) { return parse_json_file(fixtures::path(rel)); }

/// An open rectangular hall [0, w] x [0, h] with no portals or walkers yet.
inline Json hall(float w, float h) {
  Json j;
  j["model"] = "station";
  j["floors"] = Json::array({Json{{"id", "f"}, {"walkable", Json::array({Json::array({{0, 0}, {w, 0}, {w, h}, {0, h}})})}}});
  j["portals"] = Json::array();
  j["walkers"] = Json::array();
  return j;
}

inline Json rect(float x0, float y0, float x1, float y1) { return Json::array({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}); }

/// Two floors joined by `zone` (a stair or an escalator between x = 10 and 20):
/// "ground" (z 0) is x 0..10 and "upper" (z 5) x 20..30, both y 0..4; portals
/// "low" at ground's west end and "high" at upper's east end; no walkers yet.
inline Json two_floors(const Json& zone) {
  Json j;
  j["model"] = "station";
  j["floors"] = Json::array({Json{{"id", "ground"}, {"z", 0}, {"walkable", Json::array({rect(0, 0, 10, 4)})}},
                             Json{{"id", "upper"}, {"z", 5}, {"walkable", Json::array({rect(20, 0, 30, 4)})}}});
  j["zones"] = Json::array({zone});
  j["portals"] = Json::array({Json{{"id", "low"}, {"floor", "ground"}, {"polygon", rect(0, 0, 2, 4)}, {"mode", "despawn"}},
                              Json{{"id", "high"}, {"floor", "upper"}, {"polygon", rect(28, 0, 30, 4)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array();
  return j;
}

/// A walker placed at `at` on `floor`, bound for portal `to`, at 1.34 m/s.
inline Json placed_walker(V2 at, const std::string& floor, const std::string& to) {
  return Json{{"position", {at.x, at.y}}, {"floor", floor}, {"destination", to}, {"desired_speed", 1.34}};
}

inline float plan_length(V2 v) { return dmath::sqrt(v.x * v.x + v.y * v.y); }

/// The message loading `j` fails with ("" when it loads).
inline std::string scenario_error(const Json& j) {
  try {
    JsonReader r("bad.json");
    StationModel m(StationModel::load_scenario(j, r));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

inline void run(StationModel& m, int ticks) {
  for (int k = 0; k < ticks; ++k) m.step(m.scripted_input());
}

inline uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace station_test
