// The warriors model, part 3: the neighbour sectors' readers and wall probe,
// steering round humans and giving way (seed 000, "Neighbour sectors",
// "Steering round humans", "Giving way"). Choices where the seed is silent:
// docs/spec-notes.md, rows S1- and G1-.
#include <cstdint>
#include <vector>

#include "lockstep/core/angle.h"
#include "warriors/navgeom.h"
#include "warriors/warriors.h"

namespace lockstep::warriors {

namespace {
float plan_sq2(Vec3 a, Vec3 b) {
  const float dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}
/// The unit vector of (x, y) in plan, (0, 0) for a zero vector.
Vec3 unit_plan(float x, float y) {
  const float l = dmath::sqrt(x * x + y * y);
  if (!(l > 0.0f)) return Vec3{};
  return Vec3{x / l, y / l, 0.0f};
}
float dot_plan(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y; }
/// The direction of heading h (flat): Vec_FromHeading.
Vec3 from_heading(float h) {
  float x = 0, y = 0;
  angle::dir_of(h, &x, &y);
  return Vec3{x, y, 0.0f};
}
/// Segment_Intersect2D (0x00337308): the segments p0 -> p1 and q0 -> q1 cross in plan (S7).
bool segments_cross(Vec3 p0, Vec3 p1, Vec3 q0, Vec3 q1) {
  const float rx = p1.x - p0.x, ry = p1.y - p0.y, sx = q1.x - q0.x, sy = q1.y - q0.y;
  const float den = rx * sy - ry * sx;
  if (den == 0.0f) return false;  // parallel or a zero-length segment: no crossing
  const float qx = q0.x - p0.x, qy = q0.y - p0.y;
  const float t = (qx * sy - qy * sx) / den;
  const float u = (qx * ry - qy * rx) / den;
  return t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f;
}
/// Float_ToUInt (as the R5900 runs it, N25) of a value within +-2^31: cvt.w.s, truncating toward 0,
/// the word read as unsigned.
uint32_t float_to_uint_small(float v) {
  if (!(v == v)) return 0;
  if (v >= 2147483648.0f) return 0x7fffffffu;
  if (v <= -2147483648.0f) return 0x80000000u;
  return static_cast<uint32_t>(static_cast<int32_t>(v));
}
}  // namespace

// ------------------------------------------------------------ neighbour sectors

void WarriorsModel::sectors_probe(int32_t slot, int32_t k) {
  // Sectors_ProbeWall (0x0029e4b0): at most once per sector per rebuild. The point is 1.5 m from the
  // owner's position at heading +0x40 + k x 45 degrees, at his height; bit 4 when
  // Human_CanWalkStraightTo(owner, point, 0) fails (no trains in this port: S2).
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Sector& sec = h.sectors.sector[static_cast<std::size_t>(k & 7)];
  if (!sec.probe) return;
  sec.probe = 0;
  const float dir = h.sectors.heading + static_cast<float>(k & 7) * angle::deg_to_rad(45.0f);
  const Vec3 d = from_heading(dir);
  const Vec3 point{h.position.x + d.x * kSectorProbeDist, h.position.y + d.y * kSectorProbeDist, h.position.z};
  if (!can_walk_straight(slot, point)) sec.flags |= kSecWall;
}

bool WarriorsModel::sectors_is_blocked(int32_t slot, int32_t k) {
  const Sector& sec = state_.humans[static_cast<std::size_t>(slot)].sectors.sector[static_cast<std::size_t>(k & 7)];
  if (sec.flags & kSecVeryClose) return true;  // at once, no probe
  sectors_probe(slot, k);
  return (sec.flags & (kSecVeryClose | kSecWall | kSecPlayer)) != 0;
}

bool WarriorsModel::sectors_is_free(int32_t slot, int32_t k) {
  const Sector& sec = state_.humans[static_cast<std::size_t>(slot)].sectors.sector[static_cast<std::size_t>(k & 7)];
  if (sec.flags & (kSecNear | kSecVeryClose | kSecPlayer)) return false;  // flags 0xb
  sectors_probe(slot, k);
  return (sec.flags & kSecWall) == 0;
}

bool WarriorsModel::sectors_is_wall(int32_t slot, int32_t k) {
  sectors_probe(slot, k);
  return (state_.humans[static_cast<std::size_t>(slot)].sectors.sector[static_cast<std::size_t>(k & 7)].flags & kSecWall) != 0;
}

int32_t WarriorsModel::sectors_cost(int32_t slot, int32_t k) {
  sectors_probe(slot, k);
  const Sector& sec = state_.humans[static_cast<std::size_t>(slot)].sectors.sector[static_cast<std::size_t>(k & 7)];
  return sec.flags + 2 * sec.count;
}

bool WarriorsModel::sectors_all_clear(const Sectors& s) {
  for (const auto& sec : s.sector)
    if (sec.flags & (kSecNear | kSecVeryClose)) return false;
  return true;
}

bool WarriorsModel::sectors_held_by(const Sectors& s, int32_t human) {
  if (human < 0) return false;
  for (const auto& sec : s.sector)
    if (sec.nearest == human) return true;
  return false;
}

int32_t WarriorsModel::sectors_turn_way(int32_t from, int32_t to) {
  // The shorter way round: +1 clockwise (rising index), -1 anticlockwise; half way round (4) and no
  // turn at all are +1 (S3).
  const int32_t d = ((to - from) % 8 + 8) % 8;
  return d <= 4 ? 1 : -1;
}

Vec3 WarriorsModel::sectors_point(int32_t slot, float distance, int32_t k) const {
  // Sectors_GetPoint (0x0029e350): the live heading, not +0x40; at the owner's height.
  const Human& h = state_.humans[static_cast<std::size_t>(slot)];
  const Vec3 d = from_heading(h.heading + static_cast<float>(k & 7) * angle::deg_to_rad(45.0f));
  return Vec3{h.position.x + d.x * distance, h.position.y + d.y * distance, h.position.z};
}

void WarriorsModel::sectors_reset_heading(int32_t slot) {
  // Sectors_ResetHeading (0x0029e2e8): a new heading, every probe re-armed, an old bit 4 kept.
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  h.sectors.heading = h.heading;
  for (auto& sec : h.sectors.sector) sec.probe = 1;
}

// ------------------------------------------------------------ steering helpers

std::vector<int32_t> WarriorsModel::humans_within(Vec3 p, float r, int32_t except) const {
  std::vector<int32_t> out;
  const float r2 = r * r;
  for (uint32_t j = 0; j < kSlots && out.size() < kSlots; ++j) {
    const Human& o = state_.humans[j];
    if (static_cast<int32_t>(j) == except || !o.in_use) continue;
    if (sqr_length(o.position - p) <= r2) out.push_back(static_cast<int32_t>(j));
  }
  return out;
}

namespace {
/// Humans_FindAhead over the think phase's position copy (the same answer as humans_within while brains think).
void within_cached(const std::array<Vec3, kSlots>& pos, const std::array<uint8_t, kSlots>& used, Vec3 p, float r,
                   int32_t except, std::vector<int32_t>& out) {
  out.clear();
  const float r2 = r * r;
  for (uint32_t j = 0; j < kSlots; ++j) {
    if (static_cast<int32_t>(j) == except || !used[j]) continue;
    if (sqr_length(pos[j] - p) <= r2) out.push_back(static_cast<int32_t>(j));
  }
}
}  // namespace

Vec3 WarriorsModel::clamp_step(int32_t slot, float f) const {
  // Steering_ClampStep (0x00288f40)(f): his unit direction to his aim (+0x90) x min(+0x114 x f, the distance).
  const Human& o = state_.humans[static_cast<std::size_t>(slot)];
  const float dx = o.brain.aim.x - o.position.x, dy = o.brain.aim.y - o.position.y;
  const float dist = dmath::sqrt(dx * dx + dy * dy);
  if (!(dist > 0.0f)) return Vec3{};
  float len = o.brain.move_speed * f;
  if (len > dist) len = dist;
  return Vec3{dx / dist * len, dy / dist * len, 0.0f};
}

int32_t WarriorsModel::find_blocker(int32_t slot, const std::vector<int32_t>& list, Vec3 p, Vec3 dir, Vec3 step,
                                    float* frac) const {
  // Steering_FindBlocker (0x00288cc8).
  const Human& me = state_.humans[static_cast<std::size_t>(slot)];
  int32_t best = -1;
  float best_t = kSteerNone;
  const float step_len = dmath::sqrt(step.x * step.x + step.y * step.y);
  for (const int32_t j : list) {
    // 1. Not my target, not behind me (the position from the think phase's copy when there is one: the
    //    same values, without reading his whole record).
    if (j == me.brain.target) continue;
    const Vec3 op = think_pos_valid_ ? think_pos_[static_cast<std::size_t>(j)] : state_.humans[static_cast<std::size_t>(j)].position;
    const float ox = op.x - p.x, oy = op.y - p.y;
    if (dir.x * ox + dir.y * oy < 0.0f) continue;
    const Human& o = state_.humans[static_cast<std::size_t>(j)];
    // (A bound before the arithmetic: his step is at most 0.75 x his speed, so beyond |S| + that + 0.63
    //  no ray can reach him; the test below would refuse him anyway.)
    {
      const float his_max = kSteerLook * (o.is_ai ? absf(o.brain.move_speed) : absf(o.speed));
      const float reach_max = step_len + his_max + kSteerDisc;
      if (ox * ox + oy * oy > reach_max * reach_max * 1.0001f + 1e-6f) continue;
    }
    // 2. His step: a player's facing x 0.75 x his speed; an AI's clamped step toward his aim.
    Vec3 his{};
    if (!o.is_ai) {
      const Vec3 f = from_heading(o.heading);
      his = Vec3{f.x * kSteerLook * o.speed, f.y * kSteerLook * o.speed, 0.0f};
    } else {
      his = clamp_step(j, kSteerLook);
    }
    // 3. The relative step r; Steering_RayHitsHuman against his 0.63 m disc.
    const float rx = step.x - his.x, ry = step.y - his.y;
    const float rl = dmath::sqrt(rx * rx + ry * ry);
    if (!(rl > 0.0f)) continue;  // S4: no relative motion, no hit
    const float od2 = ox * ox + oy * oy;
    const float reach = rl + kSteerDisc;
    if (od2 > reach * reach) continue;       // farther than |r| + 0.63
    const float proj = (ox * rx + oy * ry) / rl;
    if (proj < 0.0f) continue;               // behind the ray
    const float perp2 = od2 - proj * proj;
    if (perp2 > kSteerDiscSq) continue;      // the ray misses the disc
    float t = 0.0f;                          // S4: already inside the disc, t = 0
    if (od2 > kSteerDiscSq) {
      const float in = kSteerDiscSq - perp2;
      t = proj - dmath::sqrt(in > 0.0f ? in : 0.0f);
      if (t < 0.0f) t = 0.0f;
    }
    // 4. The smallest t / |r|; the first in slot order keeps a tie.
    const float f = t / rl;
    if (f < best_t) {
      best_t = f;
      best = j;
    }
  }
  *frac = best_t;
  return best;
}

int32_t WarriorsModel::ground_probe_below(Vec3 p) const {
  // Ground_ProbeBelow (0x00249050): a ray from 0.1 m above the point straight down for 2 m, mask 0;
  // 1 only when the first triangle hit has bit 4 (0x10). No level: no triangles, 0.
  if (level().empty()) return 0;
  RayHit hit;
  const Vec3 from{p.x, p.y, p.z + kProbeBelowUp};
  if (!NavGeom(level(), state_.nav).ray_down(from, kProbeBelowLength, &hit)) return 0;
  return (hit.flags & kTriUnderCover) ? 1 : 0;
}

void WarriorsModel::set_avoiding(int32_t slot, int32_t who) {
  // Steering_SetAvoiding: +0x24 and the brain's turn boost raised by one while avoiding (S1).
  Brain& b = state_.humans[static_cast<std::size_t>(slot)].brain;
  b.steering.avoiding = who;
  if (who >= 0 && !b.steering.boosted) {
    b.turn_boost = static_cast<int8_t>(b.turn_boost + 1);
    b.steering.boosted = 1;
  } else if (who < 0 && b.steering.boosted) {
    b.turn_boost = static_cast<int8_t>(b.turn_boost - 1);
    b.steering.boosted = 0;
  }
}

void WarriorsModel::steering_clear(int32_t slot) {
  // Steering_Clear: avoiding off, +0x2b 0, the counter 255 (a decision on the next update), score -1e9.
  Steering& st = state_.humans[static_cast<std::size_t>(slot)].brain.steering;
  set_avoiding(slot, -1);
  st.decisions = 0;
  st.since_decision = 255;
  st.score = -kSteerNone;
}

void WarriorsModel::steering_end_avoid(int32_t slot) {
  // Steering_EndAvoid (0x00288ad0, the arrival flag during a detour): avoiding off, the score 0.
  set_avoiding(slot, -1);
  state_.humans[static_cast<std::size_t>(slot)].brain.steering.score = 0.0f;
}

bool WarriorsModel::try_detour(int32_t slot, Vec3 point, int32_t blocker, float t) {
  // Steering_TryDetour (0x00289010): walkable straight and Ground_ProbeBelow not 1 -> avoiding := the
  // blocker, score := t, held point := the point. +0x2b is not touched.
  if (!can_walk_straight(slot, point) || ground_probe_below(point) == 1) return false;
  Steering& st = state_.humans[static_cast<std::size_t>(slot)].brain.steering;
  set_avoiding(slot, blocker);
  st.score = t;
  st.held_point = point;
  return true;
}

// ------------------------------------------------------------ steering round humans

int32_t WarriorsModel::steer(int32_t slot, float speed, Vec3& aim, Vec3 dest, float radius) {
  Human& me = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = me.brain;
  Steering& st = b.steering;
  const ClassSpec& c = class_of(me);
  const Vec3 P = me.position;
  const float s = me.speed;  // my human's speed +0x1ac
  // 1. Not enabled or held in a waypoint queue -> 0; detail above 2 -> avoidance off, 0.
  if (!st.enabled || b.queued != 0) return 0;
  if (me.detail > 2) {
    set_avoiding(slot, -1);
    return 0;
  }
  const bool avoiding = st.avoiding >= 0;
  // 2. Between decisions: the u8 counter stored plus one, the old value against 3 x detail.
  {
    const int32_t old = st.since_decision & 0xff;
    st.since_decision = (old + 1) & 0xff;
    if (old < 3 * me.detail) {
      if (avoiding) {
        aim = st.held_point;
        return 1;
      }
      return 0;
    }
  }
  // 3. A decision.
  st.since_decision = 0;
  st.score = -kSteerNone;
  if (avoiding) {
    radius = 0.0f;
    if (nearest_gait_for_speed(c, s) == kStand) {  // a standing gait (gait 0, below 0.5 m/s)
      aim = st.held_point;
      return 1;
    }
  }
  // 4. Within 1 m of the destination (S5: 3D, Vec_DistSq).
  if (sqr_length(dest - P) <= 1.0f) return 0;
  // 5. The look-ahead and the list.
  float L = kSteerLook * speed;
  if (speed < kSteerSlowBelow) {
    st.slow_decisions = (st.slow_decisions + 1) & 0xff;
    if (st.slow_decisions >= kSteerSlowTimes) {
      L = L * 10.0f;
      st.slow_decisions = 0;
    }
  } else {
    st.slow_decisions = 0;
  }
  float range = 2.0f * L;
  if (range > kSteerFarMax) range = kSteerFarMax;
  if (think_pos_valid_) within_cached(think_pos_, think_used_, P, range, slot, steer_list_);
  else steer_list_ = humans_within(P, range, slot);
  const std::vector<int32_t>& list = steer_list_;
  // 6. Expiry: while avoiding, +0x2b counts decisions; below 4 x trunc(11 - s) the walk heads for the
  //    held point, otherwise Steering_Clear ends the detour.
  Vec3 toward = aim;
  if (st.avoiding >= 0) {
    const uint32_t old = static_cast<uint32_t>(st.decisions & 0xff);
    st.decisions = static_cast<int32_t>((old + 1) & 0xff);
    const uint32_t limit = 4u * float_to_uint_small(11.0f - s);  // S6: the R5900's words, wrapping
    if (old < limit) toward = st.held_point;
    else steering_clear(slot);
  }
  // 7. My step.
  const float tx = toward.x - P.x, ty = toward.y - P.y;
  const float tdist = dmath::sqrt(tx * tx + ty * ty);
  const Vec3 D = unit_plan(tx, ty);
  float slen = tdist - radius;
  if (L < slen) slen = L;
  const Vec3 S{D.x * slen, D.y * slen, 0.0f};
  // 8. The blocker.
  float t = kSteerNone;
  const int32_t bl = find_blocker(slot, list, P, D, S, &t);
  if (bl < 0) {
    if (st.avoiding >= 0) {
      aim = st.held_point;
      return 1;
    }
    return 0;
  }
  Human& him = state_.humans[static_cast<std::size_t>(bl)];
  // 9. I lead a formation and he follows it: his steering gets the gait-0 speed for 5 updates.
  if (him.follows == slot && him.is_ai) steering_set_speed(him.brain, 0.0f, kSteerFollowerStop);
  // 10. Keep the old detour when its contact point is nearer than the new one.
  const Vec3 tS{S.x * t, S.y * t, 0.0f};
  const float new_d2 = tS.x * tS.x + tS.y * tS.y;
  if (st.avoiding >= 0 && plan_sq2(st.contact, P) < new_d2) {
    aim = st.held_point;
    return 1;
  }
  const Vec3 C{P.x + tS.x, P.y + tS.y, P.z};
  st.contact = C;
  // 11. The vectors.
  const Vec3 B = him.position;
  Vec3 Q{};
  if (!him.is_ai) {
    const Vec3 f = from_heading(him.heading);
    Q = Vec3{B.x + f.x, B.y + f.y, B.z};
  } else {
    Q = him.brain.aim;
  }
  const Vec3 N = unit_plan(B.x - P.x, B.y - P.y);
  const Vec3 H = unit_plan(Q.x - B.x, Q.y - B.y);
  const Vec3 E{D.y, -D.x, 0.0f};
  const float bb = dot_plan(D, N), hh = dot_plan(D, H);
  const float cos30 = dmath::cos(angle::deg_to_rad(30.0f));
  const float cos50 = dmath::cos(angle::deg_to_rad(50.0f));
  const float cos45 = dmath::cos(angle::deg_to_rad(45.0f));
  // 12. Right of way: faster, or as fast and the lower "address" (S8: the lower slot).
  const bool row = s > him.speed || (s == him.speed && slot < bl);
  // 13. Standing (case 0).
  int32_t kase = -1;
  const bool standing = (!him.is_ai && him.speed < kSteerStandSpeed) || (him.is_ai && him.brain.move_speed <= 0.0f) ||
                        (him.is_ai && him.brain.steering.override_count != 0 && him.brain.steering.override_speed <= 0.0f);
  if (standing) {
    kase = 0;
  } else {
    // 14. The case table, in the seed's order.
    const float ah = hh < 0.0f ? -hh : hh;
    if (bb >= cos30 && hh < -cos45) {
      kase = 1;
    } else if (bb >= cos30 && hh > cos45) {
      if (!row) return 0;  // follow
      kase = 2;
    } else if (bb >= cos50 && bb < cos30 && ah > cos45) {
      kase = 2;
    } else if (bb >= cos50 && ah <= cos45) {
      kase = 3;
    } else if (bb < cos50 && hh >= cos45) {
      if (!row) steering_set_speed(b, kSteerLook * s, 15);
      return 0;
    } else {
      kase = 3;
    }
  }
  // 15. The same route node while I am held: 0.75 x his speed for 5 updates; aim unchanged.
  if (b.route.route >= 0 && him.is_ai && him.brain.route.route >= 0 && b.route.held) {
    const Route& r1 = state_.nav.routes[static_cast<std::size_t>(b.route.route)];
    const Route& r2 = state_.nav.routes[static_cast<std::size_t>(him.brain.route.route)];
    if (b.route.index < r1.count && him.brain.route.index < r2.count &&
        r1.nodes[static_cast<std::size_t>(b.route.index)] == r2.nodes[static_cast<std::size_t>(him.brain.route.index)]) {
      steering_set_speed(b, kSteerLook * him.speed, 5);
      return 1;
    }
  }
  // 16. Yielding: without right of way and the contact within 3 m.
  if (kase != 0 && !row && new_d2 < kSteerYieldSq) {
    if (kase == 2) steering_set_speed(b, him.speed, 5);
    else steering_set_speed(b, 0.0f, 1);
    return 1;
  }
  // 17. The detour point X.
  if (kase == 0) {
    const float sigma = dot_plan(E, N) >= 0.0f ? -1.0f : 1.0f;
    const Vec3 X{B.x + sigma * E.x, B.y + sigma * E.y, B.z};
    aim = X;
    if (try_detour(slot, X, bl, t)) return 1;
    // k in my frame, applied in his: X' = 1 m from him along his live facing + (k + 4) x 45.
    const int32_t k = sector_of(me, X);
    const int32_t k2 = (k + 4) & 7;
    sectors_of(bl, kSectorMaxAgeMs);
    const Vec3 X2 = sectors_point(bl, 1.0f, k2);
    if (try_detour(slot, X2, bl, t)) aim = X2;
    return 1;
  }
  Vec3 X{};
  if (kase == 1 || kase == 2) {
    const float rho = dot_plan(E, Vec3{B.x - P.x, B.y - P.y, 0.0f}) >= 0.0f ? 1.0f : -1.0f;
    const float sigma = segments_cross(P, aim, B, Q) ? 1.0f : -1.0f;
    X = Vec3{C.x + sigma * rho * E.x, C.y + sigma * rho * E.y, C.z};
  } else {
    const Vec3 cs = clamp_step(bl, kSteerLook * t);
    const float sigma = dot_plan(H, E) >= 0.0f ? -1.0f : 1.0f;
    X = Vec3{B.x + cs.x + sigma * E.x, B.y + cs.y + sigma * E.y, B.z};
  }
  // 18. The corner check: s - Move_CornerSpeedLimit(s, brain, A, P, X) above 1 -> 0.75 s for 1 update.
  if (s - corner_speed_limit(c, b.turn_boost, s, right_of(me.heading), P, X) > kSteerCornerSlack) {
    steering_set_speed(b, kSteerLook * s, 1);
    return 1;
  }
  // 19. Steering_TryDetour of the aim passed in (the original's slip, kept), then aim := X.
  try_detour(slot, aim, bl, t);
  aim = X;
  return 1;
}

// ------------------------------------------------------------ giving way

bool WarriorsModel::is_threat_to(int32_t a, int32_t b) const {
  // Brain_IsThreat on the two brains (G1): a human is a threat to another when he has him as his
  // target (brain +0x124); this port has no factions.
  if (a < 0 || b < 0) return false;
  return state_.humans[static_cast<std::size_t>(a)].brain.target == b;
}

bool WarriorsModel::idle_under_control(int32_t slot) const {
  // Human_IsIdleUnderControl (0x00225390), G2: the control is Human_UpdateControl or the step control
  // (an AI human, not a pad's), no state bit of 0x7bf9e1f3ff0 (not busy, down, airborne, reacting or
  // grabbing) and no held flag.
  const Human& h = state_.humans[static_cast<std::size_t>(slot)];
  if (!h.is_ai || h.has_pad) return false;
  if (busy(h) || h.down || h.airborne || h.reacting || h.grabbing) return false;
  return h.hold == 0 && h.held_flags == 0;
}

bool WarriorsModel::push_aside(int32_t mover, int32_t stander, Vec3 point, Vec3 step) {
  // Brain_PushAside (0x0028a248): the stander's +0xcc bit 1 -> yes; bit 2 or 4 -> no; otherwise bit 4
  // on both brains for the call (the recursion guard), cleared after.
  if (mover < 0 || stander < 0 || mover == stander) return false;
  Brain& sb = state_.humans[static_cast<std::size_t>(stander)].brain;
  Brain& mb = state_.humans[static_cast<std::size_t>(mover)].brain;
  if (sb.way_flags & kWayGiving) return true;
  if (sb.way_flags & (kWayRefuse | kWayGuard)) return false;
  sb.way_flags |= kWayGuard;
  mb.way_flags |= kWayGuard;
  const bool r = give_way_to(mover, stander, point, step);
  sb.way_flags &= ~kWayGuard;
  mb.way_flags &= ~kWayGuard;
  return r;
}

bool WarriorsModel::give_way_to(int32_t mover, int32_t stander, Vec3 point, Vec3 step) {
  // Brain_GiveWayTo (0x00289ed0).
  Human& st = state_.humans[static_cast<std::size_t>(stander)];
  const Human& mv = state_.humans[static_cast<std::size_t>(mover)];
  // 1. Not a player's brain, or its "dead" byte set (G1: a downed human).
  if (!st.is_ai && !st.down) return false;
  // 2. Neither a threat to the other.
  if (is_threat_to(mover, stander) || is_threat_to(stander, mover)) return false;
  // 3. Idle under its control.
  if (!idle_under_control(stander)) return false;
  // Which way. 1. c: the point of the mover's line nearest the stander.
  const Vec3 d = unit_plan(step.x, step.y);
  const float along = (st.position.x - point.x) * d.x + (st.position.y - point.y) * d.y;
  const Vec3 c{point.x + d.x * along, point.y + d.y * along, point.z};
  // 2. s: the sector of the heading from c to the stander, relative to his facing f (G5: on the line,
  //    the heading is 0).
  const float f = st.heading;
  const float dx = st.position.x - c.x, dy = st.position.y - c.y;
  const float away = (dx != 0.0f || dy != 0.0f) ? angle::heading_of(dx, dy) : 0.0f;
  const int32_t s = sector_of_relative(away - f);
  // 3. The mover's own heading's sector and Sectors_TurnWay: computed and dropped in the original.
  // 4. The record, refreshed at 500 ms.
  sectors_of(stander, kSectorGiveWayAgeMs);
  // 5. s, s+1, s+2, s-1, s+3, s+4, s-2 (never s-3): the first free sector.
  static constexpr int32_t kOrder[7] = {0, 1, 2, -1, 3, 4, -2};
  for (const int32_t o : kOrder) {
    const int32_t k = (s + o + 8) & 7;
    if (!sectors_is_free(stander, k)) continue;
    // A free sector: the queue cleared, a GiveWay action queued.
    clear_actions(stander);
    Action a;
    a.type = kActGiveWay;
    a.way_heading = angle::wrap_pi(f + static_cast<float>(k) * angle::deg_to_rad(45.0f));
    a.look_at = mover;
    a.face = mover;
    a.delay_ms = state_.rng.goals.next_int(0, kGiveWayDelayMax - 1);  // Random_Int(125): 0-124 ms (G6)
    a.way_boost = (mv.has_pad && mv.gait >= kJog) ? 1 : 0;
    queue_action(stander, a);
    ++counters_.give_ways;
    return true;
  }
  // No free sector: ask the human in each sector, in the same order, one level deep (bit 4).
  for (const int32_t o : kOrder) {
    const int32_t k = (s + o + 8) & 7;
    const int32_t n = st.sectors.sector[static_cast<std::size_t>(k)].nearest;
    if (n < 0) continue;
    if (push_aside(stander, n, st.position, step)) return true;
  }
  return false;
}

int32_t WarriorsModel::give_way_update(int32_t slot, Action& a) {
  // The step (Characters: Step control, not in the seed; G3): one step of 1 m along the action's
  // heading, at the walk (the run with the boost flag), looking at the mover (a strafe), done within
  // 0.1 m of the step's end or after 30 updates. +0xcc bit 1 while it lives.
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  if (a.abort) return 2;
  if (busy(h)) return 0;
  if (a.way_updates == 0) {
    const Vec3 d = from_heading(a.way_heading);
    a.point = Vec3{h.position.x + d.x * kGiveWayStep, h.position.y + d.y * kGiveWayStep, h.position.z};
  }
  b.way_flags |= kWayGiving;
  if (++a.way_updates > kGiveWayMaxUpdates || plan_sq2(h.position, a.point) < kStartDoneDist * kStartDoneDist) {
    b.way_flags &= ~kWayGiving;
    return 2;
  }
  const Human& m = state_.humans[static_cast<std::size_t>(a.look_at >= 0 ? a.look_at : slot)];
  const float lx = m.position.x - h.position.x, ly = m.position.y - h.position.y;
  b.move_heading = (a.look_at >= 0 && (lx != 0.0f || ly != 0.0f)) ? angle::heading_of(lx, ly) : a.way_heading;
  b.aim = a.point;
  b.aim_radius = 0.0f;
  b.strafe = 1;
  set_move_gait(slot, a.way_boost ? kRun : kWalk);
  return 0;
}

bool WarriorsModel::gang_clear_way(int32_t leader, float angle_deg) {
  // Gang_ClearWayForLeader (0x002942c8)(angle, gang): only for a leader whose stored gait is below 3.
  const Human& L = state_.humans[static_cast<std::size_t>(leader)];
  if (L.gang == 0 || L.gait >= kJog) return false;
  const Vec3 fw = from_heading(L.heading);
  const float cos_half = dmath::cos(angle::deg_to_rad(angle_deg * 0.5f));
  bool pushed = false;
  for (uint32_t j = 0; j < kSlots; ++j) {
    const auto js = static_cast<int32_t>(j);
    const Human& o = state_.humans[j];
    if (js == leader || !o.in_use || o.gang != L.gang) continue;
    // In the cone within 6 m (3D), or within 1 m in any direction.
    const Vec3 off = o.position - L.position;
    const float d2 = sqr_length(off);
    const float d = dmath::sqrt(d2);
    const bool in_cone = d2 <= kGangCone * kGangCone && d > 0.0f && (off.x * fw.x + off.y * fw.y + off.z * fw.z) / d >= cos_half;
    if (!in_cone && d2 > 1.0f) continue;
    // No script handler, not sparring (neither in this port, G7), not the leader's target.
    if (js == L.brain.target) continue;
    // His queue empty, or its front action neither a MoveTo nor a GiveWay.
    const Brain& ob = o.brain;
    if (ob.queue_count > 0 && (ob.queue[0].type == 1 || ob.queue[0].type == kActGiveWay)) continue;
    clear_actions(js);
    push_aside(leader, js, L.position, fw);
    pushed = true;
  }
  return pushed;
}

void WarriorsModel::warrior_make_room(int32_t slot) {
  // WarriorBrain_Think step 9's push: the nearest gang mate, when he is not busy, within 1 m, and his
  // queue is empty (no actions block, no Scatter or HoldPosition goal in this port).
  const Human& w = state_.humans[static_cast<std::size_t>(slot)];
  if (w.gang == 0) return;
  int32_t best = -1;
  float best_d2 = 0.0f;
  for (uint32_t j = 0; j < kSlots; ++j) {
    const Human& o = state_.humans[j];
    if (static_cast<int32_t>(j) == slot || !o.in_use || o.gang != w.gang) continue;
    const float d2 = sqr_length(o.position - w.position);
    if (best < 0 || d2 < best_d2) {
      best = static_cast<int32_t>(j);
      best_d2 = d2;
    }
  }
  if (best < 0) return;
  const Human& o = state_.humans[static_cast<std::size_t>(best)];
  if (busy(o) || best_d2 > 1.0f || o.brain.queue_count != 0) return;
  push_aside(slot, best, w.position, from_heading(w.heading));
}

}  // namespace lockstep::warriors
