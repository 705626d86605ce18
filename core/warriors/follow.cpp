// The warriors model, part 2: the route request and route following (seed 000,
// "Path planning" steps 1-3, "Following a route"; supplement, "Waypoint claims").
// Choices where the seed is silent: docs/spec-notes.md, rows N1-.
#include <algorithm>

#include "lockstep/core/angle.h"
#include "warriors/navgeom.h"
#include "warriors/warriors.h"

namespace lockstep::warriors {

namespace {
float dist_sq3(Vec3 a, Vec3 b) { return sqr_length(a - b); }
}  // namespace

int32_t WarriorsModel::find_area(Vec3 p) const {
  if (level().empty()) return 0;
  return NavGeom(level(), state_.nav).find_area(p);
}

int32_t WarriorsModel::human_area(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  if (level().empty()) return 0;
  if (h.nav_area >= 0 && h.nav_point == h.position) return h.nav_area;  // the cache at +0x1b4 / +0x2b0
  h.nav_area = NavGeom(level(), state_.nav).find_area_with_fallbacks(h.position);
  h.nav_point = h.position;
  return h.nav_area;
}

bool WarriorsModel::can_walk_straight(int32_t slot, Vec3 p) {
  if (level().empty()) return true;
  const int32_t area = human_area(slot);
  if (area < 0) return false;
  return NavGeom(level(), state_.nav).walkable_line(area, state_.humans[static_cast<std::size_t>(slot)].position, p, 0);
}

bool WarriorsModel::line_clear(Vec3 a, Vec3 b) const {
  if (level().empty()) return true;
  const NavGeom g(level(), state_.nav);
  const int32_t area = g.find_area(a);
  return area >= 0 && g.walkable_line(area, a, b, 0);
}

void WarriorsModel::set_door_open(uint32_t number, bool open) {
  for (std::size_t d = 0; d < level().doors.size(); ++d)
    if (level().doors[d].number == number) set_door(level(), state_.nav, static_cast<int32_t>(d), open);
}

// ------------------------------------------------------------ claims

bool WarriorsModel::claim_waypoint(int32_t slot, uint16_t node) {
  // Supplement: while another human holds the node, the nearer of the two (to the node) keeps it;
  // the other is refused for this update.
  const Vec3 np = level().nodes[node].position;
  const Vec3 me = state_.humans[static_cast<std::size_t>(slot)].position;
  int32_t free_slot = -1;
  for (uint32_t k = 0; k < kClaimSlots; ++k) {
    Claim& c = state_.nav.claims[k];
    if (c.node == node) {
      if (c.human == slot) return true;
      const Vec3 other = state_.humans[static_cast<std::size_t>(c.human)].position;
      if (dist_sq3(me, np) < dist_sq3(other, np)) {
        c.human = slot;  // the nearer takes it over (N2: strictly nearer; a tie keeps the holder)
        return true;
      }
      return false;
    }
    if (c.node < 0 && free_slot < 0) free_slot = static_cast<int32_t>(k);
  }
  if (free_slot < 0) return false;  // N3: a full table refuses
  state_.nav.claims[static_cast<std::size_t>(free_slot)] = Claim{node, slot};
  return true;
}

void WarriorsModel::release_claims(int32_t slot) {
  for (auto& c : state_.nav.claims)
    if (c.human == slot) c = Claim{};
}

// ------------------------------------------------------------ the route

void WarriorsModel::release_route(int32_t slot) {
  RouteState& rs = state_.humans[static_cast<std::size_t>(slot)].brain.route;
  if (rs.route >= 0) route_free(level(), state_.nav, rs.route);
  const int32_t mask = rs.mask;
  rs = RouteState{};
  rs.mask = mask;
}

uint16_t WarriorsModel::leg_flags(int32_t route, int32_t i) const {
  const Route& r = state_.nav.routes[static_cast<std::size_t>(route)];
  if (i <= 0 || i >= r.count) return 0;
  const NavNode& to = level().nodes[r.nodes[static_cast<std::size_t>(i)]];
  for (const auto& l : to.links)
    if (l.from == r.nodes[static_cast<std::size_t>(i - 1)]) return l.kind;
  return 0;
}

bool WarriorsModel::leg_avoided(int32_t route, int32_t i) const {
  const Route& r = state_.nav.routes[static_cast<std::size_t>(route)];
  if (i <= 0 || i >= r.count) return false;
  const NavNode& to = level().nodes[r.nodes[static_cast<std::size_t>(i)]];
  for (std::size_t k = 0; k < to.links.size(); ++k)
    if (to.links[k].from == r.nodes[static_cast<std::size_t>(i - 1)])
      return link_avoided(level(), state_.nav, static_cast<uint32_t>(to.first_link) + static_cast<uint32_t>(k));
  return false;
}

int32_t WarriorsModel::route_request(int32_t slot, Vec3 point) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  if (level().empty()) return 0;
  const NavGeom g(level(), state_.nav);
  // 1. The human's polygon (with the fallbacks); none -> +0x284 = 1.
  const int32_t start_area = human_area(slot);
  if (start_area < 0) {
    b.fail_reason = kFailNoRoute;
    return 2;
  }
  // 2. Straight line first: no route; the destination's area is Nav_FindArea of the point itself.
  if (g.walkable_line(start_area, h.position, point, 0)) {
    if (g.find_area(point) < 0) {
      b.fail_reason = kFailNoRoute;
      return 2;
    }
    return 0;
  }
  // 3. Both ends in one polygon, or both on the graph; each end's node the nearest of its polygon's
  //    nodes it reaches in a straight line, trying up to 30 by distance.
  const int32_t dest_area = g.find_area(point);  // a destination in a hole has no fallback
  if (dest_area < 0) {
    b.fail_reason = kFailNoRoute;
    return 2;
  }
  if (dest_area != start_area &&
      (level().areas[static_cast<std::size_t>(start_area)].graph == 0 || level().areas[static_cast<std::size_t>(dest_area)].graph == 0)) {
    b.fail_reason = kFailNoRoute;
    return 2;
  }
  auto nearest_node = [&](int32_t area, Vec3 p) -> int32_t {
    const NavArea& a = level().areas[static_cast<std::size_t>(area)];
    // The area's nodes by distance (3D squared; a stable order: equal distances by index).
    std::vector<std::pair<float, int32_t>> by;
    for (int32_t k = 0; k < a.node_count; ++k) {
      const int32_t n = a.first_node + k;
      by.emplace_back(dist_sq3(p, level().nodes[static_cast<std::size_t>(n)].position), n);
    }
    std::stable_sort(by.begin(), by.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = 0; k < by.size() && k < kNodeSearchMax; ++k)
      if (g.node_line(area, p, level().nodes[static_cast<std::size_t>(by[k].second)].position)) return by[k].second;
    return -1;
  };
  const int32_t sn = nearest_node(start_area, h.position);
  const int32_t dn = nearest_node(dest_area, point);
  if (sn < 0 || dn < 0) {
    b.fail_reason = kFailNoRoute;
    return 2;
  }
  // 4./5. The search (Route_Find: from the destination's node to the start's).
  // The C records' search fields live in the state (N10); the search works on a copy.
  scratch_.resize(level().nodes.size());
  scratch_.f = state_.nav.node_f;
  scratch_.g = state_.nav.node_g;
  scratch_.h = state_.nav.node_h;
  scratch_.parent = state_.nav.node_parent;
  const AStarResult res = route_find(level(), state_.nav, scratch_, static_cast<uint16_t>(sn), static_cast<uint16_t>(dn),
                                     static_cast<uint16_t>(b.route.mask));
  state_.nav.node_f = scratch_.f;
  state_.nav.node_g = scratch_.g;
  state_.nav.node_h = scratch_.h;
  state_.nav.node_parent = scratch_.parent;
  if (!res.found) {
    b.fail_reason = kFailNoRoute;
    return 2;
  }
  // 6. Building.
  const LineTest line = [&](Vec3 from, int32_t from_area, uint16_t to) {
    return from_area >= 0 && g.walkable_line(from_area, from, level().nodes[to].position, 0);
  };
  const int32_t slot_r = route_build(level(), state_.nav, scratch_, static_cast<uint16_t>(sn), static_cast<uint16_t>(dn),
                                     h.position, start_area, point, dest_area, line);
  if (slot_r < 0) {
    b.fail_reason = kFailNoRoute;
    return 2;
  }
  // RouteState_Init: the first waypoint current, held cleared.
  release_route(slot);
  RouteState& rs = b.route;
  rs.route = slot_r;
  rs.index = 0;
  rs.radius = 0.25f;
  rs.held = 0;
  const Route& r = state_.nav.routes[static_cast<std::size_t>(slot_r)];
  b.aim = level().nodes[r.nodes[0]].position;
  b.aim_radius = rs.radius;
  return 1;
}

bool WarriorsModel::skip_reachable(int32_t slot, int32_t i) {
  const RouteState& rs = state_.humans[static_cast<std::size_t>(slot)].brain.route;
  const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
  if (i < 0 || i >= r.count - 1) return false;  // not the last waypoint
  const uint16_t in = i == 0 ? kLinkWalk : leg_flags(rs.route, i);  // a kind-1 link for i = 0
  const uint16_t out = leg_flags(rs.route, i + 1);
  if ((in & 3) == 0 || (out & 3) == 0) return false;
  // The turn test (0x0029b56c-0x0029b654) compares a leg with itself: the cosine is 1, it never
  // refuses, and a port must not add a limit.
  return can_walk_straight(slot, level().nodes[r.nodes[static_cast<std::size_t>(i + 1)]].position);
}

bool WarriorsModel::route_advance(int32_t slot) {
  Brain& b = state_.humans[static_cast<std::size_t>(slot)].brain;
  RouteState& rs = b.route;
  rs.leg_new = 1;
  rs.move_on = 0;
  rs.held = 0;
  rs.skip = 0;
  rs.climb_fails = 0;
  ++rs.index;
  const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
  while (rs.index < r.count && skip_reachable(slot, rs.index)) ++rs.index;
  if (rs.index >= r.count) {
    release_route(slot);  // past the last waypoint: go on straight to the destination
    return false;
  }
  if ((leg_flags(rs.route, rs.index) & kLinkJump) == 0) release_claims(slot);  // kept over kind 4
  rs.radius = 0.25f;
  b.aim = level().nodes[r.nodes[static_cast<std::size_t>(rs.index)]].position;
  b.aim_radius = 0.25f;
  return true;
}

bool WarriorsModel::leg_clear(int32_t slot, int32_t n) {
  const Human& me = state_.humans[static_cast<std::size_t>(slot)];
  const RouteState& rs = me.brain.route;
  const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
  if (n <= 0 || n >= r.count) return true;
  const uint16_t kind = leg_flags(rs.route, n);
  const Vec3 a = level().nodes[r.nodes[static_cast<std::size_t>(n - 1)]].position;
  const Vec3 b = level().nodes[r.nodes[static_cast<std::size_t>(n)]].position;
  float fx = 0, fy = 0;
  angle::dir_of(me.heading, &fx, &fy);
  for (uint32_t j = 0; j < kSlots; ++j) {
    if (static_cast<int32_t>(j) == slot) continue;
    const Human& o = state_.humans[j];
    if (!o.in_use || o.down) continue;  // friendly (everyone here, N12), not cuffed, not knocked out
    bool found = false;
    if (kind & kLinkJump) {
      // Humans_FindNearSegment(1.0, 2.0): within 1 m in plan of the segment n-1 -> n and 2 m in height;
      // only one within 4 m in plan of the follower and ahead of him counts.
      const float sx = b.x - a.x, sy = b.y - a.y;
      const float len2 = sx * sx + sy * sy;
      float t = len2 > 0.0f ? ((o.position.x - a.x) * sx + (o.position.y - a.y) * sy) / len2 : 0.0f;
      t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
      const float px = a.x + sx * t - o.position.x, py = a.y + sy * t - o.position.y, pz = a.z + (b.z - a.z) * t - o.position.z;
      const float dx = o.position.x - me.position.x, dy = o.position.y - me.position.y;
      found = px * px + py * py <= 1.0f && (pz < 0.0f ? -pz : pz) <= 2.0f && dx * dx + dy * dy <= 16.0f &&
              dx * fx + dy * fy >= 0.0f;
    } else if (kind & kLinkLedge) {
      found = dist_sq3(o.position, b) <= 0.25f;  // Humans_FindAhead(0.5): within 0.5 m of waypoint n
    } else {
      return true;  // other kinds are never busy
    }
    if (!found) continue;
    // The first found decides: moving (a MoveTo in front with a speed) -> blocked, no push; otherwise
    // Brain_PushAside(the follower, him, his position, the leg's direction) and blocked.
    const bool moving = o.is_ai && o.brain.queue_count > 0 && o.brain.queue[0].type == 1 && o.brain.move_speed > 0.0f;
    if (!moving) {
      Vec3 dir{};
      if (kind & kLinkJump) dir = b - a;                 // unit(waypoint i - waypoint i - 1)
      else dir = b - me.position;                        // unit(waypoint i - his position)
      const float l = dmath::sqrt(dir.x * dir.x + dir.y * dir.y);
      dir = l > 0.0f ? Vec3{dir.x / l, dir.y / l, 0.0f} : Vec3{};
      push_aside(slot, static_cast<int32_t>(j), me.position, dir);
    }
    return false;
  }
  return true;
}

void WarriorsModel::charge_break(int32_t slot) {
  // The current waypoint was entered by a charge (0x40) still marked avoided: its door or pane breaks
  // open, as an opened door (flag 8 on its hole, the link's avoid bit no longer counted).
  const RouteState& rs = state_.humans[static_cast<std::size_t>(slot)].brain.route;
  if (!(leg_flags(rs.route, rs.index) & kLinkCharge) || !leg_avoided(rs.route, rs.index)) return;
  const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
  const NavNode& to = level().nodes[r.nodes[static_cast<std::size_t>(rs.index)]];
  for (const auto& l : to.links)
    if (l.from == r.nodes[static_cast<std::size_t>(rs.index - 1)] && l.door != 0) set_door_open(l.door, true);
}

bool WarriorsModel::climb_try_start(int32_t slot, int32_t n, uint16_t kind) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  const Route& r = state_.nav.routes[static_cast<std::size_t>(h.brain.route.route)];
  const Vec3 far = level().nodes[r.nodes[static_cast<std::size_t>(n)]].position;
  const float dx = far.x - h.position.x, dy = far.y - h.position.y;
  // N11: the forward probes find the climbable face when the far node is within reach in plan.
  if (dx * dx + dy * dy > kClimbReach * kClimbReach) return false;
  h.action = kActClimb;
  h.clip = 0;
  h.speed = 0.0f;
  h.leg_from = h.position;
  h.leg_to = far;
  h.leg_vz = 0.0f;
  h.leg_elapsed = 0;
  h.leg_updates = kClimbUpdates;
  h.brain.route.state = (kind & kLinkClimb) ? 3 : 4;
  h.brain.route.leg_new = 0;  // "Once a climb has started (+0x12 = 0)"
  h.brain.arrived = 1;
  return true;
}

int32_t WarriorsModel::jump_leg(int32_t slot) {
  // Supplement, Jump legs: the take-off is where the human stands; the landing point is it projected
  // onto the line through the landing node and its pair (not clamped), or the node itself.
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  RouteState& rs = h.brain.route;
  const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
  const NavNode& land = level().nodes[r.nodes[static_cast<std::size_t>(rs.index)]];
  Vec3 to = land.position;
  if (land.pair != kNoNode) {
    const Vec3 q = level().nodes[land.pair].position;
    const Vec3 d = q - land.position;
    const float dd = sqr_length(d);
    if (dd > 0.0f) {
      const Vec3 w = h.position - land.position;
      const float t = (w.x * d.x + w.y * d.y + w.z * d.z) / dd;
      to = land.position + d * t;
    }
  }
  const float dx = to.x - h.position.x, dy = to.y - h.position.y, dz = to.z - h.position.z;
  const float plan = dmath::sqrt(dx * dx + dy * dy);
  float vz = 0.0f, t = 0.0f;
  int32_t state = 1;
  const float tdrop = -dz > 0.0f ? dmath::sqrt(-dz / kJumpHalfG) : 0.0f;
  if (!leg_avoided(rs.route, rs.index) && tdrop > 0.0f && plan / tdrop < kJumpMaxPlanSpeed) {
    state = 2;  // a drop at horizontal speed D / t
    t = tdrop;
  } else {
    // A jump: vertical speeds 0.5, 1.25, 2.0, ... (up to 5.5), the first whose flight time t > 0 has
    // D / t <= 10 m/s. Flight time: the later root of dz = vz t - 7.84 t^2.
    bool ok = false;
    for (int32_t k = 0;; ++k) {
      vz = kJumpVzFirst + kJumpVzStep * static_cast<float>(k);
      if (vz > kJumpVzLast) break;
      const float disc = vz * vz - 4.0f * kJumpHalfG * dz;
      if (disc < 0.0f) continue;
      t = (vz + dmath::sqrt(disc)) / (2.0f * kJumpHalfG);
      if (t > 0.0f && plan / t <= kJumpMaxPlanSpeed) {
        ok = true;
        break;
      }
    }
    if (!ok) return 2;  // a refused jump ends the move, which is planned again
  }
  h.action = kActJump;
  h.clip = kClipJump;
  h.airborne = 1;
  h.leg_from = h.position;
  h.leg_to = to;
  h.leg_vz = state == 1 ? vz : 0.0f;
  h.leg_elapsed = 0;
  // The flight lasts t: whole updates, the last one landing (N12). The count is bounded in float before
  // the conversion (N26): within the world's bound t < 510 s (15,300 updates), but a level made in code
  // or a human restored far above one could ask for more than an int32 holds.
  float updates = t / kDt;
  if (!(updates < static_cast<float>(kMaxLegUpdates))) updates = static_cast<float>(kMaxLegUpdates);
  int32_t n = static_cast<int32_t>(updates);
  if (n < kMaxLegUpdates && static_cast<float>(n) * kDt < t) ++n;
  h.leg_updates = n < 1 ? 1 : n;
  h.speed = t > 0.0f ? plan / t : 0.0f;
  h.heading = (dx != 0.0f || dy != 0.0f) ? angle::heading_of(dx, dy) : h.heading;
  rs.state = state;
  rs.radius = kJumpLandRadius;
  ++counters_.jumps;
  return 0;
}

void WarriorsModel::leg_motion(int32_t slot) {
  // A climb moves evenly from its start to the far node; a jump or drop follows its parabola,
  // z = z0 + vz t - 7.84 t^2 with the plan motion even, and lands on its landing point (N12).
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  ++h.leg_elapsed;
  if (h.leg_elapsed >= h.leg_updates) {
    h.position = h.leg_to;
    h.action = kActNone;
    h.airborne = 0;
    h.speed = 0.0f;
    h.clip = kClipIdle;
    h.nav_area = -1;  // a new floor: Human_GetNavPolygon looks again
    return;
  }
  const float f = static_cast<float>(h.leg_elapsed) / static_cast<float>(h.leg_updates);
  const Vec3 d = h.leg_to - h.leg_from;
  h.position.x = h.leg_from.x + d.x * f;
  h.position.y = h.leg_from.y + d.y * f;
  if (h.action == kActJump) {
    const float t = static_cast<float>(h.leg_elapsed) * kDt;
    h.position.z = h.leg_from.z + h.leg_vz * t - kJumpHalfG * t * t;
  } else {
    h.position.z = h.leg_from.z + d.z * f;
  }
}

int32_t WarriorsModel::route_follow(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  RouteState& rs = b.route;
  // 1. State 5: the route is over. Otherwise the state goes back to 0 on every call. A jump or drop
  //    that has landed: within 1.5 m (3D) of the landing waypoint the action carries on at once (the
  //    route moves on), otherwise it ends and the route is planned again (supplement).
  if (rs.state == 5) return 2;
  if (rs.state == 1 || rs.state == 2) {
    const Route& r0 = state_.nav.routes[static_cast<std::size_t>(rs.route)];
    const Vec3 wp = level().nodes[r0.nodes[static_cast<std::size_t>(rs.index)]].position;
    if (dist_sq3(h.position, wp) > kJumpLandWithin * kJumpLandWithin) {
      rs.state = 0;
      return 2;
    }
    rs.move_on = 1;
  }
  rs.state = 0;
  // 2. The skip check: the 7th call tests the current waypoint.
  if (!rs.move_on) {
    if (rs.skip == 6) {
      if (skip_reachable(slot, rs.index)) rs.move_on = 1;
      rs.skip = 0;
    } else {
      ++rs.skip;
    }
  }
  // 3. Moving on. A charge leg being left was reached: the door or pane breaks open (N13). The new
  //    leg is read on the next call, not this one (N19: "the follower reads it on the update after
  //    0x0029b6d8 moves on"; supplement: "the jump starts on the update after the follower moves on").
  bool advanced = false;
  if (rs.move_on) {
    if (rs.leg_new && rs.index > 0) charge_break(slot);
    if (!route_advance(slot)) return 1;
    advanced = true;
  }
  const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
  const uint16_t node = r.nodes[static_cast<std::size_t>(rs.index)];
  // 4. The legs.
  const uint16_t in = leg_flags(rs.route, rs.index);
  const uint16_t out = leg_flags(rs.route, rs.index + 1);
  // 5. Claims and busy links (detail < 2): the claim, then the out link and the in link not busy.
  if (h.detail < 2) {
    const bool ok = claim_waypoint(slot, node) && leg_clear(slot, rs.index + 1) && leg_clear(slot, rs.index);
    if (!ok) {
      rs.held = 1;
      const Vec3 np = level().nodes[node].position;
      if (dist_sq3(h.position, np) <= 4.0f) {
        stop_move(slot);
        b.aim = np;
        b.aim_radius = 0.0f;
        return 0;
      }
    } else {
      rs.held = 0;
    }
  }
  // 6. A new leg: climbs and jumps before the avoid bit.
  if (rs.index > 0 && rs.leg_new && !advanced) {
    const Vec3 wp = level().nodes[node].position;
    if (in & (kLinkClimb | kLinkLedge)) {
      // The climb (0x0029b848): aim at the waypoint, turn the body to it, Climb_TryStart; else run on
      // at gait 4 and try again, giving up after 31 failed updates.
      const float dx = wp.x - h.position.x, dy = wp.y - h.position.y;
      b.aim = wp;
      b.aim_radius = rs.radius;
      if (dx != 0.0f || dy != 0.0f) {
        b.move_heading = angle::heading_of(dx, dy);
        h.heading = b.move_heading;  // 0x0021b100
      }
      b.strafe = 1;
      if (climb_try_start(slot, rs.index, in)) return 0;
      if (++rs.climb_fails >= kClimbMaxFails) return 2;
      set_move_gait(slot, kRun);
      return 0;
    }
    if (in & kLinkJump) return jump_leg(slot);
    if (leg_avoided(rs.route, rs.index)) {
      if (in & kLinkCharge) {
        // The charge (Route_SmashLeg): run at the breakable door or pane; reaching the waypoint breaks
        // it open (flag 8 on the door's hole, N13) and the route moves on.
        const float dx = wp.x - h.position.x, dy = wp.y - h.position.y;
        b.aim = wp;
        b.aim_radius = rs.radius;
        if (dx != 0.0f || dy != 0.0f) b.move_heading = angle::heading_of(dx, dy);
        set_move_gait(slot, kRun);
        if (dx * dx + dy * dy <= rs.radius * rs.radius) {
          charge_break(slot);
          rs.move_on = 1;
        }
        return 0;
      }
      b.fail_reason = (in & kLinkDoor) ? kFailDoor : kFailEdge;  // refused: 4 for a closed door
      return 2;
    }
    rs.leg_new = 0;
  }
  // 7. When out has 8 or 0x80: Route_TryClimbNear, the fast climber's early climb within 4.5 m (3D)
  //    of the next waypoint (gait above 3).
  if ((out & (kLinkClimb | kLinkLedge)) && h.fast_climber && h.gait > kJog && rs.index + 1 < r.count) {
    const Vec3 next = level().nodes[r.nodes[static_cast<std::size_t>(rs.index + 1)]].position;
    if (dist_sq3(h.position, next) <= kClimbNear * kClimbNear && climb_try_start(slot, rs.index + 1, out)) {
      route_advance(slot);
      rs.state = 3;  // Route_TryClimbNear: "on success the state is 3", a 0x80 ledge too
      rs.leg_new = 0;
      b.arrived = 1;
      return 0;
    }
  }
  return 1;
}

}  // namespace lockstep::warriors
