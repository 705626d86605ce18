// The route search and building (seed 000, "Path planning" steps 4-6; see route.h).
//
// Choices where the seed is silent (all "Path planning"):
//  * step 4, costs: a distance above 65535 (x 16, truncated) keeps its low 16 bits, as a halfword
//    store of Float_ToUInt's result does (4096 m reads 0). A NaN distance reads 0 and one at or
//    above 2^32 reads 0xffffffff before the 16-bit cut (no undefined float-to-integer cast).
//  * step 4, f = g + h is stored as a u16 (C +0x16) and so wraps at 16 bits like every other sum.
//  * step 4, the heap: a push when it already holds 1000 entries fails (so it holds at most 1000);
//    likewise an append to a closed list of 3000. The node's g, parent, h and f are written before
//    the push that fails. The popped node that does not fit the closed list keeps its g.
//  * step 4, the pop (the seed gives only the sift-up): the last entry goes to the root and sinks
//    while the smaller child has a strictly smaller f; of two children the right one is taken only
//    when its f is strictly smaller than the left one's.
//  * step 4, "already on the heap": a scan of the heap for the node. The scratch's g, h and f carry
//    over from one search to the next (only parents are reset), as the C records do: a leftover
//    g of 0xfabc reads "closed".
//  * step 5, "the route found steps over a 0x80 link": a step p -> parent(p) on the parent chain
//    whose first D record on parent(p) naming p (file order, as the follower reads a link) has 0x80.
//    "The first route's first node" is the chain's first node (the start's node): route_find builds
//    nothing, so the leading cut is route_build's. The second search's outcome is discarded; the
//    first search's parents are put back so that route_build builds the first route (the scratch's
//    g, h, f and lists stay as the second search left them).
//  * step 6: Route +0x108 "the last node" holds the destination's node (as +0x104 holds the start's
//    node, before the cuts); the node slots past the count are cleared to 0. Use counts are u8 and
//    wrap (at most 32 routes can hold a node, so they never do in a consistent state).
#include "warriors/route.h"

#include "lockstep/core/dmath.h"

namespace lockstep::warriors {

namespace {

constexpr const char* kWhyHeap = "heap full";
constexpr const char* kWhyClosed = "closed list full";
constexpr const char* kWhyNoPath = "no path";
constexpr const char* kWhyChain = "chain over 128";

uint16_t add16(uint16_t a, uint32_t b) { return static_cast<uint16_t>(static_cast<uint32_t>(a) + b); }

/// The record's bit 31 as the costs see it: the file's bit as it stands, or a hazard sphere's mark.
bool edge_avoided(const Level& level, const NavState& state, const NavNode& node, std::size_t k) {
  if (link_file_avoid(level, state, node.links[k])) return true;
  const std::size_t flat = static_cast<std::size_t>(node.first_link) + k;
  return flat < state.link_marks.size() && state.link_marks[flat] > 0;
}

uint8_t use_of(const NavState& state, uint16_t node) {
  return node < state.node_use.size() ? state.node_use[node] : 0;
}

int32_t heap_find(const AStarScratch& s, uint16_t node) {
  for (std::size_t i = 0; i < s.heap.size(); ++i)
    if (s.heap[i] == node) return static_cast<int32_t>(i);
  return -1;
}

/// PathHeap's sift-up: a parent moves down only while the node's f is strictly smaller.
void heap_sift_up(AStarScratch& s, std::size_t i) {
  const uint16_t node = s.heap[i];
  const uint16_t f = s.f[node];
  while (i > 0) {
    const std::size_t p = (i - 1) / 2;
    if (!(f < s.f[s.heap[p]])) break;
    s.heap[i] = s.heap[p];
    i = p;
  }
  s.heap[i] = node;
}

bool heap_push(AStarScratch& s, uint16_t node) {
  if (s.heap.size() >= kHeapMax) return false;
  s.heap.push_back(node);
  heap_sift_up(s, s.heap.size() - 1);
  return true;
}

uint16_t heap_pop(AStarScratch& s) {
  const uint16_t top = s.heap[0];
  const uint16_t last = s.heap.back();
  s.heap.pop_back();
  const std::size_t n = s.heap.size();
  if (n == 0) return top;
  const uint16_t f = s.f[last];
  std::size_t i = 0;
  for (;;) {
    const std::size_t l = 2 * i + 1;
    if (l >= n) break;
    std::size_t c = l;
    if (l + 1 < n && s.f[s.heap[l + 1]] < s.f[s.heap[l]]) c = l + 1;
    if (!(s.f[s.heap[c]] < f)) break;
    s.heap[i] = s.heap[c];
    i = c;
  }
  s.heap[i] = last;
  return top;
}

/// The first D record on `to` naming `from` (file order), or -1.
int32_t find_link(const Level& level, uint16_t to, uint16_t from) {
  const auto& links = level.nodes[to].links;
  for (std::size_t k = 0; k < links.size(); ++k)
    if (links[k].from == from) return static_cast<int32_t>(k);
  return -1;
}

}  // namespace

void AStarScratch::resize(std::size_t nodes) {
  f.assign(nodes, 0);
  g.assign(nodes, 0);
  h.assign(nodes, 0);
  parent.assign(nodes, kNoNode);
  heap.clear();
  heap.reserve(kHeapMax);
  closed.clear();
  closed.reserve(kClosedMax);
}

uint16_t nav_distance16(Vec3 a, Vec3 b) {
  const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  const float d = dmath::sqrt(dx * dx + dy * dy + dz * dz) * 16.0f;
  // Float_ToUInt, truncating, as the R5900 runs it (docs/spec-notes.md N25): below 2^31 cvt.w.s, above
  // it cvt.w.s of d - 2^31 plus 2^31, whose saturation at 0x7fffffff gives 0xffffffff from 2^32 up.
  // d >= 0 always; within the world's bound d < 5.6e7 (2e6 x sqrt(3) x 16), so only a level made in
  // code reaches the saturation. A NaN (no PS2 value) reads 0.
  uint32_t u = 0;
  if (d >= 4294967296.0f)
    u = 0xffffffffu;
  else if (d >= 0.0f)
    u = static_cast<uint32_t>(d);
  return static_cast<uint16_t>(u);  // held as u16: the low 16 bits
}

uint16_t nav_heuristic(const Level& level, uint16_t a, uint16_t b) {
  return nav_distance16(level.nodes[a].position, level.nodes[b].position);
}

uint16_t nav_edge_cost(uint16_t g, uint16_t distance16, uint16_t kind, bool avoided, uint8_t use, uint16_t mask,
                       bool climb_filter) {
  uint16_t c = distance16;
  if (climb_filter && (mask & kMaskNoClimbFilter) == 0) {
    if (kind & kLinkClimb)
      c = add16(c, 200);
    else if (kind & kLinkLedge)
      c = add16(c, 320);
    else if ((kind & kLinkJump) && !((kind & kLinkCharge) && avoided))
      c = add16(c, 80);
  }
  if (avoided) c = add16(c, 1600);
  if (use != 0) c = add16(c, 40u * use - 8u);
  const uint32_t sum = static_cast<uint32_t>(g) + c;
  return sum > 0xffffu ? uint16_t{0xffff} : static_cast<uint16_t>(sum);
}

AStarResult route_astar(const Level& level, const NavState& state, AStarScratch& s, uint16_t start, uint16_t dest,
                        uint16_t mask, uint32_t cap) {
  const std::size_t n = level.nodes.size();
  if (s.g.size() != n || s.f.size() != n || s.h.size() != n || s.parent.size() != n) s.resize(n);
  AStarResult r;
  // PathNodes_ResetParents; the open heap and the closed list emptied.
  for (auto& p : s.parent) p = kNoNode;
  s.heap.clear();
  s.closed.clear();
  if (start >= n || dest >= n) {
    r.why = kWhyNoPath;
    return r;
  }
  s.g[dest] = 0;
  s.h[dest] = nav_heuristic(level, dest, start);
  s.f[dest] = s.h[dest];
  heap_push(s, dest);
  r.pushed = 1;

  const char* why = nullptr;
  while (why == nullptr) {
    if (s.heap.empty()) {
      why = kWhyNoPath;
      break;
    }
    const uint16_t x = heap_pop(s);
    if (s.closed.size() >= kClosedMax) {
      why = kWhyClosed;
      break;
    }
    s.closed.push_back(x);
    const uint16_t gx = s.g[x];
    s.g[x] = kClosedMark;
    if (x == start) {
      s.g[x] = gx;  // put back
      uint32_t chain = 0;
      for (uint16_t p = start; p != kNoNode && chain <= kRouteMaxNodes; p = s.parent[p]) ++chain;
      r.chain = static_cast<uint16_t>(chain);
      if (chain > kRouteMaxNodes)
        why = kWhyChain;
      else
        r.found = true;
      break;
    }
    const NavNode& node = level.nodes[x];
    const uint8_t use = use_of(state, x);
    for (std::size_t k = 0; k < node.links.size(); ++k) {
      const NavLink& link = node.links[k];
      const uint16_t m = link.from;
      if (m >= n) continue;
      if (s.g[m] == kClosedMark) continue;
      if ((link.kind & mask) == 0) continue;
      const uint16_t g = nav_edge_cost(gx, nav_distance16(node.position, level.nodes[m].position), link.kind,
                                       edge_avoided(level, state, node, k), use, mask, level.climb_filter);
      if (g >= cap) continue;
      const int32_t at = heap_find(s, m);
      if (at >= 0 && s.g[m] <= g) continue;
      s.g[m] = g;
      s.parent[m] = x;
      s.h[m] = nav_heuristic(level, m, start);
      s.f[m] = static_cast<uint16_t>(g + s.h[m]);
      if (at >= 0) {
        heap_sift_up(s, static_cast<std::size_t>(at));
      } else {
        if (!heap_push(s, m)) {
          why = kWhyHeap;
          break;
        }
        ++r.pushed;
      }
    }
  }
  r.closed = static_cast<uint32_t>(s.closed.size());
  if (!r.found) r.why = why;
  // PathNodes_ClearOpenMarks: success or failure, every closed node's g = 0.
  for (const uint16_t c : s.closed) s.g[c] = 0;
  return r;
}

AStarResult route_find(const Level& level, const NavState& state, AStarScratch& scratch, uint16_t start,
                       uint16_t dest, uint16_t mask) {
  AStarResult r = route_astar(level, state, scratch, start, dest, mask, kCostCap);
  if (!r.found && (mask & 0xfeffu) != kMaskAll) {
    mask = static_cast<uint16_t>(mask | 0x8c);
    r = route_astar(level, state, scratch, start, dest, mask, kCostCap);
  }
  if (!r.found || !level.climb_filter || (mask & kLinkLedge) == 0 || (mask & kMaskNoClimbFilter) != 0) return r;
  bool ledge = false;
  for (uint16_t p = start; scratch.parent[p] != kNoNode && !ledge; p = scratch.parent[p]) {
    const uint16_t q = scratch.parent[p];
    const int32_t k = find_link(level, q, p);
    ledge = k >= 0 && (level.nodes[q].links[static_cast<std::size_t>(k)].kind & kLinkLedge) != 0;
  }
  if (!ledge) return r;
  // The 0x80 re-search: without 0x80, the cap at the first route's first node's f.
  const uint16_t first1 = start;
  const std::vector<uint16_t> parents1 = scratch.parent;
  const uint32_t cap = scratch.f[first1];
  const AStarResult r2 =
      route_astar(level, state, scratch, start, dest, static_cast<uint16_t>(mask & ~kLinkLedge), cap);
  const uint16_t first2 = start;
  // Both g read now: every node of a found chain was closed, so both read 0 and the first stays.
  if (r2.found && scratch.g[first2] < scratch.g[first1]) return r2;
  scratch.parent = parents1;
  return r;
}

int32_t route_build(const Level& level, NavState& state, const AStarScratch& scratch, uint16_t start, uint16_t dest,
                    Vec3 start_point, int32_t start_area, Vec3 dest_point, int32_t dest_area, const LineTest& line) {
  int32_t slot = -1;
  for (int32_t i = static_cast<int32_t>(kRoutePool) - 1; i >= 0; --i)
    if (!state.routes[static_cast<std::size_t>(i)].in_use) {
      slot = i;
      break;
    }
  if (slot < 0) return -1;
  auto parent_of = [&](uint16_t p) -> uint16_t { return p < scratch.parent.size() ? scratch.parent[p] : kNoNode; };

  // Leading cut: the first node moves along the parents while the start point sees the next node.
  uint16_t first = start;
  while (parent_of(first) != kNoNode && line(start_point, start_area, parent_of(first))) first = parent_of(first);

  std::vector<uint16_t> nodes;
  for (uint16_t p = first; p != kNoNode && nodes.size() < kRouteMaxNodes; p = parent_of(p)) nodes.push_back(p);

  // Shortcuts: from each node a, the farthest of the nodes 2-5 ahead (never the last) that has a
  // D record naming a becomes a's next node.
  for (std::size_t i = 0; i + 1 < nodes.size() && i + 2 < nodes.size();) {
    const uint16_t a = nodes[i];
    std::size_t best = 0;
    for (std::size_t k = 2; k <= 5; ++k) {
      const std::size_t j = i + k;
      if (j + 1 >= nodes.size()) break;  // never the route's last node
      if (find_link(level, nodes[j], a) >= 0) best = j;
    }
    if (best != 0)
      nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(i + 1), nodes.begin() + static_cast<std::ptrdiff_t>(best));
    ++i;
  }

  // Trailing cut: the last node goes while the destination point sees the node before it.
  while (nodes.size() > 1 && line(dest_point, dest_area, nodes[nodes.size() - 2])) nodes.pop_back();

  Route& r = state.routes[static_cast<std::size_t>(slot)];
  r.count = static_cast<int32_t>(nodes.size());
  r.nodes.fill(0);
  for (std::size_t i = 0; i < nodes.size(); ++i) r.nodes[i] = nodes[i];
  r.start_node = start;
  r.last_node = dest;
  r.dest_area = dest_area;
  r.in_use = 1;
  if (state.node_use.size() < level.nodes.size()) state.node_use.resize(level.nodes.size(), 0);
  for (const uint16_t p : nodes) ++state.node_use[p];
  return slot;
}

void route_free(const Level& level, NavState& state, int32_t slot) {
  (void)level;
  if (slot < 0 || slot >= static_cast<int32_t>(kRoutePool)) return;
  Route& r = state.routes[static_cast<std::size_t>(slot)];
  if (!r.in_use) return;
  for (int32_t i = 0; i < r.count; ++i) {
    const uint16_t p = r.nodes[static_cast<std::size_t>(i)];
    if (p < state.node_use.size()) --state.node_use[p];
  }
  r.in_use = 0;
}

}  // namespace lockstep::warriors
