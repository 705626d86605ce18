// The optional body view of the model contract (model.h): where a model's
// bodies are, for tools that draw or export positions (`lockstep trajectory`,
// a viewer) whatever the model. A model offers it with
//   std::vector<FloorView> floor_views() const;  std::vector<BodyView> bodies() const;
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lockstep {

/// A point of a floor's outline, in metres.
struct FloorPoint {
  double x = 0, y = 0;
};
/// The optional body view: a floor the bodies stand on (the walkable outlines
/// and the solids cut out of them).
struct FloorView {
  std::string id;
  std::vector<std::vector<FloorPoint>> walkable;  ///< outlines, each a ring
  std::vector<std::vector<FloorPoint>> solids;    ///< obstacles, holes and voids, each a ring
};
/// The optional body view: one body present now.
struct BodyView {
  int64_t id = 0;       ///< the same body keeps its id for the whole run
  uint32_t floor = 0;   ///< index into floors()
  double x = 0, y = 0;  ///< m
  double hx = 1, hy = 0;  ///< its heading, a unit vector
  double radius = 0;    ///< m
};

}  // namespace lockstep
