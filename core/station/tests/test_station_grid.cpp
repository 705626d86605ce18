// Seed 002 (station), "Route": the 0.7 m routing grid (core/station/grid.h,
// docs/station-grid.md). Numbers from the seed are pinned exactly; the rest
// are properties (walkable polylines, comfort kept, soft costs weighed).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "lockstep/core/error.h"
#include "math_reference.h"
#include "station/grid.h"

using lockstep::InputError;
using namespace lockstep::station;

namespace ref = lockstep::test_support::ref;

namespace {

GridPolygon rect(float x0, float y0, float x1, float y1) { return {{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}; }

double seg_point_distance(Vec2 p, Vec2 a, Vec2 b) {
  const double abx = b.x - a.x, aby = b.y - a.y, apx = p.x - a.x, apy = p.y - a.y;
  const double den = abx * abx + aby * aby;
  double t = den > 0 ? (apx * abx + apy * aby) / den : 0;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  const double dx = apx - abx * t, dy = apy - aby * t;
  return ref::sqrt(dx * dx + dy * dy);
}

/// The least distance from a polyline to a point.
double path_distance_to(const std::vector<Vec2>& path, Vec2 p) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k + 1 < path.size(); ++k) best = std::min(best, seg_point_distance(p, path[k], path[k + 1]));
  return best;
}

/// The y of the polyline where it crosses x (the first crossing), NaN when it does not.
double path_y_at(const std::vector<Vec2>& path, double x) {
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const Vec2 a = path[k], b = path[k + 1];
    if ((a.x <= x && x <= b.x) || (b.x <= x && x <= a.x)) {
      if (a.x == b.x) return a.y;
      return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
    }
  }
  return std::nan("");
}

/// Every leg of the path keeps the body clear (the legs from and to an end
/// point pressed against a wall are checked at that point's own clearance).
void require_walkable(const NavGrid& g, const std::vector<Vec2>& path, float r) {
  REQUIRE(path.size() >= 2);
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    float need = r;
    if (k == 0) need = std::min(need, g.wall_distance(path[0]));
    if (k + 2 == path.size()) need = std::min(need, g.wall_distance(path.back()));
    INFO("leg " << k << ": (" << path[k].x << ", " << path[k].y << ") -> (" << path[k + 1].x << ", "
                << path[k + 1].y << ")");
    CHECK(g.segment_clear(path[k], path[k + 1], need));
  }
}

/// Extra cost per cell: `value` on every cell whose centre lies in the box.
std::vector<float> patch(const NavGrid& g, float x0, float y0, float x1, float y1, float value) {
  std::vector<float> e(static_cast<std::size_t>(g.cell_count()), 0.0f);
  for (int32_t c = 0; c < g.cell_count(); ++c) {
    const Vec2 p = g.cell_center(c);
    if (p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1) e[static_cast<std::size_t>(c)] = value;
  }
  return e;
}

}  // namespace

// ---------------------------------------------------------------- the grid

TEST_CASE("Route grid cells are 0.7 m and indexed row-major from the floor's corner", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(2, 1, 12, 7));
  const NavGrid g(in);
  CHECK(g.cell() == 0.7f);
  CHECK(g.origin() == Vec2{2, 1});
  CHECK(g.nx() == 15);  // floor(10 / 0.7) + 1
  CHECK(g.ny() == 9);   // floor(6 / 0.7) + 1
  CHECK(g.cell_count() == 135);
  CHECK(g.cell_index({2.71f, 2.5f}) == 2 * 15 + 1);
  CHECK(g.cell_index({1.9f, 2.5f}) == -1);
  CHECK(g.cell_at(1, 2) == 31);
  CHECK(g.cell_center(31).x == Approx(2 + 1.05));
  CHECK(g.cell_center(31).y == Approx(1 + 1.75));
}

TEST_CASE("Route grid rejects bad geometry with InputError", "[grid][station]") {
  GridInput ok;
  ok.walkable.push_back(rect(0, 0, 10, 10));
  SECTION("no floor") {
    GridInput in;
    CHECK_THROWS_AS(NavGrid(in), InputError);
  }
  SECTION("a polygon with two points") {
    GridInput in = ok;
    in.blockers.push_back({{{1, 1}, {2, 2}}});
    CHECK_THROWS_WITH(NavGrid(in), Catch::Contains("blockers[0]") && Catch::Contains("at least 3 points"));
  }
  SECTION("a NaN coordinate") {
    GridInput in = ok;
    in.walkable[0].pts[2].x = std::nanf("");
    CHECK_THROWS_WITH(NavGrid(in), Catch::Contains("walkable[0].pts[2]") && Catch::Contains("NaN"));
  }
  SECTION("a zero-area polygon") {
    GridInput in = ok;
    in.blockers.push_back({{{1, 1}, {2, 2}, {3, 3}}});
    CHECK_THROWS_WITH(NavGrid(in), Catch::Contains("zero area"));
  }
  SECTION("a NaN wall") {
    GridInput in = ok;
    in.walls.push_back({{1, 1}, {std::nanf(""), 2}});
    CHECK_THROWS_WITH(NavGrid(in), Catch::Contains("walls[0]"));
  }
  SECTION("a cell size that is not a size") {
    GridInput in = ok;
    in.cell = 0.0f;
    CHECK_THROWS_AS(NavGrid(in), InputError);
    in.cell = std::nanf("");
    CHECK_THROWS_AS(NavGrid(in), InputError);
  }
  SECTION("bad queries") {
    const NavGrid g(ok);
    const float nan = std::nanf("");
    CHECK_THROWS_AS(g.find_path({nan, 1}, {5, 5}, 0.25f), InputError);
    CHECK_THROWS_AS(g.find_path({1, 1}, {5, 5}, -0.1f), InputError);
    CHECK_THROWS_AS(g.find_path({1, 1}, {5, 5}, nan), InputError);
    std::vector<float> short_costs(3, 0.0f);
    CHECK_THROWS_WITH(g.find_path({1, 1}, {5, 5}, 0.25f, &short_costs), Catch::Contains("extra_cost has 3 values"));
    std::vector<float> negative(static_cast<std::size_t>(g.cell_count()), 0.0f);
    negative[7] = -1.0f;
    CHECK_THROWS_WITH(g.find_path({1, 1}, {5, 5}, 0.25f, &negative), Catch::Contains("extra_cost[7]"));
    CHECK_THROWS_AS(g.segment_clear({1, 1}, {nan, 2}, 0.25f), InputError);
    CHECK_THROWS_AS(g.wall_distance({nan, 2}), InputError);
  }
}

TEST_CASE("Route wall distance counts the floor's edge, blockers and walls, and not the seams of the floor", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 10, 6));
  in.walkable.push_back(rect(10, 0, 20, 6));  // shares the edge x = 10
  in.blockers.push_back(rect(4, 4, 5, 5));   // a column
  in.walls.push_back({{15, 3}, {15, 6}});    // a wall from the top edge down to y = 3
  const NavGrid g(in);
  CHECK(g.wall_distance({3, 2}) == 2.0f);     // the bottom edge
  CHECK(g.wall_distance({10, 3}) == 3.0f);    // on the seam: the seam is no wall
  CHECK(g.wall_distance({9.5f, 3}) == 3.0f);
  CHECK(g.wall_distance({4.5f, 3}) == 1.0f);  // the column's lower face
  CHECK(g.wall_distance({16, 4}) == 1.0f);    // the extra wall
  CHECK(g.wall_distance({15, 1}) == 1.0f);    // below the wall's end: the bottom edge
  CHECK(g.wall_distance({4.5f, 4.5f}) == 0.0f);  // inside the column: off the floor
  CHECK(g.wall_distance({-1, 3}) == 0.0f);       // outside the floor
  CHECK(g.on_floor({10, 3}));
  CHECK_FALSE(g.on_floor({4.5f, 4.5f}));
  CHECK(g.point_clear({3, 2}, 2.0f));
  CHECK_FALSE(g.point_clear({3, 2}, 2.01f));
}

TEST_CASE("Route segment_clear keeps the body radius off walls and voids (the 0.5 s leg re-check)", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  in.blockers.push_back(rect(9, 4, 11, 6));  // a void in the floor
  in.walls.push_back({{2, 8}, {6, 8}});
  const NavGrid g(in);
  CHECK_FALSE(g.segment_clear({2, 5}, {18, 5}, 0.25f));  // straight through the void
  CHECK(g.segment_clear({2, 6.3f}, {18, 6.3f}, 0.25f));  // 0.3 m past its edge
  CHECK_FALSE(g.segment_clear({2, 6.3f}, {18, 6.3f}, 0.35f));
  CHECK_FALSE(g.segment_clear({4, 7}, {4, 9}, 0.0f));     // crosses the thin wall, even as a point
  CHECK_FALSE(g.segment_clear({18, 5}, {22, 5}, 0.25f));  // leaves the floor
  CHECK(g.segment_clear({3, 3}, {3, 3}, 0.25f));          // a point is a segment too
  CHECK_FALSE(g.segment_clear({7, 2}, {13, 8}, 0.0f));    // corner to corner through the void
}

// ---------------------------------------------------------------- paths

TEST_CASE("Route in the open the path is the straight line", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 30, 20));
  const NavGrid g(in);
  const auto path = g.find_path({3, 4}, {25, 15}, 0.25f);
  REQUIRE(path.size() == 2);
  CHECK(path[0] == Vec2{3, 4});
  CHECK(path[1] == Vec2{25, 15});
}

TEST_CASE("Route the path steps around obstacles and floor holes on a walkable polyline", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 30, 20));
  in.blockers.push_back(rect(10, 0, 11, 15));   // a wall-like obstacle from the bottom edge
  in.blockers.push_back(rect(18, 5, 22, 20));   // a floor hole reaching the top edge
  const NavGrid g(in);
  const float r = 0.25f;
  const Vec2 a{3, 3}, b{27, 17};
  const auto path = g.find_path(a, b, r);
  require_walkable(g, path, r);
  CHECK(path.front() == a);
  CHECK(path.back() == b);
  CHECK_FALSE(g.last_stats().start_snapped);
  CHECK_FALSE(g.last_stats().goal_snapped);
  // It must pass above the first and below the second.
  CHECK(path_y_at(path, 10.5) > 15.0);
  CHECK(path_y_at(path, 20.0) < 5.0);
  // String-pulled: two corners round each end it passes, not a cell staircase.
  CHECK(path.size() <= 8);
  CHECK(static_cast<int32_t>(path.size()) < g.last_stats().raw_points / 4);
}

TEST_CASE("Route an extra wall with a doorway is passed through the doorway", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  in.walls.push_back({{10, 0}, {10, 6}});    // a partition with a 1.2 m door, y 6 .. 7.2
  in.walls.push_back({{10, 7.2f}, {10, 10}});
  const NavGrid g(in);
  const float r = 0.25f;
  const auto path = g.find_path({5, 2}, {15, 2}, r);
  require_walkable(g, path, r);
  const double y = path_y_at(path, 10.0);
  CHECK(y > 6.0 + r);
  CHECK(y < 7.2 - r);
}

TEST_CASE("Route a full attractor given as a blocker is walked round", "[grid][station]") {
  // Seed: "Full attractors are blocked so later walkers route around the crowd standing there."
  GridInput in;
  in.walkable.push_back(rect(0, 0, 30, 12));
  const float r = 0.25f;
  const NavGrid open(in);
  REQUIRE(open.find_path({2, 6}, {28, 6}, r).size() == 2);
  in.blockers.push_back({{{13, 4}, {17, 4}, {18, 6}, {17, 8}, {13, 8}, {12, 6}}});  // the crowd at a kiosk
  const NavGrid full(in);
  const auto path = full.find_path({2, 6}, {28, 6}, r);
  require_walkable(full, path, r);
  const double y = path_y_at(path, 15.0);
  CHECK((y < 4.0 - r || y > 8.0 + r));
}

TEST_CASE("Route a path along a long wall keeps the 0.35 m comfort gap where the corridor allows", "[grid][station]") {
  // Start and goal 0.45 m from the wall (0.2 m body gap): the straight line is
  // clear for the body, but it would walk 26 m at 0.2 m from the wall.
  GridInput in;
  in.walkable.push_back(rect(0, 0, 30, 4));
  const NavGrid g(in);
  const float r = 0.25f;
  REQUIRE(g.segment_clear({2, 0.45f}, {28, 0.45f}, r));
  const auto path = g.find_path({2, 0.45f}, {28, 0.45f}, r);
  require_walkable(g, path, r);
  for (double x = 6; x <= 24; x += 0.5) {
    INFO("x = " << x);
    CHECK(path_y_at(path, x) >= r + NavGrid::kComfortGap_m - 1e-4);
  }
}

TEST_CASE("Route string-pulling round an inner corner keeps the comfort gap", "[grid][station]") {
  // An L-shaped hall, 4 m wide arms; the inner corner is at (4, 4).
  GridInput in;
  in.walkable.push_back({{{0, 0}, {20, 0}, {20, 4}, {4, 4}, {4, 20}, {0, 20}}});
  const NavGrid g(in);
  const float r = 0.25f;
  const auto path = g.find_path({18, 2}, {2, 18}, r);
  require_walkable(g, path, r);
  // Plain line-of-sight smoothing would graze the corner at 0.25 m.
  CHECK(path_distance_to(path, {4, 4}) >= r + NavGrid::kComfortGap_m - 1e-4);
  CHECK(path.size() <= 5);
}

TEST_CASE("Route a cut through a narrow door still keeps the comfort gap from a column beyond it", "[grid][station]") {
  // Hall A, a 1 m door, hall B, all centred on y = 5.25. The straight line
  // from start to goal goes through the door and passes 0.55 m from a column
  // in hall B (a 0.3 m body gap). The path squeezes through the door (0.25 m
  // gap), but that is no licence to graze the column: a cut may come only as
  // near a wall as the grid path came near that same wall.
  const float r = 0.25f;
  const GridPolygon column = rect(30, 5.8f, 31, 6.8f);
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  in.walkable.push_back(rect(20, 4.75f, 21, 5.75f));  // the door
  in.walkable.push_back(rect(21, 0, 40, 10));
  in.blockers.push_back(column);
  const NavGrid g(in);
  REQUIRE(g.segment_clear({2, 5.25f}, {38, 5.25f}, r));
  const auto path = g.find_path({2, 5.25f}, {38, 5.25f}, r);
  require_walkable(g, path, r);
  GridInput only_column;  // measures the distance to the column alone
  only_column.walkable.push_back(rect(-100, -100, 100, 100));
  only_column.blockers.push_back(column);
  const NavGrid probe(only_column);
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    INFO("leg " << k);
    CHECK(probe.segment_clearance(path[k], path[k + 1]) >= r + NavGrid::kComfortGap_m - 1e-3f);
  }
  CHECK(path_y_at(path, 20.5) == Approx(5.25).margin(0.5 - r));
}

TEST_CASE("Route a 1 m aisle is passable at a higher cost, never closed", "[grid][station]") {
  // Two rooms joined by a 1 m x 6 m aisle (y 4.5 .. 5.5), and a wide corridor round the top.
  const float r = 0.25f;
  auto build = [](float detour_top) {
    GridInput in;
    in.walkable.push_back(rect(0, 0, 8, 10));          // west room
    in.walkable.push_back(rect(14, 0, 22, 10));        // east room
    in.walkable.push_back(rect(8, 4.5f, 14, 5.5f));    // the aisle
    if (detour_top > 0) {
      in.walkable.push_back(rect(0, 10, 22, detour_top));  // a wide way round, above both rooms
      in.walls.push_back({{8, 10}, {14, 10}});            // not through the gap between the rooms
    }
    return in;
  };
  SECTION("the aisle alone carries the path") {
    const NavGrid g(build(0));
    const auto path = g.find_path({2, 5}, {20, 5}, r);
    require_walkable(g, path, r);
    CHECK(path_y_at(path, 11.0) == Approx(5.0).margin(0.5 - r));
  }
  SECTION("a cheap way round keeps the comfort gap instead") {
    const NavGrid g(build(14));  // rooms' top at y 10, a 4 m corridor above: about 9 m longer
    const auto path = g.find_path({4, 8}, {18, 8}, r);
    require_walkable(g, path, r);
    CHECK(path_y_at(path, 11.0) > 10.0);
  }
  SECTION("a long way round is not worth it: through the aisle") {
    GridInput in = build(14);
    // Stretch the rooms downward so the start and goal sit far below the detour.
    in.walkable.push_back(rect(0, -30, 8, 0));
    in.walkable.push_back(rect(14, -30, 22, 0));
    const NavGrid g(in);
    const auto path = g.find_path({4, 2}, {18, 2}, r);
    require_walkable(g, path, r);
    CHECK(path_y_at(path, 11.0) == Approx(5.0).margin(0.5 - r));
  }
}

TEST_CASE("Route crowds are soft: a patch is walked round when that is cheap", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  const float r = 0.25f;
  const auto crowd = patch(g, 9, 4, 11, 6, 5.0f);  // 2 m x 2 m, 5 extra per metre
  const auto plain = g.find_path({2, 5}, {18, 5}, r);
  REQUIRE(plain.size() == 2);
  CHECK(g.soft_cost(plain, crowd) > 5.0f);
  const auto path = g.find_path({2, 5}, {18, 5}, r, &crowd);
  require_walkable(g, path, r);
  CHECK(g.soft_cost(path, crowd) == 0.0f);  // the smoothing does not cut back through it
  CHECK(NavGrid::path_length(path) < 16.0f + 1.5f);
}

TEST_CASE("Route none of these is a wall: a patch is walked through when going round costs more", "[grid][station]") {
  // A band across the room with a 1 m gap only at the far end.
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  const float r = 0.25f;
  SECTION("a light crowd: straight through") {
    const auto crowd = patch(g, 9, -1, 11, 9, 0.5f);
    const auto path = g.find_path({2, 1.5f}, {18, 1.5f}, r, &crowd);
    require_walkable(g, path, r);
    CHECK(g.soft_cost(path, crowd) > 0.0f);
    CHECK(path_y_at(path, 10.0) < 3.0);
  }
  SECTION("a dense crowd: round by the gap") {
    const auto crowd = patch(g, 9, -1, 11, 9, 50.0f);
    const auto path = g.find_path({2, 1.5f}, {18, 1.5f}, r, &crowd);
    require_walkable(g, path, r);
    CHECK(path_y_at(path, 10.0) > 9.0);
  }
  SECTION("a band from wall to wall is still walked") {
    const auto crowd = patch(g, 9, -1, 11, 11, 1000.0f);
    const auto path = g.find_path({2, 1.5f}, {18, 1.5f}, r, &crowd);
    require_walkable(g, path, r);
    CHECK(path.back() == Vec2{18, 1.5f});
  }
}

TEST_CASE("Route a mouth apron costs more crossing it than walking along its axis", "[grid][station]") {
  // A 4 m x 4 m apron in front of a mouth in the bottom wall at x = 10;
  // crossing costs 4 extra per metre, along the axis 15 % of that.
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 20));
  const NavGrid g(in);
  const float r = 0.25f;
  std::vector<DirCost> apron(static_cast<std::size_t>(g.cell_count()));
  std::vector<float> iso(static_cast<std::size_t>(g.cell_count()), 0.0f);
  for (int32_t c = 0; c < g.cell_count(); ++c) {
    const Vec2 p = g.cell_center(c);
    if (p.x > 8 && p.x < 12 && p.y < 4) {
      apron[static_cast<std::size_t>(c)] = DirCost::axial({0, 1}, 0.15f * 4.0f, 4.0f);
      iso[static_cast<std::size_t>(c)] = 4.0f;
    }
  }
  CHECK(apron[static_cast<std::size_t>(g.cell_index({10, 1}))].per_metre({1, 0}) == Approx(4.0));
  CHECK(apron[static_cast<std::size_t>(g.cell_index({10, 1}))].per_metre({0, -1}) == Approx(0.6));
  SECTION("someone passing by bends round it") {
    const auto path = g.find_path({2, 2}, {18, 2}, r, nullptr, &apron);
    require_walkable(g, path, r);
    CHECK(path_y_at(path, 10.0) > 4.0);
    CHECK(g.soft_cost(path, nullptr, &apron) < 1.0f);
  }
  SECTION("someone stepping out of the mouth walks straight out") {
    const auto straight = g.find_path({10, 0.8f}, {10, 12}, r, nullptr, &apron);
    REQUIRE(straight.size() == 2);
    CHECK(g.soft_cost(straight, nullptr, &apron) == Approx(0.6 * (4.2 - 0.8)));  // apron cells reach y = 4.2
    // The same cost with no direction would send them out sideways.
    const auto sideways = g.find_path({10, 0.8f}, {10, 12}, r, &iso);
    require_walkable(g, sideways, r);
    CHECK(std::abs(sideways[1].x - 10.0f) > 1.0f);
  }
  SECTION("a form that can be negative is refused") {
    auto bad = apron;
    bad[5] = DirCost{1.0f, 2.0f, 1.0f};
    CHECK_THROWS_WITH(g.find_path({2, 2}, {18, 2}, r, nullptr, &bad), Catch::Contains("dir_cost[5]"));
  }
  SECTION("checked once, the field routes the same, and is refused on the same terms") {
    const CheckedDirCosts checked = g.check_dir_costs(apron);
    CHECK(g.find_path({2, 2}, {18, 2}, r, checked, nullptr) == g.find_path({2, 2}, {18, 2}, r, nullptr, &apron));
    auto bad = apron;
    bad[5] = DirCost{1.0f, 2.0f, 1.0f};
    CHECK_THROWS_WITH(g.check_dir_costs(bad), Catch::Contains("dir_cost[5]"));
    // A field checked by another grid (other cells), or none, is no field for this one.
    GridInput small;
    small.walkable.push_back(rect(0, 0, 5, 5));
    const NavGrid other(small);
    const CheckedDirCosts theirs = other.check_dir_costs(std::vector<DirCost>(static_cast<std::size_t>(other.cell_count())));
    CHECK_THROWS_WITH(g.find_path({2, 2}, {18, 2}, r, theirs, nullptr), Catch::Contains("the checked dir_cost has"));
    CHECK_THROWS_AS(g.find_path({2, 2}, {18, 2}, r, CheckedDirCosts{}, nullptr), InputError);
  }
}

TEST_CASE("Route the crowd cost of the next 15 m", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 40, 10));
  const NavGrid g(in);
  const auto crowd = patch(g, 20, 0, 40, 10, 2.0f);  // 2 extra per metre from x = 20.3 on (cell centres)
  const std::vector<Vec2> line{{1, 5}, {31, 5}};
  // The first cell whose centre is past x = 20 is column 29, from x = 20.3.
  CHECK(g.soft_cost(line, crowd, 15.0f) == 0.0f);  // 1 .. 16
  CHECK(g.soft_cost(line, crowd, 25.0f) == Approx(2.0 * (26.0 - 20.3)).epsilon(1e-5));
  CHECK(g.soft_cost(line, crowd) == Approx(2.0 * (31.0 - 20.3)).epsilon(1e-5));
}

TEST_CASE("Route lane slack is the widest of 1.5, 1.1, 0.75, 0.45, 0.2 m keeping body and comfort gap, plus half a cell, up to 1.5 m", "[grid][station]") {
  // Spec note G7. The leg runs from (0, 0) to the corner (10, 0); a wall runs parallel
  // at y = wall_y from x = -5 to 15. With radius 0.25 the walk must keep 0.25 + 0.35 =
  // 0.6 m off the wall, so the shift s fits when wall_y - s >= 0.6; the slack is then
  // s + 0.35 (half a 0.7 m cell), at most 1.5 m.
  const float r = 0.25f;
  auto slack_left = [&](float wall_y) {
    GridInput in;
    in.walkable.push_back(rect(-10, -10, 20, 10));
    in.walls.push_back({{-5, wall_y}, {15, wall_y}});
    const NavGrid g(in);
    return g.lane_slack({0, 0}, {10, 0}, {0, 2}, r);  // side_dir need not be unit
  };
  CHECK(slack_left(2.2f) == 1.5f);                   // 1.5 fits: 1.85, capped
  CHECK(slack_left(2.0f) == Approx(1.45f));          // 1.1 fits (1.5 does not)
  CHECK(slack_left(1.5f) == Approx(1.1f));           // 0.75
  CHECK(slack_left(1.2f) == Approx(0.8f));           // 0.45
  CHECK(slack_left(0.9f) == Approx(0.55f));          // 0.2
  CHECK(slack_left(0.7f) == 0.0f);                   // next to a wall the slack on that side is zero
  GridInput in;
  in.walkable.push_back(rect(-10, -10, 20, 10));
  in.walls.push_back({{-5, 0.7f}, {15, 0.7f}});
  const NavGrid g(in);
  CHECK(g.lane_slack({0, 0}, {10, 0}, {0, -1}, r) == 1.5f);  // the open side
  CHECK(g.lane_slack({0, 0}, {10, 0}, {0, 0}, r) == 0.0f);   // no side
  CHECK(NavGrid::kLaneShifts_m == std::array<float, 5>{1.5f, 1.1f, 0.75f, 0.45f, 0.2f});
}

TEST_CASE("Route comfort cost ramps from 3.5 times at the wall to 1 at a 0.35 m gap", "[grid][station]") {
  const float r = 0.25f;
  CHECK(NavGrid::comfort_factor(r, r) == 3.5f);
  CHECK(NavGrid::comfort_factor(0.1f, r) == 3.5f);
  CHECK(NavGrid::comfort_factor(r + 0.35f, r) == 1.0f);
  CHECK(NavGrid::comfort_factor(5.0f, r) == 1.0f);
  CHECK(NavGrid::comfort_factor(r + 0.175f, r) == Approx(2.25));
  CHECK(NavGrid::comfort_factor(r + 0.07f, r) == Approx(3.0));
}

TEST_CASE("Route a start inside a blocker or a goal off the floor snaps to the nearest open cell", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  in.blockers.push_back(rect(4, 4, 6, 6));
  const NavGrid g(in);
  const float r = 0.25f;
  const auto path = g.find_path({5, 5}, {25, 5}, r);
  REQUIRE(!path.empty());
  CHECK(g.last_stats().start_snapped);
  CHECK(g.last_stats().goal_snapped);
  CHECK(g.point_clear(path.front(), r));
  CHECK(g.point_clear(path.back(), r));
  CHECK(ref::hypot(path.front().x - 5.0, path.front().y - 5.0) < 1.0 + 0.7);  // just outside the 2 m block
  CHECK(path.back().x > 19.0f);
  Vec2 snapped;
  REQUIRE(g.nearest_open_node({25, 5}, r, &snapped));
  CHECK(snapped == path.back());
  require_walkable(g, path, r);
}

TEST_CASE("Route a walker pressed against a wall keeps its own start point", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  const auto path = g.find_path({5, 0.2f}, {15, 5}, 0.25f);  // centre 0.2 m from the wall: overlapping it
  REQUIRE(!path.empty());
  CHECK_FALSE(g.last_stats().start_snapped);
  CHECK(path.front() == Vec2{5, 0.2f});
}

TEST_CASE("Route a goal where the walker stands is a path of two equal points", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  const auto path = g.find_path({3, 0.4f}, {3, 0.4f}, 0.25f);  // even next to a wall
  REQUIRE(path.size() == 2);
  CHECK(path[0] == Vec2{3, 0.4f});
  CHECK(path[1] == Vec2{3, 0.4f});
}

TEST_CASE("Route no path to a closed-off room is an empty path", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  in.walls.push_back({{10, -1}, {10, 11}});  // a wall right across
  const NavGrid g(in);
  CHECK(g.find_path({2, 5}, {18, 5}, 0.25f).empty());
  // A gap narrower than the body closes it too.
  GridInput in2;
  in2.walkable.push_back(rect(0, 0, 20, 10));
  in2.walls.push_back({{10, -1}, {10, 5}});
  in2.walls.push_back({{10, 5.4f}, {10, 11}});
  const NavGrid g2(in2);
  CHECK(g2.find_path({2, 5}, {18, 5}, 0.25f).empty());
  CHECK_FALSE(g2.find_path({2, 5}, {18, 5}, 0.15f).empty());
}

TEST_CASE("Route paths are the same bits however the grid was used before", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 60, 40));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j)
      in.blockers.push_back(rect(6.0f + 9.0f * i, 6.0f + 9.0f * j, 6.8f + 9.0f * i, 6.8f + 9.0f * j));
  const NavGrid fresh(in), used(in);
  std::vector<float> crowd(static_cast<std::size_t>(used.cell_count()), 0.0f);
  for (std::size_t c = 0; c < crowd.size(); c += 7) crowd[c] = 1.5f;
  for (int k = 0; k < 20; ++k) (void)used.find_path({1.0f + k, 1}, {58, 39.0f - k}, 0.3f, &crowd);
  const auto a = fresh.find_path({2, 3}, {57, 35}, 0.25f, &crowd);
  const auto b = used.find_path({2, 3}, {57, 35}, 0.25f, &crowd);
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    CHECK(std::bit_cast<uint32_t>(a[k].x) == std::bit_cast<uint32_t>(b[k].x));
    CHECK(std::bit_cast<uint32_t>(a[k].y) == std::bit_cast<uint32_t>(b[k].y));
  }
  require_walkable(fresh, a, 0.25f);
}

TEST_CASE("Route every leg of random paths on cluttered floors keeps the body clear", "[grid][station]") {
  // Random boxes, random thin walls, a floor of three overlapping polygons,
  // random ends (many off the floor or inside a box, so snapped), random radii,
  // half the paths with a random crowd. Pins a rounding bug: a cut's early
  // stop compared squared distances while its caller compared distances, so a
  // long cut could be kept after checking only its first cells.
  uint32_t s = 777;
  auto rnd = [&s] {
    s = s * 1664525u + 1013904223u;
    return static_cast<float>(s >> 8) / 16777216.0f;
  };
  int paths = 0, found = 0;
  for (int world = 0; world < 8; ++world) {
    GridInput in;
    in.walkable.push_back(rect(0, 0, 40, 25));
    in.walkable.push_back(rect(40, 5, 55, 15));
    in.walkable.push_back({{{10, 25}, {20, 25}, {18, 35}}});
    for (int k = 0; k < 25; ++k) {
      const float x = rnd() * 50, y = rnd() * 30, w = 0.3f + rnd() * 4, h = 0.3f + rnd() * 4;
      in.blockers.push_back(rect(x, y, x + w, y + h));
    }
    for (int k = 0; k < 10; ++k) {
      const float x = rnd() * 50, y = rnd() * 30, ang = rnd() * 6.28f, len = rnd() * 8;
      in.walls.push_back({{x, y}, {x + len * ref::cos(ang), y + len * ref::sin(ang)}});
    }
    const NavGrid g(in);
    std::vector<float> crowd(static_cast<std::size_t>(g.cell_count()), 0.0f);
    for (auto& c : crowd) {
      const float u = rnd(), v = rnd();
      c = u < 0.1f ? v * 5 : 0.0f;
    }
    for (int q = 0; q < 150; ++q) {
      const float ax = rnd() * 56 - 0.5f, ay = rnd() * 36 - 0.5f, bx = rnd() * 56 - 0.5f, by = rnd() * 36 - 0.5f;
      const float r = 0.15f + rnd() * 0.25f;
      const auto path = g.find_path({ax, ay}, {bx, by}, r, (q & 1) ? &crowd : nullptr);
      ++paths;
      if (path.empty()) continue;
      ++found;
      for (std::size_t k = 0; k + 1 < path.size(); ++k) {
        float need = r;
        if (k == 0) need = std::min(need, g.wall_distance(path[0]));
        if (k + 2 == path.size()) need = std::min(need, g.wall_distance(path.back()));
        INFO("world " << world << " path " << q << " leg " << k);
        REQUIRE(g.segment_clear(path[k], path[k + 1], need));
      }
    }
  }
  CHECK(found > paths * 9 / 10);
}

// ---------------------------------------------------------------- LinearCost: the crowd's directional cost

namespace {
/// A LinearCost on every cell whose centre lies in the box, zero elsewhere.
std::vector<LinearCost> linear_patch(const NavGrid& g, float x0, float y0, float x1, float y1, LinearCost lc) {
  std::vector<LinearCost> e(static_cast<std::size_t>(g.cell_count()));
  for (int32_t c = 0; c < g.cell_count(); ++c) {
    const Vec2 p = g.cell_center(c);
    if (p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1) e[static_cast<std::size_t>(c)] = lc;
  }
  return e;
}
}  // namespace

TEST_CASE("Route LinearCost is linear in the direction, never negative, capped", "[grid][station]") {
  // c0 + cx ux + cy uy, clamped to 0..cap (seed "Route", Crowds: the excess over
  // 0.35 ped/m^2 counts up to 2 ped/m^2, times 2.5 per metre, so the cap is 5).
  const LinearCost lc{1.0f, 2.0f, 0.5f, 5.0f};
  CHECK(lc.per_metre({1, 0}) == 3.0f);
  CHECK(lc.per_metre({-1, 0}) == 0.0f);   // 1 - 2 < 0: nothing, never a bonus
  CHECK(lc.per_metre({0, 1}) == 1.5f);
  CHECK(lc.per_metre({0, -1}) == 0.5f);   // a step and its reverse differ
  CHECK(LinearCost{4.0f, 3.0f, 0.0f, 5.0f}.per_metre({1, 0}) == 5.0f);  // capped
  CHECK(LinearCost{4.0f, 0.0f, 0.0f, 0.0f}.per_metre({1, 0}) == 0.0f);  // no cap: costs nothing
  CHECK(LinearCost{4.0f, 0.0f, 0.0f, -1.0f}.per_metre({1, 0}) == 0.0f);
  CHECK(LinearCost{1e9f, 0.0f, 0.0f, 1e9f}.per_metre({1, 0}) == 1e6f);  // never above 1e6
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(LinearCost{nan, 0.0f, 0.0f, 5.0f}.per_metre({1, 0}) == 0.0f);  // NaN counts 0
  CHECK(LinearCost{1.0f, 0.0f, 0.0f, nan}.per_metre({1, 0}) == 0.0f);
  // A base (the station's queue-line band, 6 per metre) is added to the clamped part whatever the direction.
  CHECK(LinearCost{1.0f, 2.0f, 0.5f, 5.0f, 6.0f}.per_metre({1, 0}) == 9.0f);
  CHECK(LinearCost{1.0f, 2.0f, 0.5f, 5.0f, 6.0f}.per_metre({-1, 0}) == 6.0f);
  CHECK(LinearCost{0.0f, 0.0f, 0.0f, 0.0f, 6.0f}.per_metre({0, 1}) == 6.0f);
  CHECK(LinearCost{0.0f, 0.0f, 0.0f, 0.0f, -2.0f}.per_metre({0, 1}) == 0.0f);
  CHECK(LinearCost{0.0f, 0.0f, 0.0f, 0.0f, nan}.per_metre({0, 1}) == 0.0f);
}

TEST_CASE("Route a linear field is walked round against its direction and through along it", "[grid][station]") {
  // A 2 m band across a 20 x 10 m room, open only along y > 9: stepping +x
  // through it costs 4 extra per metre (people coming the other way), -x
  // nothing (people going the same way, under the threshold).
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  const float r = 0.25f;
  const auto cells = linear_patch(g, 9, -1, 11, 9, LinearCost{0.0f, 4.0f, 0.0f, 5.0f});
  const LinearField lin{&cells};
  SECTION("going +x: round by the gap") {
    const auto path = g.find_path({2, 1.5f}, {18, 1.5f}, r, nullptr, nullptr, &lin);
    require_walkable(g, path, r);
    CHECK(path_y_at(path, 10.0) > 9.0);
    const std::vector<Vec2> straight{{2, 1.5f}, {18, 1.5f}};
    CHECK(g.soft_cost(path, lin) < 0.25f * g.soft_cost(straight, lin));  // it grazes the band's top row at most
  }
  SECTION("going -x: straight through") {
    const auto path = g.find_path({18, 1.5f}, {2, 1.5f}, r, nullptr, nullptr, &lin);
    REQUIRE(path.size() == 2);
    CHECK(g.soft_cost(path, lin) == 0.0f);
  }
  SECTION("the cost of a straight line is its length in the field times the cost per metre") {
    // Cells with centres in 9..11 cover x 8.75 .. 11.55 on the 0.7 m grid from x = 0.
    const std::vector<Vec2> line{{2, 1.5f}, {18, 1.5f}};
    const float lo = g.cell_center(g.cell_index({9.2f, 1.5f})).x - 0.35f;
    const float hi = g.cell_center(g.cell_index({10.8f, 1.5f})).x + 0.35f;
    CHECK(g.soft_cost(line, lin) == Approx(4.0 * (hi - lo)).epsilon(1e-5));
    const std::vector<Vec2> back{{18, 1.5f}, {2, 1.5f}};
    CHECK(g.soft_cost(back, lin) == 0.0f);
  }
}

TEST_CASE("Route a linear field counts only inside its window of cells", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  const float r = 0.25f;
  const auto cells = linear_patch(g, 9, -1, 11, 9, LinearCost{10.0f, 0.0f, 0.0f, 10.0f});
  const std::vector<Vec2> line{{2, 1.5f}, {18, 1.5f}};
  LinearField whole{&cells};
  CHECK(g.soft_cost(line, whole) > 10.0f);
  // A window that ends before the band: the band costs nothing, the path is straight.
  LinearField left{&cells, 0, 0, g.cell_index({8.0f, 1.0f}) % g.nx(), g.ny() - 1};
  CHECK(g.soft_cost(line, left) == 0.0f);
  const auto path = g.find_path({2, 1.5f}, {18, 1.5f}, r, nullptr, nullptr, &left);
  CHECK(path.size() == 2);
  // A window clipped past the grid's edge is the grid.
  LinearField huge{&cells, -100, -100, 100000, 100000};
  CHECK(g.soft_cost(line, huge) == g.soft_cost(line, whole));
}

TEST_CASE("Route a linear field's overrides read as the field changed in those cells would", "[grid][station]") {
  // One reader's view of a shared field (the station's walker: its goal's cells
  // free, its own 3 x 3 cells less its body): costs, paths and their bits the
  // same as with a copy of the field changed in those cells, and the shared
  // field left as it was.
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  std::vector<LinearCost> cells(static_cast<std::size_t>(g.cell_count()), LinearCost{2.0f, 0.5f, -0.25f, 5.0f});
  const std::vector<LinearCost> before = cells;
  LinearField view{&cells};
  const int32_t c = g.cell_index({6.0f, 4.0f});
  const int32_t cx = c % g.nx(), cy = c / g.nx();
  view.ox0 = cx - 1, view.ox1 = cx + 1, view.oy0 = cy - 1, view.oy1 = cy + 1;
  for (std::size_t k = 0; k < 9; ++k) view.own[k] = LinearCost{0.1f * static_cast<float>(k), 0.0f, 0.3f, 5.0f};
  const int32_t z = g.cell_index({15.0f, 6.0f});
  view.zx0 = z % g.nx() - 2, view.zx1 = z % g.nx() + 1, view.zy0 = z / g.nx() - 1, view.zy1 = z / g.nx() + 2;
  // The same by hand: a copy, changed.
  std::vector<LinearCost> changed = cells;
  for (int32_t y = view.oy0; y <= view.oy1; ++y)
    for (int32_t x = view.ox0; x <= view.ox1; ++x)
      changed[static_cast<std::size_t>(y * g.nx() + x)] = view.own[static_cast<std::size_t>((y - view.oy0) * 3 + (x - view.ox0))];
  for (int32_t y = view.zy0; y <= view.zy1; ++y)
    for (int32_t x = view.zx0; x <= view.zx1; ++x) changed[static_cast<std::size_t>(y * g.nx() + x)] = LinearCost{};
  // And two masks of free cells (the station: the goal's queue, the walker's own queue line).
  std::vector<uint8_t> m1(cells.size(), 0), m2(cells.size(), 0);
  for (int32_t x = 2; x < 8; ++x) m1[static_cast<std::size_t>(g.cell_index({1.0f + 0.7f * static_cast<float>(x), 1.0f}))] = 1;
  for (int32_t y = 2; y < 9; ++y) m2[static_cast<std::size_t>(g.cell_index({10.0f, 0.7f * static_cast<float>(y)}))] = 1;
  view.zmask = m1.data();
  view.zmask2 = m2.data();
  for (std::size_t k = 0; k < cells.size(); ++k)
    if (m1[k] || m2[k]) changed[k] = LinearCost{};
  const LinearField plain{&changed};
  for (const auto& line : {std::vector<Vec2>{{1, 4}, {19, 4}}, std::vector<Vec2>{{1, 1}, {15, 6}, {19, 9}},
                           std::vector<Vec2>{{6, 9}, {6, 1}}}) {
    const float a = g.soft_cost(line, view), b = g.soft_cost(line, plain);
    CHECK(std::memcmp(&a, &b, sizeof a) == 0);
  }
  CHECK(g.soft_cost({{1, 4}, {19, 4}}, view) != g.soft_cost({{1, 4}, {19, 4}}, LinearField{&cells}));  // the overrides count
  const auto pv = g.find_path({1, 4}, {19, 6}, 0.25f, nullptr, nullptr, &view);
  const auto pp = g.find_path({1, 4}, {19, 6}, 0.25f, nullptr, nullptr, &plain);
  REQUIRE(pv.size() == pp.size());
  for (std::size_t k = 0; k < pv.size(); ++k) CHECK(std::memcmp(&pv[k], &pp[k], sizeof(Vec2)) == 0);
  for (std::size_t k = 0; k < cells.size(); ++k) CHECK(std::memcmp(&cells[k], &before[k], sizeof(LinearCost)) == 0);
}

TEST_CASE("Route a linear field of the wrong size is refused by name", "[grid][station]") {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 20, 10));
  const NavGrid g(in);
  std::vector<LinearCost> short_field(3);
  const LinearField lin{&short_field};
  CHECK_THROWS_AS(g.find_path({2, 2}, {18, 2}, 0.25f, nullptr, nullptr, &lin), InputError);
  CHECK_THROWS_WITH(g.soft_cost({{2, 2}, {18, 2}}, lin), Catch::Contains("linear field has 3 values"));
  const LinearField none{};
  CHECK_THROWS_WITH(g.find_path({2, 2}, {18, 2}, 0.25f, nullptr, nullptr, &none), Catch::Contains("linear field has 0 values"));
}
