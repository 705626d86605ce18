// seed 002, "A different floor inserts a connector": stairs (issue 19; the
// design and the order of work: docs/station-connectors.md).
//
// A flight is part of both floors it joins, walled along its sides and, on
// each floor, across its far end (scenario.cpp builds that). A walker whose
// destination lies on another floor routes to the far end's landing line
// through the stair its floor's choice picks (choose_flight), walks the flight
// at desired_speed x speed_factor, is handed to the other floor where it
// stands when its centre reaches the line, steps off, and walks its first leg
// 1.8 m straight out before turning (connectors_phase).
#include <algorithm>
#include <cmath>

#include "station/station.h"

namespace lockstep::station {

float StationModel::speed_goal(const Walker& w) const {
  // seed 002, Stair: "Speed is desired_speed * speed_factor" on the flight.
  return w.flight >= 0 ? w.desired_speed * flights_[static_cast<std::size_t>(w.flight)].factor : w.desired_speed;
}

float StationModel::drawn_height(const Walker& w) const {
  if (w.flight < 0) return floors_z_[w.floor];
  const FlightGeom& fg = flights_[static_cast<std::size_t>(w.flight)];
  float t = fg.along_of(w.pos) / fg.length;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return fg.z0 + (fg.z2 - fg.z0) * t;
}

bool StationModel::meets_by_height(const Walker& w, const Walker& o, float limit) const {
  // "Someone on a flight still counts as the floor they started on, but their
  // height follows the tread. Anyone within 3 m of that height sees them";
  // "Bodies on the flight and on open floor also push on each other across
  // the mouth when their heights are within 0.6 m." (One of them is on a
  // flight; meets() answers for two on open floor.)
  if (w.floor != o.floor) {
    const bool joined = (w.flight >= 0 && flights_[static_cast<std::size_t>(w.flight)].other(w.floor) == o.floor) ||
                        (o.flight >= 0 && flights_[static_cast<std::size_t>(o.flight)].other(o.floor) == w.floor);
    if (!joined) return false;
  }
  const float dh = drawn_height(w) - drawn_height(o);
  return dh <= limit && dh >= -limit;
}

void StationModel::build_aprons() {
  // seed 002, Route, mouth aprons (S37): in front of every stair mouth, from
  // its line 4 m out and across its width plus 1 m each side, a step costs
  // extra by its direction: 4 per metre across the mouth's front, 15 % of
  // that along its axis, fading linearly to nothing 4 m out. Per routing cell
  // (its centre); overlapping aprons add.
  const std::size_t nf = floors_.size(), nz = flights_.size();
  aprons_.assign(nf, {});
  aprons_without_.assign(nf, std::vector<CheckedDirCosts>(nz));
  for (uint32_t f = 0; f < nf; ++f) {
    const NavGrid& grid = *grids_[f];
    const auto cells = static_cast<std::size_t>(grid.cell_count());
    std::vector<std::vector<DirCost>> own(nz);
    bool any = false;
    for (uint32_t z = 0; z < nz; ++z) {
      const FlightGeom& fg = flights_[z];
      if (fg.from != f && fg.to != f) continue;
      const V2 mid = fg.from == f ? fg.mid0 : fg.mid2;
      const V2 out = fg.from == f ? fg.axis * -1.0f : fg.axis;
      const float half = 0.5f * fg.width + kApronSide;
      own[z].assign(cells, DirCost{});
      for (std::size_t c = 0; c < cells; ++c) {
        const V2 p = grid.cell_center(static_cast<int32_t>(c)) - mid;
        const float depth = dot(p, out), side = dot(p, fg.across);
        if (!(depth >= 0.0f && depth <= kApronDepth && side >= -half && side <= half)) continue;
        const float fade = 1.0f - depth / kApronDepth;
        own[z][c] = DirCost::axial(out, kApronAlongShare * kApronAcross * fade, kApronAcross * fade);
      }
      any = true;
    }
    if (!any) continue;
    auto sum = [&](int32_t skip) {
      std::vector<DirCost> s(cells);
      for (uint32_t z = 0; z < nz; ++z) {
        if (own[z].empty() || static_cast<int32_t>(z) == skip) continue;
        for (std::size_t c = 0; c < cells; ++c) s[c] = {s[c].xx + own[z][c].xx, s[c].xy + own[z][c].xy, s[c].yy + own[z][c].yy};
      }
      return s;
    };
    aprons_[f] = grid.check_dir_costs(sum(-1));
    for (uint32_t z = 0; z < nz; ++z)
      if (!own[z].empty()) aprons_without_[f][z] = grid.check_dir_costs(sum(static_cast<int32_t>(z)));
  }
}

const CheckedDirCosts* StationModel::apron_view(uint32_t w) const {
  const Walker& wk = state_.walkers[w];
  if (aprons_[wk.floor].cells().empty()) return nullptr;
  if (wk.via >= 0) {
    const FlightGeom& fg = flights_[static_cast<std::size_t>(wk.via)];
    const bool from = fg.from == wk.floor;
    const V2 a = from ? fg.c[0] : fg.c[2], b = from ? fg.c[1] : fg.c[3];
    if (point_segment_sqr_distance(wk.pos, a, b) <= kApronIgnoreStair * kApronIgnoreStair)
      return &aprons_without_[wk.floor][static_cast<std::size_t>(wk.via)];
  }
  return &aprons_[wk.floor];
}

// ---- lane bands on a wide stair (seed 002, Stair; spec note S38)

int StationModel::walk_sense(const Walker& wk, uint32_t z) const {
  // Which way along stair z the walker goes: +1 toward mouth 2, -1 toward
  // mouth 0. Bound through it: away from its own floor's mouth; otherwise (on
  // the flight, not changing floors) back out of its own floor's mouth.
  const FlightGeom& fg = flights_[z];
  const bool through = wk.via == static_cast<int32_t>(z);
  return (fg.from == wk.floor) == through ? 1 : -1;
}

void StationModel::count_stair_traffic() {
  // "the people on the flight, plus those within 6 m of a mouth who have
  // picked this stair, counted each way" (from the state as the tick starts:
  // every walker's band reads the same counts).
  stair_traffic_.assign(flights_.size(), {0u, 0u});
  if (flights_.empty()) return;
  for (const Walker& wk : state_.walkers) {
    if (wk.phase != Phase::Walking) continue;
    int32_t z = wk.flight;
    if (z < 0 && wk.via >= 0) {
      const FlightGeom& fg = flights_[static_cast<std::size_t>(wk.via)];
      const bool from = fg.from == wk.floor;
      if (point_segment_sqr_distance(wk.pos, from ? fg.c[0] : fg.c[2], from ? fg.c[1] : fg.c[3]) <= kBandCountReach * kBandCountReach)
        z = wk.via;
    }
    if (z < 0) continue;
    ++stair_traffic_[static_cast<std::size_t>(z)][walk_sense(wk, static_cast<uint32_t>(z)) > 0 ? 0 : 1];
  }
}

bool StationModel::stair_band(uint32_t w, uint32_t z, int sense, float* lo, float* hi, float* target) const {
  // The walker's band on stair z, across the flight (the across_of coordinate):
  // on its keep side, from 0.4 m off that wall to 0.2 m past the divide; the
  // divide by the counts each way, each getting 30 % .. 70 % of the width, or
  // the whole flight with nobody coming. False on a stair under 2 m wide or
  // single file. `target`: the point its lane share gives.
  const FlightGeom& fg = flights_[z];
  if (fg.width < kBandStairWidth || scenario_.zones[z].single_file) return false;
  const Walker& wk = state_.walkers[w];
  const auto& n = stair_traffic_[z];
  const uint32_t mine = n[sense > 0 ? 0 : 1], other = n[sense > 0 ? 1 : 0];
  // q: distance from the keep-side wall. The keep side of a walk along `sense` x axis.
  const V2 along = sense > 0 ? fg.axis : fg.axis * -1.0f;
  const V2 keep = keep_right_ ? left_of(along) * -1.0f : left_of(along);
  const float ks = dot(keep, fg.across) > 0.0f ? 1.0f : -1.0f;  // the keep wall at across = ks * W / 2
  float q0 = kBandWallOff, q1 = fg.width - kBandWallOff;
  if (other > 0) {
    float share = static_cast<float>(mine) / static_cast<float>(mine + other);
    share = share < kBandShareMin ? kBandShareMin : (share > 1.0f - kBandShareMin ? 1.0f - kBandShareMin : share);
    q1 = share * fg.width - kBandPastDivide;
  }
  if (!(q1 > q0)) return false;
  const float qt = q0 + 0.5f * (wk.lane_share + 1.0f) * (q1 - q0);
  auto to_s = [&](float q) { return ks * (0.5f * fg.width - q); };
  *lo = std::min(to_s(q0), to_s(q1));
  *hi = std::max(to_s(q0), to_s(q1));
  *target = to_s(qt);
  return true;
}

V2 StationModel::stair_band_aim(uint32_t w, V2 drive) const {
  // On a wide flight a walker outside its band "heads for a point 1 m further
  // up the flight back inside it: towards the middle of the band from the
  // centre side, or towards the band edge from the wall side. The sideways
  // offset of that point is capped at 1 m." Inside it, the drive stands (sight
  // yaw works as on any walk).
  const Walker& wk = state_.walkers[w];
  if (wk.flight < 0) return drive;
  const auto z = static_cast<uint32_t>(wk.flight);
  const int sense = walk_sense(wk, z);
  float lo = 0, hi = 0, target = 0;
  if (!stair_band(w, z, sense, &lo, &hi, &target)) return drive;
  const FlightGeom& fg = flights_[z];
  const float s = fg.across_of(wk.pos);
  if (s >= lo && s <= hi) return drive;
  const float mid = 0.5f * (lo + hi);
  // From the centre side: toward the band's middle; from the wall side: to its edge.
  const bool centre_side = std::fabs(s) < std::fabs(mid);
  float want = centre_side ? mid : (s < lo ? lo : hi);
  float off = want - s;
  off = off > 1.0f ? 1.0f : (off < -1.0f ? -1.0f : off);
  const V2 along = sense > 0 ? fg.axis : fg.axis * -1.0f;
  return wk.pos + along * 1.0f + fg.across * off;
}

void StationModel::build_floor_hops() {
  // Fewest stairs from each floor to each other, along the directions each
  // stair may be walked (breadth first; -1: no chain of stairs leads there).
  const std::size_t n = floors_.size();
  hops_.assign(n * n, -1);
  for (std::size_t s = 0; s < n; ++s) {
    std::vector<std::size_t> frontier{s};
    hops_[s * n + s] = 0;
    for (int32_t d = 1; !frontier.empty(); ++d) {
      std::vector<std::size_t> next;
      for (const std::size_t f : frontier)
        for (const FlightGeom& fg : flights_) {
          std::size_t g = n;
          if (fg.from == f && fg.up_allowed) g = fg.to;
          if (fg.to == f && fg.down_allowed) g = fg.from;
          if (g < n && hops_[s * n + g] < 0) {
            hops_[s * n + g] = d;
            next.push_back(g);
          }
        }
      frontier.swap(next);
    }
  }
}

int32_t StationModel::floor_hops(uint32_t from, uint32_t to) const {
  return hops_[static_cast<std::size_t>(from) * floors_.size() + to];
}

bool StationModel::flight_leads(uint32_t z, uint32_t floor, uint32_t goal_floor) const {
  // From `floor` the stair may be walked, and it starts a fewest-stairs chain to goal_floor.
  const FlightGeom& fg = flights_[z];
  if (fg.from != floor && fg.to != floor) return false;
  if (!(fg.from == floor ? fg.up_allowed : fg.down_allowed)) return false;
  const int32_t here = floor_hops(floor, goal_floor), there = floor_hops(fg.other(floor), goal_floor);
  return here > 0 && there == here - 1;
}

float StationModel::flight_seconds(uint32_t w, uint32_t z) const {
  // seed 002, "Stairs and escalators are chosen ... in seconds": the walk to
  // its mouth, the crossing (flight length over the walker's stair speed), and
  // 6 s of extra effort going up or 2 s going down. (The wait in its queue
  // comes with queues: docs/station-connectors.md, step 6.)
  const Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  const V2 mouth = fg.from == wk.floor ? fg.mid0 : fg.mid2;
  const float walk = length(mouth - wk.pos) / wk.desired_speed;
  const float cross = fg.length / (wk.desired_speed * fg.factor);
  const float z_here = floors_z_[wk.floor], z_there = floors_z_[fg.other(wk.floor)];
  const float effort = z_there > z_here ? kStairUpEffortS : (z_there < z_here ? kStairDownEffortS : 0.0f);
  return walk + cross + effort;
}

int32_t StationModel::choose_flight(uint32_t w) const {
  // The stair this floor's route leads through: the cheapest in seconds of
  // those that start a fewest-stairs chain to the destination's floor (ties
  // by scenario order). The one held stays unless another saves at least 3 s,
  // and within 2 m of its mouth, or on its flight, the choice is final (seed 002).
  const Walker& wk = state_.walkers[w];
  const uint32_t goal_floor = portals_[wk.destination].floor;
  if (goal_floor == wk.floor) return -1;
  const int32_t held = wk.via >= 0 && flight_leads(static_cast<uint32_t>(wk.via), wk.floor, goal_floor) ? wk.via : -1;
  if (held >= 0) {
    const FlightGeom& fg = flights_[static_cast<std::size_t>(held)];
    const V2 mouth = fg.from == wk.floor ? fg.mid0 : fg.mid2;
    if (wk.flight == held || length(mouth - wk.pos) <= kFinalChoiceM) return held;
  }
  int32_t best = -1;
  float best_s = 0.0f;
  for (uint32_t z = 0; z < flights_.size(); ++z) {
    if (!flight_leads(z, wk.floor, goal_floor)) continue;
    const float s = flight_seconds(w, z);
    if (best < 0 || s < best_s) best = static_cast<int32_t>(z), best_s = s;
  }
  if (held >= 0 && best != held && !(flight_seconds(w, static_cast<uint32_t>(held)) - best_s >= kSwitchSavingS)) return held;
  return best;
}

V2 StationModel::landing_goal(uint32_t w) const {
  // The point the walker drives at on its stair: on the far end's landing
  // line, at its own offset across the flight (kept a body and 0.1 m off the
  // side walls). "Legs through a gate or stair have no slack."
  // On a wide stair: the point of its band its lane share gives (S38; "Walkers
  // aim for that band at the mouth on the way in and on the way out").
  const Walker& wk = state_.walkers[w];
  const auto z = static_cast<uint32_t>(wk.via);
  const FlightGeom& fg = flights_[z];
  const V2 far = fg.from == wk.floor ? fg.mid2 : fg.mid0;
  float lo = 0, hi = 0, target = 0;
  const float s = stair_band(w, z, walk_sense(wk, z), &lo, &hi, &target) ? target : fg.across_of(wk.pos);
  return far + fg.across * fg.inside_offset(s, wk.radius);
}

bool StationModel::reweigh_due(uint32_t w) const {
  // "They re-weigh about once a second": every 20 ticks, staggered by the
  // walker's index so a crowd does not re-weigh on one tick (S33). Not on a
  // flight, where the choice is final.
  const Walker& wk = state_.walkers[w];
  return wk.via >= 0 && wk.flight < 0 && (state_.tick + w) % kReweighTicks == 0;
}

void StationModel::reweigh_stair(uint32_t w, V2& corner) {
  // A switch (another stair 3 s cheaper, the held one not yet final) plans the path anew.
  if (!reweigh_due(w) || choose_flight(w) == state_.walkers[w].via) return;
  rebuild_path(w);
  ++plan_counts_[w][kCountRebuilt];
  corner = route_corner(w);
}

V2 StationModel::short_of_landing(uint32_t w, V2 p) const {
  const Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[static_cast<std::size_t>(wk.via)];
  const V2 out = fg.from == wk.floor ? fg.axis : fg.axis * -1.0f;  // toward the far end
  return p - out * wk.radius;
}

V2 StationModel::goal_point(uint32_t w) const {
  const Walker& wk = state_.walkers[w];
  return wk.via >= 0 ? landing_goal(w) : portal_goal(wk.destination, wk.pos);
}

void StationModel::connectors_phase() {
  // After the forces: who is on a flight, the hand-over at the landing line,
  // and the step off (seed 002, "A walked stair hands the walker to the other
  // floor where they stand when they step past the landing line"). Walker by
  // walker in index order; each reads and writes only its own walker and route.
  if (flights_.empty()) return;
  for (uint32_t i = 0; i < state_.walkers.size(); ++i) {
    Walker& wk = state_.walkers[i];
    if (wk.phase != Phase::Walking) continue;
    if (wk.flight >= 0) {
      const auto z = static_cast<uint32_t>(wk.flight);
      const FlightGeom& fg = flights_[z];
      // The hand-over: bound through this stair, the centre at the far end's line.
      if (wk.via == wk.flight) {
        const float to_line = fg.from == wk.floor ? fg.length - fg.along_of(wk.pos) : fg.along_of(wk.pos);
        const float reach = kLandingReach + kMaxSpeedFactor * speed_goal(wk) * kDt;
        if (to_line <= reach) {
          hand_over(i, z);
          continue;
        }
      }
      if (!fg.contains(wk.pos)) wk.flight = -1;  // off it: stepped off past the line, or back out the mouth it entered
      continue;
    }
    for (uint32_t z = 0; z < flights_.size(); ++z) {
      const FlightGeom& fg = flights_[z];
      if ((fg.from == wk.floor || fg.to == wk.floor) && fg.contains(wk.pos)) {
        wk.flight = static_cast<int32_t>(z);
        break;
      }
    }
  }
}

void StationModel::hand_over(uint32_t w, uint32_t z) {
  // The walker stands on the landing line: it is now on the other floor, in
  // the same place (no jump in plan). Its first leg there goes 1.8 m straight
  // out of the mouth at its own offset across it (1.1 m if a wall is closer),
  // and is not cut as a passed corner until reached or walked past (seed 002).
  Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  const bool up = fg.from == wk.floor;
  wk.floor = fg.other(wk.floor);
  wk.via = -1;
  const V2 out = up ? fg.axis : fg.axis * -1.0f;
  const V2 line = up ? fg.mid2 : fg.mid0;
  const V2 foot = line + fg.across * fg.inside_offset(fg.across_of(wk.pos), wk.radius);
  float leg = kFirstLeg;
  if (!segment_clear(wk.floor, foot, foot + out * kFirstLeg, wk.radius)) leg = kFirstLegNearWall;
  wk.step_off = foot + out * leg;
  wk.off_flight = static_cast<int32_t>(z);
  rebuild_path(w);
}

}  // namespace lockstep::station
