// A model's state as its own type, read through the model contract (its snapshot), the way any
// tool sees it: the tests of a bundled model need no door into the adapter.
#pragma once

#include "lockstep/core/model.h"

namespace lockstep::test {

template <class State>
State state_of(const Model& m) {
  State s;
  restore_bytes(m.snapshot(), s, "state");
  return s;
}

}  // namespace lockstep::test
