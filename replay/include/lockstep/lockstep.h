// Lockstep's public API in one include, for projects that use the installed
// package (find_package(lockstep), docs/library.md):
//   model.h    the model contract (ModelType, ModelAdapter, register_model_type,
//              load_scenario_text / load_scenario_file), reflection (reflect.h),
//              snapshots, JSON loading, field-path diff
//   hash.h     canonical bytes, XXH3 state hashes, hex64
//   rng.h      the counter-based RNG a model keeps in its state (RngStream)
//   dmath.h    deterministic math (sin, cos, sqrt, ...: libm's differ between platforms)
//   lsr.h      recordings: lsr::Recorder, lsr::Recording
//   replay.h   replay::run, replay::state_at
#pragma once

#include "lockstep/core/dmath.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"
#include "lockstep/core/reflect.h"
#include "lockstep/core/rng.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"
