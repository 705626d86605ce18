// seed 002, "A different floor inserts a connector", Elevator (issue 19; spec
// notes S50-S55; docs/station.md, "Elevators").
//
// "A teleport pair with no walked zone, served by one car." Each landing is a
// zone of kind elevator on its floor; the landings sharing a pair_id are one
// car's. A landing with a door (its edge 0) is the car's shaft on that floor:
// solid, walled on every edge, entered through the door only. A walker who
// takes a car (prefers_lift, choose_lift) routes to just in front of its
// landing's door, stands about 1.4 m back while the car is away, full or
// unloading, and boards within 0.3 m of the door line when the car stands
// there with room. Riders are out of the crowd (phase Riding) until the car
// stands at their floor, where they step out a row at a time.
//
// The cars' phase (lifts_phase) runs in the connectors phase, car by car in
// index order, walker by walker in index order: the same bits on any number
// of threads.
#include <algorithm>
#include <cmath>

#include "station/station.h"

namespace lockstep::station {

bool StationModel::prefers_lift(const Walker& w) const {
  // seed 002, Population: "p_impaired and p_disable are independent chances,
  // at spawn, that the walker prefers an elevator over a stair. A scenario-wide
  // elevator route forces that preference for everyone."
  return lift_route_ || w.prefers_lift_impaired || w.prefers_lift_disable;
}

int32_t StationModel::landing_on(uint32_t c, uint32_t f) const {
  for (const uint32_t z : lifts_[c].landings)
    if (flights_[z].from == f) return static_cast<int32_t>(z);
  return -1;
}

bool StationModel::floors_joined(uint32_t from, uint32_t to) const {
  if (floor_hops(from, to) >= 0) return true;
  for (uint32_t c = 0; c < lifts_.size(); ++c)
    if (landing_on(c, from) >= 0 && landing_on(c, to) >= 0) return true;
  return false;
}

int32_t StationModel::choose_lift(uint32_t w) const {
  // "Walkers use the nearest elevator on their floor" (S54): of the cars with
  // a landing on the walker's floor and one on its goal's, the landing whose
  // door (or middle, without a door) is nearest in a straight line; ties by
  // car order. Taken by those who prefer the lift, and by everyone where no
  // stair or escalator leads to the goal's floor (S54). Once held, a car is
  // kept while it still serves both floors.
  const Walker& wk = state_.walkers[w];
  const uint32_t goal_floor = portals_[wk.destination].floor;
  if (lifts_.empty() || goal_floor == wk.floor) return -1;
  if (floor_hops(wk.floor, goal_floor) >= 0 && !prefers_lift(wk)) return -1;
  if (wk.lift >= 0 && landing_on(static_cast<uint32_t>(wk.lift), wk.floor) >= 0 &&
      landing_on(static_cast<uint32_t>(wk.lift), goal_floor) >= 0)
    return wk.lift;
  int32_t best = -1;
  float best_d = 0.0f;
  for (uint32_t c = 0; c < lifts_.size(); ++c) {
    const int32_t here = landing_on(c, wk.floor);
    if (here < 0 || landing_on(c, goal_floor) < 0) continue;
    const FlightGeom& fg = flights_[static_cast<std::size_t>(here)];
    const float d = length((fg.door ? fg.mid0 : (fg.mid0 + fg.mid2) * 0.5f) - wk.pos);
    if (best < 0 || d < best_d) best = static_cast<int32_t>(c), best_d = d;
  }
  return best;
}

bool StationModel::may_board(const Walker& wk) const {
  // Its car stands at the walker's floor with its doors open to boarders ("Nobody boards until the
  // last rider for this floor is out") and room, and the walker's teleport lock has run out.
  const auto c = static_cast<uint32_t>(wk.lift);
  const CarState& car = state_.cars[c];
  return car.run_ticks == 0 && flights_[lifts_[c].landings[car.at]].from == wk.floor && lift_unload_[c] == 0 &&
         car.riders < lifts_[c].capacity && wk.lock_ticks == 0;
}

namespace {
/// How far p stands in front of a door landing's door line (negative: behind it, beside the shaft).
float in_front(const FlightGeom& fg, V2 p) { return -fg.along_of(p); }
/// The squared distance from p to a landing's rectangle (0 inside).
float to_landing_sqr(const FlightGeom& fg, V2 p) {
  const float a = fg.along_of(p), s = fg.across_of(p);
  const float da = a < 0.0f ? -a : (a > fg.length ? a - fg.length : 0.0f);
  const float hs = 0.5f * fg.width;
  const float ds = s < -hs ? -hs - s : (s > hs ? s - hs : 0.0f);
  return da * da + ds * ds;
}
}  // namespace

bool StationModel::waiting_for_lift(const Walker& wk) const {
  // S52: bound for its car on this floor and at its landing: within 3 m of the
  // door's middle and in front of the door line ("someone still behind the
  // door line, coming round the shaft, is not yet waiting"), or, without a
  // door, within 3 m of the landing. Not while a fare gate comes first.
  if (wk.phase != Phase::Walking || wk.lift < 0 || wk.flight >= 0 || wk.gate >= 0) return false;  // a gate first
  const int32_t z = landing_on(static_cast<uint32_t>(wk.lift), wk.floor);
  if (z < 0) return false;
  const FlightGeom& fg = flights_[static_cast<std::size_t>(z)];
  if (!fg.door) return to_landing_sqr(fg, wk.pos) <= kLiftWaitReach * kLiftWaitReach;
  return in_front(fg, wk.pos) > 0.0f && sqr_length(wk.pos - fg.mid0) <= kLiftWaitReach * kLiftWaitReach;
}

V2 StationModel::lift_goal(uint32_t w) const {
  // The point the path leads to: just in front of the doorway, at the
  // walker's own place across it; without a door, the landing's middle.
  const Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[static_cast<std::size_t>(landing_on(static_cast<uint32_t>(wk.lift), wk.floor))];
  if (!fg.door) return (fg.mid0 + fg.mid2) * 0.5f;
  return fg.mid0 - fg.axis * (wk.radius + 0.1f) + fg.across * fg.inside_offset(0.5f * wk.lane_share * fg.width, wk.radius);
}

V2 StationModel::lift_aim(uint32_t w, V2 drive) const {
  // At the landing (waiting_for_lift): into the doorway when the car stands
  // there with room and the walker's teleport lock has run out; otherwise
  // "walkers headed for it stand about 1.4 m back from the door (or the
  // landing)": in front of a door, the walker's spot of those count_lifts
  // gave out as the tick started (S52); without a door, 1.4 m out from the
  // landing's nearest edge point. The spot is aimed at only when the straight
  // walk to it is clear.
  const Walker& wk = state_.walkers[w];
  if (!waiting_for_lift(wk)) return drive;
  const FlightGeom& fg = flights_[static_cast<std::size_t>(landing_on(static_cast<uint32_t>(wk.lift), wk.floor))];
  if (may_board(wk)) return fg.door ? fg.mid0 + fg.across * fg.inside_offset(fg.across_of(wk.pos), wk.radius) : (fg.mid0 + fg.mid2) * 0.5f;
  V2 spot;
  if (fg.door) {
    spot = w < lift_spot_.size() && lift_spot_[w].x != kNoRider ? lift_spot_[w] : fg.mid0 - fg.axis * kLiftWaitBack;
  } else {
    // 1.4 m out from the landing's nearest edge point, on the walker's side.
    const float a = std::clamp(fg.along_of(wk.pos), 0.0f, fg.length);
    const float s = std::clamp(fg.across_of(wk.pos), -0.5f * fg.width, 0.5f * fg.width);
    const V2 q = fg.mid0 + fg.axis * a + fg.across * s;
    const V2 out = unit(wk.pos - q);
    spot = out == V2{} ? wk.pos : q + out * kLiftWaitBack;
  }
  if (length(spot - wk.pos) < 1e-3f) return spot + (fg.door ? fg.axis : unit((fg.mid0 + fg.mid2) * 0.5f - wk.pos)) * 0.1f;  // face the door
  return segment_clear(wk.floor, wk.pos, spot, wk.radius) ? spot : drive;
}

float StationModel::lift_gap(uint32_t w) const {
  // The headway cap of one waiting at a landing it may not board yet: its
  // room to its spot along its direction, so it eases in and stands there.
  const Walker& wk = state_.walkers[w];
  if (!waiting_for_lift(wk) || may_board(wk)) return kHeadwayCap;
  const float room = dot(wk.drive - wk.pos, wk.dir);
  return room <= 0.0f ? 0.0f : (room < kHeadwayCap ? room : kHeadwayCap);
}

void StationModel::count_lifts() {
  // As the tick starts: the teleport locks run down; per landing, those
  // waiting at it and those bound for it within 10 m who are not yet waiting
  // ("walking up"); per car, its riders for the floor it stands at.
  if (lifts_.empty()) return;
  lift_wait_.assign(flights_.size(), 0);
  lift_coming_.assign(flights_.size(), 0);
  lift_unload_.assign(lifts_.size(), 0);
  lift_spot_.assign(state_.walkers.size(), V2{kNoRider, kNoRider});
  std::vector<std::vector<std::pair<float, uint32_t>>> waiters(flights_.size());  // per door landing: (across, walker)
  for (uint32_t i = 0; i < state_.walkers.size(); ++i) {
    Walker& wk = state_.walkers[i];
    if (wk.phase == Phase::Riding) {
      const auto c = static_cast<uint32_t>(wk.lift);
      const CarState& car = state_.cars[c];
      if (car.run_ticks == 0 && flights_[lifts_[c].landings[car.at]].from == portals_[wk.destination].floor) ++lift_unload_[c];
      continue;
    }
    if (wk.phase != Phase::Walking) continue;
    if (wk.lock_ticks > 0) --wk.lock_ticks;
    if (wk.lift < 0) continue;
    const int32_t z = landing_on(static_cast<uint32_t>(wk.lift), wk.floor);
    if (z < 0) continue;
    const FlightGeom& fg = flights_[static_cast<std::size_t>(z)];
    if (waiting_for_lift(wk)) {
      ++lift_wait_[static_cast<std::size_t>(z)];
      if (fg.door) waiters[static_cast<std::size_t>(z)].emplace_back(fg.across_of(wk.pos), i);
    } else if (to_landing_sqr(fg, wk.pos) <= kLiftWalkUp * kLiftWalkUp) {
      ++lift_coming_[static_cast<std::size_t>(z)];
    }
  }
  // The spots in front of each door (S52): rows parallel to the door, the first 1.4 m out, each 0.75 m
  // behind the last, as many to a row as the door's width and 1 m each side hold at 0.75 m apart,
  // centred on the door; the waiters take them in their order across (so no two paths
  // cross), the first row first.
  for (std::size_t z = 0; z < waiters.size(); ++z) {
    auto& ws = waiters[z];
    if (ws.empty()) continue;
    std::sort(ws.begin(), ws.end());
    const FlightGeom& fg = flights_[z];
    const auto per_row = static_cast<std::size_t>((fg.width + 2.0f * kLiftWaitSide) / kLiftSpotSpacing) + 1;
    for (std::size_t first = 0; first < ws.size(); first += per_row) {
      const std::size_t in_row = std::min(per_row, ws.size() - first);
      const float back = kLiftWaitBack + kLiftSpotSpacing * static_cast<float>(first / per_row);
      for (std::size_t k = 0; k < in_row; ++k) {
        const float s = (static_cast<float>(k) - 0.5f * static_cast<float>(in_row - 1)) * kLiftSpotSpacing;
        lift_spot_[ws[first + k].second] = fg.mid0 - fg.axis * back + fg.across * s;
      }
    }
  }
}

V2 StationModel::car_spot(uint32_t z, uint32_t k) const {
  // Where rider k stands in the car at landing z (drawn like a visitor in a
  // store): a 0.55 m lattice across the landing from the door in, at most
  // 0.9 m deep behind a door (a shaft may stand off the floor: a rider stays
  // within a metre of it), the last spot shared when more stand than the
  // lattice holds.
  const FlightGeom& fg = flights_[z];
  const auto cols = std::max<uint32_t>(1u, static_cast<uint32_t>(fg.width / kRowPitch));
  const float depth = fg.door ? std::min(fg.length, 0.9f) : fg.length;
  const auto rows = std::max<uint32_t>(1u, static_cast<uint32_t>(depth / kRowPitch));
  const uint32_t n = std::min(k, cols * rows - 1);
  const float s = (static_cast<float>(n % cols) + 0.5f) * (fg.width / static_cast<float>(cols)) - 0.5f * fg.width;
  const float a = (static_cast<float>(n / cols) + 0.5f) * (depth / static_cast<float>(rows));
  return fg.mid0 + fg.axis * a + fg.across * s;
}

void StationModel::step_out(uint32_t w, uint32_t z, V2 at, V2 out) {
  // Out of the car onto its floor: walking again, locked out of every car for
  // teleport_lock_s, on a path from where it stands.
  Walker& wk = state_.walkers[w];
  const FlightGeom& fg = flights_[z];
  wk.phase = Phase::Walking;
  wk.floor = fg.from;
  wk.pos = at;
  wk.vel = out * (0.5f * wk.desired_speed);
  wk.dir = out;
  wk.lift = -1;
  wk.via = -1;
  wk.gate = -1;
  wk.lock_ticks = lock_ticks_;
  wk.stuck_s = 0.0f;
  wk.headway = kHeadwayCap;
  rebuild_path(w);
}

void StationModel::lifts_phase() {
  // seed 002, Elevator. Per car, in index order: a running car arrives when
  // its ride is over; a standing car lets its riders for the floor out (a row
  // at a time through a door; all at once without), then takes boarders, then
  // leaves when full, or hold_s after the last boarder with nobody else
  // waiting (someone walking up holds it, never past 3 x hold_s), for the
  // nearest floor with a call or a rider bound there (S53).
  if (lifts_.empty()) return;
  const auto n = static_cast<uint32_t>(state_.walkers.size());
  // One pass over the walkers: per car its riders and those who may board it (walking, bound for it,
  // lock run out), in index order. No car's turn changes another's: a walker belongs to one car, and
  // one stepping out of a car is locked out of every car.
  std::vector<std::vector<uint32_t>> aboard(lifts_.size()), bound(lifts_.size());
  for (uint32_t i = 0; i < n; ++i) {
    const Walker& wk = state_.walkers[i];
    if (wk.lift < 0) continue;
    if (wk.phase == Phase::Riding) aboard[static_cast<std::size_t>(wk.lift)].push_back(i);
    if (wk.phase == Phase::Walking && wk.flight < 0 && wk.lock_ticks == 0) bound[static_cast<std::size_t>(wk.lift)].push_back(i);
  }
  for (uint32_t c = 0; c < lifts_.size(); ++c) {
    CarState& car = state_.cars[c];
    const LiftGeom& lg = lifts_[c];
    std::vector<uint32_t>& riders = aboard[c];
    if (car.run_ticks > 0) {
      if (--car.run_ticks > 0) continue;
      // Arrived: the riders are on this floor now; the first row may step out at once.
      const uint32_t z = lg.landings[car.at];
      for (std::size_t k = 0; k < riders.size(); ++k) {
        Walker& wk = state_.walkers[riders[k]];
        wk.floor = flights_[z].from;
        wk.pos = car_spot(z, static_cast<uint32_t>(k));
      }
      car.since_ticks = 0;
      car.row_ticks = kRowWaitTicks;
    }
    const uint32_t z = lg.landings[car.at];
    const FlightGeom& fg = flights_[z];
    const uint32_t f = fg.from;
    // 1. Out: "On arrival only riders bound for that floor step out; the rest stay aboard."
    std::vector<uint32_t> out;
    for (const uint32_t i : riders)
      if (portals_[state_.walkers[i].destination].floor == f) out.push_back(i);
    if (!out.empty()) {
      if (!fg.door) {
        // "A landing without a door ... those getting off step out together, spread across it."
        for (std::size_t k = 0; k < out.size(); ++k) step_out(out[k], z, car_spot(z, static_cast<uint32_t>(k)), fg.axis * -1.0f);
        car.riders -= static_cast<uint32_t>(out.size());
        car.since_ticks = 0;
        continue;
      }
      // "riders step out a row at a time, as many abreast as the doorway fits (0.55 m each, at most 3),
      // each row once the one before has walked clear (or after 2 s)" (S53: clear, nobody walking
      // within 0.9 m in front of the doorway).
      bool clear = true;
      for (uint32_t i = 0; i < n && clear; ++i) {
        const Walker& o = state_.walkers[i];
        if (o.phase != Phase::Walking || o.floor != f) continue;
        const float d = in_front(fg, o.pos), s = fg.across_of(o.pos);
        clear = !(d >= 0.0f && d < kRowClear + o.radius && std::fabs(s) <= 0.5f * fg.width + o.radius);
      }
      if (clear || car.row_ticks >= kRowWaitTicks) {
        const auto fits = static_cast<uint32_t>(fg.width / kRowPitch);
        const uint32_t row = std::min<uint32_t>({std::max(1u, fits), kMaxRow, static_cast<uint32_t>(out.size())});
        for (uint32_t k = 0; k < row; ++k) {
          const Walker& wk = state_.walkers[out[k]];
          const float s = (static_cast<float>(k) - 0.5f * static_cast<float>(row - 1)) * kRowPitch;
          step_out(out[k], z, fg.mid0 - fg.axis * (wk.radius + 0.05f) + fg.across * fg.inside_offset(s, wk.radius), fg.axis * -1.0f);
        }
        car.riders -= row;
        car.row_ticks = 0;
      } else {
        ++car.row_ticks;
      }
      car.since_ticks = 0;
      continue;
    }
    // 2. In: walkers bound for this car at this landing, within 0.3 m of the door line and in front of
    // the doorway (without a door, within 0.3 m of the landing), lock run out; nearest first.
    std::vector<std::pair<float, uint32_t>> in;
    for (const uint32_t i : bound[c]) {
      const Walker& wk = state_.walkers[i];
      if (wk.floor != f) continue;
      const float reach = wk.radius + kBoardReach;
      bool at = false;
      if (fg.door) {
        const float d = in_front(fg, wk.pos);
        at = d >= 0.0f && d <= reach && std::fabs(fg.across_of(wk.pos)) <= 0.5f * fg.width;
      } else {
        at = to_landing_sqr(fg, wk.pos) <= reach * reach;
      }
      if (at) in.emplace_back(sqr_length(wk.pos - fg.mid0), i);
    }
    std::sort(in.begin(), in.end());
    uint32_t boarded = 0;
    for (const auto& [d, i] : in) {
      if (car.riders >= lg.capacity) break;
      Walker& wk = state_.walkers[i];
      wk.phase = Phase::Riding;
      wk.pos = car_spot(z, car.riders);
      wk.vel = V2{};
      wk.dir = fg.axis;
      wk.line = -1;
      wk.off_flight = -1;
      wk.stuck_s = 0.0f;
      ++car.riders;
      ++boarded;
      car.since_ticks = 0;
      riders.push_back(i);  // (bound for another floor: the stops below count it)
    }
    // 3. Away: the floors with a call (someone waiting at the landing) or a rider bound there; the
    // nearest, and with riders aboard the nearest the way it last ran while there is one that way (S53).
    int32_t next = -1, next_way = -1;
    uint32_t next_storeys = 0, way_storeys = 0;
    for (uint32_t k = 0; k < lg.landings.size(); ++k) {
      if (k == car.at) continue;
      const uint32_t lf = flights_[lg.landings[k]].from;
      bool stop = lift_wait_[lg.landings[k]] > 0;
      for (const uint32_t i : riders) stop = stop || portals_[state_.walkers[i].destination].floor == lf;
      if (!stop) continue;
      const int32_t dr = static_cast<int32_t>(floor_rank_[lf]) - static_cast<int32_t>(floor_rank_[f]);
      const auto storeys = static_cast<uint32_t>(dr < 0 ? -dr : dr);
      if (next < 0 || storeys < next_storeys) next = static_cast<int32_t>(k), next_storeys = storeys;
      if ((dr > 0) == (car.going > 0) && car.going != 0 && (next_way < 0 || storeys < way_storeys))
        next_way = static_cast<int32_t>(k), way_storeys = storeys;
    }
    if (car.riders > 0 && next_way >= 0) next = next_way, next_storeys = way_storeys;
    const uint32_t waiting = lift_wait_[z] > boarded ? lift_wait_[z] - boarded : 0u;
    const bool full = car.riders >= lg.capacity;
    const bool held = car.since_ticks < kHoldCapTimes * lg.hold_ticks && (waiting > 0 || lift_coming_[z] > 0);
    if (next >= 0 && (full || (car.since_ticks >= lg.hold_ticks && !held))) {
      car.going = floor_rank_[flights_[lg.landings[static_cast<std::size_t>(next)]].from] > floor_rank_[f] ? 1 : -1;
      car.at = static_cast<uint32_t>(next);
      car.run_ticks = lg.delay_ticks * std::max(1u, next_storeys);
      car.since_ticks = 0;
      continue;
    }
    if (car.since_ticks < 0xFFFFFFFFu) ++car.since_ticks;
  }
}

}  // namespace lockstep::station
