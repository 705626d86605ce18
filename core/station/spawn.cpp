// seed 002, Spawn and arrival.
#include <algorithm>

#include "station/station.h"

namespace lockstep::station {

void StationModel::spawn_phase() {
  // "Portals with mode spawn or both emit. count is a finite budget;
  // rate_per_min spaces them (60 / rate seconds). A rate of zero dumps the
  // remaining count as fast as clear spots allow."
  // Times are compared in ticks (20 a second, exact), with a 10^-4 tick
  // allowance, so that a start_s of 1.1 (the float 1.1000000238) is due at
  // tick 22 and not one tick late (S11).
  const double tick = static_cast<double>(state_.tick);
  const auto due = [](double s) { return s * static_cast<double>(kTickRateHz) - 1e-4; };
  for (uint32_t p = 0; p < portals_.size(); ++p) {
    if (portals_[p].mode == PortalMode::Despawn) continue;
    const PortalSpec& spec = scenario_.portals[p];
    PortalState& ps = state_.portals[p];
    while (ps.emitted < spec.count) {
      // Spawn k is due at start_s + k × 60 / rate (S11: a spawn that finds no
      // clear spot is retried on the next tick and the schedule keeps its times).
      if (tick < due(static_cast<double>(spec.start_s))) break;
      if (spec.rate_per_min > 0.0f &&
          tick < due(static_cast<double>(spec.start_s) + static_cast<double>(ps.emitted) * 60.0 / static_cast<double>(spec.rate_per_min)))
        break;
      if (!try_spawn(p)) {
        ++ps.failed;
        break;
      }
    }
  }
}

bool StationModel::try_spawn(uint32_t p) {
  const PortalGeom& g = portals_[p];
  const Polygon& poly = scenario_.portals[p].polygon;
  const FloorGeom& fl = floors_[g.floor];
  // Draw order on the scenario's stream (S12): speed u, the exit (weighted
  // targets only), the p_impaired roll, the p_disable roll, then x and y of each try.
  const Sampled body = sample_body(scenario_.population, state_.rng.next_range(-1.0f, 1.0f));
  const Trip trip = g.street ? Trip::Board : Trip::Alight;  // from the street: boarding; from a train side: alighting
  bool rotated = false;
  const uint32_t dest = draw_destination(p, trip, &rotated);
  const bool impaired = state_.rng.next_unit() < scenario_.population.p_impaired;
  const bool disable = state_.rng.next_unit() < scenario_.population.p_disable;

  // Walkers that could be within two radii of a spot in the portal.
  const float reach = body.radius + 2.0f;
  std::vector<uint32_t> near;
  for (uint32_t j = 0; j < state_.walkers.size(); ++j) {
    const Walker& o = state_.walkers[j];
    if (o.phase != Phase::Walking || o.floor != g.floor) continue;
    if (o.pos.x < g.minx - reach || o.pos.x > g.maxx + reach || o.pos.y < g.miny - reach || o.pos.y > g.maxy + reach) continue;
    near.push_back(j);
  }
  for (int t = 0; t < kSpawnTries; ++t) {
    const V2 c{state_.rng.next_range(g.minx, g.maxx), state_.rng.next_range(g.miny, g.maxy)};
    if (!inside(poly, c)) continue;
    bool ok = false;
    for (const auto& w : fl.walkable) ok = ok || inside(w, c);
    if (!ok) continue;
    for (const auto& b : fl.blockers) ok = ok && !inside(b, c);
    if (!ok) continue;
    // "rejecting obstacles": no part of the body over a wall either (S12).
    for (const Wall& w : fl.walls)
      if (sqr_length(closest_on_segment(c, w.a, w.b) - c) < body.radius * body.radius) {
        ok = false;
        break;
      }
    if (!ok) continue;
    // "and anyone closer than two radii" (theirs and the newcomer's, S12).
    for (uint32_t j : near) {
      const Walker& o = state_.walkers[j];
      const float rr = body.radius + o.radius;
      if (sqr_length(o.pos - c) < rr * rr) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    Walker w;
    w.pos = c;
    w.desired_speed = body.desired_speed;
    w.radius = body.radius;
    w.floor = g.floor;
    w.origin = static_cast<int32_t>(p);
    w.destination = dest;
    w.trip = trip;
    w.prefers_lift_impaired = impaired;
    w.prefers_lift_disable = disable;
    // seed 002, Route: "spread evenly over spawns", each portal's own (S5):
    // one counter over all portals gave two portals spawning in turn the even
    // and the odd terms, all of one >= 0 and all of the other < 0.
    w.lane_share = lane_share_of(state_.portals[p].emitted);
    ++state_.spawn_serial;
    state_.walkers.push_back(w);
    state_.routes.push_back(Route{});
    start_route(static_cast<uint32_t>(state_.walkers.size() - 1));
    ++state_.portals[p].emitted;
    if (rotated) ++state_.portals[p].rotation;
    ++state_.stats.spawned;
    return true;
  }
  return false;
}

void StationModel::arrival_phase() {
  // "Arrival is geometric: on the destination floor, inside a portal whose mode
  // is despawn or both, the walker becomes Done." (S13: the walker's own destination.)
  for (uint32_t i = 0; i < state_.walkers.size(); ++i) {
    Walker& w = state_.walkers[i];
    if (w.phase != Phase::Walking) continue;
    const PortalGeom& g = portals_[w.destination];
    if (w.floor != g.floor || w.pos.x < g.minx || w.pos.x > g.maxx || w.pos.y < g.miny || w.pos.y > g.maxy) continue;
    if (!inside(scenario_.portals[w.destination].polygon, w.pos)) continue;
    w.phase = Phase::Done;
    w.done_tick = static_cast<uint32_t>(state_.tick);
    w.vel = V2{};
    ++state_.portals[w.destination].arrived;
    ++state_.stats.done;
  }
}

}  // namespace lockstep::station
