// The level's derived data (see nav.h).
#include "warriors/nav.h"

namespace lockstep::warriors {

void Level::derive() {
  for (auto& a : areas)
    for (auto& p : a.polygons) {
      if (p.points.empty()) continue;
      p.min_x = p.max_x = p.points[0].x;
      p.min_y = p.max_y = p.points[0].y;
      for (const auto& q : p.points) {
        if (q.x < p.min_x) p.min_x = q.x;
        if (q.x > p.max_x) p.max_x = q.x;
        if (q.y < p.min_y) p.min_y = q.y;
        if (q.y > p.max_y) p.max_y = q.y;
      }
    }
  int32_t k = 0;
  for (auto& n : nodes) {
    n.first_link = k;
    k += static_cast<int32_t>(n.links.size());
  }
}

uint32_t Level::polygon_count() const {
  uint32_t n = 0;
  for (const auto& a : areas) n += static_cast<uint32_t>(a.polygons.size());
  return n;
}

uint32_t Level::link_count() const {
  uint32_t n = 0;
  for (const auto& a : nodes) n += static_cast<uint32_t>(a.links.size());
  return n;
}

uint32_t Level::polygon_index(int32_t area, int32_t polygon) const {
  uint32_t n = 0;
  for (int32_t i = 0; i < area; ++i) n += static_cast<uint32_t>(areas[static_cast<std::size_t>(i)].polygons.size());
  return n + static_cast<uint32_t>(polygon);
}

}  // namespace lockstep::warriors
