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
  // seed 002, Stair: "Speed is desired_speed * speed_factor" on the flight; on a belt, the belt's.
  if (w.flight < 0) return w.desired_speed;
  if (w.hold_s > 0.0f) return 0.0f;  // a zone's stop (S49)
  const FlightGeom& fg = flights_[static_cast<std::size_t>(w.flight)];
  return fg.belt ? fg.belt_speed : w.desired_speed * fg.factor;
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
      if (fg.lift || (fg.from != f && fg.to != f)) continue;  // no apron in front of a lift (seed 002: stair, escalator and gate ends)
      const float half = 0.5f * fg.width + kApronSide;
      own[z].assign(cells, DirCost{});
      // The mouth on this floor (a gate: both of its mouths).
      for (const int mouth : {0, 2}) {
        if ((mouth == 0 ? fg.from : fg.to) != f) continue;
        const V2 mid = mouth == 0 ? fg.mid0 : fg.mid2;
        const V2 out = mouth == 0 ? fg.axis * -1.0f : fg.axis;
        for (std::size_t c = 0; c < cells; ++c) {
          const V2 p = grid.cell_center(static_cast<int32_t>(c)) - mid;
          const float depth = dot(p, out), side = dot(p, fg.across);
          if (!(depth >= 0.0f && depth <= kApronDepth && side >= -half && side <= half)) continue;
          const float fade = 1.0f - depth / kApronDepth;
          const DirCost d = DirCost::axial(out, kApronAlongShare * kApronAcross * fade, kApronAcross * fade);
          own[z][c] = {own[z][c].xx + d.xx, own[z][c].xy + d.xy, own[z][c].yy + d.yy};
        }
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
  const int32_t to = heading(wk);
  if (to >= 0) {
    const FlightGeom& fg = flights_[static_cast<std::size_t>(to)];
    const bool from = fg.gate ? belt_sense(wk, static_cast<uint32_t>(to)) > 0 : fg.from == wk.floor;
    const V2 a = from ? fg.c[0] : fg.c[2], b = from ? fg.c[1] : fg.c[3];
    const float ignore = fg.belt ? kApronIgnoreBelt : kApronIgnoreStair;
    if (point_segment_sqr_distance(wk.pos, a, b) <= ignore * ignore)
      return &aprons_without_[wk.floor][static_cast<std::size_t>(to)];
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
  if (fg.belt || fg.width < kBandStairWidth || scenario_.zones[z].single_file) return false;
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
          if (fg.gate || fg.lift) continue;  // on one floor; a car is no stair
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
  if (fg.gate || fg.lift || (fg.from != floor && fg.to != floor)) return false;
  if (!(fg.from == floor ? fg.up_allowed : fg.down_allowed)) return false;
  const int32_t here = floor_hops(floor, goal_floor), there = floor_hops(fg.other(floor), goal_floor);
  return here > 0 && there == here - 1;
}

float StationModel::flight_seconds(uint32_t w, uint32_t z, float* wait_s) const {
  // seed 002, "Stairs and escalators are chosen ... in seconds": the walk to
  // its mouth; the wait, the people bound for it and nearer the mouth at 1.3 s
  // each per one-file lane (an escalator one lane, a stair one per 0.7 m of
  // width), minus the walk; the crossing (belt length over belt speed, or
  // flight length over the walker's stair speed); and for a stair 6 s of extra
  // effort going up or 2 s going down.
  const Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  const V2 mouth = fg.from == wk.floor ? fg.mid0 : fg.mid2;
  const float dist = length(mouth - wk.pos);
  // "the walk to its mouth, by way of the back of its line when one has formed and the walker stands
  // beside it" (S56's walk round: to the back, then along the line).
  V2 back;
  const float walk = (line_back(w, static_cast<int32_t>(z), &back) ? length(back - wk.pos) + length(mouth - back) : dist) / wk.desired_speed;
  const auto& bound = bound_dist_[z];
  const auto nearer = static_cast<float>(std::lower_bound(bound.begin(), bound.end(), dist) - bound.begin());
  float lanes = fg.belt ? 1.0f : std::floor(fg.width / kStairLaneWidth);
  lanes = lanes < 1.0f ? 1.0f : lanes;
  float wait = kWaitPerPersonS * nearer / lanes - walk;
  wait = wait > 0.0f ? wait : 0.0f;
  if (wait_s != nullptr) *wait_s = wait;
  if (fg.belt) return walk + wait + fg.length / fg.belt_speed;
  const float cross = fg.length / (wk.desired_speed * fg.factor);
  const float z_here = floors_z_[wk.floor], z_there = floors_z_[fg.other(wk.floor)];
  const float effort = z_there > z_here ? kStairUpEffortS : (z_there < z_here ? kStairDownEffortS : 0.0f);
  return walk + wait + cross + effort;
}

int32_t StationModel::choose_flight(uint32_t w) const {
  // The stair or escalator this floor's route leads through, of those that
  // start a fewest-connector chain to the destination's floor: the cheapest
  // in seconds (flight_seconds; ties by scenario order). "With nobody
  // waiting, the nearest mouth wins, and the escalator is preferred when the
  // walk to each is about the same" (S43): when the walker would wait at
  // none of them (every wait is zero), an escalator whose walk is within 2 s
  // of the cheapest one's is taken (the cheapest such). The one held stays
  // unless another saves at least 3 s, and within 2 m of its mouth, or on it,
  // the choice is final (seed 002).
  const Walker& wk = state_.walkers[w];
  const uint32_t goal_floor = portals_[wk.destination].floor;
  if (goal_floor == wk.floor || wk.lift >= 0) return -1;  // taking a car (lifts.cpp)
  const int32_t held = wk.via >= 0 && flight_leads(static_cast<uint32_t>(wk.via), wk.floor, goal_floor) ? wk.via : -1;
  auto mouth_dist = [&](uint32_t z) {
    const FlightGeom& fg = flights_[z];
    return length((fg.from == wk.floor ? fg.mid0 : fg.mid2) - wk.pos);
  };
  if (held >= 0 && (wk.flight == held || mouth_dist(static_cast<uint32_t>(held)) <= kFinalChoiceM)) return held;
  int32_t best = -1;
  float best_s = 0.0f;
  bool waiting = false;  // the walker would wait at one of them
  for (uint32_t z = 0; z < flights_.size(); ++z) {
    if (!flight_leads(z, wk.floor, goal_floor)) continue;
    float wait = 0.0f;
    const float s = flight_seconds(w, z, &wait);
    if (best < 0 || s < best_s) best = static_cast<int32_t>(z), best_s = s;
    waiting = waiting || wait > 0.0f;
  }
  if (best >= 0 && !waiting && !flights_[static_cast<std::size_t>(best)].belt) {
    const float near = mouth_dist(static_cast<uint32_t>(best)) / wk.desired_speed + kSameWalkS;
    int32_t esc = -1;
    float esc_s = 0.0f;
    for (uint32_t z = 0; z < flights_.size(); ++z) {
      if (!flights_[z].belt || !flight_leads(z, wk.floor, goal_floor) || !(mouth_dist(z) / wk.desired_speed <= near)) continue;
      const float s = flight_seconds(w, z);
      if (esc < 0 || s < esc_s) esc = static_cast<int32_t>(z), esc_s = s;
    }
    if (esc >= 0) best = esc, best_s = esc_s;
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
  const auto z = static_cast<uint32_t>(heading(wk));
  const FlightGeom& fg = flights_[z];
  if (fg.belt) return fg.exit_mid(belt_sense(wk, z));  // one file: the belt's centreline
  const V2 far = fg.from == wk.floor ? fg.mid2 : fg.mid0;
  float lo = 0, hi = 0, target = 0;
  const float s = stair_band(w, z, walk_sense(wk, z), &lo, &hi, &target) ? target : fg.across_of(wk.pos);
  return far + fg.across * fg.inside_offset(s, wk.radius);
}

bool StationModel::reweigh_due(uint32_t w) const {
  // "They re-weigh about once a second": every 20 ticks, staggered by the
  // walker's index so a crowd does not re-weigh on one tick (S33). Not on a
  // flight or a belt, where the choice is final. On a floor with gates
  // everyone re-weighs: a gate is taken within 12 m of its mouths (S44).
  const Walker& wk = state_.walkers[w];
  return (wk.via >= 0 || floor_gates_[wk.floor]) && wk.flight < 0 && (state_.tick + w) % kReweighTicks == 0;
}

void StationModel::reweigh_connector(uint32_t w, V2& corner) {
  // A switch (another stair 3 s cheaper, another gate 1.6 m cheaper, the held
  // one not yet final; a gate ahead taken, or one no longer ahead left) plans the path anew.
  if (!reweigh_due(w)) return;
  Walker& wk = state_.walkers[w];
  bool changed = false;
  if (floor_gates_[wk.floor]) {
    const int32_t g = choose_gate(w);
    changed = g != wk.gate;
    wk.gate = g;
  }
  if (!changed && choose_flight(w) == wk.via) {
    // S56: "Their path is checked every 20 ticks ...; if the back has moved more than 1.5 m from where it
    // was going, the path is rebuilt": so too when a line has formed since (the mouth among the next four
    // corners), or the one walked round is gone. One walking round keeps to it while any line is left (a
    // line of about 1.8 m forms and dissolves as its head boards and a newcomer joins).
    const Route& rt = state_.routes[w];
    V2 back;
    const bool round = line_back(w, wk.via, &back, rt.back_k >= 0);
    float tail = 0.0f;
    const bool any = wk.via >= 0 && formed_tail(static_cast<uint32_t>(wk.via), belt_sense(wk, static_cast<uint32_t>(wk.via)), &tail, true);
    const bool due = rt.back_k >= 0 ? (!any || (round && length(back - rt.back) > kBackMovedM))
                                    : round && rt.waypoints.size() - rt.next <= kHeadingWaypoints && rt.next_anchor >= rt.anchors.size();
    if (!due) return;
  }
  rebuild_path(w);
  ++plan_counts_[w][kCountRebuilt];
  corner = route_corner(w);
}

V2 StationModel::short_of_landing(uint32_t w, V2 p) const {
  const Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[static_cast<std::size_t>(heading(wk))];
  const V2 out = fg.gate ? fg.travel(belt_sense(wk, static_cast<uint32_t>(heading(wk)))) : (fg.from == wk.floor ? fg.axis : fg.axis * -1.0f);  // toward the far end
  return p - out * wk.radius;
}

V2 StationModel::goal_point(uint32_t w) const {
  const Walker& wk = state_.walkers[w];
  if (heading(wk) >= 0) return landing_goal(w);
  return wk.lift >= 0 ? lift_goal(w) : portal_goal(wk.destination, wk.pos);
}

void StationModel::connectors_phase() {
  // After the forces: the belts carry their riders and let them off; who is on
  // a flight, the hand-over at the landing line, and the step off (seed 002,
  // "A walked stair hands the walker to the other floor where they stand when
  // they step past the landing line"); then the belts' boarders. Walker by
  // walker in index order (a belt's riders front first); each stair walker
  // reads and writes only its own walker and route.
  if (flights_.empty()) return;
  lifts_phase();
  carry_belts();
  for (uint32_t i = 0; i < state_.walkers.size(); ++i) {
    Walker& wk = state_.walkers[i];
    if (wk.phase != Phase::Walking) continue;
    if (wk.flight >= 0) {
      const auto z = static_cast<uint32_t>(wk.flight);
      const FlightGeom& fg = flights_[z];
      if (fg.belt) continue;  // carried (carry_belts)
      if (wk.hold_s > 0.0f) wk.hold_s = std::max(0.0f, wk.hold_s - kDt);
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
      if (!fg.belt && !fg.lift && (fg.from == wk.floor || fg.to == wk.floor) && fg.contains(wk.pos)) {
        wk.flight = static_cast<int32_t>(z);
        stop_once(i, z);
        break;
      }
    }
  }
  board_belts();
}

void StationModel::hand_over(uint32_t w, uint32_t z) {
  // The walker stands on the landing line: it is now on the other floor, in
  // the same place (no jump in plan).
  Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  const bool up = fg.from == wk.floor;
  wk.floor = fg.other(wk.floor);
  wk.via = -1;
  const V2 line = up ? fg.mid2 : fg.mid0;
  set_first_leg(w, z, line + fg.across * fg.inside_offset(fg.across_of(wk.pos), wk.radius));
}

void StationModel::set_first_leg(uint32_t w, uint32_t z, V2 foot) {
  // Off a flight or a belt, on the floor it arrived on: the first leg goes
  // 1.8 m straight out of the mouth at the walker's own offset across it (1.1
  // m if a wall is closer), and is not cut as a passed corner until reached or
  // walked past (seed 002); the path on from there.
  Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  const V2 out = fg.to == wk.floor ? fg.axis : fg.axis * -1.0f;
  float leg = kFirstLeg;
  if (!segment_clear(wk.floor, foot, foot + out * kFirstLeg, wk.radius)) leg = kFirstLegNearWall;
  wk.step_off = foot + out * leg;
  wk.off_flight = static_cast<int32_t>(z);
  rebuild_path(w);
}

// ---- the belt: escalators (seed 002, Escalator; spec notes S39-S42)
//
// "The walker walks onto the belt and boards within 0.3 m of the entry edge.
// Boarding does not move them; the belt draws them sideways onto the
// centreline at 0.9 m/s while it carries them, one file, held off the person
// ahead. Social forces are not applied on the belt. At the exit they step off
// where the belt's last step leaves them, just past the end edge, at belt
// speed." A rider keeps the floor tag of the entry floor (its drawn height
// follows the tread, as on a stair) until it steps off.

int StationModel::belt_sense(const Walker& wk, uint32_t z) const {
  const FlightGeom& fg = flights_[z];
  if (wk.flight == static_cast<int32_t>(z)) return wk.sense;
  if (!fg.gate) return fg.sense_of_escalator();
  const int sense = fg.along_of(wk.pos) < 0.5f * fg.length ? 1 : -1;  // in from the mouth on its side
  return fg.runs(sense) ? sense : 0;
}

void StationModel::count_belts() {
  // As the tick starts: per zone, the distances to its entry mouth of those
  // bound through it (the choice's wait counts those nearer), how far each
  // belt's last boarder is past its entry edge, each way (S40), and its riders.
  const std::size_t nz = flights_.size();
  if (nz == 0) return;  // no connector: nobody bound for one
  for (std::size_t z = 0; z < nz; ++z) {
    bound_dist_[z].clear();
    belt_last_[z] = {kNoRider, kNoRider};
    belt_riders_[z] = 0;
  }
  for (const Walker& wk : state_.walkers) {
    if (wk.phase != Phase::Walking) continue;
    if (wk.flight >= 0) {
      const auto z = static_cast<std::size_t>(wk.flight);
      const FlightGeom& fg = flights_[z];
      if (!fg.belt) continue;
      float& last = belt_last_[z][wk.sense > 0 ? 0 : 1];
      const float t = fg.travelled(wk.pos, wk.sense);
      if (t < last) last = t;
      ++belt_riders_[z];
      continue;
    }
    for (const int32_t to : {wk.gate, wk.via}) {
      if (to < 0) continue;
      const auto z = static_cast<uint32_t>(to);
      const FlightGeom& fg = flights_[z];
      const V2 mouth = fg.belt ? fg.entry_mid(belt_sense(wk, z)) : (fg.from == wk.floor ? fg.mid0 : fg.mid2);
      bound_dist_[z].push_back(length(mouth - wk.pos));
    }
  }
  for (auto& d : bound_dist_) std::sort(d.begin(), d.end());
}

bool StationModel::waiting_for_belt(const Walker& wk) const {
  // In line for a belt (S42): bound through it, on its entry floor, not on it,
  // and behind its mouth: within 10 m of the entry edge and not past the
  // boarding reach ("Anyone else within 10 m behind the mouth" of seed 002's
  // Queues). Standing there is not being stuck, nor a crowd to route round.
  if (heading(wk) < 0 || wk.flight >= 0) return false;
  const auto z = static_cast<uint32_t>(heading(wk));
  const FlightGeom& fg = flights_[z];
  if (!fg.belt) return false;
  const int sense = belt_sense(wk, z);
  if (sense == 0 || fg.entry_floor(sense) != wk.floor) return false;
  const V2 a = sense > 0 ? fg.c[0] : fg.c[2], b = sense > 0 ? fg.c[1] : fg.c[3];
  return fg.travelled(wk.pos, sense) <= kBoardReach && point_segment_sqr_distance(wk.pos, a, b) <= kMouthLineReach * kMouthLineReach;
}

float StationModel::belt_hold_gap(uint32_t w) const {
  // seed 002: "At the head of a line they keep one spacing behind the last
  // person to go through" (the belt's "gap of about one body spacing", S40):
  // the room, along the belt's travel, that a walker in line in front of the
  // mouth has before it stands one spacing behind the last boarder as the
  // tick started. "If their gate is busy they slow to a stand 0.55 m short of
  // the mouth" (S45): a gate that runs both ways is busy while someone rides
  // it the other way. kHeadwayCap with nobody on the belt or the walker not in line.
  const Walker& wk = state_.walkers[w];
  if (!waiting_for_belt(wk)) return kHeadwayCap;
  const auto z = static_cast<uint32_t>(heading(wk));
  const FlightGeom& fg = flights_[z];
  if (!(std::fabs(fg.across_of(wk.pos)) <= 0.5f * fg.width + wk.radius)) return kHeadwayCap;  // not in front of the mouth
  const int sense = belt_sense(wk, z);
  const float t = fg.travelled(wk.pos, sense);
  float room = kHeadwayCap;
  const float last = belt_last_[z][sense > 0 ? 0 : 1];
  if (last != kNoRider) room = last - fg.spacing - t;
  if (belt_last_[z][sense > 0 ? 1 : 0] != kNoRider) room = std::min(room, -kBusyStand - t);
  // In line (S47): a spacing behind the one in front, easing into that spot and standing; behind the
  // line (S48): the spot a newcomer takes behind the tail.
  const auto& line_t = line_t_[z][sense > 0 ? 0 : 1];
  if (wk.line >= 1 && static_cast<std::size_t>(wk.line) < line_t.size())
    room = std::min(room, line_t[static_cast<std::size_t>(wk.line) - 1] - fg.spacing - t);
  if (wk.line < 0 && w < spot_t_.size() && spot_t_[w] != kNoRider && state_.routes[w].back_k < 0)
    room = std::min(room, spot_t_[w] - t);  // (spawned this tick: none; walking round to the back: not yet)
  room = room > 0.0f ? room : 0.0f;
  // The room is along the axis; the headway caps the speed along the walker's
  // direction: the room over that direction's share of the axis. "A walker
  // standing off the axis gets a sideways pull back toward it, up to 0.9 m/s²
  // at 0.6 m offset. Stopped bodies are capped near 0.14 m/s" (S48): one at its
  // spot in a line, off the axis, shuffles toward it at 0.14 m/s x the offset
  // over 0.6 m at most (the driving term's pull, 0.28 m/s², stays under 0.9).
  const float c = dot(wk.dir, fg.travel(sense));
  float cap = c > 1e-3f ? room / c : kHeadwayCap;
  const float off = std::fabs(fg.across_of(wk.pos));
  if (wk.line >= 1 && room < kSpotReached && off > kOnAxis)
    cap = std::min(cap, kQueueShuffle * kTimeGap * std::min(1.0f, off / kPullFullOffset));
  return cap < kHeadwayCap ? cap : kHeadwayCap;
}

void StationModel::form_lines() {
  // seed 002, Queues: "Each tick, the walkers heading for that mouth who stand
  // within the strip around the axis (half the zone width, at least 0.45 m,
  // plus 0.15 m) are the queue, provided each is within 1.3 m of the one in
  // front and the first is within 1.4 m of the mouth. For someone already in
  // the line that first gap may be up to 3 m ... The tail is the last of them."
  // S47: heading for = in line for it (waiting_for_belt); in front = nearer the
  // mouth along the axis (ties by index); a line ends at its first gap. Then
  // the newcomers, those in line for it outside the line, nearest the tail
  // first, take successive spots a spacing apart behind it (S48).
  const std::size_t nz = flights_.size(), n = state_.walkers.size();
  spot_t_.assign(n, kNoRider);
  if (std::none_of(flights_.begin(), flights_.end(), [](const FlightGeom& fg) { return fg.belt; })) return;  // no belt: no line (set_state holds every line at -1)
  for (Walker& wk : state_.walkers)
    if (wk.phase == Phase::Walking) wk.line = wk.line >= 0 && waiting_for_belt(wk) ? -2 : -1;  // -2: was in line
  // Those in line for each belt, each way ([2 z] sense +1, [2 z + 1] sense -1): (distance behind the mouth, walker).
  std::vector<std::vector<std::pair<float, uint32_t>>> in_line(2 * nz);
  for (uint32_t i = 0; i < n; ++i) {
    const Walker& wk = state_.walkers[i];
    if (wk.phase != Phase::Walking || !waiting_for_belt(wk)) continue;
    const auto z = static_cast<uint32_t>(heading(wk));
    const int sense = belt_sense(wk, z);
    in_line[2 * z + (sense > 0 ? 0 : 1)].emplace_back(-flights_[z].travelled(wk.pos, sense), i);
  }
  for (std::size_t z = 0; z < nz; ++z) {
    const FlightGeom& fg = flights_[z];
    if (!fg.belt) continue;
    for (const int sense : {1, -1}) {
      auto& members = line_of_[z][sense > 0 ? 0 : 1];
      auto& ts = line_t_[z][sense > 0 ? 0 : 1];
      members.clear(), ts.clear();
      if (!fg.runs(sense)) continue;
      const float strip = std::max(0.5f * fg.width, kStripMin) + kStripPlus;
      auto& cand = in_line[2 * z + (sense > 0 ? 0 : 1)];
      std::sort(cand.begin(), cand.end());
      const V2 mouth = fg.entry_mid(sense);
      std::vector<uint8_t> in(cand.size(), 0);
      int32_t prev = -1;
      for (std::size_t k = 0; k < cand.size(); ++k) {
        Walker& wk = state_.walkers[cand[k].second];
        if (!(std::fabs(fg.across_of(wk.pos)) <= strip)) continue;  // off the strip: not in the line, the line goes on
        const bool ok = prev < 0 ? length(wk.pos - mouth) <= (wk.line == -2 ? kLineHeadKept : kLineHead)
                                 : length(wk.pos - state_.walkers[static_cast<std::size_t>(prev)].pos) <= kLineGap;
        if (!ok) break;
        wk.line = static_cast<int32_t>(members.size());
        members.push_back(cand[k].second);
        ts.push_back(-cand[k].first);
        in[k] = 1;
        prev = static_cast<int32_t>(cand[k].second);
      }
      // Newcomers: "take successive spots behind the tail, nearest first, one spacing apart".
      if (members.empty()) continue;
      const float tail = ts.back();
      const V2 tail_at = mouth + fg.travel(sense) * tail;
      std::vector<std::pair<float, uint32_t>> fresh;
      for (std::size_t k = 0; k < cand.size(); ++k)
        if (!in[k]) fresh.emplace_back(length(state_.walkers[cand[k].second].pos - tail_at), cand[k].second);
      std::sort(fresh.begin(), fresh.end());
      for (std::size_t k = 0; k < fresh.size(); ++k) spot_t_[fresh[k].second] = tail - fg.spacing * static_cast<float>(k + 1);
    }
  }
  for (Walker& wk : state_.walkers)
    if (wk.line == -2) wk.line = -1;
}

bool StationModel::formed_tail(uint32_t z, int sense, float* tail, bool kept) const {
  // "A formed line behind a gate or escalator mouth (1.8 m or longer)": its tail 1.8 m or more behind the mouth.
  const auto& ts = line_t_[z][sense > 0 ? 0 : 1];
  if (ts.empty() || !(kept || -ts.back() >= kQueueBandMinM)) return false;
  *tail = ts.back();
  return true;
}

bool StationModel::line_back(uint32_t w, int32_t to, V2* back, bool kept) const {
  // seed 002, Queues: "Someone heading for an escalator with a formed line,
  // from off to the side of it and behind its back, or more than 2.5 m out
  // to the side, walks to the back of the line first and only then follows
  // the line to the mouth ... Someone already level with the line or ahead of
  // its back, within 2.5 m of it, is never sent back" (S56: off to the side =
  // outside the strip; the back = the spot a spacing behind the tail).
  const Walker& wk = state_.walkers[w];
  if (wk.gate >= 0 || to < 0 || wk.flight >= 0 || wk.line >= 0) return false;
  const auto z = static_cast<uint32_t>(to);
  const FlightGeom& fg = flights_[z];
  if (!fg.belt || fg.gate) return false;
  const int sense = belt_sense(wk, z);
  float tail = 0.0f;
  if (sense == 0 || fg.entry_floor(sense) != wk.floor || !formed_tail(z, sense, &tail, kept)) return false;
  const float t = fg.travelled(wk.pos, sense), s = std::fabs(fg.across_of(wk.pos));
  const float strip = std::max(0.5f * fg.width, kStripMin) + kStripPlus;
  if (!(s > kLineSideM || (s > strip && t < tail))) return false;
  *back = fg.entry_mid(sense) + fg.travel(sense) * (tail - fg.spacing);
  return true;
}

void StationModel::queue_bands(uint32_t floor) {
  // seed 002, Route, "Queue lines": "A formed line behind a gate or
  // escalator mouth (1.8 m or longer) ... marks a band 0.6 m either side of
  // it. Walking through that band costs 7 times its length" (S57: the band
  // is the rectangle from the mouth back to the tail, 0.6 m either side of
  // the axis; a routing cell is in it when its centre is; 6 extra per metre
  // on top of the step's own). Each belt's mask of its band's cells lets the
  // walkers bound for it walk through their own queue at no cost.
  const NavGrid& grid = *grids_[floor];
  auto& cost = crowd_cost_[floor];
  for (uint32_t z = 0; z < flights_.size(); ++z) {
    const FlightGeom& fg = flights_[z];
    if (!fg.belt) continue;
    for (const int sense : {1, -1}) {
      auto& mask = band_cells_[z][sense > 0 ? 0 : 1];
      float tail = 0.0f;
      if (!fg.runs(sense) || fg.entry_floor(sense) != floor || !formed_tail(z, sense, &tail)) {
        if (fg.entry_floor(sense) == floor) mask.clear();
        continue;
      }
      mask.assign(cost.size(), 0);
      const V2 m = fg.entry_mid(sense), u = fg.travel(sense);
      V2 lo = m, hi = m;
      for (const float t : {tail, 0.0f})
        for (const float s : {-kQueueBandHalf, kQueueBandHalf}) {
          const V2 p = m + u * t + fg.across * s;
          lo = V2{std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = V2{std::max(hi.x, p.x), std::max(hi.y, p.y)};
        }
      const V2 o = grid.origin();
      const float cs = grid.cell();
      const int32_t x0 = std::max(0, static_cast<int32_t>(std::floor((lo.x - o.x) / cs)));
      const int32_t x1 = std::min(grid.nx() - 1, static_cast<int32_t>(std::floor((hi.x - o.x) / cs)));
      const int32_t y0 = std::max(0, static_cast<int32_t>(std::floor((lo.y - o.y) / cs)));
      const int32_t y1 = std::min(grid.ny() - 1, static_cast<int32_t>(std::floor((hi.y - o.y) / cs)));
      for (int32_t iy = y0; iy <= y1; ++iy)
        for (int32_t ix = x0; ix <= x1; ++ix) {
          const auto c = static_cast<std::size_t>(iy) * static_cast<std::size_t>(grid.nx()) + static_cast<std::size_t>(ix);
          const V2 p = grid.cell_center(static_cast<int32_t>(c));
          const float t = fg.travelled(p, sense);
          if (!(t >= tail && t <= 0.0f && std::fabs(fg.across_of(p)) <= kQueueBandHalf)) continue;
          mask[c] = 1;
          cost[c].base += kQueueBandExtra;
        }
    }
  }
}

V2 StationModel::queue_aim(uint32_t w, V2 drive) const {
  // Where a walker in line for a belt aims (S47, S48): in the line, "the
  // heading is the queue axis": the point on the axis a spacing behind the one
  // in front (where it stands when that is nearer the mouth: "Their spot in
  // line never lies behind where they stand"); the head, the mouth. Behind a
  // line, its spot behind the tail, or, level with the line or ahead of its
  // spot, the axis where it stands ("steps into the line where they stand").
  // With no line, "a point on the axis 1.4 m ahead of them". "A queue target
  // is used only when the straight walk to it is clear of walls."
  const Walker& wk = state_.walkers[w];
  if (!waiting_for_belt(wk)) return drive;
  if (state_.routes[w].back_k >= 0) return drive;  // on its way round the line to the back (S56): the path
  const auto z = static_cast<uint32_t>(heading(wk));
  const FlightGeom& fg = flights_[z];
  const int sense = belt_sense(wk, z);
  const float t = fg.travelled(wk.pos, sense);
  const auto& ts = line_t_[z][sense > 0 ? 0 : 1];
  float aim = 0.0f;
  if (wk.line == 0) {
    aim = 0.0f;
  } else if (wk.line > 0 && static_cast<std::size_t>(wk.line) < ts.size()) {
    aim = std::max(ts[static_cast<std::size_t>(wk.line) - 1] - fg.spacing, t);
  } else if (w < spot_t_.size() && spot_t_[w] != kNoRider) {
    aim = std::max(spot_t_[w], t);
  } else {
    aim = std::min(t + kMergeAhead, 0.0f);
  }
  const V2 target = fg.entry_mid(sense) + fg.travel(sense) * aim;
  if (length(target - wk.pos) < 1e-3f) return target + fg.travel(sense) * 0.1f;  // on the spot: face along the axis
  return segment_clear(wk.floor, wk.pos, target, wk.radius) ? target : drive;
}

float StationModel::gate_cost(uint32_t w, uint32_t z, int sense) const {
  // seed 002: "the walk to its mouth, plus 1.5 m for every person already
  // bound for it and closer to the mouth, or riding it"; "Equal gates are
  // split by a small per-walker offset" (S46: up to 0.3 m by the walker's lane
  // share and the gate's place across its bank).
  const Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  const float dist = length(fg.entry_mid(sense) - wk.pos);
  const auto& bound = bound_dist_[z];
  const auto nearer = static_cast<float>(std::lower_bound(bound.begin(), bound.end(), dist) - bound.begin());
  return dist + kGatePerPerson * (nearer + static_cast<float>(belt_riders_[z])) - kGateOffset * wk.lane_share * fg.bank_place;
}

int32_t StationModel::choose_gate(uint32_t w) const {
  // seed 002: "A bank of gates side by side is shared. Within 12 m of the
  // mouths a walker weighs each gate that serves the crossing ... They settle
  // on the cheapest, re-weigh about once a second, and switch only when
  // another gate is at least 1.6 m cheaper. Within 2 m behind the mouth the
  // choice is final." The crossing (S44): the first gate the walker's path
  // ahead runs through, whose mouth on the walker's side is within 12 m and
  // runs its way; the bank's gates that run that way serve it. -1: no gate
  // ahead (the path is planned without one).
  const Walker& wk = state_.walkers[w];
  const int32_t held = wk.gate;
  if (held >= 0) {
    const FlightGeom& fg = flights_[static_cast<std::size_t>(held)];
    const int sense = belt_sense(wk, static_cast<uint32_t>(held));
    if (sense != 0 && -fg.travelled(wk.pos, sense) <= kFinalChoiceM) return held;
  }
  const Route& rt = state_.routes[w];
  int32_t ahead = -1;
  int sense = 0;
  V2 from = wk.pos;
  float run = 0.0f;
  for (std::size_t k = rt.next; k < rt.waypoints.size() && ahead < 0 && run <= kGateReach; ++k) {
    const V2 to = rt.waypoints[k];
    for (uint32_t z = 0; z < flights_.size() && ahead < 0; ++z) {
      const FlightGeom& fg = flights_[z];
      if (!fg.gate || fg.from != wk.floor) continue;
      // The leg runs through the gate: it crosses the gate's middle line inside its width.
      const float a0 = fg.along_of(from) - 0.5f * fg.length, a1 = fg.along_of(to) - 0.5f * fg.length;
      if ((a0 < 0.0f) == (a1 < 0.0f)) continue;
      const float u = a0 / (a0 - a1);
      const float s = fg.across_of(from + (to - from) * u);
      if (!(std::fabs(s) <= 0.5f * fg.width)) continue;
      const int sn = a0 < 0.0f ? 1 : -1;
      if (!(length(fg.entry_mid(sn) - wk.pos) <= kGateReach)) continue;
      ahead = static_cast<int32_t>(z), sense = sn;  // its bank's gates that run this way serve the crossing
    }
    run += length(to - from);
    from = to;
  }
  if (ahead < 0) return held;
  const int32_t bank = flights_[static_cast<std::size_t>(ahead)].bank;
  int32_t best = -1;
  float best_c = 0.0f;
  for (uint32_t z = 0; z < flights_.size(); ++z) {
    const FlightGeom& fg = flights_[z];
    if (!fg.gate || fg.bank != bank || !fg.runs(sense)) continue;
    const float c = gate_cost(w, z, sense);
    if (best < 0 || c < best_c) best = static_cast<int32_t>(z), best_c = c;
  }
  if (held >= 0 && flights_[static_cast<std::size_t>(held)].bank == bank && best != held &&
      !(gate_cost(w, static_cast<uint32_t>(held), sense) - best_c >= kGateSwitchM))
    return held;
  return best;
}

void StationModel::carry_belts() {
  // Every belt's riders, front first (ties by index): each moves on at belt
  // speed, no nearer than one spacing behind where the one ahead now is, and
  // never back; sideways toward the centreline at 0.9 m/s at most. Past the
  // end edge it steps off. (Riders of one belt all ride one way: a gate that
  // runs both ways boards nobody while someone rides it the other way.)
  std::vector<std::vector<std::pair<float, uint32_t>>> on(flights_.size());  // per belt: (how far along, rider)
  for (uint32_t i = 0; i < state_.walkers.size(); ++i) {
    const Walker& wk = state_.walkers[i];
    if (wk.phase == Phase::Walking && on_belt(wk))
      on[static_cast<std::size_t>(wk.flight)].emplace_back(flights_[static_cast<std::size_t>(wk.flight)].travelled(wk.pos, wk.sense), i);
  }
  for (uint32_t z = 0; z < flights_.size(); ++z) {
    const FlightGeom& fg = flights_[z];
    auto& riders = on[z];
    std::sort(riders.begin(), riders.end(), [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
    float limit = 0.0f;
    bool ahead = false;
    for (const auto& [t, i] : riders) {
      Walker& wk = state_.walkers[i];
      const V2 entry = fg.entry_mid(wk.sense);
      const V2 travel = fg.travel(wk.sense);
      float tn = t + fg.belt_speed * kDt;
      if (wk.hold_s > 0.0f) {  // held where it boarded (S49): those behind are held a spacing off
        wk.hold_s = std::max(0.0f, wk.hold_s - kDt);
        tn = t;
      }
      if (ahead && tn > limit - fg.spacing) tn = limit - fg.spacing;
      if (tn < t) tn = t;
      const float s = fg.across_of(wk.pos);
      const float draw = kBeltDraw * kDt;
      const float sn = s > draw ? s - draw : (s < -draw ? s + draw : 0.0f);
      limit = tn;
      ahead = true;
      // Off an escalator at the end edge; off a gate once the body is past its mouth's wall (S45).
      if (tn >= fg.length + (fg.gate ? wk.radius + kStepOffPast : 0.0f)) {
        step_off_belt(i, z, sn);
        continue;
      }
      const V2 to = entry + travel * tn + fg.across * sn;
      wk.vel = (to - wk.pos) * (1.0f / kDt);
      wk.pos = to;
      wk.dir = travel;
      wk.drive = to + travel;
    }
  }
}

void StationModel::step_off_belt(uint32_t w, uint32_t z, float across) {
  // "At the exit they step off where the belt's last step leaves them, just
  // past the end edge, at belt speed" (S41): the centre 5 cm past the end
  // edge at its offset across, on the exit floor; off an escalator the first
  // leg out, off a gate the path on to its goal (S45).
  Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  const V2 travel = fg.travel(wk.sense);
  const V2 foot = fg.exit_mid(wk.sense) + fg.across * across;
  const V2 at = fg.gate ? wk.pos + fg.across * (across - fg.across_of(wk.pos)) + travel * (fg.belt_speed * kDt) : foot + travel * kStepOffPast;
  wk.floor = fg.other(wk.floor);
  wk.flight = -1;
  (fg.gate ? wk.gate : wk.via) = -1;
  wk.sense = 0;
  wk.pos = at;
  wk.vel = travel * fg.belt_speed;
  wk.dir = travel;
  wk.stuck_s = 0.0f;
  if (fg.gate) rebuild_path(w);
  else set_first_leg(w, z, foot);
}

void StationModel::board_belts() {
  // Those bound through a belt, on its entry floor, within 0.3 m of the entry
  // edge (or past it) and inside its width board when the belt has a gap of
  // one spacing before its last boarder and nobody rides it the other way
  // (S40, S45). One at a time: nearest the edge first (ties by index), who
  // then is the last boarder.
  // One pass: per belt, its last boarder each way (after this tick's carrying) and the one nearest its edge.
  struct Entry {
    std::array<float, 2> last{kNoRider, kNoRider};
    int32_t best = -1;
    int best_sense = 0;
    float best_t = 0.0f;
  };
  std::vector<Entry> entry(flights_.size());
  for (uint32_t i = 0; i < state_.walkers.size(); ++i) {
    const Walker& wk = state_.walkers[i];
    if (wk.phase != Phase::Walking) continue;
    if (wk.flight >= 0) {
      if (!on_belt(wk)) continue;
      float& l = entry[static_cast<std::size_t>(wk.flight)].last[wk.sense > 0 ? 0 : 1];
      l = std::min(l, flights_[static_cast<std::size_t>(wk.flight)].travelled(wk.pos, wk.sense));
      continue;
    }
    const int32_t to = heading(wk);
    if (to < 0 || !flights_[static_cast<std::size_t>(to)].belt) continue;
    const auto z = static_cast<uint32_t>(to);
    const FlightGeom& fg = flights_[z];
    const int sense = belt_sense(wk, z);
    if (sense == 0 || wk.floor != fg.entry_floor(sense)) continue;
    const float t = fg.travelled(wk.pos, sense);
    if (!(t >= -kBoardReach && t < fg.length) || !(std::fabs(fg.across_of(wk.pos)) <= 0.5f * fg.width)) continue;
    Entry& e = entry[z];
    if (e.best < 0 || t > e.best_t) e.best = static_cast<int32_t>(i), e.best_t = t, e.best_sense = sense;
  }
  for (uint32_t z = 0; z < flights_.size(); ++z) {
    const FlightGeom& fg = flights_[z];
    const auto& [last, best, best_sense, best_t] = entry[z];
    if (best < 0) continue;
    if (last[best_sense > 0 ? 1 : 0] != kNoRider) continue;                         // someone rides it the other way
    if (!(last[best_sense > 0 ? 0 : 1] - best_t >= fg.spacing)) continue;         // no gap yet
    Walker& wk = state_.walkers[static_cast<std::size_t>(best)];
    wk.flight = static_cast<int32_t>(z);  // "Boarding does not move them"
    wk.sense = best_sense;
    wk.stuck_s = 0.0f;
    stop_once(static_cast<uint32_t>(best), z);
  }
}

void StationModel::stop_once(uint32_t w, uint32_t z) {
  // seed 002: "A zone stop_delay_s holds the walker once, the first time they
  // enter, then sets a bit so the same zone does not stop them again" (S49):
  // entering = boarding a belt, or stepping onto a flight; the route keeps the
  // zones that have held it.
  const float delay = scenario_.zones[z].stop_delay_s;
  auto& stopped = state_.routes[w].stopped;
  if (!(delay > 0.0f) || std::find(stopped.begin(), stopped.end(), z) != stopped.end()) return;
  stopped.push_back(z);
  state_.walkers[w].hold_s = delay;
}

}  // namespace lockstep::station
