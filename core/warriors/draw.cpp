// The warriors model's drawing (the model contract's, drawing.h): plan (x, y), metres.
#include <cmath>

#include "lockstep/core/dmath.h"
#include "warriors/warriors.h"

namespace lockstep::warriors {

namespace {

/// The radius a human is drawn with: the state keeps none (a drawing's choice, docs/view.md).
constexpr double kDrawRadius = 0.3;

FloorPoint plan(const Vec3& p) { return {static_cast<double>(p.x), static_cast<double>(p.y)}; }

const char* state_word(const Human& h) {
  if (h.down) return "down";
  if (h.action == kActClimb) return "climbing";
  if (h.action == kActJump) return "jumping";
  if (h.action == kActTurnOnSpot) return "turning";
  if (h.has_pad) return "player";
  static const char* const gaits[] = {"stand", "sneak", "walk", "jog", "run", "sprint"};
  return h.gait >= 0 && h.gait <= 5 ? gaits[h.gait] : "stand";
}

const char* link_layer(uint16_t kind) {
  if (kind & kLinkDoor) return "link_door";
  if (kind & kLinkClimb) return "link_climb";
  if (kind & (kLinkJump | kLinkLedge)) return "link_jump";
  return "link";
}

}  // namespace

Drawing WarriorsModel::scene_drawing() const {
  Drawing d;
  using K = DrawShape::Kind;
  const Level& lv = scenario_.level;
  for (const auto& a : lv.areas)
    for (std::size_t p = 0; p < a.polygons.size(); ++p) {
      DrawShape s{K::Polygon, p == 0 ? "area" : "hole", {}, 0, {}, -1, 0};
      for (const auto& v : a.polygons[p].points) s.points.push_back(plan(v));
      d.shapes.push_back(std::move(s));
    }
  for (const auto& n : lv.nodes)
    for (const auto& l : n.links)
      if (l.from < lv.nodes.size())
        d.shapes.push_back({K::Line, link_layer(l.kind), {plan(lv.nodes[l.from].position), plan(n.position)}, 0, {}, -1, 0});
  for (const auto& n : lv.nodes) d.shapes.push_back({K::Point, "node", {plan(n.position)}, 0, {}, -1, 0});
  for (const auto& f : scenario_.flags) d.shapes.push_back({K::Label, "flag", {plan(f.position)}, 0, f.name, -1, 0});
  return d;
}

Drawing WarriorsModel::tick_drawing() const {
  Drawing d;
  using K = DrawShape::Kind;
  const Level& lv = scenario_.level;
  const NavState& nav = state_.nav;
  auto node_at = [&](int32_t n) -> const NavNode* {
    return n >= 0 && static_cast<std::size_t>(n) < lv.nodes.size() ? &lv.nodes[static_cast<std::size_t>(n)] : nullptr;
  };
  for (std::size_t i = 0; i < state_.humans.size(); ++i) {
    const Human& h = state_.humans[i];
    if (!h.in_use) continue;
    const auto id = static_cast<int64_t>(i);
    // A heading turns from +y toward +x: the facing is (sin h, cos h).
    float s = 0, c = 1;
    dmath::sincos(h.heading, &s, &c);
    d.bodies.push_back({BodyView{id, 0, h.position.x, h.position.y, s, c, kDrawRadius}, "humans[" + std::to_string(i) + "]",
                        {}, state_word(h)});
    if (!h.is_ai) continue;
    const Brain& b = h.brain;
    if (b.route.route >= 0) d.bodies.back().more_paths.push_back("nav.routes[" + std::to_string(b.route.route) + "]");
    d.shapes.push_back({K::Point, "aim", {plan(b.aim)}, 0, {}, id, 0});
    if (b.aim_radius > 0) d.shapes.push_back({K::Circle, "aim_radius", {plan(b.aim)}, b.aim_radius, {}, id, 0});
    const int32_t r = b.route.route;
    if (r >= 0 && static_cast<std::size_t>(r) < nav.routes.size() && nav.routes[static_cast<std::size_t>(r)].in_use) {
      const Route& rt = nav.routes[static_cast<std::size_t>(r)];
      DrawShape line{K::Line, "route", {plan(h.position)}, 0, {}, id, 0};
      const int32_t count = rt.count < 0 ? 0 : std::min<int32_t>(rt.count, static_cast<int32_t>(kRouteMaxNodes));
      for (int32_t k = 0; k < count; ++k)
        if (const NavNode* n = node_at(rt.nodes[static_cast<std::size_t>(k)])) {
          if (k >= b.route.index) line.points.push_back(plan(n->position));
          d.shapes.push_back({K::Point, k == b.route.index ? "waypoint_next" : "waypoint", {plan(n->position)}, 0, {}, id, 0});
        }
      if (line.points.size() > 1) d.shapes.push_back(std::move(line));
    }
  }
  for (const Claim& cl : nav.claims)
    if (const NavNode* n = node_at(cl.node)) d.shapes.push_back({K::Circle, "claim", {plan(n->position)}, 0.5, {}, cl.human, 0});
  for (const Hazard& hz : nav.hazards) {
    if (!hz.in_use) continue;
    // near_sq is (r + 0.3)^2 and block_sq (r + 0.8)^2 (nav.h): the sphere and the reach it blocks.
    const double near = std::sqrt(static_cast<double>(hz.near_sq)), block = std::sqrt(static_cast<double>(hz.block_sq));
    d.shapes.push_back({K::Circle, "hazard", {plan(hz.centre)}, near > 0.3 ? near - 0.3 : 0.0, {}, -1, 0});
    d.shapes.push_back({K::Circle, "hazard_block", {plan(hz.centre)}, block, {}, -1, 0});
  }
  return d;
}

}  // namespace lockstep::warriors
