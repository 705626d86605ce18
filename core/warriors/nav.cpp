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
  // The A records: each area's nodes are one run of the node list (the loader checks the grouping).
  for (auto& a : areas) a.first_node = a.node_count = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const int32_t ai = nodes[i].area;
    if (ai < 0 || static_cast<std::size_t>(ai) >= areas.size()) continue;
    NavArea& a = areas[static_cast<std::size_t>(ai)];
    if (a.node_count == 0) a.first_node = static_cast<int32_t>(i);
    ++a.node_count;
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

NavState NavState::initial(const Level& level) {
  NavState st;
  for (const auto& a : level.areas)
    for (const auto& p : a.polygons) st.polygon_flags.push_back(p.flags);
  st.link_marks.assign(level.link_count(), 0);
  st.node_use.assign(level.nodes.size(), 0);
  st.node_f.assign(level.nodes.size(), 0);
  st.node_g.assign(level.nodes.size(), 0);
  st.node_h.assign(level.nodes.size(), 0);
  st.node_parent.assign(level.nodes.size(), kNoNode);
  st.door_open.assign(level.doors.size(), 0);
  for (std::size_t d = 0; d < level.doors.size(); ++d)
    if (level.doors[d].open) set_door(level, st, static_cast<int32_t>(d), true);
  return st;
}

void set_door(const Level& level, NavState& st, int32_t door, bool open) {
  const NavDoor& d = level.doors[static_cast<std::size_t>(door)];
  uint16_t& flags = st.polygon_flags[level.polygon_index(d.area, d.hole)];
  // Opening a door sets flag 8 on its hole (supplement, "Nav data"); closing clears it again.
  flags = static_cast<uint16_t>(open ? (flags | kPolyIgnored) : (flags & ~kPolyIgnored));
  st.door_open[static_cast<std::size_t>(door)] = open ? 1 : 0;
}

bool link_file_avoid(const Level& level, const NavState& st, const NavLink& link) {
  if (!link.avoid) return false;
  if (link.door != 0)
    for (std::size_t d = 0; d < level.doors.size(); ++d)
      if (level.doors[d].number == link.door && d < st.door_open.size() && st.door_open[d]) return false;
  return true;
}

}  // namespace lockstep::warriors
