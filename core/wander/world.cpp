// The wander model's kinematic world (docs/wander-world.md).
#include "wander/wander.h"

namespace lockstep::wander {

namespace {

float clampf(float v, float bound) { return v < -bound ? -bound : (v > bound ? bound : v); }

/// The world's limits (docs/spec-notes.md W18): every velocity component within +-kMaxSpeed and
/// every coordinate within +-kWorldBound, so no later frame can overflow a float. Nothing inside
/// the limits changes; a body that reaches the world's edge (a fall with no ground below) stays on it.
inline void hold_inside(Wanderer& e) {
  e.velocity = Vec3{clampf(e.velocity.x, kMaxSpeed), clampf(e.velocity.y, kMaxSpeed), clampf(e.velocity.z, kMaxSpeed)};
  e.position = Vec3{clampf(e.position.x, kWorldBound), clampf(e.position.y, kWorldBound), clampf(e.position.z, kWorldBound)};
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

bool World::ray_down(float x, float y, float z, float max_len, float* hit_height) const {
  // The first hit going down is the highest top at or below the origin; it
  // counts when it lies within the ray's length. Grounds are scanned in their
  // listed order; equal heights are the same hit.
  bool found = false;
  float best = 0.0f;
  for (const Ground& g : grounds_) {
    if (x < g.x0 || x > g.x1 || z < g.z0 || z > g.z1) continue;
    if (g.height > y || g.height < y - max_len) continue;
    if (!found || g.height > best) {
      best = g.height;
      found = true;
    }
  }
  if (found) *hit_height = best;
  return found;
}

bool World::plan_alike_within(float x, float z, float reach) const {
  // Rounding is monotone: for |d| <= reach, x - reach <= x + d <= x + reach hold for the rounded
  // sums too, so a point inside [lo, hi] on both axes passes or fails each test as all do.
  const float xl = x - reach, xh = x + reach, zl = z - reach, zh = z + reach;
  for (const Ground& g : grounds_) {
    const bool inside = xl >= g.x0 && xh <= g.x1 && zl >= g.z0 && zh <= g.z1;
    const bool outside = xh < g.x0 || xl > g.x1 || zh < g.z0 || zl > g.z1;
    if (!inside && !outside) return false;
  }
  return true;
}

void World::step_body(Wanderer& e) const {
  e.hitwall = false;
  if (e.rigid_kinematic) {
    // A kinematic body is not moved by its velocity; it still knows its ground.
    hold_inside(e);  // impulses still add up on a kinematic body, and a failsafe may place it
    float gh = 0.0f;
    e.onground = ray_down(e.position.x, e.position.y + physics_.step_up, e.position.z, physics_.step_up + 0.01f, &gh);
    return;
  }
  // Gravity, then explicit Euler integration of the position.
  if (e.rigid_gravity) e.velocity.y = e.velocity.y - physics_.gravity * kDt;
  const float prev_y = e.position.y;
  e.position = e.position + e.velocity * kDt;

  // Walls: push the body's circle out of each wall in listed order. The wall
  // is "hit" only when the body was moving into it (a resting contact is not).
  const float r = e.radius;
  for (const PreparedWall& w : walls_) {
    if (!(e.position.y >= w.bottom && e.position.y < w.top)) continue;
    // A body farther than r from the segment's bounding box cannot touch it:
    // skipping it changes no result, only the time.
    if (e.position.x < w.bx0 - r || e.position.x > w.bx1 + r || e.position.z < w.bz0 - r || e.position.z > w.bz1 + r)
      continue;
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

  // Ground: the ray from above the higher of the old and new feet, so a body
  // steps up at most step_up and never falls through a top it passed.
  const float oy = (prev_y > e.position.y ? prev_y : e.position.y) + physics_.step_up;
  float gh = 0.0f;
  if (ray_down(e.position.x, oy, e.position.z, 1.0e9f, &gh) && e.position.y <= gh) {
    e.position.y = gh;
    if (e.velocity.y < 0.0f) e.velocity.y = 0.0f;
    e.onground = true;
  } else {
    e.onground = false;
  }
  hold_inside(e);
}

}  // namespace lockstep::wander
