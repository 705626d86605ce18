// seed 002, Route (the part without the routing grid), lanes and Recovery.
//
// plan_path() asks the floor's 0.7 m routing grid (core/station/grid.h,
// NavGrid::find_path) for the corners to the next anchor (a scenario waypoint
// or the destination's goal point).
#include <algorithm>

#include "station/station.h"

namespace lockstep::station {

std::vector<V2> StationModel::plan_path(uint32_t floor, V2 from, V2 to, float radius) const {
  // seed 002, Route: the 0.7 m grid's path round obstacles, holes and voids, with the wall comfort cost
  // and the straight cuts that keep the body clear (grid.h, docs/station-grid.md). Its first point is
  // `from` (or its snap onto the grid), its last `to` (or its snap). No path: the straight line, so the
  // walker still drives and recovery can act.
  std::vector<V2> p = grids_[floor]->find_path(from, to, radius);
  if (p.size() < 2) return {to};
  p.erase(p.begin());
  return p;
}

V2 StationModel::portal_goal(uint32_t portal, V2 from) const {
  // "The target is the nearest part of a portal" (S6: nudged 0.3 m toward the
  // portal's corner mean, so the body ends inside and arrival is reached).
  const Polygon& poly = scenario_.portals[portal].polygon;
  const V2 q = closest_on_boundary(poly, from);
  const V2 c = portals_[portal].centre;
  const V2 to_c = c - q;
  const float d = length(to_c);
  if (!(d > 1e-6f)) return q;
  const float step = d < 0.3f ? d : 0.3f;
  return q + to_c * (step / d);
}

bool StationModel::segment_clear(uint32_t floor, V2 a, V2 b, float radius) const {
  const FloorGeom& fl = floors_[floor];
  const CellGrid& gr = fl.wall_grid;
  const float r2 = radius * radius;
  const int32_t x0 = gr.cx(std::min(a.x, b.x) - radius), x1 = gr.cx(std::max(a.x, b.x) + radius);
  const int32_t y0 = gr.cy(std::min(a.y, b.y) - radius), y1 = gr.cy(std::max(a.y, b.y) + radius);
  for (int32_t y = y0; y <= y1; ++y)
    for (int32_t x = x0; x <= x1; ++x) {
      const std::size_t c = static_cast<std::size_t>(y) * static_cast<std::size_t>(gr.nx) + static_cast<std::size_t>(x);
      for (uint32_t k = gr.start[c]; k < gr.start[c + 1]; ++k) {
        const Wall& w = fl.walls[gr.items[k]];
        if (segment_sqr_distance(a, b, w.a, w.b) < r2 || (radius == 0.0f && segments_cross(a, b, w.a, w.b))) return false;
      }
    }
  return true;
}

void StationModel::start_route(uint32_t w) {
  state_.routes[w].next_anchor = 0;
  rebuild_path(w);
}

void StationModel::rebuild_path(uint32_t w) {
  Walker& wk = state_.walkers[w];
  Route& rt = state_.routes[w];
  const bool to_goal = rt.next_anchor >= rt.anchors.size();
  const V2 to = to_goal ? portal_goal(wk.destination, wk.pos) : rt.anchors[rt.next_anchor];
  rt.waypoints = plan_path(wk.floor, wk.pos, to, wk.radius);
  if (rt.waypoints.empty()) rt.waypoints.push_back(to);
  rt.next = 0;
  begin_leg(w);
}

void StationModel::begin_leg(uint32_t w) {
  Walker& wk = state_.walkers[w];
  Route& rt = state_.routes[w];
  rt.leg_start = wk.pos;
  wk.recheck_s = kLegRecheckS;
  wk.stuck_s = 0.0f;
  wk.slack_left = wk.slack_right = 0.0f;
  const V2 corner = rt.waypoints[rt.next];
  wk.progress_ref = length(corner - wk.pos);
  // seed 002, Route: "the widest shift of the corner point, among 1.5, 1.1,
  // 0.75, 0.45 and 0.2 m, for which the straight walk from the start of the leg
  // to the shifted point keeps the body and the 0.35 m comfort gap off every
  // wall, plus half a nav cell", up to 1.5 m; "next to a wall the slack on that
  // side is zero".
  const V2 u = unit(corner - wk.pos);
  if (u == V2{}) return;
  const V2 nl = left_of(u);
  const float clear = wk.radius + kWallComfort;
  for (int side = 0; side < 2; ++side) {
    const float sgn = side == 0 ? 1.0f : -1.0f;
    float slack = 0.0f;
    for (float s : kSlackShifts)
      if (segment_clear(wk.floor, wk.pos, corner + nl * (sgn * s), clear)) {
        slack = s + kNavCell * 0.5f;
        break;
      }
    slack = slack > kMaxSlack ? kMaxSlack : slack;
    (side == 0 ? wk.slack_left : wk.slack_right) = slack;
  }
}

// One walker's route for this tick: waypoints, the leg re-check, the lane
// drive point, progress and the recovery decision. Writes only this walker's
// own route and plan fields (never pos or vel: a recovery's sideways velocity
// is returned in `kick` and applied after every walker has planned).
void StationModel::plan_walker(uint32_t w, std::vector<uint8_t>& kick) {
  Walker& wk = state_.walkers[w];
  Route& rt = state_.routes[w];
  auto goal_leg = [&] { return rt.next + 1 >= rt.waypoints.size() && rt.next_anchor >= rt.anchors.size(); };
  auto corner_now = [&] { return goal_leg() ? portal_goal(wk.destination, wk.pos) : rt.waypoints[rt.next]; };

  // Waypoints: "A waypoint the walker has already passed (within 1.5 m) counts
  // as reached" (S7: or any within 0.5 m). The goal is reached by arrival only.
  if (!goal_leg()) {
    const V2 c = rt.waypoints[rt.next];
    const float d2 = sqr_length(c - wk.pos);
    const bool passed = dot(wk.pos - c, c - rt.leg_start) >= 0.0f;
    if (d2 <= kTouchWaypoint * kTouchWaypoint || (passed && d2 <= kPassedWaypoint * kPassedWaypoint)) {
      ++rt.next;
      if (rt.next >= rt.waypoints.size()) {
        ++rt.next_anchor;  // a scenario waypoint reached: plan on to the next anchor
        rebuild_path(w);
      } else {
        begin_leg(w);
      }
    }
  }
  V2 corner = corner_now();

  // "Every 0.5 s the leg to the current waypoint is re-checked. If a crowd has
  // pushed the walker so that the leg now clips a wall or void, the path is
  // rebuilt" (S14: clips = half the body radius along the leg touches a wall).
  wk.recheck_s -= kDt;
  if (wk.recheck_s <= 0.0f) {
    wk.recheck_s = kLegRecheckS;
    if (!segment_clear(wk.floor, wk.pos, corner, wk.radius * 0.5f)) {
      // A rebuild that gives the same corner is no new leg: the stuck timer runs on.
      const float stuck = wk.stuck_s, ref = wk.progress_ref;
      rebuild_path(w);
      ++state_.stats.rebuilt_paths;
      const V2 again = corner_now();
      if (again == corner) {
        wk.stuck_s = stuck;
        wk.progress_ref = ref;
        wk.recheck_s = kLegRecheckS;
      }
      corner = again;
    }
  }

  // Lanes: aim at the corner shifted by the walker's share of this leg's slack;
  // a leg into the goal closes the shift over its last 6 m.
  V2 drive = corner;
  if (wk.lane_share != 0.0f) {
    const V2 u = unit(rt.waypoints[rt.next] - rt.leg_start);
    const float slack = wk.lane_share > 0.0f ? wk.slack_left : wk.slack_right;
    float shift = wk.lane_share * slack;
    if (goal_leg()) {
      const float d = length(corner - wk.pos);
      if (d < kLaneCloseM) shift = shift * (d / kLaneCloseM);
    }
    drive = corner + left_of(u) * shift;
  }
  wk.drive = drive;

  // The muted obstacle of a recovery runs out.
  if (wk.ignore_blocker >= 0) {
    wk.ignore_s -= kDt;
    if (wk.ignore_s <= 0.0f) {
      wk.ignore_s = 0.0f;
      wk.ignore_blocker = -1;
    }
  }

  // seed 002, Recovery: "Progress is the distance to the current drive point.
  // If a walking body makes no progress for unstick_s (default 3 s), or creeps
  // in a hall for that long" (S9: progress = 0.3 m closer than the best so far).
  const float d = length(drive - wk.pos);
  if (d < wk.progress_ref - kProgressStep) {
    wk.progress_ref = d;
    wk.stuck_s = 0.0f;
  } else {
    wk.stuck_s += kDt;
  }
  if (wk.stuck_s >= scenario_.unstick_s) {
    // "the nearest hole or obstacle is ignored for 1.6 s (the soft wall force
    // only ...), velocity is set sideways, and the path is rebuilt."
    const FloorGeom& fl = floors_[wk.floor];
    float best = -1.0f;
    int32_t which = -1;
    V2 at{};
    for (uint32_t k = wall_start_[w]; k < wall_start_[w + 1]; ++k) {
      const Wall& wl = fl.walls[wall_items_[k]];
      if (wl.kind != WallKind::Obstacle && wl.kind != WallKind::Hole) continue;  // voids are never ignored
      const V2 q = closest_on_segment(wk.pos, wl.a, wl.b);
      const float dd = sqr_length(q - wk.pos);
      if (best < 0.0f || dd < best) {
        best = dd;
        which = wl.blocker;
        at = q;
      }
    }
    if (which >= 0) {
      wk.ignore_blocker = which;
      wk.ignore_s = kIgnoreObstacleS;
    }
    // Sideways: away from the obstacle's nearest point, else to the keep side (S15).
    const V2 e = unit(drive - wk.pos);
    float side = keep_right_ ? -1.0f : 1.0f;  // -1: right of the heading
    if (which >= 0) side = cross(e, at - wk.pos) > 0.0f ? -1.0f : 1.0f;
    kick[w] = side > 0.0f ? 1 : 2;
    ++wk.unsticks;
    ++state_.stats.unsticks;
    rebuild_path(w);
    ++state_.stats.rebuilt_paths;
    wk.drive = corner_now();
    wk.progress_ref = length(wk.drive - wk.pos);
    wk.stuck_s = 0.0f;
  }
}

}  // namespace lockstep::station
