// Small worlds for the wander tests.
#pragma once

#include "lockstep/core/rng.h"
#include "wander/wander.h"

namespace lockstep::wander::test {

/// A flat floor 200 x 200 at height 0, no walls, and the given entities.
inline Scenario flat_world(std::vector<EntitySpec> entities, uint64_t seed = 11) {
  Scenario sc;
  sc.seed = seed;
  sc.grounds.push_back(Ground{-100, -100, 100, 100, 0});
  sc.entities = std::move(entities);
  return sc;
}

inline EntitySpec spec_at(float x, float z) {
  EntitySpec s;
  s.position = Vec3{x, 0, z};
  return s;
}

/// The n-th draw of entity i's stream, computed from the seed independently of the model.
inline uint64_t draw_of(uint64_t seed, std::size_t i, uint64_t n) {
  return splitmix_at(mix64(stream_key(seed, "wander") + static_cast<uint64_t>(i)), n);
}

/// Step until the predicate holds or `limit` ticks pass; returns the ticks stepped.
template <class P>
int step_until(WanderModel& m, P pred, int limit) {
  for (int k = 0; k < limit; ++k) {
    if (pred()) return k;
    m.step(Input{});
  }
  return limit;
}

}  // namespace lockstep::wander::test
