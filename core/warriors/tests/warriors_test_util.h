// Helpers for the warriors tests: build a model from scenario JSON, step it.
#pragma once

#include <string>

#include "fixtures.h"
#include "lockstep/core/json_load.h"
#include "warriors/warriors.h"

namespace wtest {

using namespace lockstep;
using namespace lockstep::warriors;

/// A model from a scenario given as JSON (the "model" key may be left out).
inline WarriorsModel make(Json j) {
  if (!j.contains("model")) j["model"] = "warriors";
  JsonReader r("test scenario");
  return WarriorsModel(WarriorsModel::load_scenario(j, r));
}

/// A model from a bundled fixture (fixtures/warriors/NAME.json).
inline WarriorsModel fixture(const std::string& name) {
  return make(parse_json_file(lockstep::fixtures::path("warriors/" + name + ".json")));
}

/// Step with the scenario's own input, n times.
inline void run(WarriorsModel& m, int n) {
  for (int i = 0; i < n; ++i) m.step(m.scripted_input());
}

/// One command as the input of the next tick.
inline void step_with(WarriorsModel& m, const Command& c) {
  Input in = m.scripted_input();
  in.commands.push_back(c);
  m.step(in);
}

/// A MoveTo command for human `who` to `p` (the script's move: gait, arrival radius, start delay, face).
inline Command move_command(uint32_t who, Vec3 p, int32_t gait = 2, float radius = 0.5f, int32_t delay_ms = 0,
                            int32_t face = -1) {
  Command c;
  c.human = who;
  c.kind = CommandKind::MoveTo;
  c.point = p;
  c.gait = gait;
  c.radius = radius;
  c.delay_ms = delay_ms;
  c.face = face;
  return c;
}

inline Human& human(WarriorsModel& m, int slot) { return m.mutable_state().humans[static_cast<std::size_t>(slot)]; }

}  // namespace wtest
