// Gaits, turn limits, the speed control and the player's stick (seed 000,
// "Gaits and speeds", "Speed control", "Turning"; supplement, "The player's
// stick locomotion"). Choices where the seed is silent: docs/spec-notes.md A1-A26.
#include <cstdlib>

#include "lockstep/core/angle.h"
#include "warriors/warriors.h"

namespace lockstep::warriors {

namespace {
float deg(float d) { return angle::deg_to_rad(d); }

// Human_MaxTurn's word pairs at 0x005101b0..0x005101dc (supplement): player / AI, degrees per update.
struct TurnPair {
  float player, ai;
};
constexpr TurnPair kPairB0{11.0f, 1.5f};   // 0x005101b0: wounded (x 0.25), grabbing/blocking/ducking
constexpr TurnPair kPairB8{16.0f, 2.5f};   // 0x005101b8: sprinting; held flags (x 0.25)
constexpr TurnPair kPairC0{18.0f, 4.0f};   // 0x005101c0: running
constexpr TurnPair kPairC8{18.0f, 6.0f};   // 0x005101c8: jogging
constexpr TurnPair kPairD0{20.0f, 12.0f};  // 0x005101d0: otherwise (walk, stand)
constexpr TurnPair kPairD8{24.0f, 24.0f};  // 0x005101d8 / 0x005101dc: fight stance

/// The turn boost on a gait row (Human_GetTurnRateForGait): x (b + 1), or / (1 - b) when b < 0.
float boosted(float rate, int32_t b) {
  if (b < 0) return rate / static_cast<float>(1 - b);
  return rate * static_cast<float>(b + 1);
}
}  // namespace

float speed_for_gait(const ClassSpec& c, int32_t gait) {
  if (!c.anim_record) return 0.0f;  // no anim record: 0
  switch (gait) {
    case kSneak: return c.sneak;
    case kWalk: return c.walk;
    case kJog: return c.jog;
    case kRun: return c.run;
    case kSprint: return c.sprint;
    default: return 0.0f;  // gait 0 (and any other) stands
  }
}

int32_t gait_for_speed(const ClassSpec& c, float v) {
  // 0x00221760: 5 at or above the sprint speed, 4 at or above the run, 3 the jog, 2 the walk, else 0.
  // (A human with no anim record has every speed 0, so any v >= 0 is the sprint, as the code reads.)
  if (v >= speed_for_gait(c, kSprint)) return kSprint;
  if (v >= speed_for_gait(c, kRun)) return kRun;
  if (v >= speed_for_gait(c, kJog)) return kJog;
  if (v >= speed_for_gait(c, kWalk)) return kWalk;
  return kStand;
}

int32_t nearest_gait_for_speed(const ClassSpec& c, float v) {
  // 0x0022aeb0: 0 below 0.5 m/s, else the gait whose speed is nearest.
  if (!(v >= 0.5f)) return kStand;
  int32_t best = kSneak;
  float best_d = absf(v - speed_for_gait(c, kSneak));
  for (int32_t g = kWalk; g <= kSprint; ++g) {
    const float d = absf(v - speed_for_gait(c, g));
    if (d < best_d) {  // strictly nearer: the lower gait keeps a tie
      best = g;
      best_d = d;
    }
  }
  return best;
}

float turn_rate_for_gait(int32_t gait, int32_t boost) {
  // 0x002212d0: 0.0436 rad (2.5 deg) at gait 5, 0.0698 (4) at 4, 0.1047 (6) at 3, 0.2094 (12) below.
  float w = kPairD0.ai;
  if (gait == kSprint) w = kPairB8.ai;
  else if (gait == kRun) w = kPairC0.ai;
  else if (gait == kJog) w = kPairC8.ai;
  return boosted(deg(w), boost);
}

float max_turn(const Human& h, bool pad) {
  // 0x002213d8, rows tested top down (seed 000, "Turning").
  auto word = [pad](const TurnPair& p) { return pad ? p.player : p.ai; };
  const int32_t b = pad ? 0 : h.brain.turn_boost;
  if (h.turn_limited != 0) return deg(static_cast<float>(h.turn_limited));  // fixed 4 or 6 degrees, no boost
  if (h.wounded) return deg(word(kPairB0) * 0.25f);                        // 0.375 degrees for the AI
  if (h.grabbing) return deg(word(kPairB0));                               // 1.5
  if (h.gait == kSprint) return boosted(deg(word(kPairB8)), b);            // 2.5, boosted
  if (h.gait == kRun) return boosted(deg(word(kPairC0)), b);               // 4, boosted
  if (h.gait == kJog) return boosted(deg(word(kPairC8)), b);               // 6, boosted
  if (h.fight_stance) return deg(word(kPairD8));                           // 24 (AI word 0x005101dc)
  if (h.held_flags) return deg(word(kPairB8) * 0.25f);                     // 0.625
  return boosted(deg(word(kPairD0)), b);                                   // 12, boosted
}

Vec3 right_of(float heading) {
  // The original keeps each human's rotation as a quaternion (the position table's rotation) and
  // reads the side axis with Quat_AxisX. A heading h is the rotation by -h about the up axis:
  // q = (w, 0, 0, z) with w = cos(h/2), z = -sin(h/2), and AxisX = (1 - 2 z^2, 2 w z, 0) =
  // (cos h, -sin h, 0), facing x up. Built from the half angle as the original's is, its
  // components are not the correctly rounded cos h and -sin h, so a dot product with a direction
  // of heading exactly h is 0 only by accident, as in the game (docs/spec-notes.md A14).
  float z = 0, w = 0;
  dmath::sincos(heading * 0.5f, &z, &w);
  z = -z;
  return Vec3{1.0f - 2.0f * (z * z), 2.0f * (w * z), 0.0f};
}

float circle_radius_2d(Vec3 p, Vec3 x, Vec3 axis) {
  // R = |d| / (2 |d^ . A|), d = X - P in plan; 0 when X = P or d^ . A = 0.
  const float dx = x.x - p.x, dy = x.y - p.y;
  const float len = dmath::sqrt(dx * dx + dy * dy);
  if (len == 0.0f) return 0.0f;
  const float dot = (dx / len) * axis.x + (dy / len) * axis.y;
  if (dot == 0.0f) return 0.0f;
  return len / (2.0f * absf(dot));
}

float corner_speed_for_gait(float radius, int32_t gait, int32_t boost) {
  // v(g) = 2R tan(w(g) / 2) / (1/30), 1/30 the constant 0x005102cc.
  return 2.0f * radius * dmath::tan(turn_rate_for_gait(gait, boost) / 2.0f) / kDt;
}

float corner_speed_limit(const ClassSpec& c, int32_t boost, float s, Vec3 axis, Vec3 p, Vec3 x) {
  const float r = circle_radius_2d(p, x, axis);
  const int32_t g0 = nearest_gait_for_speed(c, s);
  const float v = corner_speed_for_gait(r, g0, boost);  // not capped by g0's speed
  if (v >= s) return s;
  float best = v;
  for (int32_t g = g0 - 1; g >= kSneak; --g) {
    const float vg = corner_speed_for_gait(r, g, boost);
    const float sg = speed_for_gait(c, g);
    const float v2 = sg < vg ? sg : vg;
    if (!(v2 >= best)) break;  // stop at the first gait that allows less
    best = v2;
  }
  return s < best ? s : best;
}

// ------------------------------------------------------------ the control

namespace {
/// A start or stop clip of N updates shows in the N states after its start: its count drops at the
/// start of each later update and the clip ends when it reaches 0.
void age_clip(Human& h) {
  if (h.action == kActWalkStart || h.action == kActRunStart || h.action == kActBoostStart || h.action == kActStop) {
    if (h.action_updates > 0) --h.action_updates;
    if (h.action_updates == 0) h.action = kActNone;
  }
}
}  // namespace

void WarriorsModel::end_clip_if_done(Human& h) {
  if (h.action != kActNone) return;
  // The clip that plays once no start, stop or turn clip does (only clips the seed and supplement name).
  const ClassSpec& c = class_of(h);
  if (h.speed < kIdleBelow) h.clip = kClipIdle;
  else if (h.fight_stance) h.clip = h.brain.turn_boost <= 0 ? kClipStanceWalkNoBoost : kClipStanceWalk;
  else if (gait_for_speed(c, h.speed) == kRun) h.clip = kClipRun;
  else h.clip = 0;
}

void WarriorsModel::move_along(Human& h, float dir_heading) {
  float dx = 0, dy = 0;
  angle::dir_of(dir_heading, &dx, &dy);
  const float step = h.speed * kDt;
  h.position.x = h.position.x + dx * step;
  h.position.y = h.position.y + dy * step;
}

void WarriorsModel::control(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  Brain& b = h.brain;
  const ClassSpec& c = class_of(h);
  const float vstar = b.move_speed;
  age_clip(h);

  // A route's climb or jump plays to its end: the human is busy (part 2).
  if (h.action == kActClimb || h.action == kActJump) {
    leg_motion(slot);
    check_move_arrival(slot);
    return;
  }
  // A turn on the spot plays to its end: the human is busy, turning at the stand limit.
  if (h.action == kActTurnOnSpot) {
    h.speed = 0.0f;
    h.heading = angle::turn_toward(h.heading, h.turn_target, max_turn(h, false));
    if (h.heading == h.turn_target) {
      h.action = kActNone;
      end_clip_if_done(h);
    }
    return;
  }

  // 2. The wanted speed w.
  float w = 0.0f;
  if (h.wounded && vstar > kWantedMin) {
    w = speed_for_gait(c, kWalk);
  } else if (h.fight_stance) {
    w = vstar > kWantedMin ? c.stance : 0.0f;
  } else {
    w = vstar < kMaxWanted ? vstar : kMaxWanted;
  }
  if (h.rear_grabber && w > speed_for_gait(c, kWalk)) w = speed_for_gait(c, kWalk);  // "and walks" (A7)
  // 1. Brain_UpdateGait: the stored gait follows the wanted speed (A3).
  h.gait = gait_for_speed(c, w);
  // Running faster than the run speed with a held object of kind 4 or 6 drops it.
  if (w > speed_for_gait(c, kRun) && (h.held_object == 4 || h.held_object == 6) && !h.held_keep) {
    h.held_object = 0;
    ++counters_.drops;
  }

  const bool far_away = h.detail >= 2 && !h.hold;
  if (h.speed == 0.0f && w > 0.0f) {
    // 3. Starting (a far-away human plays no clips, step 6).
    if (c.start_clips && !far_away) {
      if (w >= speed_for_gait(c, kRun)) {
        h.action = b.start_boost > 0 ? kActBoostStart : kActRunStart;
        h.clip = kClipRunStart;
        h.action_updates = kRunStartUpdates;
      } else if (w == speed_for_gait(c, kWalk)) {
        h.action = kActWalkStart;
        h.clip = kClipWalkStart;
        h.action_updates = kWalkStartUpdates;
      }
    }
    h.speed = w < kFirstSpeed ? w : kFirstSpeed;
    ++counters_.starts;
  } else if (h.speed < w) {
    // 4. Accelerating: +8 m/s^2, or +32 while more than 2 m/s short; never past w.
    const float v = (w - h.speed > kFarShort) ? h.speed + kAccelFar * kDt : h.speed + kAccel * kDt;
    h.speed = v < w ? v : w;
  } else if (h.speed > w) {
    // 5. Slowing: -32 m/s^2 down to w; Diego and Vargas running or sprinting stop at once.
    if (w == 0.0f && (c.id == kClassDiego || c.id == kClassVargas) && gait_for_speed(c, h.speed) >= kRun) {
      h.speed = 0.0f;
      if (!far_away) {  // step 6: a far-away human plays no clips
        h.action = kActStop;
        h.clip = kClipRunStop;
        h.action_updates = kRunStopUpdates;
      }
      ++counters_.stops_at_once;
    } else {
      const float v = h.speed - kBrake * kDt;
      h.speed = v > w ? v : w;
    }
  }

  if (far_away) {
    // 6. Far away: velocity = w along +0x110, the heading at once (no turn limit, no clips).
    h.speed = w;
    h.heading = angle::wrap_pi(b.move_heading);
  } else if (w == 0.0f) {
    // 7. Stopped (w = 0): above 15 degrees off (and no flag held) a turn on the spot starts, also while the
    //    human still slides (A4: the slide ends, the turn plays at speed 0); within 15, nothing turns.
    const float err = angle::heading_delta(h.heading, b.move_heading);
    if (absf(err) > deg(kTurnOnSpotDeg) && !h.hold) {
      h.speed = 0.0f;
      h.action = kActTurnOnSpot;
      h.clip = kClipTurnOnSpot;
      h.turn_target = angle::wrap_pi(b.move_heading);
      h.heading = angle::turn_toward(h.heading, h.turn_target, max_turn(h, false));
      ++counters_.turn_on_spot;
      if (h.heading == h.turn_target) h.action = kActNone;
    }
  } else {
    // 7. The turn: toward +0x110 by at most Human_MaxTurn; a rear grabber at twice the limit.
    float lim = max_turn(h, false);
    if (h.rear_grabber) lim = lim * 2.0f;
    h.heading = angle::turn_toward(h.heading, b.move_heading, lim);
  }

  // The move: along the facing, or toward the aim point while strafing (MoveMelee step 6); a
  // far-away human along +0x110 (step 6), which is his heading.
  float dir = h.heading;
  if (b.strafe && !far_away) {
    const float dx = b.aim.x - h.position.x, dy = b.aim.y - h.position.y;
    if (dx != 0.0f || dy != 0.0f) dir = angle::heading_of(dx, dy);
  }
  if (h.speed > 0.0f) move_along(h, dir);
  check_move_arrival(slot);
  if (h.action != kActTurnOnSpot) end_clip_if_done(h);
}

// ------------------------------------------------------------ the player's stick

void WarriorsModel::player_locomotion(int32_t slot) {
  Human& h = state_.humans[static_cast<std::size_t>(slot)];
  const ClassSpec& c = class_of(h);
  const Pad& p = pads_[static_cast<std::size_t>(slot)];
  age_clip(h);
  float m = dmath::sqrt(p.stick_x * p.stick_x + p.stick_y * p.stick_y);
  if (m > 1.0f) m = 1.0f;

  float wanted = 0.0f;
  if (m >= kPadDeadZone) {
    // Between the dead zone and the run threshold: the walk; at or above it: the run;
    // the sprint button (bit 0) at the run threshold: the sprint (A25).
    if (m >= kPadRunThreshold) wanted = speed_for_gait(c, (p.buttons & kPadSprintButton) ? kSprint : kRun);
    else wanted = speed_for_gait(c, kWalk);
    if (h.wounded) wanted = speed_for_gait(c, kWalk);
  }
  // 24 m/s^2 (0.8 m/s per update) both ways (A25).
  if (h.speed < wanted) {
    const float v = h.speed + kPadAccel * kDt;
    h.speed = v < wanted ? v : wanted;
  } else if (h.speed > wanted) {
    const float v = h.speed - kPadAccel * kDt;
    h.speed = v > wanted ? v : wanted;
  }
  h.gait = gait_for_speed(c, h.speed);

  if (m >= kPadDeadZone) {
    // The eased turn: limit x (1 - cos(pi x error / 2.0)) / 2 plus 0.8 x the previous step
    // (-0.5 x it when the error changed sign), clamped to [0, limit]; a snap within one step.
    const float target = angle::heading_of(p.stick_x, p.stick_y);
    const float err = angle::heading_delta(h.heading, target);
    const float aerr = absf(err);
    const float limit = max_turn(h, true);
    const bool flipped = (err < 0.0f && h.pad_error > 0.0f) || (err > 0.0f && h.pad_error < 0.0f);
    float step = limit * (1.0f - dmath::cos(dmath::kPi * aerr / 2.0f)) / 2.0f;
    step = step + (flipped ? kPadCarryFlip : kPadCarry) * h.pad_step;
    if (step < 0.0f) step = 0.0f;
    if (step > limit) step = limit;
    if (aerr < step) {
      h.heading = target;
      h.pad_step = aerr;
    } else {
      h.heading = angle::wrap_pi(err > 0.0f ? h.heading + step : h.heading - step);
      h.pad_step = step;
    }
    h.pad_error = err;
  } else {
    h.pad_step = 0.0f;
    h.pad_error = 0.0f;
  }
  if (h.speed > 0.0f) move_along(h, h.heading);
  end_clip_if_done(h);
}

}  // namespace lockstep::warriors
