// The optional drawing of the model contract (model.h): what a viewer (`lockstep view`) draws of a
// model, top-down, in its plan coordinates (metres). A model offers it with
//   Drawing M::scene_drawing() const;  // drawn once, under everything: floors, walls, areas, links
//   Drawing M::tick_drawing() const;   // drawn each tick: the bodies and what goes with them
// A model without one is drawn from its body view (body_view.h): its floors and its bodies.
// A drawing is output, never state: it is not hashed, and making it changes nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/core/body_view.h"

namespace lockstep {

/// One shape of a drawing.
struct DrawShape {
  enum class Kind : uint8_t {
    Polygon = 0,  ///< a closed ring of points
    Line = 1,     ///< a polyline (two points: a segment)
    Circle = 2,   ///< points[0] the centre, `radius`
    Point = 3,    ///< points[0], a marker
    Label = 4,    ///< points[0], `text`
  };
  Kind kind = Kind::Line;
  /// What it is, one word ("area", "link", "hazard", "route"): the viewer colours and toggles
  /// shapes by layer and lists the layers in its legend.
  std::string layer;
  std::vector<FloorPoint> points;
  double radius = 0;  ///< Circle: m
  std::string text;   ///< Label
  int64_t body = -1;  ///< the body it belongs to (BodyView::id: shown with it when selected), -1 none
  uint32_t floor = 0;  ///< index into the body view's floors
};

/// One body as drawn: where it is (the body view), and what the viewer says of it.
struct DrawBody {
  BodyView view;
  /// Where its fields are in the state ("humans[3]"): the viewer's inspector lists the fields
  /// under it, by the paths `lockstep fields` prints. Empty: none.
  std::string path;
  /// Other places in the state that belong to it now ("routes[3]", "nav.routes[31]"): listed by
  /// the inspector after its own fields.
  std::vector<std::string> more_paths;
  /// A word for its state ("walking", "stuck"): the viewer colours bodies by it. Empty: one colour.
  std::string state;
};

struct Drawing {
  std::vector<DrawShape> shapes;
  std::vector<DrawBody> bodies;
};

/// The drawing of a body view, for a model without a drawing of its own: the floors' outlines
/// (layer "floor") and solids ("solid"), and the bodies.
inline Drawing drawing_of_floors(const std::vector<FloorView>& floors) {
  Drawing d;
  for (std::size_t f = 0; f < floors.size(); ++f) {
    for (const auto& ring : floors[f].walkable)
      d.shapes.push_back({DrawShape::Kind::Polygon, "floor", ring, 0, {}, -1, static_cast<uint32_t>(f)});
    for (const auto& ring : floors[f].solids)
      d.shapes.push_back({DrawShape::Kind::Polygon, "solid", ring, 0, {}, -1, static_cast<uint32_t>(f)});
  }
  return d;
}
inline Drawing drawing_of_bodies(const std::vector<BodyView>& bodies) {
  Drawing d;
  for (const auto& b : bodies) d.bodies.push_back({b, {}, {}, {}});
  return d;
}

}  // namespace lockstep
