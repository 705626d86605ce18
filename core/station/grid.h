// The station model's routing grid (seed 002, "Route": "The grid is 0.7 m";
// the comfort gap; the soft costs, "Crowds" and "None of these is a wall").
//
// A NavGrid is built once from a floor's outline (the union of `walkable`
// polygons), its obstacles (`blockers`: columns, holes, voids, full
// attractors) and extra wall segments. Everything that is not floor is a wall
// to the walker's body: the floor's outer boundary, every blocker edge and
// every extra wall segment form one set of wall segments, and every geometric
// query (clearance, a segment keeping a radius clear) is exact against that
// set. The grid itself is only the search graph: one node per 0.7 m cell.
//
// Units: metres, plan (x, y). Cells are row-major: index = iy * nx() + ix,
// ix = floor((x - origin().x) / cell()), likewise iy. An `extra_cost` vector
// has one float per cell in that order (cell_count() of them).
//
// Determinism: every result is a function of the inputs only, computed with
// float operations in a fixed order (-ffp-contract=off, dmath::sqrt), no
// unordered containers, fixed tie-breaks. find_path keeps mutable scratch
// buffers, so a NavGrid must not be used from two threads at once (the model is
// single-threaded); the scratch never changes a result. docs/station-grid.md
// explains the costs and choices.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "station/geom.h"
#include "station/walls.h"

namespace lockstep::station {

/// A point or direction in the plan, metres: the station model's V2
/// (station/geom.h), so paths need no conversion. (lockstep/core/vec.h has only Vec3.)
using Vec2 = V2;

/// A closed polygon (the last point joins the first). Either winding; at
/// least 3 points, finite, non-zero area.
struct GridPolygon {
  std::vector<Vec2> pts;
};

/// One wall segment of the grid's wall set.
struct WallSegment {
  Vec2 a, b;
};

struct GridInput {
  std::vector<GridPolygon> walkable;              ///< floor outlines; their union is the floor
  std::vector<GridPolygon> blockers;              ///< obstacles, holes, voids, full attractors
  std::vector<std::pair<Vec2, Vec2>> walls;       ///< extra wall segments (may lie inside the floor)
  /// If not empty: the floor's whole wall set, used as given instead of the
  /// one built from walkable, blockers and walls (the station model passes
  /// the walls its bodies feel, so the route and the body see one set).
  std::vector<WallSegment> wall_set;
  float cell = 0.7f;                              ///< cell size, m (seed: 0.7). [Limit: 0.1 .. 10]
};

/// A direction-dependent extra cost of one cell, per metre walked (seed
/// "Route": mouth aprons cost more crossing the mouth than along its axis).
/// A step along the unit vector u costs xx*ux*ux + 2*xy*ux*uy + yy*uy*uy per
/// metre: a symmetric 2 x 2 form, so a step and its reverse cost the same.
/// [Limit: xx >= 0, yy >= 0, xy*xy <= xx*yy (never negative)]
struct DirCost {
  float xx = 0, xy = 0, yy = 0;
  /// `along` per metre walking along `axis` (either way), `across` per metre
  /// walking at right angles to it, and along*cos^2 + across*sin^2 between.
  static DirCost axial(Vec2 axis, float along, float across) {
    const Vec2 a = unit(axis);
    return {along * a.x * a.x + across * a.y * a.y, (along - across) * a.x * a.y,
            along * a.y * a.y + across * a.x * a.x};
  }
  /// The cost per metre of a step along the unit vector u.
  float per_metre(Vec2 u) const { return xx * u.x * u.x + 2.0f * xy * u.x * u.y + yy * u.y * u.y; }
};

/// A DirCost field checked once against a grid (NavGrid::check_dir_costs), for
/// a caller that passes the same fixed field to many searches (the station's
/// mouth aprons): find_path takes it without scanning every cell again. A
/// default one is empty, and no search takes it.
class CheckedDirCosts {
 public:
  CheckedDirCosts() = default;
  const std::vector<DirCost>& cells() const { return cells_; }

 private:
  friend class NavGrid;
  explicit CheckedDirCosts(std::vector<DirCost> cells) : cells_(std::move(cells)) {}
  std::vector<DirCost> cells_;
};

/// A cost per metre linear in the step's direction, clamped: a step along the
/// unit u costs clamp(c0 + cx*ux + cy*uy, 0, cap) per metre (seed "Route",
/// Crowds: the felt density is linear in the walker's direction, its excess
/// over 0.35 ped/m^2 is capped). Unlike DirCost it tells a step from its
/// reverse (oncoming people count more than people going the same way).
/// Never negative and never above min(cap, 1e6): any values are safe (NaN
/// counts 0), so find_path and soft_cost do not scan the field.
struct LinearCost {
  float c0 = 0, cx = 0, cy = 0, cap = 0;
  float base = 0;  ///< a direction-free cost per metre added to the clamped part (0 .. 1e6; a queue line's band)
  float per_metre(Vec2 u) const {
    const float v = c0 + cx * u.x + cy * u.y;
    const float hi = cap > 0.0f ? (cap < 1e6f ? cap : 1e6f) : 0.0f;
    const float b = base > 0.0f ? (base < 1e6f ? base : 1e6f) : 0.0f;
    return b + (v > 0.0f ? (v < hi ? v : hi) : 0.0f);
  }
};

/// A field of LinearCost, one per cell (row-major, cell_count() of them),
/// counted only in the window of columns ix0..ix1 and rows iy0..iy1
/// (inclusive; clipped to the grid): outside it the field costs nothing, so a
/// search's soft region, and the work it does, stays near the window.
struct LinearField {
  const std::vector<LinearCost>* cells = nullptr;
  int32_t ix0 = 0, iy0 = 0;
  int32_t ix1 = std::numeric_limits<int32_t>::max(), iy1 = std::numeric_limits<int32_t>::max();
  // One reader's view of a shared field, read without changing `cells`: the
  // cells of columns zx0..zx1 and rows zy0..zy1, and those zmask marks, cost nothing; else those of
  // columns ox0..ox1 and rows oy0..oy1 (at most 3 x 3) cost own[row-major].
  int32_t zx0 = 0, zy0 = 0, zx1 = -1, zy1 = -1;
  const uint8_t* zmask = nullptr;  // if set: the cells c with zmask[c] != 0 cost nothing too
  const uint8_t* zmask2 = nullptr;  // a second such mask (the station: the walker's own queue line)
  int32_t ox0 = 0, oy0 = 0, ox1 = -1, oy1 = -1;
  std::array<LinearCost, 9> own{};
};

class NavGrid {
 public:
  /// Seed "Route": the comfort gap between the body and a wall, m.
  static constexpr float kComfortGap_m = 0.35f;
  /// Seed "Route": a step with no gap at all costs 3.5 times its length.
  static constexpr float kComfortMaxFactor = 3.5f;
  /// Seed "Route" (lanes): the shifts tried for a leg's slack, widest first, m; the slack's cap.
  static constexpr std::array<float, 5> kLaneShifts_m = {1.5f, 1.1f, 0.75f, 0.45f, 0.2f};
  static constexpr float kMaxSlack_m = 1.5f;
  /// Stored clearances (node and edge) are capped here, m.
  static constexpr float kClearanceCap_m = 2.0f;
  /// Largest body radius find_path accepts, m (InputError above).
  static constexpr float kMaxRadius_m = 1.0f;
  /// Node samples per cell side (a cell's node is the best of 5 x 5 points).
  static constexpr int kNodeSamples = 5;
  /// A node moves off its cell's centre only while the centre is nearer a wall than this, m.
  static constexpr float kNodeClearanceCap_m = 0.7f;
  /// Largest extra cost per metre find_path accepts (InputError above).
  static constexpr float kMaxExtraCost = 1e6f;
  /// Most cells a grid may have (InputError above).
  static constexpr int64_t kMaxCells = 4'000'000;

  /// Builds the grid. Throws lockstep::InputError on bad input: no walkable
  /// polygon, a polygon with fewer than 3 points or zero area, a NaN or
  /// infinite coordinate, a cell size outside 0.1 .. 10 m, or a floor so large
  /// that it needs more than kMaxCells cells.
  explicit NavGrid(const GridInput& in);

  // ------------------------------------------------------------ layout
  int32_t nx() const { return nx_; }
  int32_t ny() const { return ny_; }
  int32_t cell_count() const { return nx_ * ny_; }
  float cell() const { return cell_; }
  /// The lower-left corner of cell 0: the bounding box minimum of the walkable polygons.
  Vec2 origin() const { return origin_; }
  /// The cell holding p, or -1 outside the grid's box.
  int32_t cell_index(Vec2 p) const;
  /// The cell at column ix, row iy, or -1 outside the grid.
  int32_t cell_at(int32_t ix, int32_t iy) const;
  /// The centre of cell idx.
  Vec2 cell_center(int32_t idx) const;
  /// The cell's search node: of the 5 x 5 sample points of the cell that lie on
  /// the floor, the one farthest from every wall (clearance capped at
  /// kNodeClearanceCap_m; ties go to the one nearest the centre, then the first
  /// in row-major sample order). So a cell in the open has its centre, and a
  /// cell in a narrow aisle has a point on the aisle's middle line.
  Vec2 node_point(int32_t idx) const { return node_[static_cast<std::size_t>(idx)]; }
  /// The node's distance to the nearest wall (capped at kClearanceCap_m), -1
  /// when no sample of the cell is on the floor.
  float node_clearance(int32_t idx) const { return node_clear_[static_cast<std::size_t>(idx)]; }
  /// A body of radius r may stand on the cell's node.
  bool cell_open(int32_t idx, float radius) const { return node_clearance(idx) >= radius && node_clearance(idx) >= 0.0f; }
  /// The wall set every query measures against (floor boundary pieces, blocker edges, extra walls).
  const std::vector<WallSegment>& walls() const { return segs_; }

  // ------------------------------------------------------------ geometry
  /// p is on the floor: inside a walkable polygon and inside no blocker.
  bool on_floor(Vec2 p) const;
  /// Distance from p to the nearest wall (exact, uncapped); 0 when p is off the floor.
  float wall_distance(Vec2 p) const;
  /// A body of radius r centred at p is on the floor and touches no wall
  /// (wall_distance(p) >= r, and > 0).
  bool point_clear(Vec2 p, float radius) const;
  /// The straight walk a -> b keeps a body of `radius` clear of every wall,
  /// blocker and the floor's edge: both ends on the floor, no wall crossed or
  /// touched, every wall at least `radius` from the segment. The 0.5 s leg
  /// re-check ("the leg now clips a wall or void") is !segment_clear(pos, waypoint, r).
  bool segment_clear(Vec2 a, Vec2 b, float radius) const;
  /// The segment's distance to the nearest wall, capped at `cap`; -1 when it
  /// touches or crosses a wall or an end is off the floor.
  float segment_clearance(Vec2 a, Vec2 b, float cap = kClearanceCap_m) const;
  /// Seed "Route", the comfort cost: the factor on a step's length for a body
  /// of `radius` whose centre keeps `clearance` from the nearest wall. The gap
  /// is clearance - radius; the factor is 3.5 at gap <= 0, 1 at gap >= 0.35 m,
  /// and linear between: 1 + 2.5 * (0.35 - gap) / 0.35.
  static float comfort_factor(float clearance, float radius);
  /// Seed "Route", lanes: the slack on one side of a leg, "the widest shift
  /// of the corner point, among 1.5, 1.1, 0.75, 0.45 and 0.2 m, for which the
  /// straight walk from the start of the leg to the shifted point keeps the
  /// body and the 0.35 m comfort gap off every wall, plus half a nav cell", up
  /// to 1.5 m: the first s of that list for which segment_clear(leg_start,
  /// corner + s * unit(side_dir), radius + 0.35) holds, plus half a cell,
  /// capped at 1.5 m (spec note G7); 0 when none does ("next to a wall the
  /// slack on that side is zero") or side_dir is zero. The station model's
  /// lanes use this.
  float lane_slack(Vec2 leg_start, Vec2 corner, Vec2 side_dir, float radius) const;
  /// Snapping: the node of the cell nearest p (by distance from p to the node;
  /// ties to the lower cell index) on which a body of `radius` may stand.
  /// False when no cell admits the radius.
  bool nearest_open_node(Vec2 p, float radius, Vec2* out, int32_t* cell_out = nullptr) const;
  /// Which cells a body of `radius` can walk between: per cell, the lowest
  /// cell index of the set it is connected to by steps open to that radius
  /// (the steps find_path takes), -1 for a cell closed to it. Two points are
  /// joined when their nearest open nodes carry one label.
  std::vector<int32_t> reachable_sets(float radius) const;

  // ------------------------------------------------------------ paths
  /// Seed "Route": the walkable polyline from a to goal for a body of `radius`.
  /// First point a (or its snap), last point goal (or its snap), corners
  /// between; empty when no path exists. A* over the 8-connected cell nodes
  /// (integer costs in mm: a step's nominal length, 0.7 m or 0.99 m, times
  /// its comfort factor + the extra costs per metre), then string-pulled: a
  /// straight cut is kept only when the body clears every wall, it comes no
  /// nearer any wall than the grid path it replaces came near that wall (up to
  /// the 0.35 m comfort gap), and it costs no more length + soft cost than that
  /// stretch (docs/station-grid.md, "Smoothing").
  /// A start or goal links to the open nodes of the 3 x 3 cells round it (5 x 5
  /// if none) that it reaches in a straight line keeping min(radius, its own
  /// wall distance); one that is off the floor, or links to none, snaps to
  /// nearest_open_node.
  /// `extra_cost`: nullptr, or cell_count() floats in 0 .. kMaxExtraCost, the
  /// extra cost per metre walked in each cell (row-major), added to the comfort
  /// factor. `dir_cost`: nullptr, or cell_count() direction-dependent extra
  /// costs, added too. Throws InputError on NaN points, a radius outside
  /// 0 .. kMaxRadius_m, or a bad extra_cost or dir_cost. `lin`: nullptr, or
  /// a LinearField whose cells has cell_count() entries (InputError
  /// otherwise), added too inside its window (the crowd cost).
  std::vector<Vec2> find_path(Vec2 a, Vec2 goal, float radius, const std::vector<float>* extra_cost = nullptr,
                              const std::vector<DirCost>* dir_cost = nullptr, const LinearField* lin = nullptr) const;
  /// `cells` checked as find_path checks a dir_cost (InputError the same), once.
  CheckedDirCosts check_dir_costs(std::vector<DirCost> cells) const;
  /// find_path with a field checked before: only its size is checked again (InputError if it is
  /// not this grid's cell_count(), e.g. an empty one or another grid's).
  std::vector<Vec2> find_path(Vec2 a, Vec2 goal, float radius, const CheckedDirCosts& dir_cost, const LinearField* lin) const;
  /// The soft cost of walking a polyline: the sum over the cells it crosses of
  /// (length inside the cell) x extra_cost[cell], over its first max_length_m
  /// metres only. Seed "Route": "checks the next 15 m of its path against the
  /// crowd" is soft_cost({pos, next waypoints...}, crowd, 15).
  float soft_cost(const std::vector<Vec2>& polyline, const std::vector<float>& extra_cost,
                  float max_length_m = std::numeric_limits<float>::infinity()) const;
  /// The same with any of the kinds of extra cost (a null one counts nothing).
  float soft_cost(const std::vector<Vec2>& polyline, const std::vector<float>* extra_cost,
                  const std::vector<DirCost>* dir_cost,
                  float max_length_m = std::numeric_limits<float>::infinity(),
                  const LinearField* lin = nullptr) const;
  /// The same with a LinearField only (seed "Route": the 2 s crowd check of the next 15 m).
  float soft_cost(const std::vector<Vec2>& polyline, const LinearField& lin,
                  float max_length_m = std::numeric_limits<float>::infinity()) const;
  /// The length of a polyline, segment by segment in order.
  static float path_length(const std::vector<Vec2>& polyline);

  /// What the last find_path did (for tests and benchmarks).
  struct SearchStats {
    int32_t expanded = 0;   ///< cells taken off the open heap
    int32_t raw_points = 0; ///< points of the grid path before string-pulling
    bool start_snapped = false;
    bool goal_snapped = false;
    float cost = 0;         ///< A* cost of the grid path (metres equivalent)
  };
  const SearchStats& last_stats() const { return stats_; }

 private:
  struct Poly {
    std::vector<Vec2> pts;
    float minx, miny, maxx, maxy;
    bool blocker;
  };

  // The constructor's phases, in order: check and keep the polygons; the grid's box and size; the wall
  // set; per-cell buckets of walls and polygons; cells wholly on or off the floor; one node per cell
  // (node_reach: its clearance up to the cap plus 1.5 cells); the clearance of each edge; the search's scratch.
  void take_polygons(const GridInput& in);
  void size_grid();
  void build_walls(const GridInput& in);
  void build_buckets();
  void classify_cells();
  void place_nodes(std::vector<float>& node_reach);
  void measure_edges(const std::vector<float>& node_reach);

  // find_path's phases: link the ends to the grid; A*; the grid path; string-pulling.
  struct Soft;     // the extra costs of one call (grid.cpp)
  struct Scratch;  // one search's working memory (below)
  struct Link {
    int32_t cell;
    int64_t cost;  // mm
  };
  struct Ends {
    std::vector<Link> start_links, goal_links;
    float start_clear = -1.0f, goal_clear = -1.0f;  ///< each end's own clearance (-1: off the floor)
    Vec2 start_pt, goal_pt;                          ///< the ends, or the nodes they were snapped to
  };
  bool link_ends(Vec2 a, Vec2 goal, float radius, const Soft& sc, Ends& e, Scratch& s) const;
  bool search(const Ends& e, float radius, const Soft& sc, Scratch& s) const;
  void grid_path(const Ends& e, std::vector<Vec2>& raw, std::vector<float>& seg_clear, Scratch& s) const;
  std::vector<Vec2> pull_string(const std::vector<Vec2>& raw, const std::vector<float>& seg_clear, const Ends& e, float radius,
                                const Soft& sc, Scratch& s) const;

  float nearest_wall(Vec2 p, float cap) const;  // min(distance to nearest wall, cap), ignores floor
  bool inside_exact(Vec2 p) const;
  float clearance_of_segment(Vec2 a, Vec2 b, float cap, float stop_below) const;
  bool segment_keeps(Vec2 a, Vec2 b, float radius) const;
  float soft_segment(Vec2 a, Vec2 b, const Soft& soft) const;
  std::vector<Vec2> search_path(Vec2 a, Vec2 goal, float radius, const std::vector<float>* extra_cost,
                                const std::vector<DirCost>* dir_cost, const LinearField* lin) const;
  void check_costs(const char* where, const std::vector<float>* extra, const std::vector<DirCost>* dir,
                   const LinearField* lin) const;
  template <class F>
  bool visit_buckets(Vec2 a, Vec2 b, float reach, F&& f) const;
  struct HeapEntry;
  static bool heap_before(const HeapEntry& x, const HeapEntry& y);
  static void heap_sift_up(Scratch& s, std::size_t i);
  static void heap_update(Scratch& s, int32_t node, int64_t f);
  static int32_t heap_pop(Scratch& s);

  float cell_ = 0.7f;
  Vec2 origin_;
  int32_t nx_ = 0, ny_ = 0;
  std::vector<Poly> polys_;   // the walkable polygons first (n_walk_ of them), then the blockers
  std::size_t n_walk_ = 0;
  std::vector<WallSegment> segs_;
  std::vector<int32_t> seg_start_, seg_items_;    // per cell: wall segments touching it (CSR)
  // Summed-area table of the cells' segment counts, (nx + 1) x (ny + 1): a
  // rectangle of cells with no segment is skipped by visit_buckets at once.
  std::vector<int32_t> seg_sum_;
  int32_t segs_in(int32_t i0, int32_t i1, int32_t j0, int32_t j1) const;
  std::vector<int32_t> poly_start_, poly_items_;  // per cell: polygons whose box touches it (CSR)
  std::vector<uint8_t> cell_state_;               // 0 all off floor, 1 all on floor, 2 mixed
  std::vector<Vec2> node_;
  std::vector<float> node_clear_;
  std::vector<float> edge_clear_;  // [cell * 8 + dir], -1 when no edge

  struct Node {  // one node's search record, its fields side by side (not one in each of several arrays)
    int64_t g;               // cost in mm (its f = g + h is its heap entry's)
    int32_t parent, hpos;
    uint32_t seen, closed;   // the search's stamp: reached, taken off the heap
  };
  struct HeapEntry {  // an open node with its keys, so that the heap's comparisons read the heap alone
    int64_t f, g;
    int32_t node;
  };
  // Scratch for find_path (never changes a result): one per search running at
  // once, taken from a pool under a lock, so that searches on several threads
  // (the station's routes on its workers) do not share one.
  struct Scratch {
    std::vector<Node> node;
    std::vector<int64_t> goal_link;  // mm
    std::vector<uint32_t> goal_mark;
    uint32_t stamp = 0;
    std::vector<HeapEntry> heap;
    SearchStats stats;
  };
  std::unique_ptr<Scratch> take_scratch() const;
  void give_scratch(std::unique_ptr<Scratch> s, const SearchStats& stats) const;
  mutable std::mutex scratch_mu_;
  mutable std::vector<std::unique_ptr<Scratch>> scratch_free_;
  mutable SearchStats stats_;  // the last search's, for last_stats()
};

}  // namespace lockstep::station
