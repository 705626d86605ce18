// seed 002, Population: who appears, with what speed and radius, going where.
#include "station/station.h"

namespace lockstep::station {

Sampled sample_body(const PopulationSpec& pop, float u) {
  // "speed_jitter clamped to 0–0.9, so the jitter is a fraction of the mean, not m/s"
  float jitter = pop.speed_jitter;
  jitter = jitter < 0.0f ? 0.0f : (jitter > kMaxJitter ? kMaxJitter : jitter);
  Sampled s;
  s.desired_speed = pop.desired_speed * (1.0f + u * jitter);
  if (s.desired_speed < kMinSpeed) s.desired_speed = kMinSpeed;  // "The floor is 0.2 m/s"
  // "the ratio of sampled to mean speed is clamped to 0.8–1.2, and the radius is
  // the base radius × (0.9 + 0.1 × ratio) ... never below 0.12 m"
  float ratio = s.desired_speed / pop.desired_speed;
  ratio = ratio < kRatioLo ? kRatioLo : (ratio > kRatioHi ? kRatioHi : ratio);
  s.radius = pop.radius * (0.9f + 0.1f * ratio);
  if (s.radius < kMinRadius) s.radius = kMinRadius;
  return s;
}

float lane_share_of(uint32_t n) {
  // Spec note S5: the van der Corput sequence (base 2) of n + 1, mapped to
  // -1..1: 0, -1/2, 1/2, -3/4, 1/4, -1/4, 3/4, ... Every prefix is spread
  // evenly over the width, and every value is exact in float.
  uint32_t m = n + 1;
  float v = 0.0f, place = 0.5f;
  while (m != 0) {
    if (m & 1u) v += place;
    place *= 0.5f;
    m >>= 1;
  }
  return 2.0f * v - 1.0f;
}

Los fruin_los(float flow_per_min) {
  // crowd.md, Fruin walkway level of service, flow in persons/(m min):
  // A < 23, B 23–33, C 33–49, D 49–66, E 66–82, F > 82 (lower ends inclusive, S10).
  if (flow_per_min < 23.0f) return Los::A;
  if (flow_per_min < 33.0f) return Los::B;
  if (flow_per_min < 49.0f) return Los::C;
  if (flow_per_min < 66.0f) return Los::D;
  if (flow_per_min <= 82.0f) return Los::E;
  return Los::F;
}

uint32_t StationModel::draw_destination(uint32_t portal, Trip trip, bool* rotated) {
  *rotated = false;
  const PortalGeom& g = portals_[portal];
  // "A portal with targets draws each walker's exit at spawn from the weights,
  // over the listed portals that accept arrivals and have a positive weight;
  // the random stream is the scenario seed."
  if (!g.target_portals.empty()) {
    float total = 0.0f;
    for (float w : g.target_weights) total += w;
    const float x = state_.rng.next_unit() * total;
    float acc = 0.0f;
    for (std::size_t k = 0; k < g.target_portals.size(); ++k) {
      acc += g.target_weights[k];
      if (x < acc) return g.target_portals[k];
    }
    return g.target_portals.back();  // x within rounding of the total
  }
  // "Otherwise a portal may name its target"
  if (g.named_target >= 0) return static_cast<uint32_t>(g.named_target);
  // "and failing that, destinations rotate through the portals that accept
  // arrivals on the correct side of the trip" (Board: not street; Alight: street).
  // S8: with none on that side, the rotation runs over every other accepting portal.
  std::vector<uint32_t> side, any;
  // Only portals the spawn's floor leads to (on it, or up or down a chain of stairs).
  for (uint32_t q = 0; q < portals_.size(); ++q) {
    if (q == portal || !portals_[q].accepts() || floor_hops(g.floor, portals_[q].floor) < 0) continue;
    any.push_back(q);
    if (portals_[q].street == (trip == Trip::Alight)) side.push_back(q);
  }
  const auto& pick = side.empty() ? any : side;
  // The rotation moves on only when the spawn succeeds (the caller's), so a
  // spawn retried for want of a clear spot keeps its turn (S11).
  *rotated = true;
  return pick[state_.portals[portal].rotation % pick.size()];
}

}  // namespace lockstep::station
