// The wander model's kinematic world (docs/wander-world.md).
#include "wander/wander.h"

#include <bit>
#include <limits>

namespace lockstep::wander {

namespace {

float clampf(float v, float bound) { return v < -bound ? -bound : (v > bound ? bound : v); }

/// Floats (not NaN) in the order of their values as unsigned integers (-0 just below +0), and back.
uint32_t order_key(float f) {
  const uint32_t b = std::bit_cast<uint32_t>(f);
  return (b & 0x80000000u) != 0 ? ~b : (b | 0x80000000u);
}
float from_order_key(uint32_t k) { return std::bit_cast<float>((k & 0x80000000u) != 0 ? (k & 0x7fffffffu) : ~k); }

/// The least float x in [lo, hi] where `holds` does, for a test that, once true, stays true for
/// every larger x (pred(hi) must hold). Bisection over the floats themselves: exact.
template <class P>
float least_where(P holds, float lo, float hi) {
  if (holds(lo)) return lo;
  uint32_t a = order_key(lo), b = order_key(hi);  // holds(a) false, holds(b) true
  while (b - a > 1) {
    const uint32_t m = a + (b - a) / 2;
    (holds(from_order_key(m)) ? b : a) = m;
  }
  return from_order_key(b);
}

/// The greatest float x in [lo, hi] where `holds` does, for a test that, once true, stays true for
/// every smaller x (pred(lo) must hold).
template <class P>
float greatest_where(P holds, float lo, float hi) {
  if (holds(hi)) return hi;
  // The float just below the least one where it no longer holds (which lies above lo).
  return from_order_key(order_key(least_where([&](float x) { return !holds(x); }, lo, hi)) - 1);
}

}  // namespace

std::vector<World::PreparedWall> World::prepare(const std::vector<Wall>& walls) {
  std::vector<PreparedWall> out;
  out.reserve(walls.size());
  for (const Wall& w : walls) {
    PreparedWall p;
    p.x0 = w.x0;
    p.z0 = w.z0;
    p.bottom = w.bottom;
    p.top = w.top;
    p.bx0 = w.x0 < w.x1 ? w.x0 : w.x1;
    p.bx1 = w.x0 < w.x1 ? w.x1 : w.x0;
    p.bz0 = w.z0 < w.z1 ? w.z0 : w.z1;
    p.bz1 = w.z0 < w.z1 ? w.z1 : w.z0;
    p.abx = w.x1 - w.x0;
    p.abz = w.z1 - w.z0;
    p.len2 = p.abx * p.abx + p.abz * p.abz;
    out.push_back(p);
  }
  return out;
}

void World::reference_point(float* x, float* z) const {
  *x = 0.0f;
  *z = 0.0f;
  if (grounds_.empty()) return;
  float x0 = grounds_[0].x0, x1 = grounds_[0].x1, z0 = grounds_[0].z0, z1 = grounds_[0].z1;
  for (const Ground& g : grounds_) {
    x0 = g.x0 < x0 ? g.x0 : x0;
    x1 = g.x1 > x1 ? g.x1 : x1;
    z0 = g.z0 < z0 ? g.z0 : z0;
    z1 = g.z1 > z1 ? g.z1 : z1;
  }
  *x = x0 * 0.5f + x1 * 0.5f;
  *z = z0 * 0.5f + z1 * 0.5f;
}

void World::make_ahead_box() {
  // plan_alike_within(x, z, d) asks, for every ground, that the square x - d .. x + d, z - d ..
  // z + d (each end rounded) lie inside the ground's rectangle or miss it on one side. Each end
  // rounds monotonically in x, so each of those tests holds on one side of a threshold float,
  // found exactly by bisection. For each ground, take the tests that hold at the reference point
  // (inside, or beyond the side with the most room): the box is where they all hold. Inside it,
  // the point itself lies in the rectangles of the grounds taken as inside, and misses the others.
  ahead_ = AheadBox{};
  ahead_heights_.clear();
  const float d = kGroundAheadDist;
  const float lo = -4.0f * kWorldBound, hi = 4.0f * kWorldBound;  // every place lies within
  float px = 0.0f, pz = 0.0f;
  reference_point(&px, &pz);
  AheadBox b{lo, hi, lo, hi};
  std::vector<float> heights;
  auto narrow = [](float& low, float& high, float l, float h) {
    low = l > low ? l : low;
    high = h < high ? h : high;
  };
  for (const Ground& g : grounds_) {
    const float xl = px - d, xh = px + d, zl = pz - d, zh = pz + d;
    if (xl >= g.x0 && xh <= g.x1 && zl >= g.z0 && zh <= g.z1) {
      // Inside: x - d >= x0 from some x on, x + d <= x1 up to some x; the same in z.
      const auto from_x = [&](float x) { return x - d >= g.x0; };
      const auto to_x = [&](float x) { return x + d <= g.x1; };
      const auto from_z = [&](float z) { return z - d >= g.z0; };
      const auto to_z = [&](float z) { return z + d <= g.z1; };
      if (!from_x(hi) || !to_x(lo) || !from_z(hi) || !to_z(lo)) return;
      narrow(b.x0, b.x1, least_where(from_x, lo, hi), greatest_where(to_x, lo, hi));
      narrow(b.z0, b.z1, least_where(from_z, lo, hi), greatest_where(to_z, lo, hi));
      heights.push_back(g.height);
      continue;
    }
    // Outside: beyond the side with the most room (x + d < x0, x - d > x1, z + d < z0, z - d > z1).
    const bool beyond[4] = {xh < g.x0, xl > g.x1, zh < g.z0, zl > g.z1};
    const float room[4] = {g.x0 - px, px - g.x1, g.z0 - pz, pz - g.z1};
    int best = -1;
    for (int k = 0; k < 4; ++k)
      if (beyond[k] && (best < 0 || room[k] > room[best])) best = k;
    if (best < 0) return;  // the reference point's square straddles this ground's edge: no box
    if (best == 0) narrow(b.x0, b.x1, lo, greatest_where([&](float x) { return x + d < g.x0; }, lo, hi));
    if (best == 1) narrow(b.x0, b.x1, least_where([&](float x) { return x - d > g.x1; }, lo, hi), hi);
    if (best == 2) narrow(b.z0, b.z1, lo, greatest_where([&](float z) { return z + d < g.z0; }, lo, hi));
    if (best == 3) narrow(b.z0, b.z1, least_where([&](float z) { return z - d > g.z1; }, lo, hi), hi);
  }
  ahead_ = b;
  ahead_heights_ = std::move(heights);
}

void World::make_inner_box(float radius) {
  // A body of radius r <= R skips wall k when x < bx0 - r, x > bx1 + r, z < bz0 - r or z > bz1 + r
  // (wall_may_touch, each sum rounded). Rounding is monotone, so bx0 - r rounds to at least what
  // bx0 - R does, and bx1 + r to at most what bx1 + R does: a point beyond one of wall k's sides
  // grown by R is beyond it grown by r. For each wall take the side, grown by R, that the
  // reference point (the middle of the grounds' bounding box) lies strictly beyond, with the most
  // room; the box is where all those half-planes meet. None if some wall has no such side.
  inner_ = InnerBox{};
  if (!(radius >= 0.0f && radius <= kWorldBound)) return;
  float px = 0.0f, pz = 0.0f;
  reference_point(&px, &pz);
  const float inf = std::numeric_limits<float>::infinity();
  InnerBox b{radius, -inf, inf, -inf, inf};
  for (const PreparedWall& w : walls_) {
    const float sides[4] = {w.bx0 - radius, w.bx1 + radius, w.bz0 - radius, w.bz1 + radius};
    // Room beyond each side: x below sides[0], x above sides[1], z below sides[2], z above sides[3].
    const float room[4] = {sides[0] - px, px - sides[1], sides[2] - pz, pz - sides[3]};
    int best = -1;
    for (int k = 0; k < 4; ++k)
      if (room[k] > 0.0f && (best < 0 || room[k] > room[best])) best = k;
    if (best < 0) return;  // the reference point is within this wall's reach: no box
    if (best == 0) b.x1 = sides[0] < b.x1 ? sides[0] : b.x1;
    if (best == 1) b.x0 = sides[1] > b.x0 ? sides[1] : b.x0;
    if (best == 2) b.z1 = sides[2] < b.z1 ? sides[2] : b.z1;
    if (best == 3) b.z0 = sides[3] > b.z0 ? sides[3] : b.z0;
  }
  inner_ = b;
}

void World::step_kinematic(Wanderer& e) const {
  // A kinematic body is not moved by its velocity; it still knows its ground.
  hold_inside(e);  // impulses still add up on a kinematic body, and a failsafe may place it
  float gh = 0.0f;
  e.onground = ray_down(e.position.x, e.position.y + physics_.step_up, e.position.z, physics_.step_up + 0.01f, &gh);
}

void World::push_out_of_walls(Wanderer& e) const {
  // Push the body's circle out of each wall in listed order. The wall is "hit"
  // only when the body was moving into it (a resting contact is not).
  const float r = e.radius;
  for (std::size_t k = 0; k < walls_.size(); ++k) {
    const PreparedWall& w = walls_[k];
    if (!(e.position.y >= w.bottom && e.position.y < w.top)) continue;
    // A body farther than r from the segment's bounding box cannot touch it:
    // skipping it changes no result, only the time.
    if (!wall_may_touch(k, e.position.x, e.position.z, r)) continue;
    const float abx = w.abx, abz = w.abz;
    const float len2 = w.len2;
    float t = ((e.position.x - w.x0) * abx + (e.position.z - w.z0) * abz) / len2;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    const float cx = w.x0 + abx * t, cz = w.z0 + abz * t;
    const float dx = e.position.x - cx, dz = e.position.z - cz;
    const float d2 = dx * dx + dz * dz;
    if (d2 >= r * r) continue;
    float nx = 0.0f, nz = 0.0f;
    const float d = dmath::sqrt(d2);
    if (d > 0.0f) {
      nx = dx / d;
      nz = dz / d;
    } else {
      // Centre exactly on the wall line: out to the wall's left side.
      const float len = dmath::sqrt(len2);
      nx = -abz / len;
      nz = abx / len;
    }
    e.position.x = cx + nx * r;
    e.position.z = cz + nz * r;
    const float vn = e.velocity.x * nx + e.velocity.z * nz;
    if (vn < 0.0f) {
      e.velocity.x = e.velocity.x - nx * vn;
      e.velocity.z = e.velocity.z - nz * vn;
      e.hitwall = true;
    }
  }
}

void World::clamp_inside(Wanderer& e) {
  e.velocity = Vec3{clampf(e.velocity.x, kMaxSpeed), clampf(e.velocity.y, kMaxSpeed), clampf(e.velocity.z, kMaxSpeed)};
  e.position = Vec3{clampf(e.position.x, kWorldBound), clampf(e.position.y, kWorldBound), clampf(e.position.z, kWorldBound)};
}

}  // namespace lockstep::wander
