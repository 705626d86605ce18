// The wander model's drawing (the model contract's, drawing.h): plan (x, z) drawn as (x, y).
#include "lockstep/core/dmath.h"
#include "wander/wander.h"

namespace lockstep::wander {

namespace {

FloorPoint plan(const Vec3& p) { return {static_cast<double>(p.x), static_cast<double>(p.z)}; }

const char* state_word(const Wanderer& e) {
  if (e.behaviour == Behaviour::SetPath) return "setpath";
  if (!e.onground) return "airborne";
  if (e.forcemove) return "moving";
  if (e.smooth_stopping) return "stopping";
  return "idle";
}

}  // namespace

Drawing WanderModel::scene_drawing() const {
  Drawing d;
  using K = DrawShape::Kind;
  for (const auto& g : scenario_.grounds)
    d.shapes.push_back({K::Polygon, "ground",
                        {{g.x0, g.z0}, {g.x1, g.z0}, {g.x1, g.z1}, {g.x0, g.z1}}, 0, {}, -1, 0});
  for (const auto& w : scenario_.walls) d.shapes.push_back({K::Line, "wall", {{w.x0, w.z0}, {w.x1, w.z1}}, 0, {}, -1, 0});
  for (const auto& path : scenario_.paths) {
    DrawShape s{K::Line, "path", {}, 0, {}, -1, 0};
    for (const auto& p : path) s.points.push_back(plan(p));
    d.shapes.push_back(std::move(s));
  }
  return d;
}

Drawing WanderModel::tick_drawing() const {
  Drawing d;
  using K = DrawShape::Kind;
  const auto& es = state_.entities;
  for (std::size_t i = 0; i < es.size(); ++i) {
    const Wanderer& e = es[i];
    const auto id = static_cast<int64_t>(i);
    // yaw turns from +z toward +x: the facing in plan (x, z) is (sin yaw, cos yaw).
    float s = 0, c = 1;
    dmath::sincos(e.yaw, &s, &c);
    BodyView b{id, 0, e.position.x, e.position.z, s, c, e.radius};
    d.bodies.push_back({b, "entities[" + std::to_string(i) + "]", {}, state_word(e)});
    d.shapes.push_back({K::Point, "start", {plan(e.startpos)}, 0, {}, id, 0});
    d.shapes.push_back({K::Circle, "wander_radius", {plan(e.startpos)}, e.wanderradius, {}, id, 0});
    d.shapes.push_back({K::Circle, "teleport_radius", {plan(e.startpos)}, e.teleportradius, {}, id, 0});
    if (e.forcemove) d.shapes.push_back({K::Line, "target", {plan(e.position), plan(e.forcetarget)}, 0, {}, id, 0});
  }
  return d;
}

}  // namespace lockstep::wander
