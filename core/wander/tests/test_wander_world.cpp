// The wander model's kinematic world (docs/wander-world.md): grounds, the
// downward ray, walls, gravity and stepping.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "lockstep/core/angle.h"
#include "wander_test_util.h"

using namespace lockstep;
using namespace lockstep::wander;

namespace {
World two_level_world() {
  return World(Physics{}, {Ground{-10, -10, 10, 10, 0}, Ground{0, 0, 5, 5, 2}},
               {Wall{-10, 3, 10, 3, -1.0e9f, 1.0f}});
}
}  // namespace

TEST_CASE("World ray down: the highest top at or below the origin within the ray's length", "[world]") {
  const World w = two_level_world();
  float h = -1;
  CHECK(w.ray_down(1, 10, 1, 20, &h));
  CHECK(h == 2.0f);
  CHECK(w.ray_down(1, 1.5f, 1, 20, &h));  // below the upper top: the lower one
  CHECK(h == 0.0f);
  CHECK_FALSE(w.ray_down(1, 10, 1, 7.9f, &h));  // too short to reach 2
  CHECK(w.ray_down(1, 10, 1, 8.0f, &h));        // exactly reaches it
  CHECK(w.ray_down(5, 3, 5, 1, &h));            // edges are inside
  CHECK(h == 2.0f);
  CHECK_FALSE(w.ray_down(10.01f, 3, 0, 10, &h));  // off every ground
}

TEST_CASE("World: gravity pulls a body down and the ground stops it", "[world]") {
  const World w = two_level_world();
  Wanderer e;
  e.position = Vec3{-5, 1, -5};
  int ticks = 0;
  while (!e.onground && ticks < 100) {
    w.step_body(e);
    ++ticks;
  }
  CHECK(e.onground);
  CHECK(e.position.y == 0.0f);
  CHECK(e.velocity.y == 0.0f);
  // Falling 1 unit at 9.81 units/s^2 takes sqrt(2/9.81) = 0.45 s = 27 frames (explicit Euler: within a frame or two).
  CHECK(ticks >= 26);
  CHECK(ticks <= 29);
}

TEST_CASE("World: a body steps up at most step_up", "[world]") {
  World w(Physics{}, {Ground{-10, -10, 10, 10, 0}, Ground{1, -10, 10, 10, 0.3f}, Ground{3, -10, 10, 10, 0.61f}}, {});
  Wanderer e;
  e.onground = true;
  e.velocity = Vec3{6, 0, 0};
  for (int k = 0; k < 30; ++k) w.step_body(e);  // reaches x = 3
  CHECK(e.position.x == Approx(3.0f).margin(0.01));
  CHECK(e.position.y == 0.3f);  // stepped onto the 0.3 top; the 0.61 top is 0.31 higher: walked "into" it
}

TEST_CASE("World: a wall pushes a body out to its radius and counts a hit only when moving into it", "[world]") {
  const World w = two_level_world();  // wall along z = 3, solid below y = 1
  Wanderer e;
  e.radius = 0.5f;
  e.position = Vec3{-5, 0, 2.48f};
  e.velocity = Vec3{0, 0, 3};
  e.onground = true;
  w.step_body(e);
  CHECK(e.hitwall);
  CHECK(e.position.z == Approx(2.5f));
  CHECK(e.velocity.z == 0.0f);  // the velocity into the wall is removed
  w.step_body(e);
  CHECK_FALSE(e.hitwall);  // resting against it is not a hit
  e.velocity = Vec3{0, 0, -3};
  w.step_body(e);
  CHECK_FALSE(e.hitwall);  // moving away is not a hit
}

TEST_CASE("World: a wall only stops bodies whose feet are below its top", "[world]") {
  World w(Physics{}, {Ground{-10, -10, 10, 10, 1.5f}}, {Wall{-10, 3, 10, 3, -1.0e9f, 1.0f}});
  Wanderer e;
  e.radius = 0.5f;
  e.position = Vec3{-5, 1.5f, 2.4f};
  e.velocity = Vec3{0, 0, 3};
  w.step_body(e);
  CHECK_FALSE(e.hitwall);
  CHECK(e.position.z == Approx(2.45f));
}

TEST_CASE("World: a kinematic body is not moved by its velocity", "[world]") {
  const World w = two_level_world();
  Wanderer e;
  e.rigid_kinematic = true;
  e.position = Vec3{-5, 0, -5};
  e.velocity = Vec3{5, 5, 5};
  w.step_body(e);
  CHECK(e.position == Vec3{-5, 0, -5});
  CHECK(e.onground);
}

TEST_CASE("World: where the grounds hold or miss a whole square, a ray from anywhere in it falls as from its centre",
          "[world]") {
  // has_ground_ahead skips its direction's sincos where plan_alike_within says the direction
  // cannot matter; the ray from the rotated origin must then give what the ray from the centre
  // gives, for every direction. Centres are drawn near the grounds' edges (at the reach and a
  // few ulps either side of it, where rounding decides) and anywhere.
  const World w = two_level_world();
  const float edges[] = {-10.0f, 0.0f, 5.0f, 10.0f};
  RngStream rng(11, "plan-alike");
  int alike = 0, differ = 0;
  for (int n = 0; n < 20000; ++n) {
    float c[2];
    for (float& v : c) {
      const uint64_t pick = rng.next_u64() % 3;
      if (pick == 0) {
        v = rng.next_range(-14.0f, 14.0f);
      } else {
        // An edge +- the reach, moved a few ulps.
        float e = edges[rng.next_u64() % 4] + (pick == 1 ? kGroundAheadDist : -kGroundAheadDist);
        const int ulps = static_cast<int>(rng.next_u64() % 7) - 3;
        for (int k = 0; k < (ulps < 0 ? -ulps : ulps); ++k) e = std::nextafter(e, ulps < 0 ? -1.0e9f : 1.0e9f);
        v = e;
      }
    }
    const float x = c[0], z = c[1], y = 3.0f;
    if (!w.plan_alike_within(x, z, kGroundAheadDist)) {
      ++differ;
      continue;
    }
    ++alike;
    float hc = -1;
    const bool from_centre = w.ray_down(x, y, z, kGroundAheadRay, &hc);
    for (int k = 0; k < 16; ++k) {
      // Directions as has_ground_ahead makes them, including the axes and the diagonals.
      const float yaw = k < 8 ? static_cast<float>(k) * (dmath::kPi / 4.0f) : rng.next_range(-dmath::kPi, dmath::kPi);
      float fx = 0, fz = 0;
      angle::dir_of(yaw, &fx, &fz);
      float h = -1;
      const bool hit = w.ray_down(x + fx * kGroundAheadDist, y, z + fz * kGroundAheadDist, kGroundAheadRay, &h);
      INFO("centre " << x << ", " << z << " yaw " << yaw);
      REQUIRE(hit == from_centre);
      if (hit) REQUIRE(h == hc);
    }
  }
  // Both cases were tried, many times.
  CHECK(alike > 2000);
  CHECK(differ > 2000);
}

namespace {
/// x moved by `ulps` units in the last place (toward +inf when positive).
float ulps_from(float x, int ulps) {
  for (int k = 0; k < (ulps < 0 ? -ulps : ulps); ++k) x = std::nextafter(x, ulps < 0 ? -1.0e30f : 1.0e30f);
  return x;
}
}  // namespace

TEST_CASE("World: inside the walls' inner box no wall can touch a body, down to the last ulp", "[world]") {
  // step_body skips every wall for a body the inner box holds (clear_of_walls); that must only
  // happen where each wall's own test (wall_may_touch) would skip it too. Bodies are placed on,
  // and a few ulps either side of, every place where a wall's test flips (each side of its
  // bounding box grown by the body's radius, rounded as step_body rounds it), with radii up to the
  // one the box was made for, that radius itself, and a few ulps beyond it.
  const float half = 26.25f;  // the benchmark crowd's yard of 1,000
  const std::vector<Wall> yard = {{-half, -half, half, -half}, {half, -half, half, half},
                                  {half, half, -half, half}, {-half, half, -half, -half}};
  std::vector<Wall> with_block = yard;  // and a block inside, off the middle
  for (const Wall& w : std::vector<Wall>{{3, -5, 5, -5}, {5, -5, 5, -1}, {5, -1, 3, -1}, {3, -1, 3, -5}})
    with_block.push_back(w);
  const float made_for = 0.35f;
  const std::vector<Ground> floor = {Ground{-half, -half, half, half, 0}};
  const World worlds[] = {World(Physics{}, floor, yard, made_for), World(Physics{}, floor, with_block, made_for)};
  const float radii[] = {made_for, ulps_from(made_for, -1), 0.2f, 0.01f, ulps_from(made_for, 1), ulps_from(made_for, 3), 1.0f};
  RngStream rng(12, "inner-box");
  for (std::size_t n = 0; n < 2; ++n) {
    const World& w = worlds[n];
    const std::vector<Wall>& walls = n == 0 ? yard : with_block;
    REQUIRE(w.wall_count() == walls.size());
    CHECK(w.clear_of_walls(0.0f, 0.0f, made_for));  // the middle of the floor is clear
    int clear = 0, not_clear = 0;
    for (int t = 0; t < 40000; ++t) {
      const float r = radii[rng.next_u64() % 7];
      float c[2];
      for (int axis = 0; axis < 2; ++axis) {
        if (rng.next_u64() % 4 == 0) {
          c[axis] = rng.next_range(-half - 1.0f, half + 1.0f);
          continue;
        }
        // A side of some wall's box, grown by some radius (as the test or the box rounds it).
        const Wall& wl = walls[rng.next_u64() % walls.size()];
        const float a = axis == 0 ? wl.x0 : wl.z0, b = axis == 0 ? wl.x1 : wl.z1;
        const float lo = a < b ? a : b, hi = a < b ? b : a;
        const float grow = radii[rng.next_u64() % 7];
        const float edge = rng.next_u64() % 2 ? lo - grow : hi + grow;
        c[axis] = ulps_from(edge, static_cast<int>(rng.next_u64() % 9) - 4);
      }
      const float x = c[0], z = c[1];
      if (!w.clear_of_walls(x, z, r)) {
        ++not_clear;
        continue;
      }
      ++clear;
      INFO("world " << n << " body at " << x << ", " << z << " radius " << r);
      CHECK(r <= made_for);  // a larger body always goes through the walls' own tests
      for (std::size_t k = 0; k < walls.size(); ++k) REQUIRE_FALSE(w.wall_may_touch(k, x, z, r));
    }
    CHECK(clear > 1000);
    CHECK(not_clear > 10000);
  }
}

TEST_CASE("World: no inner box where the floor's middle is within a wall's reach", "[world]") {
  // A wall across the middle: some wall always may touch a body there, so there is no box and
  // every body goes through the walls' own tests.
  const World w(Physics{}, {Ground{-10, -10, 10, 10, 0}}, {Wall{-10, 0, 10, 0}, Wall{-10, -10, 10, -10}}, 0.35f);
  for (float x : {0.0f, 5.0f, -9.0f})
    for (float z : {0.0f, 5.0f, -5.0f}) CHECK_FALSE(w.clear_of_walls(x, z, 0.1f));
  // No walls: every body is clear, up to the radius the box was made for.
  const World open(Physics{}, {Ground{-10, -10, 10, 10, 0}}, {}, 0.5f);
  CHECK(open.clear_of_walls(100.0f, -3.0f, 0.5f));
  CHECK_FALSE(open.clear_of_walls(100.0f, -3.0f, 0.75f));
}

TEST_CASE("farther_than: distance(a, b) > limit, the same answer at every boundary", "[world]") {
  // do_wander asks whether a body is beyond its teleport radius every tick; farther_than skips
  // the square root where the squared distance is at most a quarter of the limit's square. The
  // answers must agree at that quarter and at the limit itself, a few ulps either side, for
  // limits across the float range (the shortcut's own bounds 2^-60 and 2^60 among them), and for
  // negative, zero, infinite and NaN limits.
  const float limits[] = {12.0f,          30.0f,          1.0f,           0.35f,          1.0e6f,
                          0x1p-60f,       0x1p60f,        ulps_from(0x1p-60f, -1), ulps_from(0x1p60f, 1), 1.0e-30f,
                          1.0e30f,        0.0f,           -1.0f,          std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min()};
  RngStream rng(13, "farther-than");
  int near = 0, far = 0;
  for (const float limit : limits) {
    for (int t = 0; t < 4000; ++t) {
      const Vec3 a{rng.next_range(-100.0f, 100.0f), rng.next_range(-2.0f, 2.0f), rng.next_range(-100.0f, 100.0f)};
      // An offset along x near half the limit or near the limit, moved a few ulps; or anywhere.
      const uint64_t pick = rng.next_u64() % 3;
      const float base = pick == 0 ? limit * 0.5f : (pick == 1 ? limit : rng.next_range(0.0f, 2.0f) * limit);
      const float dx = ulps_from(base, static_cast<int>(rng.next_u64() % 9) - 4);
      // From the origin along x (the squared distance exactly dx^2), or from anywhere.
      const bool origin = rng.next_u64() % 2 == 0;
      const Vec3 from = origin ? Vec3{} : a;
      const Vec3 b = from + Vec3{dx, 0.0f, 0.0f};
      const bool want = distance(from, b) > limit;
      INFO("limit " << limit << " from " << from.x << ", " << from.y << ", " << from.z << " to " << b.x << ", " << b.y
                    << ", " << b.z);
      REQUIRE(farther_than(from, b, limit) == want);
      (want ? far : near) += 1;
    }
  }
  CHECK(near > 10000);
  CHECK(far > 10000);
}

TEST_CASE("World: in the ground-ahead box a ray falls as the box's known grounds say, down to the last ulp",
          "[world]") {
  // has_ground_ahead casts its ray from the entity's own place with the grounds' rectangle tests
  // already known wherever in_ahead_box holds. There plan_alike_within must hold (a ray from
  // anywhere within the reach falls as from the centre: the test above), and the known grounds
  // must give what ray_down gives. Centres on, and a few ulps either side of, every ground's
  // edges moved by the reach (where the box's bisected ends lie), and anywhere.
  const float d = kGroundAheadDist;
  const std::vector<std::vector<Ground>> floors = {
      {Ground{-25, -25, 25, 25, 0}, Ground{10, 10, 25, 25, 6}, Ground{-25, 10, -10, 25, 1.5f}},  // the yard's
      {Ground{-26.25f, -26.25f, 26.25f, 26.25f, 0}},                                         // the benchmark's
      {Ground{-30, -30, 30, 30, 0}, Ground{-30, -30, 30, 30, 0.25f}, Ground{-8.5f, -3, 9, 3, 4}},  // stacked
  };
  RngStream rng(14, "ahead-box");
  for (std::size_t n = 0; n < floors.size(); ++n) {
    const World w(Physics{}, floors[n], {});
    CHECK(w.in_ahead_box(0.5f, -0.5f));  // near the middle of each
    int in = 0, out = 0;
    for (int t = 0; t < 30000; ++t) {
      float c[2];
      for (int axis = 0; axis < 2; ++axis) {
        const Ground& g = floors[n][rng.next_u64() % floors[n].size()];
        const uint64_t pick = rng.next_u64() % 5;
        const float edge = axis == 0 ? (pick % 2 ? g.x0 : g.x1) : (pick % 2 ? g.z0 : g.z1);
        c[axis] = pick == 4 ? rng.next_range(-12.0f, 12.0f)
                            : ulps_from(edge + (pick < 2 ? d : -d), static_cast<int>(rng.next_u64() % 9) - 4);
      }
      const float x = c[0], z = c[1];
      if (!w.in_ahead_box(x, z)) {
        ++out;
        continue;
      }
      ++in;
      INFO("floor " << n << " centre " << x << ", " << z);
      REQUIRE(w.plan_alike_within(x, z, d));
      for (const float y : {0.5f, 2.0f, 6.5f, 4.5f, -0.5f, rng.next_range(-1.0f, 12.0f)}) {
        float known = -1, full = -1;
        const bool hit = w.ray_down_ahead(y, kGroundAheadRay, &known);
        REQUIRE(hit == w.ray_down(x, y, z, kGroundAheadRay, &full));
        if (hit) REQUIRE(known == full);
      }
    }
    CHECK(in > 300);
    CHECK(out > 2000);
  }
  // A floor whose middle is on a ground's edge has no box.
  const World edge(Physics{}, {Ground{-10, -10, 10, 10, 0}, Ground{0, 0, 5, 5, 2}}, {});
  CHECK_FALSE(edge.in_ahead_box(0.0f, 0.0f));
  CHECK_FALSE(edge.in_ahead_box(-5.0f, -5.0f));
}
