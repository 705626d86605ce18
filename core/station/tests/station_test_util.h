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

inline void run(StationModel& m, int ticks) {
  for (int k = 0; k < ticks; ++k) m.step(m.scripted_input());
}

inline uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

}  // namespace station_test
