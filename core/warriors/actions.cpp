// The brain's think, the move action with its corner speed, and the
// move-to-human action (seed 000, "The move action", "The corner speed",
// "The move-to-human action (MoveMelee)"). Choices: docs/spec-notes.md A9-A29 and N18-N24.
#include <cstdint>

#include "lockstep/core/angle.h"
#include "warriors/warriors.h"

namespace lockstep::warriors {

namespace {
float plan_sq(Vec3 a, Vec3 b) {
  const float dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}
float dist_sq(Vec3 a, Vec3 b) { return sqr_length(a - b); }  // Vec_DistSq: height included
}  // namespace

// ------------------------------------------------------------ the brain

void WarriorsModel::set_move_gait(int32_t slot, int32_t gait) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  h.brain.move_speed = gait == kStand ? 0.0f : speed_for_gait(class_of(h), gait);
}

void WarriorsModel::stop_move(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  set_move_gait(slot, kStand);      // +0x114 = 0
  h.brain.move_heading = h.heading;  // +0x110 = the human's facing
}

bool WarriorsModel::at_destination(const Human& h, const Action& a) const {
  return plan_sq(h.position, a.point) <= a.radius * a.radius;
}

void WarriorsModel::check_move_arrival(int32_t slot) {
  // Brain_CheckMoveArrival (0x0023f9d0): sets +0x11d when it is 0, the front action is a move and the
  // human is within the brain's radius +0x118 of its aim +0x90; only the move action clears it (A9).
  // Supplement, Arrival: the distance minus one update's travel (speed / 30) is within the radius; the
  // distance is 3D, or in plan when the 3D distance is <= 1 m.
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  if (b.arrived || b.queue_count == 0 || b.queue[0].type != 1 || !b.queue[0].started) return;
  float d = dmath::sqrt(sqr_length(h.position - b.aim));
  if (d <= 1.0f) d = dmath::sqrt(plan_sq(h.position, b.aim));
  if (d - h.speed / 30.0f <= b.aim_radius) b.arrived = 1;
}

bool WarriorsModel::queue_action(int32_t slot, const Action& a) {
  Brain& b = state_.humans[static_cast<std::size_t>(slot)].brain;
  if (b.queue_count >= static_cast<int32_t>(kQueueSize)) return false;
  b.queue[static_cast<std::size_t>(b.queue_count++)] = a;
  return true;
}

void WarriorsModel::pop_action(int32_t slot) {
  Brain& b = state_.humans[static_cast<std::size_t>(slot)].brain;
  for (int32_t i = 1; i < b.queue_count; ++i) b.queue[static_cast<std::size_t>(i - 1)] = b.queue[static_cast<std::size_t>(i)];
  if (b.queue_count > 0) b.queue[static_cast<std::size_t>(--b.queue_count)] = Action{};
}

void WarriorsModel::clear_actions(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  for (int32_t i = 0; i < b.queue_count; ++i) {
    Action& a = b.queue[static_cast<std::size_t>(i)];
    if (!a.started) continue;
    if (a.type == 1) {
      // MoveAction Abort (0x002fc560): the abort bit, the avoidance ended, the route freed;
      // none of the move fields.
      a.abort = 1;
      set_avoiding(slot, -1);
      release_route(slot);  // 0x0029aa20
    } else if (a.type == 2) {
      // MoveMelee Abort (0x002fd068): a "no stance" human turns to face the human (at once, A27);
      // the boost restored.
      if (a.no_stance && a.target >= 0) {
        const Human& t = state_.humans[static_cast<std::size_t>(a.target)];
        const float dx = t.position.x - h.position.x, dy = t.position.y - h.position.y;
        if (dx != 0.0f || dy != 0.0f) {
          h.heading = angle::heading_of(dx, dy);
          b.move_heading = h.heading;
        }
      }
      b.turn_boost = a.saved_boost;
    } else if (a.type == kActGiveWay) {
      b.way_flags &= ~kWayGiving;  // GiveWay lives no more
    }
  }
  for (auto& a : b.queue) a = Action{};
  b.queue_count = 0;
}

void WarriorsModel::think(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  const int32_t now = state_.clock.now_ms;
  const int32_t since = now - b.last_think_ms;
  b.last_think_ms = now;
  stop_move(slot);  // every think starts with Brain_StopMove
  b.thinks = b.thinks + 1;
  // A Warrior (a gang member) makes room for his nearest mate on every 12th think (G7).
  if (h.gang != 0 && b.thinks % kWarriorPushEvery == 0) warrior_make_room(slot);
  if (b.queue_count == 0) return;
  Action& a = b.queue[0];
  // Action_Update (0x002f9e48): the time since the previous think off the delay, the first time too;
  // it returns before the class's Update while any is left.
  if (a.delay_ms > 0) {
    a.delay_ms -= since;
    if (a.delay_ms > 0) return;
  }
  int32_t r = 0;
  if (!a.started) {
    a.started = 1;
    if (a.type == 1) r = move_start(slot, a);
    else if (a.type == 2) r = melee_start(slot, a);
  }
  if (r == 0) r = a.type == 1 ? move_update(slot, a) : a.type == 2 ? melee_update(slot, a) : give_way_update(slot, a);
  if (r != 0) {
    if (a.type == 1) release_route(slot);  // N4: an ended move gives its route back to the pool
    pop_action(slot);
  }
}

// ------------------------------------------------------------ the move action

int32_t WarriorsModel::move_start(int32_t slot, Action& a) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  b.fail_reason = kFailNone;  // A13b: a new move starts with no failure reason ("left at 0")
  // Done (2) when 0x00223b70 holds or the human is within 0.1 m.
  if (at_destination(h, a) || dist_sq(h.position, a.point) < kStartDoneDist * kStartDoneDist) {
    ++counters_.move_done_arrived;
    return 2;
  }
  // Steering_ResetAvoidance (0x002890a8): held point to the origin, avoiding off, score -1e9,
  // +0x2b 0, the low byte of the human's index in +0x28 and +0x29.
  b.steering.held_point = Vec3{};
  set_avoiding(slot, -1);
  b.steering.score = -1.0e9f;
  b.steering.decisions = 0;
  b.steering.since_decision = h.index & 0xff;
  b.steering.slow_decisions = h.index & 0xff;
  b.aim = a.point;
  b.aim_radius = a.radius;
  // The route request (0x0029a8c0): none needed -> straight at the point; none possible -> done.
  // (On part 1's open floor the line always passes and every point has an area.)
  if (route_request(slot, a.point) == 2) return 2;
  a.stuck_point = h.position;
  a.stuck_count = 0;
  a.corner_count = 0;
  a.straight_count = 0;
  a.updates = 0;
  a.saved_aim = a.point;
  return 0;
}

int32_t WarriorsModel::move_update(int32_t slot, Action& a) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  const ClassSpec& c = class_of(h);
  // 1. Done at the destination (0x00223b70) or on abort; wait while busy.
  if (at_destination(h, a) || a.abort) {
    ++counters_.move_done_arrived;
    return 2;
  }
  if (busy(h)) return 0;
  // 0x002fc674: the arrival flag +0x11d is cleared; with a steering detour running it ends the detour
  // (0x00288ad0), else with a route it moves the route on (0x0029aa78 sets "move on now").
  if (b.arrived) {
    b.arrived = 0;
    if (b.steering.avoiding >= 0) steering_end_avoid(slot);
    else if (b.route.route >= 0) b.route.move_on = 1;
  }
  ++a.updates;
  // 2. Every 30 updates (offset by the human's index), with a route: the final point in sight ->
  //    the route dropped, straight on.
  if (b.route.route >= 0 && (a.updates + h.index) % kRouteCheckEvery == 0 && can_walk_straight(slot, a.point))
    release_route(slot);
  // The speed this update: the steering override while its count is non-zero, else +0x40.
  float speed = b.steering.override_count != 0 ? b.steering.override_speed : a.speed;
  // 3. With a route: done within the radius; aim at the route's current waypoint (Route_Follow).
  //    Any result but 1 ends the update there and is the action's result.
  Vec3 aim = a.point;
  if (b.route.route >= 0) {
    if (at_destination(h, a)) {
      ++counters_.move_done_arrived;
      return 2;
    }
    const int32_t r = route_follow(slot);
    if (r != 1) {
      if (r == 2) ++counters_.move_done_route;
      return r;
    }
    if (b.route.route >= 0) {
      const Route& rt = state_.nav.routes[static_cast<std::size_t>(b.route.route)];
      aim = level().nodes[rt.nodes[static_cast<std::size_t>(b.route.index)]].position;
    }
  }
  // 4. Dynamic obstacles (0x00414188): none in this port (no such records).
  // 5. Every 31 updates the aim must still pass Human_CanWalkStraightTo.
  if (++a.straight_count >= kStraightCheckEvery) {
    a.straight_count = 0;
    if (!can_walk_straight(slot, aim)) {
      ++counters_.move_done_straight;
      return 2;  // +0x284 left at 0: the goal plans again
    }
  }
  // ... and done when the aim is on a floor above or below (A11: tested every update).
  {
    const Vec3 d = aim - h.position;
    const float plan = d.x * d.x + d.y * d.y;
    const float d3 = plan + d.z * d.z;
    if (plan <= kFloorPlan * kFloorPlan && d3 > kFloor3d * kFloor3d && !h.airborne) {
      const float len = dmath::sqrt(d3);
      const float cos20 = dmath::cos(angle::deg_to_rad(kFloorVerticalDeg));
      if (absf(d.z) / len >= cos20) {
        ++counters_.move_done_floor;
        return 2;
      }
    }
  }
  // 6. Steering round other humans (Human_SteerAroundHumans): the override's count drops at the start
  //    of the call; 1 back means steering, the aim may have changed and the radius is 0.3 m.
  if (b.steering.override_count > 0) --b.steering.override_count;
  const int32_t steered =
      steer(slot, speed, aim, a.point, b.route.route >= 0 ? b.route.radius : a.radius);
  // 7. The heading: to the aim, or to the object to face.
  Vec3 look = aim;
  if (a.face >= 0) look = state_.humans[static_cast<std::size_t>(a.face)].position;
  {
    const float dx = look.x - h.position.x, dy = look.y - h.position.y;
    b.move_heading = (dx != 0.0f || dy != 0.0f) ? angle::heading_of(dx, dy) : h.heading;
  }
  b.aim = aim;
  b.aim_radius = steered ? kSteerRadius : (b.route.route >= 0 ? b.route.radius : a.radius);
  b.strafe = a.face >= 0 ? 1 : 0;  // A12: facing an object, the walk goes to the aim
  // 8. The speed. The counter +0x4c counts down each update (a signed byte).
  a.corner_count = static_cast<int8_t>(a.corner_count - 1);
  float out = 0.0f;
  if (a.face >= 0) {
    out = a.speed;  // with an object to face, the gait's speed
  } else {
    const float dx = aim.x - h.position.x, dy = aim.y - h.position.y;
    const float to_aim = (dx != 0.0f || dy != 0.0f) ? angle::heading_of(dx, dy) : h.heading;
    const float off = absf(angle::heading_delta(h.heading, to_aim));
    // Standing is Human_GaitForSpeed's gait 0 ("the move action ... use it to tell standing from moving").
    if (gait_for_speed(c, h.speed) == kStand && off > angle::deg_to_rad(kTurnOnSpotMoveDeg)) {
      out = 0.0f;  // turn on the spot while stopped and more than 30 degrees off
    } else {
      // The corner speed: recomputed when +0x4c runs past 0 or the aim moved more than 0.07 m.
      if (a.corner_count < 0 || dist_sq(aim, a.saved_aim) > kAimMovedSq) {
        corner_speed(slot, a, speed, collect_points(slot, a, aim));
        a.corner_count = a.corner1 > 0.0f ? kCornerRecount : 0;
        a.saved_aim = aim;
      }
      out = plan_sq(h.position, aim) >= a.brake_sq ? a.corner1 : a.corner2;
      if (out > speed) out = speed;
    }
  }
  set_move_speed(b, out);
  // 9. Stuck: counts updates while the asked speed is above 0; on the 61st, less than 0.2 m in 3D.
  if (out > 0.0f) {
    if (++a.stuck_count > kStuckUpdates) {
      if (dist_sq(h.position, a.stuck_point) < kStuckDist * kStuckDist) {
        b.fail_reason = kFailStuck;
        ++counters_.move_done_stuck;
        return 2;
      }
      a.stuck_point = h.position;
      a.stuck_count = 0;
    }
  } else {
    a.stuck_count = 0;
    a.stuck_point = h.position;  // A13: the count restarts from here
  }
  return 0;
}

MovePoints WarriorsModel::collect_points(int32_t slot, const Action& a, Vec3 aim) {
  // MoveAction_CollectPoints (0x002fbd18), at most 3: the human's position; the steering's detour
  // point when one runs (part 3); the route's waypoints (part 2); then the destination when there is room.
  (void)aim;
  const Human& h = state_.humans[static_cast<std::size_t>(slot)];
  MovePoints pts;
  pts.p[static_cast<std::size_t>(pts.n++)] = h.position;
  if (h.brain.steering.avoiding >= 0) pts.p[static_cast<std::size_t>(pts.n++)] = h.brain.steering.held_point;
  // The route's waypoints from the current one, claiming each: a waypoint entered by a kind-4 or
  // 0x80 link stops the list before it; one entered by a link whose flags are exactly 0x10 or 0x40
  // is the last one listed.
  const RouteState& rs = h.brain.route;
  bool last = false;
  if (rs.route >= 0) {
    const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
    for (int32_t i = rs.index; i < r.count && pts.n < 3; ++i) {
      const uint16_t in = leg_flags(rs.route, i);
      if (in & (kLinkJump | kLinkLedge)) {
        last = true;  // the list stops before it
        break;
      }
      const uint16_t node = r.nodes[static_cast<std::size_t>(i)];
      claim_waypoint(slot, node);
      pts.p[static_cast<std::size_t>(pts.n++)] = level().nodes[node].position;
      if (in == kLinkDoor || in == kLinkCharge) {
        last = true;  // the last one listed
        break;
      }
    }
  }
  if (pts.n < 3 && !last) pts.p[static_cast<std::size_t>(pts.n++)] = a.point;
  return pts;
}

void WarriorsModel::corner_speed(int32_t slot, Action& a, float cap, const MovePoints& pts) {
  // MoveAction_CornerSpeed (0x002fc158), v the human's speed, c the move's speed cap.
  const Human& h = state_.humans[static_cast<std::size_t>(slot)];
  const float v = h.speed;
  ++counters_.corner_recomputes;
  if (pts.n >= 2 && plan_sq(pts.p[0], pts.p[1]) > kCornerApartSq) a.corner1 = trial_speed(slot, v, cap, pts.p[0], pts.p[1]);
  else a.corner1 = cap;
  if (pts.n >= 3 && plan_sq(pts.p[1], pts.p[2]) > kCornerApartSq)
    a.corner2 = trial_speed(slot, v, a.corner1, pts.p[1], pts.p[2]);
  else a.corner2 = cap;
  if (a.corner2 < a.corner1) {
    const float t = (a.corner1 - a.corner2) / kBrake;
    const float d = a.corner1 * t - 16.0f * t * t;
    a.brake_sq = d * d;
  } else {
    a.brake_sq = 0.0f;
  }
}

float WarriorsModel::trial_speed(int32_t slot, float v, float trial, Vec3 from, Vec3 to) {
  const Human& h = state_.humans[static_cast<std::size_t>(slot)];
  const ClassSpec& c = class_of(h);
  const float walk = speed_for_gait(c, kWalk);
  // 1. Move_CornerSpeedLimit with the human's right vector; the smaller of that and trial, at least the walk.
  const float lim = corner_speed_limit(c, h.brain.turn_boost, trial, right_of(h.heading), from, to);
  if (lim < trial) trial = lim;
  if (trial < walk) trial = walk;
  // 2. Sub-steps per output point by the current speed, times (2 x detail + 1); 10 - detail points.
  const int32_t k = (v > 7.0f ? 4 : v > 5.0f ? 5 : v > 3.0f ? 6 : 7) * (2 * h.detail + 1);
  const int32_t n = 10 - h.detail;
  // 3./4. Simulate; every recorded point needs an area and a clear line to the next; a failure
  // lowers the trial by 1 + 0.75 x detail, down to the walk.
  for (;;) {
    ++counters_.trial_simulations;
    const std::vector<Vec3> pts = simulate_move(slot, from, to, v, trial, k, n);
    bool ok = true;
    for (std::size_t i = 0; ok && i < pts.size(); ++i) {
      if (!point_has_area(pts[i])) ok = false;
      else if (i + 1 < pts.size() && !line_clear(pts[i], pts[i + 1])) ok = false;
    }
    if (ok) return trial;
    trial = trial - (1.0f + 0.75f * static_cast<float>(h.detail));
    if (!(trial > walk)) return walk;  // also ends on a NaN trial
  }
}

std::vector<Vec3> WarriorsModel::simulate_move(int32_t slot, Vec3 from, Vec3 to, float v, float trial, int32_t k,
                                               int32_t n) const {
  // Human_SimulateMove (0x0022aae8), one update at a time (A17 for the order within a sub-step).
  const Human& h = state_.humans[static_cast<std::size_t>(slot)];
  const ClassSpec& c = class_of(h);
  const float turn = turn_rate_for_gait(gait_for_speed(c, trial), h.brain.turn_boost);
  std::vector<Vec3> out;
  Vec3 pos = from;
  float heading = h.heading;
  float s = v;
  const int32_t max_steps = k * n;
  for (int32_t step = 1; step <= max_steps; ++step) {
    if (s == 0.0f) {
      s = trial < kFirstSpeed ? trial : kFirstSpeed;  // from rest: min(trial, 2)
    } else if (s > trial) {
      const float d = s - kBrake * kDt;
      s = d > trial ? d : trial;
    } else if (s < trial) {
      const bool far = trial - s > kFarShort;
      float u = s + kAccel * kDt;
      if (far) u = u + (kAccelFar - kAccel) * kDt;  // +24 more while over 2 m/s short
      s = u < trial ? u : trial;
    }
    const float dx0 = to.x - pos.x, dy0 = to.y - pos.y;
    if (dx0 != 0.0f || dy0 != 0.0f) heading = angle::turn_toward(heading, angle::heading_of(dx0, dy0), turn);
    float fx = 0, fy = 0;
    angle::dir_of(heading, &fx, &fy);
    const float len = s * kDt;
    pos.x = pos.x + fx * len;
    pos.y = pos.y + fy * len;
    const bool record = step % k == 0;
    const float dx = to.x - pos.x, dy = to.y - pos.y;
    const bool aligned = (dx == 0.0f && dy == 0.0f) ||
                         absf(angle::heading_delta(heading, angle::heading_of(dx, dy))) < kHeadingDoneRad;
    const bool near = dx * dx + dy * dy <= len * len;
    if (record || aligned || near) out.push_back(pos);
    if (aligned || near || static_cast<int32_t>(out.size()) >= n) break;
  }
  return out;
}

// ------------------------------------------------------------ MoveMelee

int32_t WarriorsModel::melee_start(int32_t slot, Action& a) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  const int64_t limit = static_cast<int64_t>(state_.clock.now_ms) + a.limit_ms;  // the limit becomes now + limit
  a.limit_ms = limit > INT32_MAX ? INT32_MAX : static_cast<int32_t>(limit);
  if (a.no_stance) h.fight_stance = 0;            // a "no stance" human leaves the fight stance
  a.saved_boost = h.brain.turn_boost;             // the turn boost is saved
  a.radial = 0;
  a.side = 0;
  return 0;
}

int32_t WarriorsModel::sector_of(const Human& owner, Vec3 point) {
  // Human_GetSectorOf (0x0029eb38): bearing minus heading wrapped to [0, 2 pi); sector k centred on k x 45 deg.
  const float dx = point.x - owner.position.x, dy = point.y - owner.position.y;
  return sector_of_relative(angle::wrap_2pi(angle::heading_of(dx, dy) - owner.heading));
}

int32_t WarriorsModel::sector_of_relative(float rel) {
  rel = angle::wrap_2pi(rel);
  const float half = angle::deg_to_rad(22.5f);
  const float sect = angle::deg_to_rad(45.0f);
  // A bearing exactly on an edge goes to the lower index on the right half (0 to pi) and to the
  // higher index on the left half. Both conversions below are defined: points and positions are
  // within the state's bound (docs/warriors.md, "Limits"), so dx and dy are finite, and wrap_2pi
  // takes any finite difference of headings into [0, 2 pi); the quotients lie in [-0.5, 8.5].
  if (rel <= dmath::kPi) {
    const float q = (rel - half) / sect;
    int32_t k = static_cast<int32_t>(q);  // truncation toward 0; q >= -0.5 here
    if (static_cast<float>(k) < q) ++k;   // the ceiling: an edge stays in the lower sector
    return k & 7;
  }
  const int32_t k = static_cast<int32_t>((rel + half) / sect);  // the floor: an edge goes to the higher sector
  return k & 7;
}

const Sectors& WarriorsModel::sectors_of(int32_t slot, int32_t max_age_ms) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Sectors& s = h.sectors;
  const int32_t now = state_.clock.now_ms;
  if (now < s.time_ms + max_age_ms) return s;
  // Sectors_Update (0x0029e5d8).
  // 1. The owner's heading at +0x40; every sector the null handle, count 0, probe byte 1.
  s.heading = h.heading;
  std::array<float, 8> best{};
  for (auto& sec : s.sector) sec = Sector{};
  // 2.-3. Up to 60 humans within 1.5 m in every direction (Humans_FindAhead, mask 1: every slot in
  //    use but the owner, downed and busy ones included); each counts in his sector, the nearest is
  //    the handle.
  for (uint32_t j = 0; j < kSlots; ++j) {
    if (static_cast<int32_t>(j) == slot || !state_.humans[j].in_use) continue;
    const float d2 = dist_sq(state_.humans[j].position, h.position);
    if (d2 > kSectorRange * kSectorRange) continue;
    const int32_t k = sector_of(h, state_.humans[j].position);
    Sector& sec = s.sector[static_cast<std::size_t>(k)];
    ++sec.count;
    if (sec.nearest < 0 || d2 < best[static_cast<std::size_t>(k)]) {
      sec.nearest = static_cast<int32_t>(j);
      best[static_cast<std::size_t>(k)] = d2;
    }
  }
  // 4. The flags from the nearest's d2: 3 below 1.5, 1 below 2.5 (metres against a squared distance,
  //    as the code); an empty sector 0, which clears bit 4 too.
  for (std::size_t k = 0; k < 8; ++k) {
    Sector& sec = s.sector[k];
    if (sec.nearest < 0) continue;
    sec.flags = best[k] < kSectorVeryCloseSq ? (kSecNear | kSecVeryClose) : (best[k] < kSectorNearSq ? kSecNear : 0);
  }
  // 5. Bit 8 (the owner an AI, human +0x1b0 = -1): each player not busy, within 5.5 m, not the owner's
  //    target nor his target's target, whose own target is neither the owner nor the owner's target.
  if (h.is_ai && !h.has_pad) {
    const int32_t tgt = h.brain.target;
    const int32_t tgt2 = tgt >= 0 ? state_.humans[static_cast<std::size_t>(tgt)].brain.target : -1;
    for (uint32_t j = 0; j < kSlots; ++j) {
      const Human& p = state_.humans[j];
      const auto pj = static_cast<int32_t>(j);
      if (pj == slot || !p.in_use || !p.has_pad) continue;
      if (busy(p)) continue;
      if (dist_sq(p.position, h.position) > kSectorPlayerRangeSq) continue;  // G4: within, inclusive
      if (pj == tgt || (tgt2 >= 0 && pj == tgt2)) continue;
      const int32_t his = p.brain.target;
      if (his >= 0 && (his == slot || his == tgt)) continue;
      s.sector[static_cast<std::size_t>(sector_of(h, p.position))].flags |= kSecPlayer;
    }
  }
  // 6. The time.
  s.time_ms = now;
  return s;
}

int32_t WarriorsModel::pick_side(int32_t slot, const Action& a) {
  // MoveMeleeAction_PickSide (0x002fd158) over the sector record, at most 1 s old, through
  // Sectors_IsFree and Sectors_GetCost (the wall probe runs on first use).
  sectors_of(slot, kSectorMaxAgeMs);
  auto is_free = [&](int32_t k) { return sectors_is_free(slot, k); };
  auto cost = [&](int32_t k) { return sectors_cost(slot, k); };
  // Keep circling while the sector the mover is heading into is free (A23): the sector of his aim
  // +0x90, the point 2 m along last update's move, when that move went to one side.
  const Human& me = state_.humans[static_cast<std::size_t>(slot)];
  const float ax = me.brain.aim.x - me.position.x, ay = me.brain.aim.y - me.position.y;
  if (ax != 0.0f || ay != 0.0f) {
    const int32_t k = sector_of(me, me.brain.aim);
    if (k >= 1 && k <= 3 && is_free(k)) return 2;
    if (k >= 5 && k <= 7 && is_free(k)) return 6;
  }
  const bool f2 = is_free(2), f6 = is_free(6);
  const Human& t = state_.humans[static_cast<std::size_t>(a.target)];
  if (f2 && f6) return t.side_flag ? 6 : 2;  // both free: the side by the human's flag 0x10000
  if (f2 != f6) return f2 ? 2 : 6;
  const int32_t c2 = cost(2), c6 = cost(6);
  if (c2 < c6) return 2;
  if (c6 < c2) return 6;
  return 8;  // the same cost: straight in (the rear-grab case is part 3's, A23)
}

int32_t WarriorsModel::melee_update(int32_t slot, Action& a) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  const ClassSpec& c = class_of(h);
  const Human& t = state_.humans[static_cast<std::size_t>(a.target)];
  const int32_t now = state_.clock.now_ms;
  // 1. Done while in a standing reaction, or when the human is no longer up.
  if (h.reacting || !t.in_use || t.down) {
    ++counters_.melee_done;
    return 2;
  }
  const float d2 = dist_sq(h.position, t.position);
  const bool in_time = now < a.limit_ms;
  // 2. The radial counter.
  if (a.radial == 0 && in_time) {
    if (d2 < a.near_sq) {
      a.radial = -kMeleeCount;
    } else if (d2 > a.far_sq) {
      a.radial = kMeleeCount;
      if (d2 <= c.melee_far * c.melee_far) b.turn_boost = static_cast<int8_t>(b.turn_boost + 1);  // A20: a byte
    }
  }
  // 3. The side.
  if (a.side == 0 && in_time) {
    const int32_t side = pick_side(slot, a);
    if (side == 2) {
      a.side = kMeleeCount;
      a.radial = 0;
    } else if (side == 6) {
      a.side = -kMeleeCount;
      a.radial = 0;
    }
  }
  // 4. The move direction and gait.
  Vec3 dir{};
  int32_t gait = kStand;
  const float tx = t.position.x - h.position.x, ty = t.position.y - h.position.y;
  const float tl = dmath::sqrt(tx * tx + ty * ty);
  const Vec3 toward = tl > 0.0f ? Vec3{tx / tl, ty / tl, 0.0f} : Vec3{};
  if (a.radial > 0) {
    dir = toward;
    gait = a.no_stance ? kWalk : kRun;
    --a.radial;
  } else if (a.radial < 0) {
    dir = toward * -1.0f;
    gait = kWalk;
    ++a.radial;
  }
  if (a.side != 0) {
    const Vec3 r = right_of(h.heading);
    dir = a.side > 0 ? dir + r : dir - r;
    if (gait < kWalk) gait = kWalk;
    a.side += a.side > 0 ? -1 : 1;
  }
  const float dl = dmath::sqrt(dir.x * dir.x + dir.y * dir.y);
  if (dl > 0.0f) dir = Vec3{dir.x / dl, dir.y / dl, 0.0f};  // A21: a unit direction
  // 5. Done when in the band, the side counter 0 and |radial| < 6; after the limit once both are 0.
  const bool band = d2 >= a.near_sq && d2 <= a.far_sq;
  if ((band && a.side == 0 && a.radial > -kMeleeRadialDone && a.radial < kMeleeRadialDone) ||
      (!in_time && a.side == 0 && a.radial == 0)) {
    ++counters_.melee_done;
    return 2;
  }
  // 6. The heading, the aim, the strafe and the gait.
  if (a.no_stance) {
    b.move_heading = dl > 0.0f ? angle::heading_of(dir.x, dir.y) : h.heading;
  } else {
    b.move_heading = tl > 0.0f ? angle::heading_of(tx, ty) : h.heading;
  }
  b.aim = h.position + dir * 2.0f;
  b.aim_radius = 0.0f;
  b.strafe = a.no_stance ? 0 : 1;
  set_move_gait(slot, gait);
  return 0;
}

}  // namespace lockstep::warriors
