// The warriors model, part 3: waypoint queues (seed 000, "Waypoint queues": 20 records of 0x90 at
// 0x006cde30, updated after the brains, 0x00299778). Choices where the seed is silent: docs/spec-notes.md
// rows Q1-Q5.
#include <cstdint>

#include "warriors/warriors.h"

namespace lockstep::warriors {

namespace {
float qplan_sq(Vec3 a, Vec3 b) {
  const float dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}
/// The segments p0 -> p1 and q0 -> q1 cross in plan (Q4: end points included, parallel never).
bool qcross(Vec3 p0, Vec3 p1, Vec3 q0, Vec3 q1) {
  const float rx = p1.x - p0.x, ry = p1.y - p0.y, sx = q1.x - q0.x, sy = q1.y - q0.y;
  const float den = rx * sy - ry * sx;
  if (den == 0.0f) return false;
  const float qx = q0.x - p0.x, qy = q0.y - p0.y;
  const float t = (qx * sy - qy * sx) / den;
  const float u = (qx * ry - qy * rx) / den;
  return t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f;
}
constexpr float kQueueArrive = 0.3f;  ///< Q3: a human is settled within 0.3 m (the steering's radius)
}  // namespace

void WarriorsModel::lay_queue(WaypointQueue& q, Vec3 a, Vec3 b) {
  // 0x00299538: up to 6 points one metre apart from a toward b, none past b (Q1).
  q = WaypointQueue{};
  q.in_use = 1;
  q.end_a = a;
  q.end_b = b;
  const Vec3 d = b - a;
  const float len = dmath::sqrt(sqr_length(d));
  const Vec3 u = len > 0.0f ? d * (1.0f / len) : Vec3{};
  for (int32_t k = 0; k < kQueuePoints && static_cast<float>(k) <= len; ++k) {
    q.points[static_cast<std::size_t>(k)] = a + u * static_cast<float>(k);
    ++q.count;
  }
}

bool WarriorsModel::join_queue(int32_t slot, int32_t index) {
  if (index < 0 || index >= static_cast<int32_t>(kQueueRecords)) return false;
  WaypointQueue& q = state_.queues[static_cast<std::size_t>(index)];
  if (!q.in_use) return false;
  leave_queue(slot);
  for (int32_t k = 0; k < kQueuePoints; ++k) {
    auto& hk = q.humans[static_cast<std::size_t>(k)];
    if (hk < 0) {
      hk = slot;
      q.settled[static_cast<std::size_t>(k)] = 0;
      state_.humans[static_cast<std::size_t>(slot)].brain.queued = 0;  // to be placed (reassigned)
      return true;
    }
  }
  return false;
}

void WarriorsModel::leave_queue(int32_t slot) {
  for (auto& q : state_.queues)
    for (int32_t k = 0; k < kQueuePoints; ++k)
      if (q.humans[static_cast<std::size_t>(k)] == slot) {
        q.humans[static_cast<std::size_t>(k)] = -1;
        q.settled[static_cast<std::size_t>(k)] = 0;
      }
  state_.humans[static_cast<std::size_t>(slot)].brain.queued = 0;
}

void WarriorsModel::update_queues() {
  for (int32_t i = 0; i < static_cast<int32_t>(kQueueRecords); ++i)
    if (state_.queues[static_cast<std::size_t>(i)].in_use) update_queue(i);
}

void WarriorsModel::update_queue(int32_t index) {
  WaypointQueue& q = state_.queues[static_cast<std::size_t>(index)];
  auto H = [&](int32_t s) -> Human& { return state_.humans[static_cast<std::size_t>(s)]; };
  // Settled: a human at his point (within 0.3 m in plan) is settled, +0xec 2 (Q3).
  for (int32_t k = 0; k < q.count; ++k) {
    const int32_t s = q.humans[static_cast<std::size_t>(k)];
    if (s < 0 || H(s).brain.queued == 0) continue;
    if (qplan_sq(H(s).position, q.points[static_cast<std::size_t>(k)]) <= kQueueArrive * kQueueArrive) {
      q.settled[static_cast<std::size_t>(k)] = 1;
      H(s).brain.queued = 2;
    }
  }
  // Keep those whose brain +0xec is 1 or 2; gather the rest, and the free points.
  int32_t keep[kQueuePoints], others[kQueuePoints];
  int32_t nk = 0, no = 0, humans = 0;
  for (int32_t k = 0; k < kQueuePoints; ++k) keep[k] = -1;
  for (int32_t k = 0; k < kQueuePoints; ++k) {
    const int32_t s = q.humans[static_cast<std::size_t>(k)];
    if (s < 0) continue;
    ++humans;
    const int32_t e = H(s).brain.queued;
    if ((e == 1 || e == 2) && k < q.count) {
      keep[k] = s;
      ++nk;
    } else {
      others[no++] = s;
    }
  }
  if (no > 0) {
    std::array<int32_t, kQueuePoints> next{-1, -1, -1, -1, -1, -1};
    std::array<int32_t, kQueuePoints> settled{};
    for (int32_t k = 0; k < kQueuePoints; ++k)
      if (keep[k] >= 0) {
        next[static_cast<std::size_t>(k)] = keep[k];
        settled[static_cast<std::size_t>(k)] = q.settled[static_cast<std::size_t>(k)];
      }
    bool placed[kQueuePoints] = {false, false, false, false, false, false};
    if (humans > q.count) {
      // 0x00299a08 (more humans than points): each free point, in order, takes the nearest unplaced human
      // (the lower slot on a tie); the rest wait in the slots past the points (Q2).
      for (int32_t k = 0; k < q.count; ++k) {
        if (next[static_cast<std::size_t>(k)] >= 0) continue;
        int32_t best = -1;
        float bd = 0.0f;
        for (int32_t i = 0; i < no; ++i) {
          if (placed[i]) continue;
          const float d = qplan_sq(H(others[i]).position, q.points[static_cast<std::size_t>(k)]);
          if (best < 0 || d < bd || (d == bd && others[i] < others[best])) {
            best = i;
            bd = d;
          }
        }
        if (best < 0) break;
        placed[best] = true;
        next[static_cast<std::size_t>(k)] = others[best];
      }
    } else {
      // 0x00299b50 (no more humans than points): each unplaced human, in slot order, takes the free point
      // nearest him (the lower point on a tie) (Q2).
      for (int32_t i = 0; i < no; ++i) {
        int32_t best = -1;
        float bd = 0.0f;
        for (int32_t k = 0; k < q.count; ++k) {
          if (next[static_cast<std::size_t>(k)] >= 0) continue;
          const float d = qplan_sq(H(others[i]).position, q.points[static_cast<std::size_t>(k)]);
          if (best < 0 || d < bd) {
            best = k;
            bd = d;
          }
        }
        if (best < 0) break;
        placed[i] = true;
        next[static_cast<std::size_t>(best)] = others[i];
      }
    }
    // The unplaced wait in the free slots past the points, in order.
    int32_t w = q.count;
    for (int32_t i = 0; i < no; ++i) {
      if (placed[i]) continue;
      while (w < kQueuePoints && next[static_cast<std::size_t>(w)] >= 0) ++w;
      if (w < kQueuePoints) next[static_cast<std::size_t>(w)] = others[i];
    }
    q.humans = next;
    q.settled = settled;
    for (int32_t k = 0; k < q.count; ++k) {
      const int32_t s = q.humans[static_cast<std::size_t>(k)];
      if (s >= 0 && keep[k] != s) H(s).brain.queued = 1;  // placed: walking to his point
    }
  }
  // Up to 5 passes swapping pairs (not settled) whose paths to their points cross.
  for (int32_t pass = 0; pass < kQueueSwapPasses; ++pass) {
    bool swapped = false;
    for (int32_t i = 0; i < q.count; ++i)
      for (int32_t j = i + 1; j < q.count; ++j) {
        const int32_t a = q.humans[static_cast<std::size_t>(i)], b = q.humans[static_cast<std::size_t>(j)];
        if (a < 0 || b < 0 || q.settled[static_cast<std::size_t>(i)] || q.settled[static_cast<std::size_t>(j)]) continue;
        if (qcross(H(a).position, q.points[static_cast<std::size_t>(i)], H(b).position, q.points[static_cast<std::size_t>(j)])) {
          q.humans[static_cast<std::size_t>(i)] = b;
          q.humans[static_cast<std::size_t>(j)] = a;
          swapped = true;
        }
      }
    if (!swapped) break;
  }
  // Each placed human not settled walks to his point (Q3): a move at the walk, radius 0.3, queued
  // when his front action is not already a move there.
  for (int32_t k = 0; k < q.count; ++k) {
    const int32_t s = q.humans[static_cast<std::size_t>(k)];
    if (s < 0 || q.settled[static_cast<std::size_t>(k)] || !H(s).is_ai) continue;
    Brain& b = H(s).brain;
    const Vec3 p = q.points[static_cast<std::size_t>(k)];
    if (b.queue_count > 0 && b.queue[0].type == 1 && b.queue[0].point == p) continue;
    clear_actions(s);
    Action a;
    a.type = 1;
    a.point = p;
    a.radius = kQueueArrive;
    a.gait = kWalk;
    a.speed = speed_for_gait(class_of(H(s)), kWalk);
    queue_action(s, a);
  }
}

}  // namespace lockstep::warriors
