// The force law (docs/station-forces.md): a social-force model after Helbing,
// Farkas & Vicsek (2000), sub-stepped, with sums in fixed point so that no
// result depends on the order of walkers; sight yaw; the integrator that
// refuses a step into a solid.
#include <algorithm>
#include <cstring>
#include <limits>

#include "station/station.h"

namespace lockstep::station {

namespace {

// A fare gate's mouth is no wall to the walker bound through that gate (S45):
// no force, no contact, no wall gap, and it may step across.
bool gate_of(const Wall& wl, const Walker& w) { return wl.kind == WallKind::GateMouth && wl.blocker == w.gate; }

// The far end of the stair a walker is bound through pushes it not at all (no
// soft force, no contact, no wall gap): its centre walks up to the landing
// line, where it is handed over (seed 002: "so a walker can sit right on the
// line"; spec note S31). The integrator still keeps the centre from crossing.
bool landing_of(const Wall& wl, const Walker& w) {
  return (wl.kind == WallKind::Landing && wl.blocker == w.via) || gate_of(wl, w);
}

// A wall whose soft force and wall gap a walker does not feel (contacts still
// act): the obstacle or hole a recovery mutes (seed 002, Recovery), and the
// landing it is bound through.
bool soft_muted(const Wall& wl, const Walker& w) {
  if (wl.kind == WallKind::Landing || wl.kind == WallKind::GateMouth) return landing_of(wl, w);
  return wl.blocker >= 0 && wl.blocker == w.ignore_blocker && (wl.kind == WallKind::Obstacle || wl.kind == WallKind::Hole);
}

// ---- parameters (docs/station-forces.md has each one's source)
constexpr float kMass = 80.0f;            ///< kg, HFV 2000
constexpr float kTau = 0.5f;              ///< s relaxation time, HFV 2000
constexpr float kA = 2000.0f;             ///< N, social repulsion strength, HFV 2000
constexpr float kB = 0.08f;               ///< m, its range, HFV 2000
constexpr float kWallB = 0.06f;           ///< m, the soft wall force's range: fitted on the bottleneck runs (docs/station-forces.md, S27)
constexpr float kBodyK = 1.2e5f;          ///< kg/s^2, body compression, HFV 2000
constexpr float kKappa = 2.4e5f;          ///< kg/(m s), sliding friction, HFV 2000
constexpr float kLambda = 0.5f;           ///< anisotropy: weight behind (HM 1995's 0.5 outside the field of view)
constexpr float kSocialRange = 1.0f;      ///< m of gap beyond which A exp(gap/B) (< 0.01 N) is dropped
constexpr float kMoveMargin = 0.3f;       ///< m of motion within a tick the neighbour lists allow for
constexpr float kSkin = 0.02f;            ///< m: a centre may not come closer than this to a wall line
// Sight (docs/station-forces.md, "Sight yaw").
constexpr float kSightRange = 4.0f;       ///< m ahead
constexpr float kSightMargin = 0.3f;      ///< m added to the two radii: the lateral clearance wanted
constexpr float kSameWaySpeed = 0.3f;     ///< m/s along my heading: someone going my way
constexpr float kOvertakeMargin = 0.2f;   ///< m/s slower than my desired speed: overtake
constexpr float kPassMargin = 0.1f;       ///< m between bodies when overtaking (S22)
constexpr float kPassClear = 0.05f;       ///< m: the overtaking line is open when nobody else is nearer (S22)
constexpr float kSidestepMaxYaw = 0.6f;   ///< rad (34 degrees)
constexpr float kFollowMaxYaw = 0.25f;    ///< rad (14 degrees)
constexpr float kDepth = 0.75f;           ///< a body's half-depth along its motion over its radius r (S28; docs/station-forces.md, "The body's shape")

// Fixed-point accumulation (2^-32 m/s^2): integer sums are associative, so a
// walker's total does not depend on the order its neighbours are visited in.
constexpr float kFix = 4294967296.0f;  // 2^32
constexpr float kFixInv = 1.0f / 4294967296.0f;
constexpr float kFixClamp = 1.0e6f;  // m/s^2, far beyond any contact
inline int64_t to_fix(float a) {
  // Clamped in float first: |a| <= 1e6 is under 2^52 units, inside int64.
  a = a > kFixClamp ? kFixClamp : (a < -kFixClamp ? -kFixClamp : a);
  return static_cast<int64_t>(a * kFix);
}
// A walker's sum: 128-bit, so that no number of neighbours and walls can
// overflow it (every term is at most 2^52 units: an int64 would overflow after
// 2,048 clamped terms, and a scenario may place that many bodies in a pile),
// and still associative, so the total does not depend on the order. Clamped to
// int64 before the conversion: inside that range (every run that is not
// such a pile) the result is the int64 sum's, bit for bit.
__extension__ typedef __int128 FixSum;
inline float from_fix(FixSum v) {
  constexpr FixSum lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  return static_cast<float>(static_cast<int64_t>(v < lo ? lo : (v > hi ? hi : v))) * kFixInv;
}

}  // namespace

// The body's shape (docs/station-forces.md, S28, S59): its extent from the
// centre toward the unit direction n is its half-width wd across its axis (the
// way it moves this tick, move_dir_) and kDepth r along it,
// wd - (wd - kDepth r) (n.axis)^2 between; a body with no axis is a disc of
// radius wd.
inline float extent(float wd, float r, V2 axis, V2 n) {
  if (axis == V2{}) return wd;
  const float c = dot(n, axis);
  return wd - (wd - kDepth * r) * c * c;
}

void StationModel::rebuild_neighbours() {
  // A uniform grid rebuilt each step (cells of half the force's reach, at
  // least 1 m; below), filled in walker index order: deterministic iteration.
  const auto n = static_cast<uint32_t>(state_.walkers.size());
  float maxr = 0.0f, minx = 0, miny = 0, maxx = 0, maxy = 0;
  for (std::size_t f = 0; f < floors_.size(); ++f) {
    const auto& g = floors_[f];
    if (f == 0 || g.minx < minx) minx = g.minx;
    if (f == 0 || g.miny < miny) miny = g.miny;
    if (f == 0 || g.maxx > maxx) maxx = g.maxx;
    if (f == 0 || g.maxy > maxy) maxy = g.maxy;
  }
  // The largest walking radius: each range's, then theirs (a maximum does not depend on the order).
  const uint32_t ranges = (n + kGrain - 1) / kGrain;
  range_max_.assign(ranges, 0.0f);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    float m = 0.0f;
    for (uint32_t i = begin; i < end; ++i) {
      const Walker& w = state_.walkers[i];
      if (w.phase == Phase::Walking && w.radius > m) m = w.radius;
    }
    range_max_[begin / kGrain] = m;
  });
  for (const float m : range_max_)
    if (m > maxr) maxr = m;
  max_radius_ = maxr;
  CellGrid& gr = walker_grid_;
  // Cells of half the force's reach (at least 1 m), so the force neighbours lie
  // within two cells and sight's and the headway's corridors cover few cells;
  // doubled while the grid would have more than 2^24 cells (floors lie within
  // +-10 km, the scenario's limit). Which cells a walker is listed in changes no
  // result: every scan's outcome is independent of the order it meets its
  // candidates in (docs/station-forces.md, "Order independence").
  const float need = 2.0f * maxr + kSocialRange + kMoveMargin;
  gr.cell = need > 2.0f ? 0.5f * need : 1.0f;
  gr.x0 = minx - 1.0f;
  gr.y0 = miny - 1.0f;
  for (;;) {
    gr.nx = static_cast<int32_t>((maxx + 1.0f - gr.x0) / gr.cell) + 1;
    gr.ny = static_cast<int32_t>((maxy + 1.0f - gr.y0) / gr.cell) + 1;
    if (static_cast<int64_t>(gr.nx) * gr.ny <= (int64_t{1} << 24)) break;
    gr.cell *= 2.0f;
  }
  const int32_t span = need <= gr.cell ? 1 : 2;  // cells to each side that hold every force neighbour
  const std::size_t ncell = static_cast<std::size_t>(gr.nx) * static_cast<std::size_t>(gr.ny);
  // Each walker's cell on the pool; then the cells' counts and lists in walker order.
  constexpr uint32_t kNoCell = std::numeric_limits<uint32_t>::max();
  cell_of_.resize(n);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i) {
      const Walker& w = state_.walkers[i];
      // cx, cy clip any position to the grid (a body pushed off its floor is counted in an edge cell).
      cell_of_[i] = w.phase == Phase::Walking ? static_cast<uint32_t>(gr.cy(w.pos.y) * gr.nx + gr.cx(w.pos.x)) : kNoCell;
    }
  });
  gr.start.assign(ncell + 1, 0);
  for (uint32_t i = 0; i < n; ++i)
    if (cell_of_[i] != kNoCell) ++gr.start[cell_of_[i] + 1];
  for (std::size_t c = 0; c < ncell; ++c) gr.start[c + 1] += gr.start[c];
  gr.items.assign(gr.start[ncell], 0);
  std::vector<uint32_t> fill(gr.start.begin(), gr.start.end() - 1);
  for (uint32_t i = 0; i < n; ++i)
    if (cell_of_[i] != kNoCell) gr.items[fill[cell_of_[i]]++] = i;
  walker_spots_.resize(gr.items.size());
  parallel_ranges(workers_, static_cast<uint32_t>(gr.items.size()), kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t k = begin; k < end; ++k) {
      const Walker& o = state_.walkers[gr.items[k]];
      walker_spots_[k] = WalkerSpot{o.pos, o.radius, o.flight < 0 ? o.floor : WalkerSpot::kOnFlight};
    }
  });

  // Force neighbours (within r_i + r_j + the social range + the motion margin) and nearby
  // walls, once per tick: each range of walkers lists its own into its own buffers (workers.h),
  // which are joined afterwards in range order, so the lists are those of one pass in walker order.
  // The buffers are members, cleared not freed: their memory is reused tick after tick.
  auto& nb_part = list_parts_[0];
  auto& wall_part = list_parts_[1];
  if (nb_part.size() < ranges) nb_part.resize(ranges), wall_part.resize(ranges);
  for (uint32_t r = 0; r < ranges; ++r) nb_part[r].clear(), wall_part[r].clear();
  auto& nb_count = list_counts_[0];
  auto& wall_count = list_counts_[1];
  nb_count.assign(n, 0);
  wall_count.assign(n, 0);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    // The range's buffers are filled through vectors of its own (their memory moved in and back
    // out): the vectors' headers lie side by side in nb_part and wall_part, several to a cache
    // line, and two threads appending through them would pass that line to and fro at every entry.
    std::vector<uint32_t> nbs = std::move(nb_part[begin / kGrain]);
    std::vector<uint32_t> walls = std::move(wall_part[begin / kGrain]);
    for (uint32_t i = begin; i < end; ++i) {
      const Walker& w = state_.walkers[i];
      if (w.phase != Phase::Walking) continue;
      const std::size_t nb0 = nbs.size(), wall0 = walls.size();
      const int32_t cx = gr.cx(w.pos.x), cy = gr.cy(w.pos.y);
      const CellGrid::Box around{std::max(cx - span, 0), std::min(cx + span, gr.nx - 1), std::max(cy - span, 0),
                                 std::min(cy + span, gr.ny - 1)};
      gr.each_at(around, [&](uint32_t k, uint32_t j) {
        if (j == i) return true;
        const WalkerSpot& o = walker_spots_[k];
        if (!meets(w, o, j, kPushHeight)) return true;
        const float reach = w.radius + o.radius + kSocialRange + kMoveMargin;
        if (sqr_length(o.pos - w.pos) < reach * reach) nbs.push_back(j);
        return true;
      });
      gather_walls(i, walls);
      nb_count[i] = static_cast<uint32_t>(nbs.size() - nb0);
      wall_count[i] = static_cast<uint32_t>(walls.size() - wall0);
    }
    nb_part[begin / kGrain] = std::move(nbs);
    wall_part[begin / kGrain] = std::move(walls);
  });
  nb_start_.assign(n + 1, 0);
  wall_start_.assign(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    nb_start_[i + 1] = nb_start_[i] + nb_count[i];
    wall_start_[i + 1] = wall_start_[i] + wall_count[i];
  }
  nb_items_.clear();
  wall_items_.clear();
  nb_items_.reserve(nb_start_[n]);
  wall_items_.reserve(wall_start_[n]);
  for (uint32_t r = 0; r < ranges; ++r) {
    nb_items_.insert(nb_items_.end(), nb_part[r].begin(), nb_part[r].end());
    wall_items_.insert(wall_items_.end(), wall_part[r].begin(), wall_part[r].end());
  }
}

void StationModel::gather_walls(uint32_t i, std::vector<uint32_t>& out) const {
  const Walker& w = state_.walkers[i];
  const FloorGeom& fl = floors_[w.floor];
  const CellGrid& gr = fl.wall_grid;
  const float reach = w.radius + kSocialRange + kMoveMargin;
  const std::size_t first = out.size();
  gr.each(gr.box(w.pos.x - reach, w.pos.y - reach, w.pos.x + reach, w.pos.y + reach), [&](uint32_t k) {
    const Wall& wl = fl.walls[k];
    if (sqr_length(closest_on_segment(w.pos, wl.a, wl.b) - w.pos) < reach * reach) out.push_back(k);
    return true;
  });
  // A wall listed by several cells once, in wall order.
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
  out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(first), out.end()), out.end());
}

namespace {
// The walker-grid cells under a corridor: from `from` along the unit e for
// `reach` metres, `half` metres to each side.
CellGrid::Box corridor_cells(const CellGrid& gr, V2 from, V2 e, float half, float reach) {
  const V2 nl = left_of(e);
  const V2 c0 = from + nl * half, c1 = from - nl * half, c2 = c0 + e * reach, c3 = c1 + e * reach;
  return gr.box(std::min(std::min(c0.x, c1.x), std::min(c2.x, c3.x)), std::min(std::min(c0.y, c1.y), std::min(c2.y, c3.y)),
                std::max(std::max(c0.x, c1.x), std::max(c2.x, c3.x)), std::max(std::max(c0.y, c1.y), std::max(c2.y, c3.y)));
}

// Follow (S21): only someone I would walk into (lateral offset s within the
// two radii l) turns me, toward the line behind them, at most 0.25 rad; a
// walker beside that line keeps its own lane.
float follow_yaw(float s, float a, float l) {
  if (s >= l || s <= -l) return 0.0f;
  const float yaw = dmath::atan2(s, a);
  return yaw > kFollowMaxYaw ? kFollowMaxYaw : (yaw < -kFollowMaxYaw ? -kFollowMaxYaw : yaw);
}
}  // namespace

float StationModel::sight_yaw(uint32_t i, V2 e) const {
  // docs/station-forces.md, "Sight yaw": the first body in the walker's path
  // within 4 m ahead decides a sidestep (oncoming or standing: pass it on the
  // keep side), an overtake (same way but slower: pass on the other side) or a
  // follow (same way, not slower: fall in behind it). It turns the desired
  // direction only; sight does not reduce speed (seed 002).
  const Walker& w = state_.walkers[i];
  const CellGrid& gr = walker_grid_;
  const V2 nl = left_of(e);
  // Only the cells under the sight corridor: 4 m ahead, the widest clearance to each side.
  const CellGrid::Box box = corridor_cells(gr, w.pos, e, w.radius + max_radius_ + kSightMargin, kSightRange);
  bool found = false;
  float ba = 0, bs = 0, bu = 0, bc = 0;
  bool bq = false;  // the one ahead is going my way and standing or held by its own headway: a queue
  V2 bp{};
  gr.each_at(box, [&](uint32_t k, uint32_t j) {
    if (j == i) return true;
    const WalkerSpot& spot = walker_spots_[k];
    const V2 d = spot.pos - w.pos;
    const float a = dot(d, e);
    if (!(a > 0.0f) || a > kSightRange) return true;
    const float s = dot(d, nl);
    // Whom my body would walk into: the two half-widths this tick (S59).
    const float clear = half_w_[i] + half_w_[j] + kSightMargin;
    if (s >= clear || s <= -clear) return true;
    if (!meets(w, spot, j, kSightHeight)) return true;
    // The nearest ahead; ties by lateral offset, then position bits (never by index).
    bool better = !found || a < ba || (a == ba && (s < bs || (s == bs && (spot.pos.x < bp.x || (spot.pos.x == bp.x && spot.pos.y < bp.y)))));
    if (better) {
      const Walker& o = state_.walkers[j];
      found = true;
      ba = a, bs = s, bu = dot(o.vel, e), bc = clear, bp = o.pos;
      bq = dot(o.dir, e) > 0.0f && (o.headway < speed_goal(o) * kTimeGap || dot(o.vel, e) < kSameWaySpeed);
    }
    return true;
  });
  if (!found) return 0.0f;
  float yaw = 0.0f;
  const float pc = bc - kSightMargin + kPassMargin;  // pass 0.1 m clear
  const float pass_shift = keep_right_ ? bs + pc : bs - pc;
  const bool slower = bu < speed_goal(w) - kOvertakeMargin;
  if (bq || (bu >= kSameWaySpeed && slower)) {
    // Going my way and slower than I want (S21, S22): overtake on the side
    // away from the keep side when that line is open; otherwise follow. A
    // walker going my way who is standing or held by the one ahead of it is a
    // queue: never sidestepped.
    if (slower && overtake_clear(i, e, pass_shift, ba, bp)) {
      yaw = keep_right_ ? dmath::atan2(pc + bs, ba) : -dmath::atan2(pc - bs, ba);
      yaw = yaw > kSidestepMaxYaw ? kSidestepMaxYaw : (yaw < -kSidestepMaxYaw ? -kSidestepMaxYaw : yaw);
      return yaw;
    }
    return follow_yaw(bs, ba, bc - kSightMargin);
  }
  if (bu < kSameWaySpeed) {
    // Oncoming, standing or crossing: keep right puts them on my left (s -> +clear), turning right.
    yaw = keep_right_ ? -dmath::atan2(bc - bs, ba) : dmath::atan2(bc + bs, ba);
    yaw = yaw > kSidestepMaxYaw ? kSidestepMaxYaw : (yaw < -kSidestepMaxYaw ? -kSidestepMaxYaw : yaw);
    return yaw;
  }
  // Same way, as fast: follow (S21).
  return follow_yaw(bs, ba, bc - kSightMargin);
}

bool StationModel::overtake_clear(uint32_t i, V2 e, float shift, float ahead, V2 target) const {
  // S22: the pass is open when the line `shift` to my side (left positive)
  // keeps my body clear of walls up to 1 m past the one overtaken, and no
  // other walker slower than I would pass is in that line's body corridor
  // (two radii and 5 cm) from beside me to 2 m past it.
  const Walker& w = state_.walkers[i];
  const V2 nl = left_of(e);
  const V2 from = w.pos + nl * shift;
  const V2 to = from + e * (ahead + 1.0f);
  if (!segment_clear(w.floor, w.pos, to, w.radius) || !segment_clear(w.floor, from, to, w.radius)) return false;
  const CellGrid& gr = walker_grid_;
  const float reach = ahead + 2.0f;
  // Someone coming the other way closes the line further out: we close on
  // each other at both our speeds (S25).
  const float reach_oncoming = ahead + kOncomingPassReach;
  const CellGrid::Box box = corridor_cells(gr, from, e, w.radius + max_radius_ + kPassClear, reach_oncoming);
  return gr.each_at(box, [&](uint32_t k, uint32_t j) {
    if (j == i) return true;
    const WalkerSpot& spot = walker_spots_[k];
    const V2 d = spot.pos - w.pos;
    const float a = dot(d, e);
    if (a < 0.0f || a > reach_oncoming) return true;  // beyond either reach
    const float s = dot(d, nl) - shift;
    const float clear = w.radius + spot.radius + kPassClear;
    if (!(s < clear && s > -clear)) return true;  // not in the line
    if (!meets(w, spot, j, kSightHeight) || spot.pos == target) return true;
    const Walker& o = state_.walkers[j];
    if (dot(o.vel, e) >= speed_goal(w) - kOvertakeMargin) return true;  // as fast as I would pass: no obstacle
    const bool oncoming = dot(o.dir, e) < -0.7f;  // going against me, within 45 degrees of head-on
    return !(a <= (oncoming ? reach_oncoming : reach));  // someone in the line within its reach: closed
  });
}

bool StationModel::oncoming_ahead(uint32_t i, V2 u) const {
  // S25 (seed 002, Route; the Stair rule's "with nobody coming"): someone walking toward me (its direction within 60 degrees of -u)
  // within kOncomingRange ahead along my leg's direction u and kOncomingHalf
  // to either side, on my floor. Reads positions and last tick's directions.
  if (u == V2{}) return false;
  const Walker& w = state_.walkers[i];
  const CellGrid& gr = walker_grid_;
  const V2 nl = left_of(u);
  const CellGrid::Box box = corridor_cells(gr, w.pos, u, kOncomingHalf, kOncomingRange);
  return !gr.each_at(box, [&](uint32_t k, uint32_t j) {
    if (j == i) return true;
    const WalkerSpot& spot = walker_spots_[k];
    const V2 d = spot.pos - w.pos;
    const float a = dot(d, u), s = dot(d, nl);
    if (!(a > 0.0f) || a > kOncomingRange || s > kOncomingHalf || s < -kOncomingHalf) return true;
    if (!meets(w, spot, j, kSightHeight) || !(dot(state_.walkers[j].dir, u) < -0.5f)) return true;
    return false;  // found: stop
  });
}

float StationModel::headway_of(uint32_t i) const {
  // docs/station-forces.md, "Headway" (the collision-free speed model's
  // spacing, Tordeux et al. 2016): the swept gap (how far my body moves along
  // my direction before it touches theirs) to the nearest walker ahead
  // along my direction, within the headway's corridor (lateral offset at most
  // 0.7 of the two half-widths, S61), who is going my way (its direction within 90 degrees of mine)
  // and is ahead of me along our mean direction, not behind a wall; capped at
  // kHeadwayCap.
  const Walker& w = state_.walkers[i];
  const V2 e = w.dir;
  if (e == V2{}) return kHeadwayCap;
  const CellGrid& gr = walker_grid_;
  const V2 nl = left_of(e);
  const CellGrid::Box box = corridor_cells(gr, w.pos, e, w.radius + max_radius_, kHeadwayCap + w.radius + max_radius_);
  const FloorGeom& fl = floors_[w.floor];
  float best = kHeadwayCap;
  gr.each_at(box, [&](uint32_t k, uint32_t j) {
    if (j == i) return true;
    const WalkerSpot& spot = walker_spots_[k];
    const V2 d = spot.pos - w.pos;
    if (dot(d, e) < 0.0f) return true;
    {
      const float l = half_w_[i] + half_w_[j];
      const float s = dot(d, nl);
      if (s > l || s < -l) return true;
    }
    if (!meets(w, spot, j, kPushHeight)) return true;
    const Walker& o = state_.walkers[j];
    if (!(dot(o.dir, e) > 0.0f)) return true;
    // It must be ahead along our mean direction too: of two converging
    // walkers each ahead of the other along its own direction exactly
    // one waits, never both (a standstill) nor neither (both push into
    // the same gap) (S20).
    if (!(dot(d, e + o.dir) > 0.0f)) return true;
    // Only a walker within kHeadwayAcross of our two half-widths across my
    // heading limits my speed (S61): one further out is passed shoulder to
    // shoulder (the collision-free speed model's thin bodies).
    const float l = kHeadwayAcross * (half_w_[i] + half_w_[j]);
    const float s = dot(d, nl);
    if (s > l || s < -l) return true;
    // The swept gap: how far I can move along e before my body touches theirs
    // (the zipper: one half a body to the side lets me come closer than one
    // straight ahead; Hoogendoorn & Daamen 2005). Across, the bodies are
    // their half-widths; along e, my half-depth and their extent along e
    // (S28): the sum of two shapes is taken as the ellipse of those axes.
    const float depth = kDepth * w.radius + extent(half_w_[j], o.radius, move_dir_[j], e);
    const float across = 1.0f - (s * s) / (l * l);
    float gap = dot(d, e) - depth * dmath::sqrt(across > 0.0f ? across : 0.0f);
    gap = gap < 0.0f ? 0.0f : gap;
    if (!(gap < best)) return true;
    bool hidden = false;  // a wall between us: not my headway
    for (uint32_t q = wall_start_[i]; q < wall_start_[i + 1] && !hidden; ++q) {
      const Wall& wl = fl.walls[wall_items_[q]];
      hidden = segments_cross(w.pos, o.pos, wl.a, wl.b);
    }
    if (!hidden) best = gap;
    return true;
  });
  // On a flight a walker keeps a tread more free before the one ahead (spec note S35).
  if (w.flight >= 0 && best < kHeadwayCap) {
    best -= kTreadGap;
    best = best > 0.0f ? best : 0.0f;
  }
  return best;
}

float StationModel::wall_gap_of(uint32_t i, V2 e, V2* normal) const {
  // Spec note S24 (seed 002, Motion), docs/station-forces.md, "Walls steer; what is in the way slows": how far
  // the body can move straight along its direction before it touches a wall,
  // capped at kHeadwayCap. For each wall of the walker's list (within r +
  // 1.3 m), in the walker's frame (a along the direction, s across it), the
  // first contact of the body swept along a (S28, S59: its half-width wd
  // across, kDepth r along; in a frame stretched by wd / (kDepth r) along a,
  // the disc of radius wd) is the least q (a_q / q - sqrt(wd^2 - s_q^2)),
  // q = kDepth r / wd, over the wall's points with |s_q| <= wd: at the ends of the part of the wall inside the body's
  // band and ahead of its centre, or where the wall is tangent to the
  // stretched disc. A wall whose obstacle a recovery mutes is not seen.
  const Walker& w = state_.walkers[i];
  *normal = V2{};
  if (e == V2{}) return kHeadwayCap;
  const V2 nl = left_of(e);
  const float r = half_w_[i];                 // the disc's radius in the stretched frame
  const float q_along = kDepth * w.radius / r;  // <= 1: the body's depth over its half-width
  int32_t hit = -1;
  const FloorGeom& fl = floors_[w.floor];
  float best = kHeadwayCap;
  for (uint32_t k = wall_start_[i]; k < wall_start_[i + 1]; ++k) {
    const Wall& wl = fl.walls[wall_items_[k]];
    if (soft_muted(wl, w)) continue;
    const V2 pa = wl.a - w.pos, pb = wl.b - w.pos;
    // In a frame whose a is stretched by 1 / q_along the body's shape (S28) is the disc of radius r.
    const float a0 = dot(pa, e) / q_along, s0 = dot(pa, nl), a1 = dot(pb, e) / q_along, s1 = dot(pb, nl);
    if (a0 < 0.0f && a1 < 0.0f) continue;  // wholly behind my centre
    // The parameter range u in [lo, hi] of the wall inside the band |s| <= r.
    float lo = 0.0f, hi = 1.0f;
    const float ds = s1 - s0, da = a1 - a0;
    if (ds == 0.0f) {
      if (s0 > r || s0 < -r) continue;
    } else {
      float u0 = (-r - s0) / ds, u1 = (r - s0) / ds;
      if (u0 > u1) std::swap(u0, u1);
      lo = u0 > lo ? u0 : lo;
      hi = u1 < hi ? u1 : hi;
      if (lo > hi) continue;
    }
    // Only the part ahead of my centre (a >= 0): a wall point behind it is
    // left behind by the body's move, even one the body overlaps now.
    if (da == 0.0f) {
      if (a0 < 0.0f) continue;
    } else {
      const float ua = -a0 / da;
      if (da > 0.0f) lo = ua > lo ? ua : lo;
      else hi = ua < hi ? ua : hi;
      if (lo > hi) continue;
    }
    auto contact = [&](float u) {
      const float a = a0 + u * da, s = s0 + u * ds;
      const float q = r * r - s * s;
      return a - dmath::sqrt(q > 0.0f ? q : 0.0f);
    };
    float t = contact(lo);
    const float tb = contact(hi);
    t = tb < t ? tb : t;
    // Tangency: where d/du (a - sqrt(r^2 - s^2)) = 0, s = -sign(da ds) r |da| / |d|.
    const float dl = dmath::sqrt(da * da + ds * ds);
    if (ds != 0.0f && dl > 0.0f) {
      const float st = ((da > 0.0f) == (ds > 0.0f) ? -1.0f : 1.0f) * r * (da < 0.0f ? -da : da) / dl;
      const float ut = (st - s0) / ds;
      if (ut > lo && ut < hi) {
        const float tt = contact(ut);
        t = tt < t ? tt : t;
      }
    }
    t *= q_along;  // back to metres along e
    if (t < best) best = t, hit = static_cast<int32_t>(wall_items_[k]);
  }
  if (best < 0.0f) best = 0.0f;
  if (hit >= 0) {
    // The wall's normal at the contact: from its nearest point to the body's centre there.
    const Wall& wl = fl.walls[static_cast<std::size_t>(hit)];
    const V2 c = w.pos + e * best;
    *normal = unit(c - closest_on_segment(c, wl.a, wl.b));
  }
  return best;
}

void StationModel::accelerations(float h) {
  // Every walker's acceleration from the same state (positions and velocities
  // at the start of the sub-step), into acc_; nothing is moved here.
  const auto n = static_cast<uint32_t>(state_.walkers.size());
  acc_.assign(n, V2{});
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) { accelerations(h, begin, end); });
}

void StationModel::accelerations(float h, uint32_t begin, uint32_t end) {
  const float fric_cap_pair = 0.5f / h;  // S16: friction may at most halve a relative sliding velocity per sub-step
  const float fric_cap_wall = 1.0f / h;  // ... and at most stop a body's sliding along a wall
  for (uint32_t i = begin; i < end; ++i) {
    const Walker& w = state_.walkers[i];
    if (w.phase != Phase::Walking || on_belt(w)) continue;  // "Social forces are not applied on the belt"
    FixSum ax = 0, ay = 0;
    const V2 e = w.dir;
    for (uint32_t k = nb_start_[i]; k < nb_start_[i + 1]; ++k) {
      const Body& o = bodies_[nb_items_[k]];
      const V2 dv = w.pos - o.pos;
      const float d2 = sqr_length(dv);
      const float reach = w.radius + o.radius + kSocialRange;
      if (d2 >= reach * reach) continue;
      float d = dmath::sqrt(d2);
      V2 nrm;
      if (d > 1e-6f) {
        nrm = V2{dv.x / d, dv.y / d};
      } else {
        // Coincident centres (S17): separate along x, the lower index to -x.
        nrm = V2{i < nb_items_[k] ? -1.0f : 1.0f, 0.0f};
        d = 0.0f;
      }
      // The two bodies' extents toward each other (S28): the same sum for both.
      const float rij = extent(half_w_[i], w.radius, move_dir_[i], nrm) + extent(o.half_w, o.radius, o.move_dir, nrm);
      const float gap = rij - d;  // > 0: bodies overlap
      // Social repulsion A exp((r_ij - d_ij)/B) n_ij, weighted by the field of view.
      const float cosphi = -dot(nrm, e);  // 1: the other is straight ahead
      const float wgt = kLambda + (1.0f - kLambda) * (1.0f + cosphi) * 0.5f;
      float soc = kA * dmath::exp(gap / kB) * wgt / kMass;
      V2 a = nrm * soc;
      // seed 002: "Same-direction repulsion does not push the queue backward".
      // From a walker ahead going my way the social term acts across my
      // heading only; along it the headway sets my speed (docs/station-forces.md,
      // "Headway"). From behind it is HFV's, and contacts are not changed.
      if (cosphi > 0.0f && dot(o.dir, e) > 0.0f) a = a - e * dot(a, e);
      if (gap > 0.0f) {
        // Body force k g n and sliding friction kappa g (dv_t) t (HFV 2000).
        a = a + nrm * (kBodyK * gap / kMass);
        const V2 t = left_of(nrm);
        const float dvt = dot(o.vel - w.vel, t);
        float c = kKappa * gap / kMass;
        c = c > fric_cap_pair ? fric_cap_pair : c;
        a = a + t * (c * dvt);
      }
      ax += to_fix(a.x);
      ay += to_fix(a.y);
    }
    const FloorGeom& fl = floors_[w.floor];
    for (uint32_t k = wall_start_[i]; k < wall_start_[i + 1]; ++k) {
      const Wall& wl = fl.walls[wall_items_[k]];
      if (landing_of(wl, w)) continue;
      const V2 q = closest_on_segment(w.pos, wl.a, wl.b);
      const V2 dv = w.pos - q;
      const float d2 = sqr_length(dv);
      const float reach = w.radius + kSocialRange;
      if (d2 >= reach * reach) continue;
      const float d = dmath::sqrt(d2);
      if (!(d > 1e-6f)) continue;  // on the line itself: the integrator keeps it from crossing
      const V2 nrm{dv.x / d, dv.y / d};
      const float gap = extent(half_w_[i], w.radius, move_dir_[i], nrm) - d;
      V2 a{};
      // Soft wall force, muted for the obstacle a recovery ignores (seed 002, Recovery).
      if (!soft_muted(wl, w)) {
        a = nrm * (kA * dmath::exp(gap / kWallB) / kMass);
        // Walls steer; what is in the way slows (S24, docs/station-forces.md): the
        // soft force's part against my wish (dir) is dropped, and a wall in
        // my path sets my speed through the wall gap instead.
        const float back = dot(a, e);
        if (back < 0.0f) a = a - e * back;
      }
      if (gap > 0.0f) {
        a = a + nrm * (kBodyK * gap / kMass);
        const V2 t = left_of(nrm);
        float c = kKappa * gap / kMass;
        c = c > fric_cap_wall ? fric_cap_wall : c;
        a = a - t * (c * dot(w.vel, t));
      }
      ax += to_fix(a.x);
      ay += to_fix(a.y);
    }
    acc_[i] = V2{from_fix(ax), from_fix(ay)};
  }
}

bool StationModel::move_refused(const Walker& w, V2 from, V2 to, int32_t* hit) const {
  // A step is refused when the centre would cross a wall line, or end within
  // the 2 cm skin of one while getting closer (S18).
  const uint32_t i = static_cast<uint32_t>(&w - state_.walkers.data());
  const FloorGeom& fl = floors_[w.floor];
  for (uint32_t k = wall_start_[i]; k < wall_start_[i + 1]; ++k) {
    const Wall& wl = fl.walls[wall_items_[k]];
    if (gate_of(wl, w)) continue;
    const float dfrom = sqr_length(closest_on_segment(from, wl.a, wl.b) - from);
    const float dto = sqr_length(closest_on_segment(to, wl.a, wl.b) - to);
    bool bad = false;
    if (dto < kSkin * kSkin && dto < dfrom) bad = true;
    if (!bad && dfrom >= kSkin * kSkin && segments_cross(from, to, wl.a, wl.b)) bad = true;
    if (!bad && dfrom < kSkin * kSkin) {
      const float sf = cross(wl.b - wl.a, from - wl.a), st = cross(wl.b - wl.a, to - wl.a);
      if ((sf > 0.0f && st < 0.0f) || (sf < 0.0f && st > 0.0f)) bad = segments_cross(from, to, wl.a, wl.b);
    }
    if (bad) {
      *hit = static_cast<int32_t>(wall_items_[k]);
      return true;
    }
  }
  return false;
}

void StationModel::integrate(float h) {
  // Apply every walker's update computed by accelerations(): the driving term
  // m (v0 e - v) / tau is integrated implicitly (unconditionally stable), the
  // rest explicitly, velocity first (semi-implicit Euler); then the move.
  const auto n = static_cast<uint32_t>(state_.walkers.size());
  refused_.assign(n, 0);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) { integrate(h, begin, end); });
  // The refused moves counted here, in walker order: the count does not depend on the threads.
  for (uint32_t i = 0; i < n; ++i) state_.stats.refused_moves += refused_[i];
}

void StationModel::integrate(float h, uint32_t begin, uint32_t end) {
  // Each walker reads its own state, its acceleration and the walls, and writes only itself.
  const float den = 1.0f + h / kTau;
  for (uint32_t i = begin; i < end; ++i) {
    Walker& w = state_.walkers[i];
    if (w.phase != Phase::Walking || on_belt(w)) continue;  // the belt carries its riders (connectors phase)
    const V2 a = acc_[i];
    // The driving term relaxes toward the headway speed min(v0, gap / T).
    // Along my direction of motion (dir, or dir slid along a wall), the
    // nearer of the headway and the wall gap sets the speed.
    const V2 e = move_dir_[i];
    // The standing gap g0 (S61, the intelligent driver model's jam distance):
    // the speed goes to zero g0 short of the one ahead, g0 fading out as the
    // walker nears its desired speed and as a wall comes across its heading
    // (stand_room_, which is 0 where the gap does not apply: plan_phase).
    const float v0 = speed_goal(w);
    float g0 = 0.0f;
    if (stand_room_[i] > 0.0f && v0 > 0.0f) {
      const float slow = 1.0f - dmath::sqrt(sqr_length(w.vel)) / v0;
      g0 = slow > 0.0f ? kStandGap * slow * stand_room_[i] : 0.0f;
    }
    const float held = w.headway > g0 ? w.headway - g0 : 0.0f;
    const float gap = held < wall_gap_[i] ? held : wall_gap_[i];
    const float hv = gap / kTimeGap;
    const float drive = (hv < v0 ? hv : v0) / kTau;
    V2 v{(w.vel.x + h * (drive * e.x + a.x)) / den, (w.vel.y + h * (drive * e.y + a.y)) / den};
    // The collision-free speed cap: along my direction no faster than the
    // headway allows, whatever pushes me (docs/station-forces.md, "Headway");
    // and along my direction of motion no faster than the nearer of the
    // headway and the wall gap allows. (The slide turns the motion by less
    // than 90 degrees from dir, so the second cut never undoes the first.)
    const float hw = held / kTimeGap;
    const float along_dir = dot(v, w.dir);
    if (along_dir > hw) v = v - w.dir * (along_dir - hw);
    const float along = dot(v, e);
    if (along > hv) v = v - e * (along - hv);
    const float vmax = kMaxSpeedFactor * v0;
    const float sp2 = sqr_length(v);
    if (sp2 > vmax * vmax) v = v * (vmax / dmath::sqrt(sp2));
    const V2 to = w.pos + v * h;
    int32_t hit = -1;
    if (!move_refused(w, w.pos, to, &hit)) {
      w.pos = to;
      w.vel = v;
      bodies_[i].pos = to, bodies_[i].vel = v;
      continue;
    }
    // Refused: slide along the wall that refused it (its normal part removed).
    refused_[i] = 1;
    const Wall& wl = floors_[w.floor].walls[static_cast<std::size_t>(hit)];
    const V2 nrm = left_of(unit(wl.b - wl.a));
    const V2 vs = v - nrm * dot(v, nrm);
    const V2 to2 = w.pos + vs * h;
    int32_t hit2 = -1;
    if (!move_refused(w, w.pos, to2, &hit2)) {
      w.pos = to2;
      w.vel = vs;
    } else {
      w.vel = V2{};  // wedged in a corner: stand this sub-step
    }
    bodies_[i].pos = w.pos, bodies_[i].vel = w.vel;
  }
}

void StationModel::force_phase() {
  const float h = kDt / static_cast<float>(kSubSteps);
  // What a neighbour's force reads of each walker, side by side (scratch: the
  // same values); integrate() keeps its position and velocity current.
  const auto n = static_cast<uint32_t>(state_.walkers.size());
  bodies_.resize(n);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t j = begin; j < end; ++j) {
      const Walker& o = state_.walkers[j];
      bodies_[j] = Body{o.pos, o.vel, o.dir, move_dir_[j], o.radius, half_w_[j]};
    }
  });
  for (int s = 0; s < kSubSteps; ++s) {
    accelerations(h);
    integrate(h);
  }
}

}  // namespace lockstep::station
