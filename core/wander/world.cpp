// The wander model's kinematic world (docs/wander-world.md).
#include "wander/wander.h"

#include <limits>

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
  if (!grounds_.empty()) {
    float x0 = grounds_[0].x0, x1 = grounds_[0].x1, z0 = grounds_[0].z0, z1 = grounds_[0].z1;
    for (const Ground& g : grounds_) {
      x0 = g.x0 < x0 ? g.x0 : x0;
      x1 = g.x1 > x1 ? g.x1 : x1;
      z0 = g.z0 < z0 ? g.z0 : z0;
      z1 = g.z1 > z1 ? g.z1 : z1;
    }
    px = x0 * 0.5f + x1 * 0.5f;
    pz = z0 * 0.5f + z1 * 0.5f;
  }
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
  // A body inside the walls' common inner box touches none of them: one test for all.
  const float r = e.radius;
  const std::size_t walls = clear_of_walls(e.position.x, e.position.z, r) ? 0 : walls_.size();
  for (std::size_t k = 0; k < walls; ++k) {
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
