// The models that come with Lockstep: station (a transit-station crowd), wander (an RPG NPC's
// Wander behaviour) and warriors (a PS2 brawler's AI movement). The one place that knows them.
//
// The model registry (lockstep/core/model.h) starts empty: a program that wants the bundled
// models calls this once, before it loads a scenario or opens a recording. The toolkit's own
// libraries (replay, verify, traces, the command line) know only the contract.
#pragma once

namespace lockstep {

/// Register station, wander and warriors under their names (their kName). Calling it again does nothing more.
void register_bundled_models();

}  // namespace lockstep
