// seed 002, Route (the part without the routing grid), lanes and Recovery.
//
// plan_path() asks the floor's 0.7 m routing grid (core/station/grid.h,
// NavGrid::find_path) for the corners to the next anchor (a scenario waypoint
// or the destination's goal point).
#include <algorithm>
#include <stdexcept>

#include "station/station.h"

namespace lockstep::station {

std::vector<V2> StationModel::plan_path(uint32_t floor, V2 from, V2 to, float radius, const LinearField* crowd,
                                        const CheckedDirCosts* aprons) const {
  // seed 002, Route: the 0.7 m grid's path round obstacles, holes and voids, with the wall comfort cost
  // and the straight cuts that keep the body clear (grid.h, docs/station-grid.md). Its first point is
  // `from` (or its snap onto the grid), its last `to` (or its snap). No path: the straight line, so the
  // walker still drives and recovery can act.
  std::vector<V2> p = aprons ? grids_[floor]->find_path(from, to, radius, *aprons, crowd)
                             : grids_[floor]->find_path(from, to, radius, nullptr, nullptr, crowd);
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
  return grids_[floor]->segment_clear(a, b, radius);
}

void StationModel::start_route(uint32_t w) {
  state_.routes[w].next_anchor = 0;
  state_.walkers[w].crowd_check_s = kCrowdCheckS;
  rebuild_path(w);
}

namespace {
// The path ahead of a walker: its position, then its corners from the current one on.
std::vector<V2> path_ahead(const Walker& wk, const Route& rt) {
  std::vector<V2> p{wk.pos};
  for (std::size_t k = rt.next; k < rt.waypoints.size(); ++k) p.push_back(rt.waypoints[k]);
  return p;
}
}  // namespace

void StationModel::rebuild_path(uint32_t w) {
  Walker& wk = state_.walkers[w];
  Route& rt = state_.routes[w];
  // A destination on another floor: the stair or escalator this floor's route leads through (stairs.cpp).
  // The gate it holds, if any, comes first (chosen by reweigh_connector).
  // Or the car it takes (lifts.cpp), which replaces the stair.
  wk.lift = choose_lift(w);
  wk.via = choose_flight(w);
  const bool to_goal = rt.next_anchor >= rt.anchors.size();
  const V2 to = to_goal ? goal_point(w) : rt.anchors[rt.next_anchor];
  const bool was_round = rt.back_k >= 0;  // walking round a line: kept while there is one (S56)
  rt.back_k = -1;
  // seed 002, Crowds: "Paths planned" count the crowd as the walker feels it.
  crowd_costs(wk.floor);  // built once a step (in plan_phase before its workers start)
  const LinearField crowd = crowd_view(w);
  if (wk.off_flight >= 0) {
    // Off a flight the first leg goes straight out to step_off; the path on from there.
    rt.waypoints = {wk.step_off};
    const std::vector<V2> on = plan_path(wk.floor, wk.step_off, to, wk.radius, &crowd, apron_view(w));
    rt.waypoints.insert(rt.waypoints.end(), on.begin(), on.end());
  } else {
    rt.waypoints = plan_path(wk.floor, wk.pos, to, wk.radius, &crowd, apron_view(w));
    // S56: heading for an escalator with a formed line (its mouth among the next four corners) from off
    // its side behind the back, or more than 2.5 m out: to the back first, round the line (its band's
    // cost), then along the line to the mouth.
    V2 back;
    if (to_goal && (was_round || rt.waypoints.size() <= kHeadingWaypoints) && line_back(w, wk.via, &back, was_round)) {
      rt.waypoints = plan_path(wk.floor, wk.pos, back, wk.radius, &crowd, apron_view(w));
      if (rt.waypoints.empty()) rt.waypoints.push_back(back);
      rt.back = back;
      rt.back_k = static_cast<int32_t>(rt.waypoints.size()) - 1;
      const std::vector<V2> on = plan_path(wk.floor, back, to, wk.radius, &crowd, apron_view(w));
      if (on.empty()) rt.waypoints.push_back(to);
      rt.waypoints.insert(rt.waypoints.end(), on.begin(), on.end());
    }
  }
  if (rt.waypoints.empty()) rt.waypoints.push_back(to);
  rt.next = 0;
  wk.crowd_ref = grids_[wk.floor]->soft_cost(path_ahead(wk, rt), crowd, kCrowdCheckM);
  begin_leg(w);
}

// ---------------------------------------------------------------- crowd costs
//
// seed 002, Route, Crowds (docs/station.md "Crowd costs"). The state keeps per
// floor and routing cell the exponentially windowed counts S (standing), M
// (moving) and V (the moving bodies' unit velocities summed). Someone walking
// along the unit u feels (S + 0.625 M - 0.375 V.u) / area over the 3 x 3
// cells round a cell: a standing body counts 1, an oncoming one
// 0.625 + 0.375 = 1, one going the same way 0.625 - 0.375 = 0.25, one crossing
// 0.625. The extra cost per metre, 2.5 x clamp(felt - 0.35, 0, 2), is so a
// clamped linear function of u: a NavGrid LinearCost per cell, built from the
// state at most once per step and shared by every walker; a walker's own body
// and goal are patched in round it for one call and restored (crowd_view).

namespace {
constexpr float kMoveShare = 0.5f * (1.0f + kSameWayShare);  // 0.625: the direction-free part of a moving body
constexpr float kFaceShare = 0.5f * (1.0f - kSameWayShare);  // 0.375: the part that changes sign with direction
constexpr float kFixV = 65536.0f;                             // the crowd phase's fixed point (2^-16 per unit)
}  // namespace

float crowd_cost_per_metre(float felt_density) {
  float excess = felt_density - kFruinBCDensity;
  if (!(excess > 0.0f)) return 0.0f;
  if (excess > kCrowdMaxExcess) excess = kCrowdMaxExcess;
  return kCrowdWeight * excess;
}

void StationModel::crowd_phase() {
  // This tick's walking bodies per cell, in integers (so in no particular
  // order), then every cell's window: value x (1 - dt/3) + count x dt/3.
  constexpr float kIn = kDt / kCrowdWindowS;
  constexpr float kKeep = 1.0f - kIn;
  for (std::size_t f = 0; f < grids_.size(); ++f) {
    const NavGrid& grid = *grids_[f];
    const auto cells = static_cast<std::size_t>(grid.cell_count());
    crowd_count_.assign(cells * 4, 0);
    bool any = false;
    for (const Walker& wk : state_.walkers) {
      if (wk.phase != Phase::Walking || wk.floor != f) continue;
      const int32_t c = grid.cell_index(wk.pos);
      if (c < 0) continue;
      const std::size_t k = static_cast<std::size_t>(c) * 4;
      const float sp = length(wk.vel);
      any = true;
      if (!(sp >= kStandingSpeed)) {
        crowd_count_[k] += 1;
      } else {
        crowd_count_[k + 1] += 1;
        // |vel.x| <= sp and sp >= 0.2 m/s: each term is within +-2^16, the sum of 2,000,000 far inside int64.
        crowd_count_[k + 2] += static_cast<int64_t>(wk.vel.x / sp * kFixV);
        crowd_count_[k + 3] += static_cast<int64_t>(wk.vel.y / sp * kFixV);
      }
    }
    CrowdField& cf = state_.crowd[f];
    std::vector<float>* ch[4] = {&cf.standing, &cf.moving, &cf.vx, &cf.vy};
    // Each cell on its own (ranges of cells on the workers; the same bits on any number).
    parallel_ranges(workers_, static_cast<uint32_t>(cells), kCellGrain, [&](uint32_t begin, uint32_t end) {
      for (int q = 0; q < 4; ++q) {
        float* v = ch[q]->data();
        const float unit = q < 2 ? kIn : kIn / kFixV;
        for (std::size_t c = begin; c < end; ++c) {
          float x = v[c];
          if (x == 0.0f && (!any || crowd_count_[c * 4 + static_cast<std::size_t>(q)] == 0)) continue;
          x = x * kKeep + static_cast<float>(crowd_count_[c * 4 + static_cast<std::size_t>(q)]) * unit;
          v[c] = (x < 1e-6f && x > -1e-6f) ? 0.0f : x;  // no denormals: a crowd this faint is none
        }
      }
    });
  }
}

float StationModel::felt_density(uint32_t floor, V2 p, V2 u) const {
  const NavGrid& grid = *grids_[floor];
  const CrowdField& cf = state_.crowd[floor];
  const int32_t c = grid.cell_index(p);
  if (c < 0) return 0.0f;
  const int32_t ix = c % grid.nx(), iy = c / grid.nx();
  float s = 0, m = 0, vx = 0, vy = 0;
  for (int32_t dy = -kCrowdBox; dy <= kCrowdBox; ++dy)
    for (int32_t dx = -kCrowdBox; dx <= kCrowdBox; ++dx) {
      const int32_t k = grid.cell_at(ix + dx, iy + dy);
      if (k < 0) continue;
      const auto uk = static_cast<std::size_t>(k);
      s += cf.standing[uk], m += cf.moving[uk], vx += cf.vx[uk], vy += cf.vy[uk];
    }
  const float side = static_cast<float>(2 * kCrowdBox + 1) * grid.cell();
  return (s + kMoveShare * m - kFaceShare * (vx * u.x + vy * u.y)) / (side * side);
}

const std::vector<LinearCost>& StationModel::crowd_costs(uint32_t floor) {
  const bool fresh = floor < crowd_fresh_.size() && crowd_fresh_[floor] && crowd_cost_.size() == grids_.size();
  if (fresh) return crowd_cost_[floor];
  // plan_phase builds the floors its walkers may search before it plans them on the workers.
  if (planning_on_workers_)
    throw std::logic_error("station: a floor's crowd costs asked for on the workers before they were built (plan_may_search)");
  if (crowd_fresh_.size() != grids_.size()) crowd_fresh_.assign(grids_.size(), 0);
  if (crowd_box_.size() != grids_.size())
    crowd_box_.resize(grids_.size()), crowd_cost_.resize(grids_.size()), crowd_queue_.resize(grids_.size());
  crowd_fresh_[floor] = 1;
  const NavGrid& grid = *grids_[floor];
  const CrowdField& cf = state_.crowd[floor];
  const int32_t nx = grid.nx(), ny = grid.ny();
  const auto cells = static_cast<std::size_t>(grid.cell_count());
  auto& box = crowd_box_[floor];
  box.assign(cells, std::array<float, 4>{});
  crowd_cost_[floor].assign(cells, LinearCost{});
  // The 3 x 3 sums, separably: rows into `row`, then columns (a fixed order of additions). Each
  // cell's sums on their own: ranges of rows on the workers, the rows' pass before the columns'.
  std::vector<std::array<float, 4>> row(cells, std::array<float, 4>{});
  const std::vector<float>* ch[4] = {&cf.standing, &cf.moving, &cf.vx, &cf.vy};
  const uint32_t rows_per_range = std::max<uint32_t>(1, kCellGrain / static_cast<uint32_t>(nx));
  parallel_ranges(workers_, static_cast<uint32_t>(ny), rows_per_range, [&](uint32_t y0, uint32_t y1) {
    for (auto iy = static_cast<int32_t>(y0); iy < static_cast<int32_t>(y1); ++iy)
      for (int32_t ix = 0; ix < nx; ++ix) {
        const auto c = static_cast<std::size_t>(iy * nx + ix);
        for (int q = 0; q < 4; ++q) {
          const float* v = ch[q]->data();
          float sum = 0.0f;
          for (int32_t dx = -kCrowdBox; dx <= kCrowdBox; ++dx)
            if (ix + dx >= 0 && ix + dx < nx) sum += v[c + static_cast<std::size_t>(static_cast<int64_t>(dx))];
          row[c][static_cast<std::size_t>(q)] = sum;
        }
      }
  });
  parallel_ranges(workers_, static_cast<uint32_t>(ny), rows_per_range, [&](uint32_t y0, uint32_t y1) {
    for (auto iy = static_cast<int32_t>(y0); iy < static_cast<int32_t>(y1); ++iy)
      for (int32_t ix = 0; ix < nx; ++ix) {
        const auto c = static_cast<std::size_t>(iy * nx + ix);
        std::array<float, 4> sum{};
        bool any = false;
        for (int32_t dy = -kCrowdBox; dy <= kCrowdBox; ++dy) {
          if (iy + dy < 0 || iy + dy >= ny) continue;
          const auto& r = row[static_cast<std::size_t>((iy + dy) * nx + ix)];
          for (std::size_t q = 0; q < 4; ++q) sum[q] += r[q];
        }
        for (std::size_t q = 0; q < 4; ++q) any = any || sum[q] != 0.0f;
        box[c] = sum;
        if (any) crowd_cost_[floor][c] = crowd_cell_value(floor, c, 0.0f, 0.0f, V2{});
      }
  });
  goal_queues(floor);
  queue_bands(floor);
  return crowd_cost_[floor];
}

// The cells whose centre is within the free radius (2 m, C5) of portal p's
// box, as a rectangle of columns and rows (a centre's x depends on its column
// alone, its y on its row); x0 > x1 when none.
StationModel::CellRect StationModel::goal_patch(uint32_t p) const {
  const PortalGeom& pg = portals_[p];
  const NavGrid& grid = *grids_[pg.floor];
  CellRect r;
  for (int32_t ix = 0; ix < grid.nx(); ++ix) {
    const float px = grid.cell_center(ix).x;
    if (px < pg.minx - kGoalFreeM || px > pg.maxx + kGoalFreeM) continue;
    if (r.x0 > r.x1) r.x0 = ix;
    r.x1 = ix;
  }
  for (int32_t iy = 0; iy < grid.ny(); ++iy) {
    const float py = grid.cell_center(iy * grid.nx()).y;
    if (py < pg.miny - kGoalFreeM || py > pg.maxy + kGoalFreeM) continue;
    if (r.y0 > r.y1) r.y0 = iy;
    r.y1 = iy;
  }
  if (r.x0 > r.x1 || r.y0 > r.y1) r = CellRect{};
  return r;
}

// "The crowd at the walker's own goal does not count: its queue, or within the
// free radius" (C5). A goal's queue is the people bound for it who stand
// (slower than 0.2 m/s, C2) in a chain that reaches its free patch: the cells
// joined to the patch, side by side, through cells with one of them within
// the 3 x 3 cells round (the reach of the felt density, C3). Others standing
// there, or a crowd with a gap of floor between it and the patch, are another
// crowd: a stream leaving through a crowd that waits to go the other way still
// feels it. One mask per portal of the floor that has a queue beyond its
// patch; a connected set, so the order of the fill does not matter.
void StationModel::goal_queues(uint32_t floor) {
  const NavGrid& grid = *grids_[floor];
  auto& masks = crowd_queue_[floor];
  masks.resize(portals_.size());
  const int32_t nx = grid.nx(), ny = grid.ny();
  // (portal, cell) of each standing walker on the floor, sorted: each portal's cells together.
  std::vector<std::pair<uint32_t, int32_t>> standing;
  for (const Walker& wk : state_.walkers) {
    if (wk.phase != Phase::Walking || wk.floor != floor || length(wk.vel) >= kStandingSpeed) continue;
    const int32_t c = grid.cell_index(wk.pos);
    if (c >= 0 && portals_[wk.destination].floor == floor) standing.emplace_back(wk.destination, c);
  }
  std::sort(standing.begin(), standing.end());
  std::vector<uint8_t> near;  // per cell: a standing walker bound for this portal within the 3 x 3 round it
  std::vector<int32_t> todo;
  std::size_t k = 0;
  for (uint32_t p = 0; p < portals_.size(); ++p) {
    std::vector<uint8_t>& mask = masks[p];
    mask.clear();
    if (portals_[p].floor != floor) continue;
    const CellRect& r = goal_patch_[p];
    const std::size_t k0 = k;
    while (k < standing.size() && standing[k].first == p) ++k;
    if (k == k0 || r.x0 > r.x1) continue;
    // A chain starts next to the patch: from one of them within 1 + 1 cells of it.
    constexpr int32_t kReach = 2 * kCrowdBox;
    bool starts = false;
    for (std::size_t q = k0; q < k && !starts; ++q) {
      const int32_t ix = standing[q].second % nx, iy = standing[q].second / nx;
      starts = ix >= r.x0 - kReach && ix <= r.x1 + kReach && iy >= r.y0 - kReach && iy <= r.y1 + kReach;
    }
    if (!starts) continue;
    near.assign(static_cast<std::size_t>(grid.cell_count()), 0);
    for (std::size_t q = k0; q < k; ++q) {
      const int32_t ix = standing[q].second % nx, iy = standing[q].second / nx;
      for (int32_t y = std::max(iy - kCrowdBox, 0); y <= std::min(iy + kCrowdBox, ny - 1); ++y)
        for (int32_t x = std::max(ix - kCrowdBox, 0); x <= std::min(ix + kCrowdBox, nx - 1); ++x)
          near[static_cast<std::size_t>(y * nx + x)] = 1;
    }
    bool grew = false;
    auto join = [&](int32_t ix, int32_t iy) {
      if (ix < 0 || iy < 0 || ix >= nx || iy >= ny) return;
      if (ix >= r.x0 && ix <= r.x1 && iy >= r.y0 && iy <= r.y1) return;  // the patch is free already
      const auto c = static_cast<std::size_t>(iy * nx + ix);
      if (!near[c]) return;
      if (mask.empty()) mask.assign(static_cast<std::size_t>(grid.cell_count()), 0);
      if (mask[c]) return;
      mask[c] = 1;
      grew = true;
      todo.push_back(static_cast<int32_t>(c));
    };
    todo.clear();
    for (int32_t iy = r.y0; iy <= r.y1; ++iy) join(r.x0 - 1, iy), join(r.x1 + 1, iy);
    for (int32_t ix = r.x0; ix <= r.x1; ++ix) join(ix, r.y0 - 1), join(ix, r.y1 + 1);
    while (!todo.empty()) {
      const int32_t c = todo.back();
      todo.pop_back();
      const int32_t ix = c % nx, iy = c / nx;
      join(ix - 1, iy), join(ix + 1, iy), join(ix, iy - 1), join(ix, iy + 1);
    }
    if (!grew) mask.clear();
  }
}

// Cell c's linear cost from its 3 x 3 sums less a body (ds standing, dm moving with unit velocities dv).
LinearCost StationModel::crowd_cell_value(uint32_t floor, std::size_t c, float ds, float dm, V2 dv) const {
  const std::array<float, 4>& b = crowd_box_[floor][c];
  const float side = static_cast<float>(2 * kCrowdBox + 1) * grids_[floor]->cell();
  const float inv_area = 1.0f / (side * side);
  float s = b[0] - ds, m = b[1] - dm, vx = b[2] - dv.x, vy = b[3] - dv.y;
  if (!(s > 0.0f)) s = 0.0f;
  if (!(m > 0.0f)) m = 0.0f, vx = 0.0f, vy = 0.0f;
  LinearCost lc;
  lc.c0 = kCrowdWeight * ((s + kMoveShare * m) * inv_area - kFruinBCDensity);
  lc.cx = -kCrowdWeight * kFaceShare * vx * inv_area;
  lc.cy = -kCrowdWeight * kFaceShare * vy * inv_area;
  lc.cap = kCrowdWeight * kCrowdMaxExcess;
  return lc;
}

LinearField StationModel::crowd_view(uint32_t w) const {
  // The floor's field as walker w feels it, read through the view's overrides
  // (the shared field is not changed, so walkers on several threads can look
  // at once). The field must have been built this step (crowd_costs).
  const Walker& wk = state_.walkers[w];
  const uint32_t f = wk.floor;
  if (f >= crowd_fresh_.size() || !crowd_fresh_[f])
    throw std::logic_error("station: a walker's crowd view before its floor's crowd costs were built this step");  // crowd_costs first
  const std::vector<LinearCost>& cost = crowd_cost_[f];
  const NavGrid& grid = *grids_[f];
  // The horizon (C6): the cells within 20 m of the walker, a square.
  const V2 o = grid.origin();
  const float cs = grid.cell();
  auto floor_i = [](float v) {
    v = v < -1e6f ? -1e6f : (v > 1e6f ? 1e6f : v);
    const auto i = static_cast<int32_t>(v);
    return static_cast<float>(i) > v ? i - 1 : i;
  };
  auto col = [&](float x) { return floor_i((x - o.x) / cs); };
  auto rowi = [&](float y) { return floor_i((y - o.y) / cs); };
  LinearField view;
  view.cells = &cost;
  view.ix0 = std::max(col(wk.pos.x - kCrowdHorizonM), 0);
  view.ix1 = std::min(col(wk.pos.x + kCrowdHorizonM), grid.nx() - 1);
  view.iy0 = std::max(rowi(wk.pos.y - kCrowdHorizonM), 0);
  view.iy1 = std::min(rowi(wk.pos.y + kCrowdHorizonM), grid.ny() - 1);
  // "The walker's own body must not count against itself": its body, as the
  // crowd phase counted it, out of the 3 x 3 sums round its cell (C4).
  const int32_t c = grid.cell_index(wk.pos);
  if (c >= 0 && wk.phase == Phase::Walking) {
    const float sp = length(wk.vel);
    const bool standing = !(sp >= kStandingSpeed);
    const V2 dv = standing ? V2{} : wk.vel * (1.0f / sp);
    const int32_t ix = c % grid.nx(), iy = c / grid.nx();
    static_assert(kCrowdBox == 1, "the view holds a 3 x 3 block of its own cells");
    view.ox0 = std::max(ix - kCrowdBox, 0), view.ox1 = std::min(ix + kCrowdBox, grid.nx() - 1);
    view.oy0 = std::max(iy - kCrowdBox, 0), view.oy1 = std::min(iy + kCrowdBox, grid.ny() - 1);
    std::size_t q = 0;
    for (int32_t y = view.oy0; y <= view.oy1; ++y)
      for (int32_t x = view.ox0; x <= view.ox1; ++x) {
        const auto cell = static_cast<std::size_t>(y * grid.nx() + x);
        view.own[q] = crowd_cell_value(f, cell, standing ? 1.0f : 0.0f, standing ? 0.0f : 1.0f, dv);
        view.own[q++].base = cost[cell].base;  // a queue line's band (S57) is no body of its own
      }
  }
  // "The crowd at the walker's own goal does not count": its free patch and
  // its queue (C5; goal_patch, goal_queues).
  const PortalGeom& pg = portals_[wk.destination];
  if (pg.floor == f) {
    const CellRect& r = goal_patch_[wk.destination];
    view.zx0 = std::max(r.x0, view.ix0), view.zx1 = std::min(r.x1, view.ix1);
    view.zy0 = std::max(r.y0, view.iy0), view.zy1 = std::min(r.y1, view.iy1);
    if (view.zx0 > view.zx1 || view.zy0 > view.zy1) view.zx0 = 0, view.zx1 = -1, view.zy0 = 0, view.zy1 = -1;
    const auto& mask = crowd_queue_[f][wk.destination];
    if (!mask.empty()) view.zmask = mask.data();
  }
  // "The walker's own queue costs nothing" (S57): the band of the line at the belt it heads for.
  const int32_t to = heading(wk);
  if (to >= 0 && flights_[static_cast<std::size_t>(to)].belt) {
    const int sense = belt_sense(wk, static_cast<uint32_t>(to));
    if (sense != 0) {
      const auto& band = band_cells_[static_cast<std::size_t>(to)][sense > 0 ? 0 : 1];
      if (band.size() == cost.size()) view.zmask2 = band.data();
    }
  }
  return view;
}

bool StationModel::crowd_check_exempt(const Walker& w) const {
  // seed 002: "This check is not made by walkers who are queued, on a door-line
  // aim, waiting at a crossing curb, captured, held, on a belt, or inside a
  // connector." Of those, stairs and belts exist so far: a walker on a flight
  // or a belt is not checked, nor one in line for a belt (waiting_for_belt, S42).
  // A walker in recovery (its muted obstacle's 1.6 s) is not checked either.
  // Off a flight, its first leg straight out is not replanned either (seed 002: "A train door line or a gate
  // queue does not take over their heading until then either").
  // Nor one waiting at an elevator's landing (S52).
  return w.ignore_blocker >= 0 || w.flight >= 0 || w.off_flight >= 0 || waiting_for_belt(w) || waiting_for_lift(w);
}

// "Every 2 s each walker checks the next 15 m of its path against the crowd as
// it is now. If the crowd cost there has grown by more than 1.5 m equivalent
// since the last check, the path is rebuilt round it." The rebuild replans up
// to the point 20 m ahead along the path (beyond the crowd's horizon nothing
// has changed; C7) and keeps the rest, or replans the whole leg to the anchor
// when that is near.
bool StationModel::crowd_check(uint32_t w) {
  Walker& wk = state_.walkers[w];
  Route& rt = state_.routes[w];
  crowd_costs(wk.floor);
  const LinearField view = crowd_view(w);
  const NavGrid& grid = *grids_[wk.floor];
  std::vector<V2> ahead = path_ahead(wk, rt);
  const float now = grid.soft_cost(ahead, view, kCrowdCheckM);
  if (!(now - wk.crowd_ref > kCrowdGrowthM)) {
    wk.crowd_ref = now;
    return false;
  }
  // The point the horizon away along the path (a corner, or a point on a leg) ends the replanned stretch;
  // a path shorter than that is replanned whole.
  float run = 0.0f;
  std::size_t cut = 0;  // index into ahead of the stretch's end; 0: none
  for (std::size_t k = 1; k < ahead.size(); ++k) {
    const float len = length(ahead[k] - ahead[k - 1]);
    if (run + len >= kCrowdHorizonM) {
      if (k + 1 == ahead.size() && run + len < kCrowdHorizonM + kCrowdCheckM) break;  // the goal is near: whole
      if (run + len > kCrowdHorizonM) {  // split the leg at the horizon
        const V2 at = ahead[k - 1] + (ahead[k] - ahead[k - 1]) * ((kCrowdHorizonM - run) / len);
        ahead.insert(ahead.begin() + static_cast<std::ptrdiff_t>(k), at);
      }
      cut = k;
      break;
    }
    run += len;
  }
  if (cut == 0) {
    rebuild_path(w);
  } else {
    std::vector<V2> head = plan_path(wk.floor, wk.pos, ahead[cut], wk.radius, &view, apron_view(w));
    if (head.empty()) head.push_back(ahead[cut]);
    head.insert(head.end(), ahead.begin() + static_cast<std::ptrdiff_t>(cut) + 1, ahead.end());
    rt.waypoints = std::move(head);
    rt.next = 0;
    wk.crowd_ref = grid.soft_cost(path_ahead(wk, rt), view, kCrowdCheckM);
    begin_leg(w);
  }
  ++plan_counts_[w][kCountRebuilt];
  ++plan_counts_[w][kCountCrowdRebuilds];
  return true;
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
  const NavGrid& grid = *grids_[wk.floor];
  wk.slack_left = grid.lane_slack(wk.pos, corner, left_of(u), wk.radius);
  wk.slack_right = grid.lane_slack(wk.pos, corner, left_of(u) * -1.0f, wk.radius);
}

// One walker's route for this tick: waypoints, the leg re-check, the lane
// drive point, progress and the recovery decision. Writes only this walker's
// own route and plan fields (never pos or vel: a recovery's sideways velocity
// is returned in `kick` and applied after every walker has planned).
void StationModel::plan_walker(uint32_t w, std::vector<uint8_t>& kick) {
  if (on_belt(state_.walkers[w])) {
    // "On a one-file belt, the stuck timer is cleared and the belt spacing is
    // left in charge": a rider faces the belt's way and plans nothing.
    Walker& wk = state_.walkers[w];
    wk.stuck_s = 0.0f;
    wk.drive = wk.pos + flights_[static_cast<std::size_t>(wk.flight)].travel(wk.sense);
    return;
  }
  pass_waypoint(w);
  V2 corner = route_corner(w);
  reweigh_connector(w, corner);
  check_crowd_ahead(w, corner);
  recheck_leg(w, corner);
  // The drive point the walker steers for; progress (and the recovery) is
  // measured to the lane's point on the leg, which the band's aim does not move.
  const Route& rt = state_.routes[w];
  const bool coming = state_.walkers[w].origin >= 0 && oncoming_ahead(w, unit(rt.waypoints[rt.next] - rt.leg_start));
  const V2 drive = lane_drive(w, corner, coming);
  state_.walkers[w].drive = lift_aim(w, queue_aim(w, stair_band_aim(w, band_aim(w, drive, coming))));
  Walker& wk = state_.walkers[w];
  // The muted obstacle of a recovery runs out.
  if (wk.ignore_blocker >= 0) {
    wk.ignore_s -= kDt;
    if (wk.ignore_s <= 0.0f) {
      wk.ignore_s = 0.0f;
      wk.ignore_blocker = -1;
    }
  }
  recover_if_stuck(w, drive, kick);
}

// ---- plan_walker's phases, in order

bool StationModel::on_goal_leg(uint32_t w) const {
  const Route& rt = state_.routes[w];
  return rt.next + 1 >= rt.waypoints.size() && rt.next_anchor >= rt.anchors.size();
}

V2 StationModel::route_corner(uint32_t w) const {
  const Walker& wk = state_.walkers[w];
  (void)wk;
  return on_goal_leg(w) ? goal_point(w) : state_.routes[w].waypoints[state_.routes[w].next];
}

bool StationModel::waypoint_reached(uint32_t w) const {
  const Walker& wk = state_.walkers[w];
  const Route& rt = state_.routes[w];
  if (on_goal_leg(w)) return false;
  const V2 c = rt.waypoints[rt.next];
  const float d2 = sqr_length(c - wk.pos);
  const bool passed = dot(wk.pos - c, c - rt.leg_start) >= 0.0f;
  return d2 <= kTouchWaypoint * kTouchWaypoint || (passed && d2 <= kPassedWaypoint * kPassedWaypoint);
}

bool StationModel::plan_may_search(uint32_t w) const {
  // The same float operations as the phases below, on this tick's state.
  const Walker& wk = state_.walkers[w];
  const Route& rt = state_.routes[w];
  if (on_belt(wk)) return false;                                                  // a rider plans nothing
  if (waypoint_reached(w) && rt.next + 1 >= rt.waypoints.size()) return true;  // pass_waypoint: the next anchor's path
  if (wk.crowd_check_s - kDt <= 0.0f) return true;                            // check_crowd_ahead: the 2 s check
  if (wk.recheck_s - kDt <= 0.0f) return true;                                // recheck_leg: a rebuild if the leg clips
  if (reweigh_due(w)) return true;                                             // reweigh_connector: a switch rebuilds
  // recover_if_stuck: the timer runs by kDt at most (begin_leg and progress only lower it).
  return wk.stuck_s + kDt >= scenario_.unstick_s;
}

void StationModel::pass_waypoint(uint32_t w) {
  Route& rt = state_.routes[w];
  // Waypoints: "A waypoint the walker has already passed (within 1.5 m) counts
  // as reached" (S7: or any within 0.5 m). The goal is reached by arrival only.
  if (!waypoint_reached(w)) return;
  // The first corner off a flight is its step-off point: reached, the walker turns for its way.
  state_.walkers[w].off_flight = -1;
  if (rt.back_k >= 0 && static_cast<int32_t>(rt.next) >= rt.back_k) rt.back_k = -1;  // at the back of the line (S56)
  ++rt.next;
  if (rt.next >= rt.waypoints.size()) {
    ++rt.next_anchor;  // a scenario waypoint reached: plan on to the next anchor
    rebuild_path(w);
  } else {
    begin_leg(w);
  }
}

void StationModel::check_crowd_ahead(uint32_t w, V2& corner) {
  Walker& wk = state_.walkers[w];
  // seed 002, Crowds: the 2 s check of the next 15 m (a rebuild that gives the
  // same corner is no new leg, as below).
  wk.crowd_check_s -= kDt;
  if (wk.crowd_check_s <= 0.0f) {
    wk.crowd_check_s = kCrowdCheckS;
    if (!crowd_check_exempt(wk)) {
      const float stuck = wk.stuck_s, ref = wk.progress_ref, re = wk.recheck_s;
      if (crowd_check(w)) {
        const V2 again = route_corner(w);
        if (again == corner) {
          wk.stuck_s = stuck;
          wk.progress_ref = ref;
          wk.recheck_s = re;
        }
        corner = again;
      }
    }
  }
}

void StationModel::recheck_leg(uint32_t w, V2& corner) {
  Walker& wk = state_.walkers[w];
  // "Every 0.5 s the leg to the current waypoint is re-checked. If a crowd has
  // pushed the walker so that the leg now clips a wall or void, the path is
  // rebuilt" (S14: clips = half the body radius along the leg touches a wall).
  wk.recheck_s -= kDt;
  if (wk.recheck_s <= 0.0f) {
    wk.recheck_s = kLegRecheckS;
    // The goal on a stair's landing line lies on the far end's wall: the leg is tested to a body short of it.
    const V2 end = heading(wk) >= 0 && on_goal_leg(w) ? short_of_landing(w, corner) : corner;
    if (!segment_clear(wk.floor, wk.pos, end, wk.radius * 0.5f)) {
      // A rebuild that gives the same corner is no new leg: the stuck timer runs on.
      const float stuck = wk.stuck_s, ref = wk.progress_ref;
      rebuild_path(w);
      ++plan_counts_[w][kCountRebuilt];
      const V2 again = route_corner(w);
      if (again == corner) {
        wk.stuck_s = stuck;
        wk.progress_ref = ref;
        wk.recheck_s = kLegRecheckS;
      }
      corner = again;
    }
  }
}

V2 StationModel::lane_drive(uint32_t w, V2 corner, bool coming) const {
  const Walker& wk = state_.walkers[w];
  const Route& rt = state_.routes[w];
  // Lanes: aim at the corner shifted by the walker's share of this leg's slack;
  // a leg into the goal closes the shift over its last 6 m.
  // With someone coming the other way ahead (S25), a spawned walker's share
  // maps onto the keep side's half of the slack: -1..1 -> -1..0 for keep
  // right (-1 is the right), 0..1 for keep left; so the two streams of a
  // counter-flow take a side each and lanes form on the keep side, while a
  // one-way crowd still walks abreast across the whole width.
  V2 drive = corner;
  const V2 u = unit(rt.waypoints[rt.next] - rt.leg_start);
  float share = wk.lane_share;
  if (coming) share = keep_right_ ? 0.5f * (share - 1.0f) : 0.5f * (share + 1.0f);
  if (share != 0.0f) {
    const float slack = share > 0.0f ? wk.slack_left : wk.slack_right;
    float shift = share * slack;
    if (on_goal_leg(w)) {
      const float d = length(corner - wk.pos);
      if (d < kLaneCloseM) shift = shift * (d / kLaneCloseM);
    }
    drive = corner + left_of(u) * shift;
  }
  return drive;
}

float StationModel::ray_room(uint32_t floor, V2 p, V2 n, float reach) const {
  const FloorGeom& fl = floors_[floor];
  const CellGrid& gr = fl.wall_grid;
  const V2 q = p + n * reach;
  float best = reach;
  gr.each(gr.box(std::min(p.x, q.x), std::min(p.y, q.y), std::max(p.x, q.x), std::max(p.y, q.y)), [&](uint32_t k) {
    const Wall& wl = fl.walls[k];
    // p + t n meets a + s (b - a), 0 <= s <= 1, t >= 0.
    const V2 ab = wl.b - wl.a;
    const float den = cross(n, ab);
    if (den == 0.0f) return true;  // parallel: the wall's ends are met by the walls joining them
    const V2 ap = wl.a - p;
    const float t = cross(ap, ab) / den;
    const float s = cross(ap, n) / den;
    if (t >= 0.0f && s >= 0.0f && s <= 1.0f && t < best) best = t;
    return true;
  });
  return best;
}

float StationModel::wall_room(const Walker& w, V2 at) const {
  if (w.dir == V2{}) return 0.0f;
  const V2 across = left_of(w.dir);
  const float far = w.radius + kTurnFar, near = w.radius + kTurnNear;
  const float d = std::min(ray_room(w.floor, at, across, far), ray_room(w.floor, at, across * -1.0f, far));
  return d <= near ? 1.0f : (d >= far ? 0.0f : (far - d) / (far - near));
}

float StationModel::turn_room(const Walker& w, float here) const {
  // S62: a body turns as it steps into a narrow opening, not once inside it:
  // the room is also read kTurnAhead along the heading, where the body is
  // about to be, unless a wall stands between (a door's jamb seen from the
  // side, the wall a walker faces).
  if (here >= 1.0f || w.dir == V2{}) return here;
  if (ray_room(w.floor, w.pos, w.dir, kTurnAhead) < kTurnAhead) return here;
  const float ahead = wall_room(w, w.pos + w.dir * kTurnAhead);
  return ahead > here ? ahead : here;
}

V2 StationModel::band_aim(uint32_t w, V2 drive, bool coming) const {
  // S29 (docs/station-forces.md, "The keep-side band"): seed 002's stair rule
  // on open floor. A spawned walker with someone coming the other way (S25)
  // in a passage (a wall within kBandReach on each side, across its leg) aims
  // at its keep-side band: from the wall on its keep side (less its body) to
  // kBandPastDivide short of the passage's middle, at the point across it its
  // lane share gives (-1 at the wall for keep right), kBandAhead along the leg,
  // the sideways offset capped at kBandMaxOffset. Not within kBandAhead + 1 m
  // of a corner where the path turns by more than 45 degrees (or ends), nor
  // on a goal leg's last kLaneCloseM, where lanes close. A corner the path
  // goes on past nearly straight (one the crowd's cost put in the passage)
  // does not close the band: aiming at it, a stream walked into the
  // oncoming lane and knotted there (issue 14, beyond capacity; S29).
  const Walker& wk = state_.walkers[w];
  const Route& rt = state_.routes[w];
  if (!coming) return drive;
  const V2 u = unit(rt.waypoints[rt.next] - rt.leg_start);
  if (u == V2{}) return drive;
  const float along = dot(drive - wk.pos, u);
  if (on_goal_leg(w) && along <= kLaneCloseM) return drive;
  if (along <= kBandAhead + 1.0f) {
    const std::size_t k = rt.next;
    const V2 on = k + 1 < rt.waypoints.size() ? unit(rt.waypoints[k + 1] - rt.waypoints[k]) : V2{};
    if (!(dot(on, u) >= kBandStraightCos)) return drive;
  }
  const V2 nl = left_of(u);
  const float left = ray_room(wk.floor, wk.pos, nl, kBandReach);
  const float right = ray_room(wk.floor, wk.pos, nl * -1.0f, kBandReach);
  if (!(left < kBandReach) || !(right < kBandReach)) return drive;  // open on a side: a hall, not a passage
  // Offsets across the leg from the walker, left positive: the passage spans
  // -right .. left; its middle is (left - right) / 2.
  const float mid = 0.5f * (left - right);
  const float lo = keep_right_ ? -right + wk.radius : mid + kBandPastDivide;
  const float hi = keep_right_ ? mid - kBandPastDivide : left - wk.radius;
  if (!(hi > lo)) return drive;  // too narrow for a band
  // Across the band as across the path: share -1 at its right edge, 1 at its left.
  float t = lo + 0.5f * (wk.lane_share + 1.0f) * (hi - lo);
  t = t > kBandMaxOffset ? kBandMaxOffset : (t < -kBandMaxOffset ? -kBandMaxOffset : t);
  return wk.pos + u * kBandAhead + nl * t;
}

void StationModel::recover_if_stuck(uint32_t w, V2 drive, std::vector<uint8_t>& kick) {
  Walker& wk = state_.walkers[w];
  // seed 002, Recovery: "Progress is the distance to the current drive point.
  // If a walking body makes no progress for unstick_s (default 3 s), or creeps
  // in a hall for that long" (S9: progress = 0.3 m closer than the best so far).
  const float d = length(drive - wk.pos);
  if (waiting_for_belt(wk) || wk.hold_s > 0.0f || waiting_for_lift(wk)) {
    // In line for a belt, standing is waiting, not being stuck (S42); nor is a zone's stop (S49), nor
    // waiting for a car (S52).
    wk.progress_ref = d;
    wk.stuck_s = 0.0f;
    return;
  }
  if (d < wk.progress_ref - kProgressStep) {
    wk.progress_ref = d;
    wk.stuck_s = 0.0f;
  } else {
    const bool held = wk.headway < kHeldFraction * speed_goal(wk) * kTimeGap;
    wk.stuck_s += held ? kHeldStuckRate * kDt : kDt;
  }
  if (wk.stuck_s >= scenario_.unstick_s && wk.flight >= 0) {
    // "On a stair, they are pointed at the mouth they should use and repath":
    // the far landing line when bound through it, else the mouth on its floor
    // (the way off a flight it is not changing floors by). No obstacle is
    // muted and no sideways kick is given (S36).
    const FlightGeom& fg = flights_[static_cast<std::size_t>(wk.flight)];
    const bool far = wk.via == wk.flight;
    const V2 mid = (fg.from == wk.floor) == far ? fg.mid2 : fg.mid0;
    const V2 mouth = mid + fg.across * fg.across_of(wk.pos);
    ++wk.unsticks;
    ++plan_counts_[w][kCountUnsticks];
    rebuild_path(w);
    ++plan_counts_[w][kCountRebuilt];
    wk.drive = mouth;  // this tick's direction (sight turns it as on any walk)
    wk.progress_ref = length(wk.drive - wk.pos);
    wk.stuck_s = 0.0f;
    return;
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
    ++plan_counts_[w][kCountUnsticks];
    rebuild_path(w);
    ++plan_counts_[w][kCountRebuilt];
    wk.drive = route_corner(w);
    wk.progress_ref = length(wk.drive - wk.pos);
    wk.stuck_s = 0.0f;
  }
}

}  // namespace lockstep::station
