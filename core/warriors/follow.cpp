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

int32_t WarriorsModel::route_follow(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  RouteState& rs = b.route;
  // 1. State 5: the route is over. Otherwise the state goes back to 0 on every call.
  if (rs.state == 5) return 2;
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
  // 3. Moving on.
  if (rs.move_on && !route_advance(slot)) return 1;
  const Route& r = state_.nav.routes[static_cast<std::size_t>(rs.route)];
  const uint16_t node = r.nodes[static_cast<std::size_t>(rs.index)];
  // 4. The legs.
  const uint16_t in = leg_flags(rs.route, rs.index);
  const uint16_t out = leg_flags(rs.route, rs.index + 1);
  // 5. Claims and busy links (detail < 2). Busy links (kinds 4 and 0x80) are part 2b's (N5).
  if (h.detail < 2) {
    if (!claim_waypoint(slot, node)) {
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
  (void)out;
  // 6. A new leg.
  if (rs.index > 0 && rs.leg_new) {
    if (in & (kLinkClimb | kLinkLedge)) {
      // The climb handler (part 2b): refused for now (N5).
      b.fail_reason = kFailEdge;
      return 2;
    }
    if (in & kLinkJump) {
      // The jump handler (part 2b): refused for now (N5).
      b.fail_reason = kFailEdge;
      return 2;
    }
    if (leg_avoided(rs.route, rs.index)) {
      if (in & kLinkCharge) {
        b.fail_reason = kFailEdge;  // the charge (part 2b, N5)
        return 2;
      }
      b.fail_reason = (in & kLinkDoor) ? kFailDoor : kFailEdge;  // refused: 4 for a closed door
      return 2;
    }
    rs.leg_new = 0;
  }
  // 7. Route_TryClimbNear when out has 8 or 0x80 (part 2b); otherwise keep walking.
  return 1;
}

}  // namespace lockstep::warriors
