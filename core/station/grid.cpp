// The station model's routing grid (seed 002, "Route"). See grid.h and
// docs/station-grid.md.
#include "station/grid.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "lockstep/core/error.h"

namespace lockstep::station {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
// The eight neighbours, in the fixed order the search expands them:
// E, NE, N, NW, W, SW, S, SE. The opposite of d is (d + 4) % 8.
constexpr int32_t kDx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int32_t kDy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
// Their unit vectors (for direction-dependent costs).
constexpr float kR2 = 0.70710678f;
constexpr Vec2 kDir[8] = {{1, 0}, {kR2, kR2}, {0, 1}, {-kR2, kR2}, {-1, 0}, {-kR2, -kR2}, {0, -1}, {kR2, -kR2}};

bool finite(float v) { return std::isfinite(v); }
float distance(Vec2 a, Vec2 b) { return length(a - b); }
Vec2 divided(Vec2 a, float s) { return {a.x / s, a.y / s}; }
bool finite(Vec2 p) { return finite(p.x) && finite(p.y); }

[[noreturn]] void bad(const std::string& place, const std::string& what) {
  throw InputError("station grid", place, what);
}

/// Metres of cost to whole millimetres (round half up; v >= 0, bounded by the extra-cost limit).
int64_t to_mm(float metres) { return static_cast<int64_t>(metres * 1000.0f + 0.5f); }
/// A cost already in millimetres, rounded to whole millimetres.
int64_t to_mm_steps(float mm) { return static_cast<int64_t>(mm + 0.5f); }

// floor() as an int, clamped to +-1e9 first so that a far-away point cannot overflow the cast:
// the cast truncates toward zero, one less where that rounded up (every float of magnitude
// 2^23 or more is an integer, and a truncated one under it converts back exactly).
inline int32_t floor_to_int(float v) {
  v = std::clamp(v, -1e9f, 1e9f);
  const auto t = static_cast<int32_t>(v);
  return static_cast<float>(t) > v ? t - 1 : t;
}

}  // namespace

// ================================================================ construction

NavGrid::NavGrid(const GridInput& in) {
  take_polygons(in);
  size_grid();
  build_walls(in);
  build_buckets();
  classify_cells();
  std::vector<float> node_reach;
  place_nodes(node_reach);
  measure_edges(node_reach);
}

// The constructor's phases, in order.
void NavGrid::take_polygons(const GridInput& in) {
  // ---- validation
  if (!finite(in.cell) || in.cell < 0.1f || in.cell > 10.0f)
    bad("cell", "the cell size must be a finite 0.1 .. 10 m, got " + std::to_string(in.cell));
  cell_ = in.cell;
  if (in.walkable.empty()) bad("walkable", "no walkable polygon: the floor is empty");
  auto take = [&](const std::vector<GridPolygon>& list, const char* name, bool blocker) {
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string at = std::string(name) + "[" + std::to_string(k) + "]";
      const auto& pts = list[k].pts;
      if (pts.size() < 3)
        bad(at, "a polygon needs at least 3 points, got " + std::to_string(pts.size()));
      for (std::size_t i = 0; i < pts.size(); ++i)
        if (!finite(pts[i])) bad(at + ".pts[" + std::to_string(i) + "]", "coordinate is NaN or infinite");
      const float area = signed_area(pts);
      if (!(area > 0.0f) && !(area < 0.0f)) bad(at, "the polygon has zero area");
      Poly p{pts, pts[0].x, pts[0].y, pts[0].x, pts[0].y, blocker};
      for (const Vec2 v : pts) {
        p.minx = std::min(p.minx, v.x);
        p.miny = std::min(p.miny, v.y);
        p.maxx = std::max(p.maxx, v.x);
        p.maxy = std::max(p.maxy, v.y);
      }
      polys_.push_back(std::move(p));
    }
  };
  take(in.walkable, "walkable", false);
  n_walk_ = polys_.size();
  take(in.blockers, "blockers", true);
  for (std::size_t k = 0; k < in.walls.size(); ++k)
    if (!finite(in.walls[k].first) || !finite(in.walls[k].second))
      bad("walls[" + std::to_string(k) + "]", "coordinate is NaN or infinite");
}

void NavGrid::size_grid() {
  // ---- the grid's box: the walkable polygons' bounding box
  float minx = polys_[0].minx, miny = polys_[0].miny, maxx = polys_[0].maxx, maxy = polys_[0].maxy;
  for (std::size_t k = 1; k < n_walk_; ++k) {
    minx = std::min(minx, polys_[k].minx);
    miny = std::min(miny, polys_[k].miny);
    maxx = std::max(maxx, polys_[k].maxx);
    maxy = std::max(maxy, polys_[k].maxy);
  }
  origin_ = {minx, miny};
  const double cols = std::floor(static_cast<double>((maxx - minx) / cell_)) + 1.0;
  const double rows = std::floor(static_cast<double>((maxy - miny) / cell_)) + 1.0;
  if (cols * rows > static_cast<double>(kMaxCells))
    bad("walkable", "the floor needs " +
                        (cols * rows < 1e15 ? std::to_string(static_cast<int64_t>(cols * rows)) : std::string("more than 10^15")) +
                        " cells of " + std::to_string(cell_) + " m, more than the limit " +
                        std::to_string(kMaxCells));
  nx_ = static_cast<int32_t>(cols);
  ny_ = static_cast<int32_t>(rows);
}

void NavGrid::build_walls(const GridInput& in) {
  // ---- the wall set: the model's (station/walls.h): the boundary of the
  // walkable union, every blocker's edges, the extra walls. (The pieces of one
  // edge stay separate: every query takes a minimum over segments, which
  // splitting does not change.)
  if (!in.wall_set.empty()) {
    for (const WallSegment& w : in.wall_set)
      if (!finite(w.a) || !finite(w.b)) bad("wall_set", "a wall's end is NaN or infinite");
    segs_ = in.wall_set;
    return;
  }
  std::vector<Polygon> outlines;
  for (std::size_t k = 0; k < n_walk_; ++k) outlines.push_back(polys_[k].pts);
  std::vector<Wall> walls;
  outline_walls(outlines, walls);
  for (std::size_t k = n_walk_; k < polys_.size(); ++k) solid_walls(polys_[k].pts, WallKind::Obstacle, -1, walls);
  for (const auto& w : in.walls) walls.push_back(Wall{w.first, w.second, WallKind::Extra, -1});
  segs_.reserve(walls.size());
  for (const Wall& w : walls) segs_.push_back({w.a, w.b});
}

void NavGrid::build_buckets() {
  const std::size_t un = static_cast<std::size_t>(nx_ * ny_);
  const float half_diag = cell_ * 0.70711f + 1e-4f;
  // ---- buckets: per cell, the wall segments that pass through its square and
  // the polygons whose box overlaps it (compressed rows, built in two passes).
  auto cell_range = [&](float lo, float hi, float o, int32_t count, int32_t* i0, int32_t* i1) {
    *i0 = std::clamp(floor_to_int((lo - o) / cell_), 0, count - 1);
    *i1 = std::clamp(floor_to_int((hi - o) / cell_), 0, count - 1);
  };
  {
    std::vector<int32_t> count(un + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<int32_t> fill;
      if (pass == 1) {
        seg_start_.assign(un + 1, 0);
        for (std::size_t c = 0; c < un; ++c) seg_start_[c + 1] = seg_start_[c] + count[c];
        seg_items_.assign(static_cast<std::size_t>(seg_start_[un]), 0);
        fill.assign(seg_start_.begin(), seg_start_.end() - 1);
        // seg_sum_[(j + 1) (nx + 1) + i + 1]: the segment entries of the cells [0, i] x [0, j].
        const auto w = static_cast<std::size_t>(nx_ + 1);
        seg_sum_.assign(w * static_cast<std::size_t>(ny_ + 1), 0);
        for (int32_t j = 0; j < ny_; ++j)
          for (int32_t i = 0; i < nx_; ++i) {
            const auto uj = static_cast<std::size_t>(j), ui = static_cast<std::size_t>(i);
            seg_sum_[(uj + 1) * w + ui + 1] = count[uj * static_cast<std::size_t>(nx_) + ui] + seg_sum_[uj * w + ui + 1] +
                                              seg_sum_[(uj + 1) * w + ui] - seg_sum_[uj * w + ui];
          }
      }
      for (std::size_t s = 0; s < segs_.size(); ++s) {
        const Vec2 a = segs_[s].a, b = segs_[s].b;
        int32_t i0, i1, j0, j1;
        cell_range(std::min(a.x, b.x) - 1e-3f, std::max(a.x, b.x) + 1e-3f, origin_.x, nx_, &i0, &i1);
        cell_range(std::min(a.y, b.y) - 1e-3f, std::max(a.y, b.y) + 1e-3f, origin_.y, ny_, &j0, &j1);
        for (int32_t j = j0; j <= j1; ++j)
          for (int32_t i = i0; i <= i1; ++i) {
            const int32_t c = j * nx_ + i;
            if (point_segment_sqr_distance(cell_center(c), a, b) > half_diag * half_diag) continue;
            if (pass == 0) {
              ++count[static_cast<std::size_t>(c)];
            } else {
              seg_items_[static_cast<std::size_t>(fill[static_cast<std::size_t>(c)]++)] = static_cast<int32_t>(s);
            }
          }
      }
    }
  }
  {
    std::vector<int32_t> count(un + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<int32_t> fill;
      if (pass == 1) {
        poly_start_.assign(un + 1, 0);
        for (std::size_t c = 0; c < un; ++c) poly_start_[c + 1] = poly_start_[c] + count[c];
        poly_items_.assign(static_cast<std::size_t>(poly_start_[un]), 0);
        fill.assign(poly_start_.begin(), poly_start_.end() - 1);
      }
      for (std::size_t k = 0; k < polys_.size(); ++k) {
        const Poly& p = polys_[k];
        int32_t i0, i1, j0, j1;
        cell_range(p.minx - 1e-3f, p.maxx + 1e-3f, origin_.x, nx_, &i0, &i1);
        cell_range(p.miny - 1e-3f, p.maxy + 1e-3f, origin_.y, ny_, &j0, &j1);
        for (int32_t j = j0; j <= j1; ++j)
          for (int32_t i = i0; i <= i1; ++i) {
            const std::size_t c = static_cast<std::size_t>(j * nx_ + i);
            if (pass == 0) {
              ++count[c];
            } else {
              poly_items_[static_cast<std::size_t>(fill[c]++)] = static_cast<int32_t>(k);
            }
          }
      }
    }
  }
}

void NavGrid::classify_cells() {
  const int32_t n = nx_ * ny_;
  const std::size_t un = static_cast<std::size_t>(n);
  const float half_diag = cell_ * 0.70711f + 1e-4f;
  // ---- cell states: a cell whose centre is farther from every wall than its
  // half diagonal is wholly on or wholly off the floor.
  cell_state_.assign(un, 2);
  for (int32_t c = 0; c < n; ++c) {
    const Vec2 ctr = cell_center(c);
    if (nearest_wall(ctr, half_diag * 1.01f) >= half_diag * 1.01f)
      cell_state_[static_cast<std::size_t>(c)] = inside_exact(ctr) ? 1 : 0;
  }
}

void NavGrid::place_nodes(std::vector<float>& node_reach) {
  const int32_t n = nx_ * ny_;
  const std::size_t un = static_cast<std::size_t>(n);
  // ---- nodes
  node_.assign(un, Vec2{});
  node_clear_.assign(un, -1.0f);
  node_reach.assign(un, -1.0f);  // clearance up to kClearanceCap_m + 1.5 cells, for edges
  const float reach_cap = kClearanceCap_m + 1.5f * cell_;
  for (int32_t c = 0; c < n; ++c) {
    const std::size_t uc = static_cast<std::size_t>(c);
    const Vec2 ctr = cell_center(c);
    node_[uc] = ctr;
    if (cell_state_[uc] == 0) continue;
    bool found = false;
    if (cell_state_[uc] == 1 && nearest_wall(ctr, kNodeClearanceCap_m) >= kNodeClearanceCap_m) {
      found = true;  // the centre has the capped maximum and is nearest itself
    } else {
      const int32_t ix = c % nx_, iy = c / nx_;
      float best_cl = -1.0f, best_d2 = 0.0f;
      for (int32_t sy = 0; sy < kNodeSamples; ++sy)
        for (int32_t sx = 0; sx < kNodeSamples; ++sx) {
          const Vec2 p{origin_.x + (static_cast<float>(ix) + (static_cast<float>(sx) + 0.5f) / kNodeSamples) * cell_,
                       origin_.y + (static_cast<float>(iy) + (static_cast<float>(sy) + 0.5f) / kNodeSamples) * cell_};
          if (cell_state_[uc] == 2 && !inside_exact(p)) continue;
          const float cl = nearest_wall(p, kNodeClearanceCap_m);
          if (!(cl > 0.0f)) continue;
          const float d2 = sqr_length(p - ctr);
          if (cl > best_cl || (cl == best_cl && d2 < best_d2)) {
            best_cl = cl;
            best_d2 = d2;
            node_[uc] = p;
            found = true;
          }
        }
    }
    if (!found) continue;
    node_reach[uc] = nearest_wall(node_[uc], reach_cap);
    node_clear_[uc] = std::min(node_reach[uc], kClearanceCap_m);
  }
}

void NavGrid::measure_edges(const std::vector<float>& node_reach) {
  const int32_t n = nx_ * ny_;
  const std::size_t un = static_cast<std::size_t>(n);
  // ---- edges: the exact clearance of the straight step between two nodes.
  edge_clear_.assign(un * 8, -1.0f);
  for (int32_t c = 0; c < n; ++c) {
    const std::size_t uc = static_cast<std::size_t>(c);
    if (node_clear_[uc] < 0.0f) continue;
    const int32_t ix = c % nx_, iy = c / nx_;
    for (int32_t d = 0; d < 4; ++d) {
      const int32_t b = cell_at(ix + kDx[d], iy + kDy[d]);
      if (b < 0) continue;
      const std::size_t ub = static_cast<std::size_t>(b);
      if (node_clear_[ub] < 0.0f) continue;
      const float len = distance(node_[uc], node_[ub]);
      float cl;
      if (std::min(node_reach[uc], node_reach[ub]) - len * 0.5f >= kClearanceCap_m) {
        cl = kClearanceCap_m;  // every point of the step is within len/2 of a node
      } else {
        cl = clearance_of_segment(node_[uc], node_[ub], kClearanceCap_m, -1.0f);
      }
      const std::size_t back = static_cast<std::size_t>((d + 4) % 8);
      edge_clear_[uc * 8 + static_cast<std::size_t>(d)] = cl;
      edge_clear_[ub * 8 + back] = cl;
    }
  }
}

std::unique_ptr<NavGrid::Scratch> NavGrid::take_scratch() const {
  {
    std::lock_guard lk(scratch_mu_);
    if (!scratch_free_.empty()) {
      std::unique_ptr<Scratch> s = std::move(scratch_free_.back());
      scratch_free_.pop_back();
      return s;
    }
  }
  const std::size_t un = static_cast<std::size_t>(nx_ * ny_);
  auto s = std::make_unique<Scratch>();
  s->node.assign(un + 1, Node{0, -1, -1, 0, 0});
  s->goal_link.assign(un, 0);
  s->goal_mark.assign(un, 0);
  return s;
}

void NavGrid::give_scratch(std::unique_ptr<Scratch> s, const SearchStats& stats) const {
  std::lock_guard lk(scratch_mu_);
  stats_ = stats;
  scratch_free_.push_back(std::move(s));
}

// ================================================================ layout

int32_t NavGrid::cell_index(Vec2 p) const {
  if (!finite(p)) return -1;
  const float fx = (p.x - origin_.x) / cell_, fy = (p.y - origin_.y) / cell_;
  if (fx < 0.0f || fy < 0.0f || fx >= static_cast<float>(nx_) || fy >= static_cast<float>(ny_)) return -1;
  return cell_at(floor_to_int(fx), floor_to_int(fy));
}

int32_t NavGrid::cell_at(int32_t ix, int32_t iy) const {
  if (ix < 0 || iy < 0 || ix >= nx_ || iy >= ny_) return -1;
  return iy * nx_ + ix;
}

Vec2 NavGrid::cell_center(int32_t idx) const {
  const int32_t ix = idx % nx_, iy = idx / nx_;
  return {origin_.x + (static_cast<float>(ix) + 0.5f) * cell_, origin_.y + (static_cast<float>(iy) + 0.5f) * cell_};
}

// ================================================================ geometry

// Calls f(segment index) for every wall segment that may lie within `reach` of
// the segment a-b (a superset: the caller's test is exact). Stops and returns
// false as soon as f returns false. Column by column: the wall points within
// reach of the segment in column i lie in rows spanned by the segment over
// that column's x-range widened by reach, widened again by reach in y.
template <class F>
bool NavGrid::visit_buckets(Vec2 a, Vec2 b, float reach, F&& f) const {
  const float eps = 1e-3f;
  const float r = reach + eps;
  const int32_t i0 = std::clamp(floor_to_int((std::min(a.x, b.x) - r - origin_.x) / cell_), 0, nx_ - 1);
  const int32_t i1 = std::clamp(floor_to_int((std::max(a.x, b.x) + r - origin_.x) / cell_), 0, nx_ - 1);
  // Every column's rows below lie within these (its ends are points of a-b):
  // where the whole box holds no segment there is nothing to visit. Skipping
  // cells without segments changes neither which segments are visited nor their order.
  {
    const int32_t jg0 = std::clamp(floor_to_int((std::min(a.y, b.y) - r - origin_.y) / cell_), 0, ny_ - 1);
    const int32_t jg1 = std::clamp(floor_to_int((std::max(a.y, b.y) + r - origin_.y) / cell_), 0, ny_ - 1);
    if (segs_in(i0, i1, jg0, jg1) == 0) return true;
  }
  const float dx = b.x - a.x, dy = b.y - a.y;
  const bool steep = !(dx > 1e-6f || dx < -1e-6f);
  for (int32_t i = i0; i <= i1; ++i) {
    float ylo, yhi;
    if (steep) {
      ylo = std::min(a.y, b.y);
      yhi = std::max(a.y, b.y);
    } else {
      const float x0 = origin_.x + static_cast<float>(i) * cell_ - r;
      const float x1 = origin_.x + static_cast<float>(i + 1) * cell_ + r;
      float t0 = (x0 - a.x) / dx, t1 = (x1 - a.x) / dx;
      if (t0 > t1) std::swap(t0, t1);
      t0 = std::max(t0, 0.0f);
      t1 = std::min(t1, 1.0f);
      if (t0 > t1) continue;
      const float ya = a.y + dy * t0, yb = a.y + dy * t1;
      ylo = std::min(ya, yb);
      yhi = std::max(ya, yb);
    }
    const int32_t j0 = std::clamp(floor_to_int((ylo - r - origin_.y) / cell_), 0, ny_ - 1);
    const int32_t j1 = std::clamp(floor_to_int((yhi + r - origin_.y) / cell_), 0, ny_ - 1);
    if (segs_in(i, i, j0, j1) == 0) continue;
    for (int32_t j = j0; j <= j1; ++j) {
      const std::size_t c = static_cast<std::size_t>(j * nx_ + i);
      for (int32_t k = seg_start_[c]; k < seg_start_[c + 1]; ++k)
        if (!f(seg_items_[static_cast<std::size_t>(k)])) return false;
    }
  }
  return true;
}

int32_t NavGrid::segs_in(int32_t i0, int32_t i1, int32_t j0, int32_t j1) const {
  if (i0 > i1 || j0 > j1) return 0;
  const auto w = static_cast<std::size_t>(nx_ + 1);
  const auto x0 = static_cast<std::size_t>(i0), x1 = static_cast<std::size_t>(i1) + 1;
  const auto y0 = static_cast<std::size_t>(j0), y1 = static_cast<std::size_t>(j1) + 1;
  return seg_sum_[y1 * w + x1] - seg_sum_[y0 * w + x1] - seg_sum_[y1 * w + x0] + seg_sum_[y0 * w + x0];
}

float NavGrid::nearest_wall(Vec2 p, float cap) const {
  float best2 = cap * cap;
  visit_buckets(p, p, cap, [&](int32_t s) {
    const WallSegment& w = segs_[static_cast<std::size_t>(s)];
    best2 = std::min(best2, point_segment_sqr_distance(p, w.a, w.b));
    return true;
  });
  return std::min(dmath::sqrt(best2), cap);
}

bool NavGrid::inside_exact(Vec2 p) const {
  const int32_t c = cell_index(p);
  if (c < 0) return false;
  bool walk = false;
  const std::size_t uc = static_cast<std::size_t>(c);
  for (int32_t k = poly_start_[uc]; k < poly_start_[uc + 1]; ++k) {
    const Poly& poly = polys_[static_cast<std::size_t>(poly_items_[static_cast<std::size_t>(k)])];
    if (p.x < poly.minx || p.x > poly.maxx || p.y < poly.miny || p.y > poly.maxy) continue;
    if (!inside(poly.pts, p)) continue;
    if (poly.blocker) return false;
    walk = true;
  }
  return walk;
}

bool NavGrid::on_floor(Vec2 p) const {
  const int32_t c = cell_index(p);
  if (c < 0) return false;
  const uint8_t s = cell_state_[static_cast<std::size_t>(c)];
  if (s != 2) return s == 1;
  return inside_exact(p);
}

float NavGrid::wall_distance(Vec2 p) const {
  if (!finite(p)) bad("wall_distance", "the point is NaN or infinite");
  if (!on_floor(p)) return 0.0f;
  const float span = static_cast<float>(nx_ + ny_ + 2) * cell_;
  for (float reach = cell_;; reach *= 2.0f) {
    const float d = nearest_wall(p, reach);
    if (d < reach || reach > span) return d;
  }
}

bool NavGrid::point_clear(Vec2 p, float radius) const {
  if (!finite(p) || !finite(radius)) bad("point_clear", "the point or radius is NaN or infinite");
  if (!on_floor(p)) return false;
  const float cap = std::max(radius, 0.0f) + 0.01f;
  const float d = nearest_wall(p, cap);
  return d > 0.0f && d >= radius;
}

// min(distance from the segment to the nearest wall, cap), or -1 when it
// crosses or touches a wall. Stops early (returning the distance so far) once
// it is below stop_below.
float NavGrid::clearance_of_segment(Vec2 a, Vec2 b, float cap, float stop_below) const {
  float best2 = cap * cap;
  bool hit = false;
  visit_buckets(a, b, cap, [&](int32_t s) {
    const WallSegment& w = segs_[static_cast<std::size_t>(s)];
    const float d2 = segment_sqr_distance(a, b, w.a, w.b);
    if (d2 <= 1e-10f) {  // touching (0.01 mm): through a corner or the joint of two pieces, even at radius 0
      hit = true;
      return false;
    }
    if (d2 < best2) {
      best2 = d2;
      // Stop on the distance itself, not its square: the caller compares the
      // returned distance, and a square can round below while its root does not.
      if (dmath::sqrt(best2) < stop_below) return false;
    }
    return true;
  });
  if (hit) return -1.0f;
  return std::min(dmath::sqrt(best2), cap);
}

// Both ends on the floor and the segment keeps `radius` (>= 0) from every wall
// without touching one.
bool NavGrid::segment_keeps(Vec2 a, Vec2 b, float radius) const {
  if (!on_floor(a) || !on_floor(b)) return false;
  const float cl = clearance_of_segment(a, b, radius + 0.01f, radius);
  return cl > 0.0f && cl >= radius;
}

bool NavGrid::segment_clear(Vec2 a, Vec2 b, float radius) const {
  if (!finite(a) || !finite(b) || !finite(radius)) bad("segment_clear", "a point or the radius is NaN or infinite");
  return segment_keeps(a, b, std::max(radius, 0.0f));
}

float NavGrid::segment_clearance(Vec2 a, Vec2 b, float cap) const {
  if (!finite(a) || !finite(b) || !finite(cap)) bad("segment_clearance", "a point or the cap is NaN or infinite");
  if (!on_floor(a) || !on_floor(b)) return -1.0f;
  return clearance_of_segment(a, b, std::max(cap, 0.0f), -1.0f);
}

float NavGrid::comfort_factor(float clearance, float radius) {
  const float gap = clearance - radius;
  if (gap >= kComfortGap_m) return 1.0f;
  if (gap <= 0.0f) return kComfortMaxFactor;
  return 1.0f + (kComfortMaxFactor - 1.0f) * (kComfortGap_m - gap) / kComfortGap_m;
}

float NavGrid::lane_slack(Vec2 leg_start, Vec2 corner, Vec2 side_dir, float radius) const {
  if (!finite(leg_start) || !finite(corner) || !finite(side_dir) || !finite(radius))
    bad("lane_slack", "a point, the side or the radius is NaN or infinite");
  const float len = length(side_dir);
  if (!(len > 1e-6f)) return 0.0f;
  const Vec2 u = divided(side_dir, len);
  // Seed: "keeps the body and the 0.35 m comfort gap off every wall, plus half a nav cell" (G7).
  const float keep = std::max(radius, 0.0f) + kComfortGap_m;
  for (const float s : kLaneShifts_m)
    if (segment_keeps(leg_start, corner + u * s, keep)) {
      const float slack = s + 0.5f * cell_;
      return slack > kMaxSlack_m ? kMaxSlack_m : slack;
    }
  return 0.0f;
}

bool NavGrid::nearest_open_node(Vec2 p, float radius, Vec2* out, int32_t* cell_out) const {
  if (!finite(p) || !finite(radius)) bad("nearest_open_node", "the point or radius is NaN or infinite");
  // Rings of cells around p's cell (p clamped into the grid), nearest first.
  const int32_t ci = std::clamp(floor_to_int((p.x - origin_.x) / cell_), 0, nx_ - 1);
  const int32_t cj = std::clamp(floor_to_int((p.y - origin_.y) / cell_), 0, ny_ - 1);
  float best_d2 = kInf;
  int32_t best = -1;
  const int32_t max_ring = std::max(nx_, ny_);
  for (int32_t k = 0; k <= max_ring; ++k) {
    for (int32_t j = cj - k; j <= cj + k; ++j)
      for (int32_t i = ci - k; i <= ci + k; ++i) {
        if (j != cj - k && j != cj + k && i != ci - k && i != ci + k) continue;  // ring k only
        const int32_t c = cell_at(i, j);
        if (c < 0 || !cell_open(c, radius)) continue;
        const float d2 = sqr_length(node_[static_cast<std::size_t>(c)] - p);
        if (d2 < best_d2 || (d2 == best_d2 && c < best)) {
          best_d2 = d2;
          best = c;
        }
      }
    // Every cell of ring k + 1 is at least k cells from p (p in, or clamped to, the centre cell).
    const float bound = static_cast<float>(k) * cell_;
    if (best >= 0 && best_d2 <= bound * bound) break;
  }
  if (best < 0) return false;
  if (out) *out = node_[static_cast<std::size_t>(best)];
  if (cell_out) *cell_out = best;
  return true;
}

std::vector<int32_t> NavGrid::reachable_sets(float radius) const {
  if (!finite(radius) || radius < 0.0f || radius > kMaxRadius_m) bad("reachable_sets", "the radius must be 0 .. 1 m");
  const int32_t n = cell_count();
  std::vector<int32_t> label(static_cast<std::size_t>(n), -1);
  std::vector<int32_t> queue;
  for (int32_t c0 = 0; c0 < n; ++c0) {
    if (label[static_cast<std::size_t>(c0)] >= 0 || !cell_open(c0, radius)) continue;
    label[static_cast<std::size_t>(c0)] = c0;
    queue.assign(1, c0);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const int32_t c = queue[q];
      const int32_t ix = c % nx_, iy = c / nx_;
      for (int32_t d = 0; d < 8; ++d) {
        const int32_t b = cell_at(ix + kDx[d], iy + kDy[d]);
        if (b < 0 || label[static_cast<std::size_t>(b)] >= 0 || !cell_open(b, radius)) continue;
        if (!(edge_clear_[static_cast<std::size_t>(c) * 8 + static_cast<std::size_t>(d)] >= radius)) continue;
        label[static_cast<std::size_t>(b)] = c0;
        queue.push_back(b);
      }
    }
  }
  return label;
}

// ================================================================ soft costs

// The extra costs of one call: per cell, the plain cost, the direction form
// and the linear field (inside its window), summed.
struct NavGrid::Soft {
  const float* ex = nullptr;
  const DirCost* dc = nullptr;
  const LinearCost* lin = nullptr;
  int32_t lx0 = 0, ly0 = 0, lx1 = -1, ly1 = -1;
  const LinearField* view = nullptr;  // its overrides (zero and own cells)
  bool any() const { return ex || dc || lin; }
  static Soft make(const std::vector<float>* extra, const std::vector<DirCost>* dir, const LinearField* field,
                   int32_t nx, int32_t ny) {
    Soft s;
    s.ex = extra ? extra->data() : nullptr;
    s.dc = dir ? dir->data() : nullptr;
    if (field) {  // the window clipped to the grid; an empty window counts nothing
      s.lx0 = std::max(field->ix0, 0);
      s.ly0 = std::max(field->iy0, 0);
      s.lx1 = std::min(field->ix1, nx - 1);
      s.ly1 = std::min(field->iy1, ny - 1);
      if (s.lx0 <= s.lx1 && s.ly0 <= s.ly1) s.lin = field->cells->data();
      s.view = field;
    }
    return s;
  }
  // The linear field's cost of cell c (in the window), its overrides first.
  const LinearCost& linear(std::size_t uc, int32_t ix, int32_t iy) const {
    static const LinearCost kNone{};
    const LinearField& f = *view;
    if (ix >= f.zx0 && ix <= f.zx1 && iy >= f.zy0 && iy <= f.zy1) return kNone;
    if (f.zmask && f.zmask[uc]) return kNone;
    if (f.zmask2 && f.zmask2[uc]) return kNone;
    if (ix >= f.ox0 && ix <= f.ox1 && iy >= f.oy0 && iy <= f.oy1)
      return f.own[static_cast<std::size_t>((iy - f.oy0) * (f.ox1 - f.ox0 + 1) + (ix - f.ox0))];
    return lin[uc];
  }
  // One cell's costs, looked up once for the steps along several directions.
  struct Cell {
    float ex;
    const DirCost* dc;
    const LinearCost* lin;
    // A step along the unit u.
    float at(Vec2 u) const {
      float v = ex;
      if (dc) v += std::max(dc->per_metre(u), 0.0f);
      if (lin) v += lin->per_metre(u);
      return v;
    }
  };
  // Cell c at column ix, row iy.
  Cell cell(int32_t c, int32_t ix, int32_t iy) const {
    const std::size_t uc = static_cast<std::size_t>(c);
    return Cell{ex ? ex[uc] : 0.0f, dc ? &dc[uc] : nullptr,
                lin && ix >= lx0 && ix <= lx1 && iy >= ly0 && iy <= ly1 ? &linear(uc, ix, iy) : nullptr};
  }
  // Cell c at column ix, row iy, a step along the unit u.
  float at(int32_t c, int32_t ix, int32_t iy, Vec2 u) const { return cell(c, ix, iy).at(u); }
};


// The exact walk of a-b through the cells (Amanatides & Woo): the sum of the
// length inside each cell times its extra cost (every kind; null counts nothing).
float NavGrid::soft_segment(Vec2 a, Vec2 b, const Soft& soft) const {
  const Vec2 d = b - a;
  const float len = length(d);
  if (!(len > 0.0f) || !soft.any()) return 0.0f;
  const Vec2 u = divided(d, len);
  int32_t i = std::clamp(floor_to_int((a.x - origin_.x) / cell_), 0, nx_ - 1);
  int32_t j = std::clamp(floor_to_int((a.y - origin_.y) / cell_), 0, ny_ - 1);
  const int32_t si = d.x > 0.0f ? 1 : (d.x < 0.0f ? -1 : 0);
  const int32_t sj = d.y > 0.0f ? 1 : (d.y < 0.0f ? -1 : 0);
  float tx = kInf, ty = kInf, dtx = kInf, dty = kInf;
  if (si != 0) {
    const float edge = origin_.x + static_cast<float>(si > 0 ? i + 1 : i) * cell_;
    tx = (edge - a.x) / d.x;
    dtx = cell_ / (si > 0 ? d.x : -d.x);
  }
  if (sj != 0) {
    const float edge = origin_.y + static_cast<float>(sj > 0 ? j + 1 : j) * cell_;
    ty = (edge - a.y) / d.y;
    dty = cell_ / (sj > 0 ? d.y : -d.y);
  }
  float t = 0.0f, sum = 0.0f;
  for (;;) {
    const float tn = std::min(std::min(tx, ty), 1.0f);
    if (tn > t) sum += (tn - t) * soft.at(j * nx_ + i, i, j, u);
    if (tn >= 1.0f) break;
    t = std::max(t, tn);
    if (tx <= ty) {
      i += si;
      tx += dtx;
    } else {
      j += sj;
      ty += dty;
    }
    if (i < 0 || j < 0 || i >= nx_ || j >= ny_) break;
  }
  return sum * len;
}

float NavGrid::soft_cost(const std::vector<Vec2>& polyline, const std::vector<float>& extra_cost,
                         float max_length_m) const {
  return soft_cost(polyline, &extra_cost, nullptr, max_length_m);
}

float NavGrid::soft_cost(const std::vector<Vec2>& polyline, const LinearField& lin, float max_length_m) const {
  return soft_cost(polyline, nullptr, nullptr, max_length_m, &lin);
}

float NavGrid::soft_cost(const std::vector<Vec2>& polyline, const std::vector<float>* extra_cost,
                         const std::vector<DirCost>* dir_cost, float max_length_m, const LinearField* lin) const {
  check_costs("soft_cost", extra_cost, dir_cost, lin);
  const Soft soft = Soft::make(extra_cost, dir_cost, lin, nx_, ny_);
  float left = max_length_m, sum = 0.0f;
  for (std::size_t k = 0; k + 1 < polyline.size() && left > 0.0f; ++k) {
    const Vec2 a = polyline[k];
    Vec2 b = polyline[k + 1];
    if (!finite(a) || !finite(b)) bad("soft_cost", "a point is NaN or infinite");
    const float len = distance(a, b);
    if (len > left) {
      b = a + (b - a) * (left / len);
      left = 0.0f;
    } else {
      left -= len;
    }
    sum += soft_segment(a, b, soft);
  }
  return sum;
}

void NavGrid::check_costs(const char* where, const std::vector<float>* extra, const std::vector<DirCost>* dir,
                          const LinearField* lin) const {
  const std::size_t un = static_cast<std::size_t>(cell_count());
  if (lin && (!lin->cells || lin->cells->size() != un))
    bad(where, "the linear field has " + std::to_string(lin->cells ? lin->cells->size() : 0) + " values, the grid has " +
                   std::to_string(un) + " cells");
  if (extra) {
    if (extra->size() != un)
      bad(where, "extra_cost has " + std::to_string(extra->size()) + " values, the grid has " + std::to_string(un) +
                     " cells");
    for (std::size_t c = 0; c < un; ++c) {
      const float v = (*extra)[c];
      if (!finite(v) || v < 0.0f || v > kMaxExtraCost)
        bad(where, "extra_cost[" + std::to_string(c) + "] must be 0 .. 1e6 per metre, got " + std::to_string(v));
    }
  }
  if (dir) {
    if (dir->size() != un)
      bad(where, "dir_cost has " + std::to_string(dir->size()) + " values, the grid has " + std::to_string(un) +
                     " cells");
    for (std::size_t c = 0; c < un; ++c) {
      const DirCost& q = (*dir)[c];
      const bool ok = finite(q.xx) && finite(q.xy) && finite(q.yy) && q.xx >= 0.0f && q.yy >= 0.0f &&
                      q.xx <= kMaxExtraCost && q.yy <= kMaxExtraCost && q.xy * q.xy <= q.xx * q.yy * 1.0001f + 1e-12f;
      if (!ok)
        bad(where, "dir_cost[" + std::to_string(c) + "] must be finite, 0 .. 1e6 per metre and never negative (xy^2 <= xx*yy)");
    }
  }
}

float NavGrid::path_length(const std::vector<Vec2>& polyline) {
  float sum = 0.0f;
  for (std::size_t k = 0; k + 1 < polyline.size(); ++k) sum += distance(polyline[k], polyline[k + 1]);
  return sum;
}

// ================================================================ search

// The open heap: an indexed 4-ary heap of nodes (each at most once, a lower
// cost moves it up), each entry carrying its keys. It orders by f, then larger
// g (deeper first), then lower node index: a total order, so the order of pops
// depends on the keys alone, not on the heap's shape.
bool NavGrid::heap_before(const HeapEntry& x, const HeapEntry& y) {
  if (x.f != y.f) return x.f < y.f;
  if (x.g != y.g) return x.g > y.g;
  return x.node < y.node;
}

void NavGrid::heap_sift_up(Scratch& s, std::size_t i) {
  const HeapEntry v = s.heap[i];
  while (i > 0) {
    const std::size_t p = (i - 1) / 4;
    if (!heap_before(v, s.heap[p])) break;
    s.heap[i] = s.heap[p];
    s.node[static_cast<std::size_t>(s.heap[i].node)].hpos = static_cast<int32_t>(i);
    i = p;
  }
  s.heap[i] = v;
  s.node[static_cast<std::size_t>(v.node)].hpos = static_cast<int32_t>(i);
}

// Push `node` with the key f (not yet in the heap: its hpos < 0) or move it up after its f fell.
void NavGrid::heap_update(Scratch& s, int32_t node, int64_t f) {
  Node& nd = s.node[static_cast<std::size_t>(node)];
  if (nd.hpos < 0) {
    s.heap.push_back(HeapEntry{f, nd.g, node});
    nd.hpos = static_cast<int32_t>(s.heap.size() - 1);
  } else {
    HeapEntry& he = s.heap[static_cast<std::size_t>(nd.hpos)];
    he.f = f;
    he.g = nd.g;
  }
  heap_sift_up(s, static_cast<std::size_t>(nd.hpos));
}

int32_t NavGrid::heap_pop(Scratch& s) {
  const int32_t top = s.heap[0].node;
  s.node[static_cast<std::size_t>(top)].hpos = -1;
  const HeapEntry last = s.heap.back();
  s.heap.pop_back();
  const std::size_t n = s.heap.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    const std::size_t c0 = 4 * i + 1;
    if (c0 >= n) break;
    const std::size_t c1 = std::min(c0 + 4, n);
    std::size_t m = c0;  // the least child
    for (std::size_t c = c0 + 1; c < c1; ++c)
      if (heap_before(s.heap[c], s.heap[m])) m = c;
    if (!heap_before(s.heap[m], last)) break;
    s.heap[i] = s.heap[m];
    s.node[static_cast<std::size_t>(s.heap[i].node)].hpos = static_cast<int32_t>(i);
    i = m;
  }
  s.heap[i] = last;
  s.node[static_cast<std::size_t>(last.node)].hpos = static_cast<int32_t>(i);
  return top;
}

std::vector<Vec2> NavGrid::find_path(Vec2 a, Vec2 goal, float radius, const std::vector<float>* extra_cost,
                                     const std::vector<DirCost>* dir_cost, const LinearField* lin) const {
  check_costs("find_path", extra_cost, dir_cost, lin);
  return search_path(a, goal, radius, extra_cost, dir_cost, lin);
}

CheckedDirCosts NavGrid::check_dir_costs(std::vector<DirCost> cells) const {
  check_costs("check_dir_costs", nullptr, &cells, nullptr);
  return CheckedDirCosts(std::move(cells));
}

std::vector<Vec2> NavGrid::find_path(Vec2 a, Vec2 goal, float radius, const CheckedDirCosts& dir_cost, const LinearField* lin) const {
  const std::size_t un = static_cast<std::size_t>(cell_count());
  if (dir_cost.cells().size() != un)
    bad("find_path", "the checked dir_cost has " + std::to_string(dir_cost.cells().size()) + " values, the grid has " +
                         std::to_string(un) + " cells");
  check_costs("find_path", nullptr, nullptr, lin);
  return search_path(a, goal, radius, nullptr, &dir_cost.cells(), lin);
}

std::vector<Vec2> NavGrid::search_path(Vec2 a, Vec2 goal, float radius, const std::vector<float>* extra_cost,
                                       const std::vector<DirCost>* dir_cost, const LinearField* lin) const {
  if (!finite(a)) bad("find_path", "the start point is NaN or infinite");
  if (!finite(goal)) bad("find_path", "the goal point is NaN or infinite");
  if (!finite(radius) || radius < 0.0f || radius > kMaxRadius_m)
    bad("find_path", "the radius must be 0 .. " + std::to_string(kMaxRadius_m) + " m, got " + std::to_string(radius));
  const Soft sc = Soft::make(extra_cost, dir_cost, lin, nx_, ny_);
  std::unique_ptr<Scratch> held = take_scratch();
  Scratch& s = *held;
  s.stats = SearchStats{};
  if (++s.stamp == 0) {  // wrapped: clear the marks once every 2^32 searches
    for (Node& nd : s.node) nd.seen = nd.closed = 0;
    std::fill(s.goal_mark.begin(), s.goal_mark.end(), 0u);
    s.stamp = 1;
  }
  std::vector<Vec2> out;
  Ends ends;
  if (link_ends(a, goal, radius, sc, ends, s) && search(ends, radius, sc, s)) {
    s.stats.cost = static_cast<float>(s.node[static_cast<std::size_t>(cell_count())].g) / 1000.0f;
    std::vector<Vec2> raw;
    std::vector<float> seg_clear;
    grid_path(ends, raw, seg_clear, s);
    s.stats.raw_points = static_cast<int32_t>(raw.size());
    out = raw.size() == 1 ? std::vector<Vec2>{ends.start_pt, ends.goal_pt} : pull_string(raw, seg_clear, ends, radius, sc, s);
  }
  const SearchStats stats = s.stats;
  give_scratch(std::move(held), stats);
  return out;
}

// ---- find_path's phases

// The links from an end point to the open nodes of its 3 x 3 cells that it sees in a straight line. The
// link need only keep min(radius, the end's own clearance), so a walker pressed against a wall can still
// step off it. An end with no link is snapped to the nearest open node; false when there is none.
bool NavGrid::link_ends(Vec2 a, Vec2 goal, float radius, const Soft& sc, Ends& e, Scratch& s) const {
  const bool soft = sc.any();
  // Extra cost per metre in cell c for a step along the unit u.
  auto soft_at = [&](int32_t c, Vec2 u) { return sc.at(c, c % nx_, c / nx_, u); };
  auto links_of = [&](Vec2 p, float* p_clear, std::vector<Link>* out) {
    out->clear();
    *p_clear = on_floor(p) ? nearest_wall(p, kClearanceCap_m) : -1.0f;
    if (!(*p_clear > 0.0f)) return;
    const float need = std::min(radius, *p_clear);
    const int32_t pi = floor_to_int((p.x - origin_.x) / cell_), pj = floor_to_int((p.y - origin_.y) / cell_);
    const int32_t pc = cell_index(p);
    // The 3 x 3 cells round p; when none is reachable (a thin wall through
    // p's cell), the 5 x 5 ring round them.
    for (int32_t reach = 1; reach <= 2 && out->empty(); ++reach)
      for (int32_t dj = -reach; dj <= reach; ++dj)
        for (int32_t di = -reach; di <= reach; ++di) {
          if (reach == 2 && di > -2 && di < 2 && dj > -2 && dj < 2) continue;  // done at reach 1
          const int32_t c = cell_at(pi + di, pj + dj);
          if (c < 0 || !cell_open(c, radius)) continue;
          const Vec2 q = node_[static_cast<std::size_t>(c)];
          const float cl = clearance_of_segment(p, q, radius + kComfortGap_m, need);
          if (!(cl > 0.0f) || cl < need) continue;
          const float len = distance(p, q);
          float per_m = 0.0f;
          if (soft && len > 0.0f) {
            const Vec2 u = divided(q - p, len);
            per_m = 0.5f * ((pc >= 0 ? soft_at(pc, u) : 0.0f) + soft_at(c, u));
          }
          out->push_back({c, to_mm(len * (comfort_factor(cl, radius) + per_m))});
        }
  };

  e.start_pt = a;
  e.goal_pt = goal;
  links_of(a, &e.start_clear, &e.start_links);
  if (e.start_links.empty()) {
    int32_t c;
    if (!nearest_open_node(a, radius, &e.start_pt, &c)) return false;
    e.start_links.push_back({c, 0});
    s.stats.start_snapped = true;
  }
  links_of(goal, &e.goal_clear, &e.goal_links);
  if (e.goal_links.empty()) {
    int32_t c;
    if (!nearest_open_node(goal, radius, &e.goal_pt, &c)) return false;
    e.goal_links.push_back({c, 0});
    s.stats.goal_snapped = true;
  }
  for (const Link& l : e.goal_links) {
    s.goal_mark[static_cast<std::size_t>(l.cell)] = s.stamp;
    s.goal_link[static_cast<std::size_t>(l.cell)] = l.cost;
  }
  return true;
}

// A* from the start links to the goal (node n, reached through the goal links); the costs and parents
// are left in s.g and s.parent. False when the goal cannot be reached.
bool NavGrid::search(const Ends& e, float radius, const Soft& sc, Scratch& s) const {
  // ---- A*: nodes 0 .. n-1 are cells, n is the goal. A step between
  // neighbouring cells costs its nominal length (one cell straight, cell * sqrt 2
  // diagonal) times (comfort factor + the mean extra cost of the two cells); the
  // straight line between the nodes is only what the clearance is measured on.
  // So h, the octile distance in cells to the box of the goal-linked cells, is
  // admissible and consistent.
  const int32_t kGoal = cell_count();
  const uint32_t st = s.stamp;
  const bool soft = sc.any();
  s.heap.clear();
  int32_t gx0 = nx_, gy0 = ny_, gx1 = -1, gy1 = -1;
  for (const Link& l : e.goal_links) {
    gx0 = std::min(gx0, l.cell % nx_);
    gx1 = std::max(gx1, l.cell % nx_);
    gy0 = std::min(gy0, l.cell / nx_);
    gy1 = std::max(gy1, l.cell / nx_);
  }
  const int64_t step_mm[2] = {to_mm(cell_), to_mm(cell_ * 1.41421356f)};
  const float step_mm_f[2] = {static_cast<float>(step_mm[0]), static_cast<float>(step_mm[1])};
  auto heuristic = [&](int32_t ix, int32_t iy) {
    const int32_t dx = std::max({gx0 - ix, 0, ix - gx1}), dy = std::max({gy0 - iy, 0, iy - gy1});
    const int32_t lo = std::min(dx, dy), hi = std::max(dx, dy);
    return static_cast<int64_t>(hi - lo) * step_mm[0] + static_cast<int64_t>(lo) * step_mm[1];
  };
  for (const Link& l : e.start_links) {
    const std::size_t uc = static_cast<std::size_t>(l.cell);
    const int64_t h = heuristic(l.cell % nx_, l.cell / nx_);
    if (s.node[uc].seen == st && s.node[uc].g <= l.cost) continue;
    if (s.node[uc].seen != st) s.node[uc].hpos = -1;
    s.node[uc].seen = st;
    s.node[uc].g = l.cost;
    s.node[uc].parent = -1;
    heap_update(s, l.cell, l.cost + h);
  }
  bool reached = false;
  while (!s.heap.empty()) {
    const int32_t node = heap_pop(s);
    const std::size_t ue = static_cast<std::size_t>(node);
    s.node[ue].closed = st;
    ++s.stats.expanded;
    if (node == kGoal) {
      reached = true;
      break;
    }
    const int64_t gc = s.node[ue].g;
    if (s.goal_mark[ue] == st) {
      const int64_t ng = gc + s.goal_link[ue];
      const std::size_t ug = static_cast<std::size_t>(kGoal);
      if (s.node[ug].seen != st || ng < s.node[ug].g) {
        if (s.node[ug].seen != st) s.node[ug].hpos = -1;
        s.node[ug].seen = st;
        s.node[ug].g = ng;
        s.node[ug].parent = node;
        heap_update(s, kGoal, ng);
      }
    }
    const int32_t ix = node % nx_, iy = node / nx_;
    const Soft::Cell here = soft ? sc.cell(node, ix, iy) : Soft::Cell{};
    for (int32_t d = 0; d < 8; ++d) {
      const float cl = edge_clear_[ue * 8 + static_cast<std::size_t>(d)];
      if (cl < radius || cl < 0.0f) continue;
      const int32_t bx = ix + kDx[d], by = iy + kDy[d];
      const int32_t b = by * nx_ + bx;
      const std::size_t ub = static_cast<std::size_t>(b);
      if (s.node[ub].closed == st) continue;
      float per_m = comfort_factor(cl, radius);
      if (soft) per_m += 0.5f * (here.at(kDir[d]) + sc.cell(b, bx, by).at(kDir[d]));
      const int64_t ng = gc + to_mm_steps(step_mm_f[d & 1] * per_m);
      const int64_t h = heuristic(bx, by);
      if (s.node[ub].seen == st && !(ng < s.node[ub].g)) continue;
      if (s.node[ub].seen != st) s.node[ub].hpos = -1;
      s.node[ub].seen = st;
      s.node[ub].g = ng;
      s.node[ub].parent = node;
      heap_update(s, b, ng + h);
    }
  }
  return reached;
}

// The grid path: start, the nodes, goal, with seg_clear[k] what the step k -> k+1 keeps from the walls.
void NavGrid::grid_path(const Ends& e, std::vector<Vec2>& raw, std::vector<float>& seg_clear, Scratch& s) const {
  // ---- the grid path: start, the nodes, goal. seg_clear[k] is what the step
  // k -> k+1 keeps from the walls (the links from and to the end points are
  // not counted: the walker stands where it stands).
  std::vector<int32_t> cells;
  for (int32_t c = s.node[static_cast<std::size_t>(cell_count())].parent; c >= 0; c = s.node[static_cast<std::size_t>(c)].parent) cells.push_back(c);
  std::reverse(cells.begin(), cells.end());
  raw.push_back(e.start_pt);
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const Vec2 q = node_[static_cast<std::size_t>(cells[k])];
    if (k == 0 && s.stats.start_snapped) continue;  // start_pt is this node
    float cl = kInf;
    if (k > 0) {
      const int32_t c0 = cells[k - 1], c1 = cells[k];
      const int32_t ddx = c1 % nx_ - c0 % nx_, ddy = c1 / nx_ - c0 / nx_;
      for (int32_t d = 0; d < 8; ++d)
        if (kDx[d] == ddx && kDy[d] == ddy) cl = edge_clear_[static_cast<std::size_t>(c0) * 8 + static_cast<std::size_t>(d)];
    }
    seg_clear.push_back(cl);
    raw.push_back(q);
  }
  if (!s.stats.goal_snapped) {
    seg_clear.push_back(kInf);
    raw.push_back(e.goal_pt);
  }
}

// String-pulling of the grid path (the rules below).
std::vector<Vec2> NavGrid::pull_string(const std::vector<Vec2>& raw, const std::vector<float>& seg_clear, const Ends& e,
                                       float radius, const Soft& sc, Scratch& s) const {
  const bool soft = sc.any();
  // ---- string-pulling, greedy forward from an anchor. A cut anchor -> k is kept when
  //  1. the body clears every wall (radius, or less at a start or goal that is
  //     itself nearer a wall);
  //  2. it comes no nearer any wall than the grid path over that stretch did,
  //     up to radius + the 0.35 m comfort gap: a wall within that of the cut
  //     must have been at least as near some step of the stretch (the first
  //     and last link's length at a start or goal are exempt: the walker is
  //     already there);
  //  3. with soft costs, its length + soft cost is no more than the stretch's.
  const std::size_t m = raw.size();
  std::vector<float> total;  // prefix sums of length + soft cost along the grid path
  if (soft) {
    total.assign(m, 0.0f);
    for (std::size_t k = 0; k + 1 < m; ++k)
      total[k + 1] = total[k] + distance(raw[k], raw[k + 1]) + soft_segment(raw[k], raw[k + 1], sc);
  }
  const bool start_real = !s.stats.start_snapped, goal_real = !s.stats.goal_snapped;
  const float start_trim = start_real ? distance(raw[0], raw[1]) : 0.0f;
  const float goal_trim = goal_real ? distance(raw[m - 2], raw[m - 1]) : 0.0f;
  // Rule 3: length + soft cost of the cut raw[i] -> raw[k] against the stretch's.
  auto soft_ok = [&](std::size_t i, std::size_t k, float len) {
    if (!soft) return true;
    const float cut = len + soft_segment(raw[i], raw[k], sc);
    return !(cut > (total[k] - total[i]) * 1.00001f + 1e-5f);
  };
  // Rule 2 where the stretch did not keep the whole gap: every wall nearer
  // the cut p0 -> p1 than `hi` must have been as near (1 mm slack) a step of
  // the stretch raw[i] .. raw[k] that itself came nearer a wall than `hi`.
  std::vector<int32_t> checked;
  auto comfort_kept = [&](Vec2 p0, Vec2 p1, std::size_t i, std::size_t k, float hi) {
    checked.clear();
    bool ok = true;
    visit_buckets(p0, p1, hi, [&](int32_t sg) {
      for (const int32_t c : checked)
        if (c == sg) return true;
      checked.push_back(sg);
      const WallSegment& w = segs_[static_cast<std::size_t>(sg)];
      const float d = dmath::sqrt(segment_sqr_distance(p0, p1, w.a, w.b));
      if (!(d < hi)) return true;
      float allowed = hi;
      for (std::size_t j = i; j < k && allowed > d; ++j)
        if (seg_clear[j] < hi) allowed = std::min(allowed, dmath::sqrt(segment_sqr_distance(raw[j], raw[j + 1], w.a, w.b)));
      if (d < allowed - 1e-3f) ok = false;
      return ok;
    });
    return ok;
  };
  auto cut_ok = [&](std::size_t i, std::size_t k, float stretch_min) {
    const Vec2 p = raw[i], q = raw[k];
    float body = radius;
    if (i == 0 && start_real) body = std::min(body, e.start_clear);
    if (k == m - 1 && goal_real) body = std::min(body, e.goal_clear);
    const float hi = radius + kComfortGap_m;
    const float len = distance(p, q);
    if (!(len > 0.0f)) return true;  // the goal is where the walker stands
    float t0 = 0.0f, t1 = 1.0f;
    if (i == 0 && start_real) t0 = start_trim / len;
    if (k == m - 1 && goal_real) t1 = 1.0f - goal_trim / len;
    const bool trimmed = t0 > 0.0f || t1 < 1.0f;
    // Rule 3 first: it is the cheaper test (the rules are all required, so the order changes no result).
    if (!soft_ok(i, k, len)) return false;
    if (!(stretch_min < hi)) {
      // The stretch kept the whole comfort gap: so must the cut.
      if (!trimmed) return segment_keeps(p, q, std::max(body, hi));
      if (!segment_keeps(p, q, body)) return false;
      return !(t0 < t1 && !segment_keeps(p + (q - p) * t0, p + (q - p) * t1, hi));
    }
    if (!segment_keeps(p, q, body)) return false;
    return !(t0 < t1 && !comfort_kept(p + (q - p) * t0, p + (q - p) * t1, i, k, hi));
  };
  std::vector<Vec2> out{raw[0]};
  std::size_t anchor = 0;
  float stretch_min = seg_clear[0];
  std::size_t k = 1;  // raw[k] is reachable from the anchor; try raw[k + 1]
  while (k + 1 < m) {
    const float next_min = std::min(stretch_min, seg_clear[k]);
    if (cut_ok(anchor, k + 1, next_min)) {
      stretch_min = next_min;
      ++k;
    } else {
      out.push_back(raw[k]);
      anchor = k;
      stretch_min = seg_clear[k];
      ++k;
    }
  }
  out.push_back(raw[m - 1]);
  return out;
}

}  // namespace lockstep::station
