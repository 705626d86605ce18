// The `warriors` model: the AI humans of a PS2 brawler (seed 000,
// ../shared/seeds/000_f781e9935f3cbcaa.txt, and 000-supplement.md), read from
// the binary NTSC-U SLUS_212.15. Part 1 is the world, the brains and the
// locomotion: gaits and speeds, the speed control, turning, the move action
// with its corner speed, the move-to-human footwork (MoveMelee) and the
// player's stick. Part 2 (issue 6) is path planning and route following; without
// a level every point has an area, every straight line is walkable and no route
// is ever needed. Part 3 (issue 18, steer.cpp) is the neighbour sectors,
// steering round humans and giving way.
//
// World frame: z up, plan (x, y), metres. A heading is measured from +y toward
// +x (angle.h), so the unit direction of heading h is (sin h, cos h, 0) and the
// right vector (facing x up, 0x00511740) is (cos h, -sin h, 0).
//
// One tick is one character update: 1/30 s (supplement, "Movement constants":
// two 60 Hz game ticks). Clocks are integer milliseconds.
//
// Order of one tick (docs/warriors.md, "The tick"):
//   1. the clock: now = (tick + 1) * 1000 / 30 ms, truncated;
//   2. the tick's inputs: pads, then script commands, in order;
//   3. every AI brain thinks (Brain_UpdateGoals), by slot;
//   4. every human's control (Human_UpdateControl or Human_PlayerLocomotion)
//      and its move along the ground, by slot;
//   5. the tick counter.
//
// Offsets of the original records are in the field listings (FieldInfo's
// second member), so trace maps can name `brain+0x114` as `humans[i].brain.move_speed`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/core/drawing.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/phases.h"
#include "lockstep/core/reflect.h"
#include "lockstep/core/rng.h"
#include "lockstep/core/vec.h"
#include "warriors/nav.h"
#include "warriors/route.h"

namespace lockstep::warriors {

// ---------------------------------------------------------------- constants

/// |v| for a float, as the original's fabs: no libm call (the speed control and the move action).
inline float absf(float v) { return v < 0.0f ? -v : v; }

inline constexpr uint32_t kSlots = 60;        ///< the position table's human slots
inline constexpr uint32_t kQueueSize = 8;     ///< a brain's action queue ("fewer than 8 queued actions")
inline constexpr float kDt = 1.0f / 30.0f;    ///< 0x005102cc: one update
inline constexpr int32_t kUpdateMs = 33;      ///< about one update, in ms (the clock itself is exact: tick * 1000 / 30)

// Gaits (seed 000, "Gaits and speeds").
enum Gait : int32_t { kStand = 0, kSneak = 1, kWalk = 2, kJog = 3, kRun = 4, kSprint = 5 };

// Speed control (seed 000, Human_UpdateControl 0x00243848).
inline constexpr float kMaxWanted = 25.0f;      ///< step 2: at most 25 m/s
inline constexpr float kFirstSpeed = 2.0f;      ///< step 3: the first update's speed is min(w, 2)
inline constexpr float kAccel = 8.0f;           ///< step 4: m/s^2
inline constexpr float kAccelFar = 32.0f;       ///< step 4: while more than 2 m/s short
inline constexpr float kFarShort = 2.0f;
inline constexpr float kBrake = 32.0f;          ///< step 5: m/s^2
inline constexpr float kWantedMin = 0.1f;       ///< step 2: "v* > 0.1"
inline constexpr float kTurnOnSpotDeg = 15.0f;  ///< step 7: a turn on the spot above 15 degrees
inline constexpr int32_t kClassDiego = 0x77, kClassVargas = 0x78;  ///< step 5: stop at once

// Human actions (the human's action code: start, stop and turn clips).
enum HumanAction : int32_t {
  kActNone = 0,
  kActWalkStart = 5,    ///< step 3: w exactly the walk speed
  kActRunStart = 6,     ///< step 3: w >= the run speed
  kActBoostStart = 8,   ///< step 3: the same with the start boost +0x0c above 0
  kActStop = 9,         ///< step 5: Diego and Vargas stop at once
  kActTurnOnSpot = 10,  ///< Human_StartTurnOnSpot (docs/spec-notes.md A4: code chosen)
  kActClimb = 11,       ///< a route's climb leg plays (part 2, N11)
  kActJump = 12,        ///< a route's jump or drop leg flies (part 2, supplement "Jump legs")
};

// Clips (supplement, "Movement constants and clips"; seed, the runtime case).
inline constexpr int32_t kClipIdle = 388, kClipTurnOnSpot = 398, kClipRun = 410, kClipWalkStart = 413,
                         kClipRunStart = 414, kClipRunStop = 417, kClipStanceWalk = 380, kClipStanceWalkNoBoost = 372;
inline constexpr int32_t kWalkStartUpdates = 13;  ///< clip 413: 1 + 12 updates
inline constexpr int32_t kRunStartUpdates = 12;   ///< clip 414: 12 updates, then the run
inline constexpr int32_t kRunStopUpdates = 24;    ///< clip 417: 24 updates, then idle
inline constexpr float kIdleBelow = 0.396f;       ///< a human is idle below 0.396 m/s
inline constexpr int32_t kClipJump = 434;         ///< supplement, Jump legs: clip 434
// Jump and drop legs (supplement, "Jump legs").
inline constexpr float kJumpGravity = 15.68f;     ///< m/s^2
inline constexpr float kJumpHalfG = 7.84f;        ///< t = sqrt(-dz / 7.84)
inline constexpr float kJumpMaxPlanSpeed = 10.0f; ///< D / t below (drop) or at most (jump) 10 m/s
inline constexpr float kJumpVzFirst = 0.5f, kJumpVzStep = 0.75f, kJumpVzLast = 5.5f;
inline constexpr float kJumpLandRadius = 0.25f;   ///< the landing waypoint's radius
inline constexpr float kJumpLandWithin = 1.5f;    ///< landing within 1.5 m (3D): carry on
// Climb legs (seed 000, "The climb"; N11).
inline constexpr int32_t kClimbMaxFails = 31;     ///< giving up after 31 failed updates
inline constexpr float kClimbReach = 1.5f;        ///< Climb_TryStart's reach in plan (N11)
inline constexpr int32_t kClimbUpdates = 30;      ///< a climb's clips: 1 s (N11)
inline constexpr float kClimbNear = 4.5f;         ///< Route_TryClimbNear: within 4.5 m (3D)

// The move action (seed 000, "The move action").
inline constexpr float kStartDoneDist = 0.1f;           ///< Start: done within 0.1 m
inline constexpr int32_t kRouteCheckEvery = 30;         ///< step 2
inline constexpr int32_t kStraightCheckEvery = 31;      ///< step 5, counter +0x4d
inline constexpr float kFloorPlan = 1.0f, kFloor3d = 1.5f, kFloorVerticalDeg = 20.0f;  ///< step 5
inline constexpr float kSteerRadius = 0.3f;             ///< step 6/7: a detour's arrival radius
inline constexpr float kTurnOnSpotMoveDeg = 30.0f;      ///< step 8: turn on the spot more than 30 degrees off
inline constexpr int32_t kStuckUpdates = 60;            ///< step 9: on the 61st update
inline constexpr float kStuckDist = 0.2f;               ///< step 9: less than 0.2 m in 3D

// The corner speed (seed 000, "The corner speed").
inline constexpr int32_t kCornerRecount = 10;       ///< counter +0x4c after a recompute
inline constexpr float kAimMovedSq = 0.005f;        ///< 0.07 m, squared
inline constexpr float kCornerApartSq = 0.1225f;    ///< 0.35 m, squared
inline constexpr float kHeadingDoneRad = 0.005f;    ///< Human_SimulateMove stops within 0.005 rad

// MoveMelee (seed 000, "The move-to-human action").
inline constexpr int32_t kMeleeCount = 10;   ///< radial and side counters: +-10
inline constexpr int32_t kMeleeRadialDone = 6;
inline constexpr int32_t kSectorMaxAgeMs = 1000;  ///< PickSide's sector record: at most 1 s old
inline constexpr float kSectorRange = 1.5f;       ///< Sectors_Update lists humans within 1.5 m
/// Sectors_Reset zeroes +0x44 at Brain_Init, long before a level's clock reaches a scenario's start;
/// our clock starts at 0 with the scenario, so "long ago" is this (A23).
inline constexpr int32_t kSectorsNever = -1000000;

// Neighbour sectors (seed 000, "Neighbour sectors"; steer.cpp).
inline constexpr int32_t kSectorGiveWayAgeMs = 500;  ///< giving way refreshes the record at 500 ms
inline constexpr float kSectorPlayerRangeSq = 30.25f; ///< bit 8: a free player within 5.5 m
inline constexpr float kSectorProbeDist = 1.5f;       ///< the wall probe's point, 1.5 m out
inline constexpr float kSectorVeryCloseSq = 1.5f;     ///< flags 3 below d2 1.5 (as the code: metres on d2)
inline constexpr float kSectorNearSq = 2.5f;          ///< flags 1 below d2 2.5
enum SectorFlag : int32_t { kSecNear = 1, kSecVeryClose = 2, kSecWall = 4, kSecPlayer = 8 };

// Steering round humans (seed 000, Human_SteerAroundHumans 0x00289138).
inline constexpr float kSteerLook = 0.75f;           ///< L = 0.75 x the move's speed
inline constexpr float kSteerSlowBelow = 4.0f;       ///< the slow counter counts below 4 m/s
inline constexpr int32_t kSteerSlowTimes = 16;       ///< ... and x 10 when it reaches 16
inline constexpr float kSteerFarMax = 10.0f;         ///< the list: within min(2L, 10) m
inline constexpr float kSteerDiscSq = 0.3969f;       ///< the blocker's disc, 0.63 m squared
inline constexpr float kSteerDisc = 0.63f;
inline constexpr float kSteerNone = 1.0e9f;          ///< no blocker: t = 1e9; the score's reset -1e9
inline constexpr float kSteerStandSpeed = 0.05f;     ///< case 0: a player below 0.05 m/s
inline constexpr float kSteerYieldSq = 9.0f;         ///< step 16: the contact within 3 m
inline constexpr float kSteerCornerSlack = 1.0f;     ///< step 18: more than 1 m/s over the corner speed
inline constexpr int32_t kSteerFollowerStop = 5;     ///< step 9: followers stop for 5 updates
inline constexpr float kProbeBelowUp = 0.1f, kProbeBelowLength = 2.0f;  ///< Ground_ProbeBelow
inline constexpr uint8_t kTriUnderCover = 0x10;      ///< a triangle's bit 4 (Ground_ProbeBelow returns 1)

// Giving way (seed 000, "Giving way"; steer.cpp).
inline constexpr int32_t kActGiveWay = 12;           ///< the GiveWay action's type
inline constexpr int32_t kGiveWayDelayMax = 125;     ///< Random_Int(125): 0-124 ms
inline constexpr int32_t kWayGiving = 1, kWayRefuse = 2, kWayGuard = 4;  ///< brain +0xcc bits
inline constexpr float kGiveWayStep = 1.0f;          ///< the step's length, m (G3)
inline constexpr int32_t kGiveWayMaxUpdates = 30;    ///< the step ends after 1 s at most (G3)
inline constexpr float kGangCone = 6.0f;             ///< Gang_ClearWayForLeader: within 6 m (3D) in the cone
inline constexpr int32_t kGangTimerMs = 1000, kGangTimerHeldMs = 250, kGangTimerPushedMs = 5;
inline constexpr int32_t kWarriorPushEvery = 12;     ///< a Warrior's push, every 12 thinks

// Waypoint queues (seed 000, "Waypoint queues").
inline constexpr uint32_t kQueueRecords = 20;        ///< 20 records of 0x90
inline constexpr int32_t kQueuePoints = 6;           ///< up to 6 points one metre apart
inline constexpr int32_t kQueueSwapPasses = 5;       ///< up to 5 passes of crossing swaps

// The player's stick (supplement, Human_PlayerLocomotion 0x00240e38).
inline constexpr float kPadDeadZone = 0.12f, kPadRunThreshold = 0.95f, kPadAccel = 24.0f;
inline constexpr float kPadCarry = 0.8f, kPadCarryFlip = -0.5f;
inline constexpr uint32_t kPadSprintButton = 1u;  ///< buttons bit 0 (docs/spec-notes.md A25)

// Limits (docs/warriors.md, "Limits"; docs/spec-notes.md A30-A32, N25-N26): what a scenario, a level,
// an input and a restored state may hold, so that no update can overflow an integer, convert an
// out-of-range float or loop without end.
/// |x|, |y|, |z| of every point a scenario, a level or an input gives, and every radius or range, m.
inline constexpr float kWorldBound = 1.0e6f;
/// |x|, |y|, |z| of every point of a restored state, m: room for a human who runs at 25 m/s from the
/// world's bound for the longest run (1e6 + 25/30 x kMaxTicks < 2.8e7 m).
inline constexpr float kStateBound = 1.0e8f;
/// Every speed (class, human, move, corner, override) at most 25 m/s, the speed control's cap on a
/// wanted speed (step 2, kMaxWanted), A32.
inline constexpr float kMaxSpeed = kMaxWanted;
/// The clock stays within 2^30 ms (12.4 days), far from the int32's overflow (A30).
inline constexpr int32_t kMaxClockMs = int32_t{1} << 30;
/// The updates a run may step: the last one runs at kMaxTicks x 1000 / 30 <= 2^30 ms (A30).
inline constexpr uint64_t kMaxTicks = static_cast<uint64_t>(kMaxClockMs) * 30u / 1000u;
/// A hazard sphere's radius, m.
inline constexpr float kMaxHazardRadius = 1000.0f;
/// A climb's or jump's length, in updates (55 min, N26).
inline constexpr int32_t kMaxLegUpdates = 100000;
/// The pad's buttons are 16 bits (supplement, "Traces of the original": two button bytes), A31.
inline constexpr uint32_t kPadButtonsMask = 0xffffu;

// Failure reasons at brain +0x284.
enum FailReason : int32_t { kFailNone = 0, kFailNoRoute = 1, kFailEdge = 2, kFailStuck = 3, kFailDoor = 4 };

// ---------------------------------------------------------------- state

/// One queued action of a brain. One record holds either kind; fields carry
/// the offsets of their own kind's record (MoveAction, vtable 0x00542f20;
/// MoveMelee, vtable 0x005431e0).
struct Action {
  int32_t type = 0;        ///< 0 none, 1 MoveTo, 2 MoveMelee, 12 GiveWay
  int32_t delay_ms = 0;    ///< start delay left (Action_Update 0x002f9e48)
  int32_t started = 0;     ///< Start has run
  int32_t abort = 0;       ///< the abort bit (Abort 0x002fc560)
  // MoveTo
  Vec3 point;              ///< MoveAction_Init: the destination
  float radius = 0;        ///< MoveAction_Init: the radius
  int32_t gait = 0;        ///< MoveAction_Init: the gait
  float speed = 0;         ///< +0x40: the gait's speed
  int32_t face = -1;       ///< +0x3c: the human slot to face, -1 none
  int32_t option = 0;      ///< MoveAction_Init's option bit
  int32_t flag_kind12 = 0; ///< MoveAction_Init's "flag kind 0x12" bit
  float corner1 = 0;       ///< +0x0c: the first corner's speed
  float corner2 = 0;       ///< +0x44: the second corner's speed
  float brake_sq = 0;      ///< +0x48: the braking distance, squared
  Vec3 saved_aim;          ///< +0x20: the aim at the last corner recompute
  Vec3 stuck_point;        ///< MoveAction_CheckStuck's saved point
  int32_t corner_count = 0;   ///< +0x4c: counts down each update
  int32_t straight_count = 0; ///< +0x4d: the 31-update straight-line re-check
  int32_t stuck_count = 0;    ///< +0x4e: MoveAction_CheckStuck's update count
  int32_t updates = 0;        ///< updates run, for step 2's every-30 (offset by the human's index)
  // MoveMelee
  int32_t target = -1;     ///< +0x0c: the human's handle (slot)
  float near_sq = 0;       ///< +0x10
  float far_sq = 0;        ///< +0x14
  int32_t side = 0;        ///< +0x18: the side counter
  int32_t radial = 0;      ///< +0x1c: the radial counter
  int32_t limit_ms = 0;    ///< +0x20: the time limit, absolute after Start
  int32_t no_stance = 0;   ///< +0x24: class +0x11b is 6 or 7
  int32_t saved_boost = 0; ///< +0x25: the turn boost at Start
  // GiveWay (type 12, GiveWayAction_Init 0x002fe568; the step: docs/spec-notes.md G-rows)
  float way_heading = 0;   ///< the heading to step along: the stander's facing + sector x 45 degrees
  int32_t look_at = -1;    ///< the mover, the human to look at
  int32_t way_boost = 0;   ///< the boost flag: dash away from a jogging or running pad player
  int32_t way_updates = 0; ///< updates the step has run

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"type"}, s.type);
    v(FieldInfo{"delay_ms"}, s.delay_ms);
    v(FieldInfo{"started"}, s.started);
    v(FieldInfo{"abort"}, s.abort);
    v(FieldInfo{"point"}, s.point);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"gait"}, s.gait);
    v(FieldInfo{"speed", 0x40}, s.speed);
    v(FieldInfo{"face", 0x3c}, s.face);
    v(FieldInfo{"option"}, s.option);
    v(FieldInfo{"flag_kind12"}, s.flag_kind12);
    v(FieldInfo{"corner1", 0x0c}, s.corner1);
    v(FieldInfo{"corner2", 0x44}, s.corner2);
    v(FieldInfo{"brake_sq", 0x48}, s.brake_sq);
    v(FieldInfo{"saved_aim", 0x20}, s.saved_aim);
    v(FieldInfo{"stuck_point"}, s.stuck_point);
    v(FieldInfo{"corner_count", 0x4c}, s.corner_count);
    v(FieldInfo{"straight_count", 0x4d}, s.straight_count);
    v(FieldInfo{"stuck_count", 0x4e}, s.stuck_count);
    v(FieldInfo{"updates"}, s.updates);
    v(FieldInfo{"target", 0x0c}, s.target);
    v(FieldInfo{"near_sq", 0x10}, s.near_sq);
    v(FieldInfo{"far_sq", 0x14}, s.far_sq);
    v(FieldInfo{"side", 0x18}, s.side);
    v(FieldInfo{"radial", 0x1c}, s.radial);
    v(FieldInfo{"limit_ms", 0x20}, s.limit_ms);
    v(FieldInfo{"no_stance", 0x24}, s.no_stance);
    v(FieldInfo{"saved_boost", 0x25}, s.saved_boost);
    v(FieldInfo{"way_heading"}, s.way_heading);
    v(FieldInfo{"look_at"}, s.look_at);
    v(FieldInfo{"way_boost"}, s.way_boost);
    v(FieldInfo{"way_updates"}, s.way_updates);
  }
};

/// The steering state at brain +0xa0 (seed 000, "Steering round humans"; steer.cpp).
struct Steering {
  Vec3 held_point;             ///< +0x00: the point stored by the last successful detour
  Vec3 contact;                ///< +0x10: the predicted contact point of the last decision (C, step 10)
  float score = -1.0e9f;       ///< +0x3c
  int32_t avoiding = -1;       ///< +0x24: the human being avoided, -1 none
  int32_t since_decision = 0;  ///< +0x28
  int32_t slow_decisions = 0;  ///< +0x29
  int32_t decisions = 0;       ///< +0x2b
  int32_t override_count = 0;  ///< +0x32: updates left of the speed override
  float override_speed = 0;    ///< +0x34
  int32_t enabled = 1;         ///< +0x2a
  int32_t boosted = 0;         ///< Steering_SetAvoiding's raise of the turn boost is in force (S1)

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"held_point", 0x00}, s.held_point);
    v(FieldInfo{"contact", 0x10}, s.contact);
    v(FieldInfo{"score", 0x3c}, s.score);
    v(FieldInfo{"avoiding", 0x24}, s.avoiding);
    v(FieldInfo{"since_decision", 0x28}, s.since_decision);
    v(FieldInfo{"slow_decisions", 0x29}, s.slow_decisions);
    v(FieldInfo{"decisions", 0x2b}, s.decisions);
    v(FieldInfo{"override_count", 0x32}, s.override_count);
    v(FieldInfo{"override_speed", 0x34}, s.override_speed);
    v(FieldInfo{"enabled", 0x2a}, s.enabled);
    v(FieldInfo{"boosted"}, s.boosted);
  }
};

/// The route state at brain +0xe0 (seed 000, "Following a route").
struct RouteState {
  int32_t route = -1;        ///< +0x04: the route's pool slot, -1 none
  float radius = 0;          ///< +0x08: the waypoint radius
  int32_t state = 0;         ///< +0x0c: 1 jumping, 2 dropping, 3 climbing, 4 climbing a 0x80 ledge, 5 finished
  int32_t index = 0;         ///< +0x10 (s8): the waypoint index
  int32_t move_on = 0;       ///< +0x11: "move on now"
  int32_t leg_new = 0;       ///< +0x12: "the leg is new"
  int32_t climb_fails = 0;   ///< +0x13: the climb's failed tries
  int32_t mask = kMaskAll;   ///< +0x14 (u16): the edge mask, 0xff for every human
  int32_t held = 0;          ///< +0x16: held at the node
  int32_t skip = 0;          ///< +0x17: the skip counter
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"route", 0x04}, s.route);
    v(FieldInfo{"radius", 0x08}, s.radius);
    v(FieldInfo{"state", 0x0c}, s.state);
    v(FieldInfo{"index", 0x10}, s.index);
    v(FieldInfo{"move_on", 0x11}, s.move_on);
    v(FieldInfo{"leg_new", 0x12}, s.leg_new);
    v(FieldInfo{"climb_fails", 0x13}, s.climb_fails);
    v(FieldInfo{"mask", 0x14}, s.mask);
    v(FieldInfo{"held", 0x16}, s.held);
    v(FieldInfo{"skip", 0x17}, s.skip);
  }
};

/// A brain (one per AI human).
struct Brain {
  Vec3 aim;                    ///< +0x90: the point aimed at
  float move_heading = 0;      ///< +0x110: the heading to move along, rad
  float move_speed = 0;        ///< +0x114: the speed, m/s
  float aim_radius = 0;        ///< +0x118: the aim's radius
  int32_t target = -1;         ///< +0x124: the target human's slot, -1 none
  int32_t fail_reason = 0;     ///< +0x284: why a move failed (FailReason)
  int32_t last_think_ms = 0;   ///< +0x30: the time of the previous think
  int32_t turn_boost = 0;      ///< +0x0b (s8)
  int32_t start_boost = 0;     ///< +0x0c (s8)
  int32_t strafe = 0;          ///< +0x11c
  int32_t arrived = 0;         ///< +0x11d: the arrival flag
  int32_t way_flags = 0;       ///< +0xcc: 1 giving way (a GiveWay action lives), 2 refuses pushes, 4 in a push (the guard)
  int32_t queued = 0;          ///< +0xec: held in a waypoint queue (1 or 2 keep their point), 0 none
  int32_t thinks = 0;          ///< thinks since the brain began (the Warrior's every-12-thinks push)
  RouteState route;            ///< +0xe0
  Steering steering;           ///< +0xa0
  int32_t queue_count = 0;
  std::array<Action, kQueueSize> queue{};

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"aim", 0x90}, s.aim);
    v(FieldInfo{"move_heading", 0x110}, s.move_heading);
    v(FieldInfo{"move_speed", 0x114}, s.move_speed);
    v(FieldInfo{"aim_radius", 0x118}, s.aim_radius);
    v(FieldInfo{"target", 0x124}, s.target);
    v(FieldInfo{"fail_reason", 0x284}, s.fail_reason);
    v(FieldInfo{"last_think_ms", 0x30}, s.last_think_ms);
    v(FieldInfo{"turn_boost", 0x0b}, s.turn_boost);
    v(FieldInfo{"start_boost", 0x0c}, s.start_boost);
    v(FieldInfo{"strafe", 0x11c}, s.strafe);
    v(FieldInfo{"arrived", 0x11d}, s.arrived);
    v(FieldInfo{"way_flags", 0xcc}, s.way_flags);
    v(FieldInfo{"queued", 0xec}, s.queued);
    v(FieldInfo{"thinks"}, s.thinks);
    v(FieldInfo{"route", 0xe0}, s.route);
    v(FieldInfo{"steering", 0xa0}, s.steering);
    v(FieldInfo{"queue_count"}, s.queue_count);
    v(FieldInfo{"queue"}, s.queue);
  }
};

/// One sector of the neighbour-sector record (seed 000, "Neighbour sectors").
struct Sector {
  int32_t nearest = -1;  ///< +0: the nearest human's slot, -1 the null handle
  int32_t flags = 0;     ///< +4: 1 someone within 1.5 m, 2 very close, 4 a wall, 8 a free player
  int32_t probe = 1;     ///< +6: the wall probe has still to run
  int32_t count = 0;     ///< +7: humans in the sector within 1.5 m
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"nearest", 0}, s.nearest);
    v(FieldInfo{"flags", 4}, s.flags);
    v(FieldInfo{"probe", 6}, s.probe);
    v(FieldInfo{"count", 7}, s.count);
  }
};

/// The sector record (0x48 bytes at 0x006e8318 per slot): Sectors_Update's rebuild
/// with the players' bit 8, the lazy wall probe and the readers (steer.cpp).
struct Sectors {
  std::array<Sector, 8> sector{};
  float heading = 0;        ///< +0x40: the owner's heading at the last refresh
  int32_t time_ms = kSectorsNever;  ///< +0x44: the time of the last refresh (A23: long before the scenario)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"sector"}, s.sector);
    v(FieldInfo{"heading", 0x40}, s.heading);
    v(FieldInfo{"time_ms", 0x44}, s.time_ms);
  }
};

/// One human slot: the position table entry, the human record and its brain.
struct Human {
  Vec3 position;             ///< the position table (0x00714b00)
  float heading = 0;         ///< facing, rad (the position table's rotation)
  float speed = 0;           ///< +0x1ac: current speed, m/s
  int32_t gait = 0;          ///< +0x1a8: the stored gait (Brain_UpdateGait)
  int32_t detail = 0;        ///< +0x333: the detail level (0 near .. 3 far)
  int32_t index = 0;         ///< +0x92: the slot in the position table
  int32_t cls = 0;           ///< index into the scenario's classes (the anim record +0xd4)
  int32_t action = 0;        ///< the human's action (HumanAction)
  int32_t clip = 0;          ///< the clip playing (0: one the seed does not name)
  int32_t action_updates = 0;  ///< updates left of a start or stop clip
  float turn_target = 0;     ///< a turn on the spot's heading
  float pad_step = 0;        ///< the stick's previous turn step, rad (the eased turn's carry)
  float pad_error = 0;       ///< the stick's previous heading error, rad (its sign flip)
  int32_t held_object = 0;   ///< kind of the held object, 0 none
  int32_t in_use = 0;
  int32_t has_pad = 0;       ///< per-player +0x1b: moved by the stick
  int32_t is_ai = 0;         ///< has a brain
  int32_t wounded = 0;
  int32_t fight_stance = 0;
  int32_t grabbing = 0;      ///< grabbing, blocking or ducking
  int32_t held_flags = 0;    ///< flags 0x1000080 held (Human_MaxTurn's 0.625 degree row)
  int32_t hold = 0;          ///< a flag of 0x310c0880 held (no far-away heading, no turn on the spot)
  int32_t turn_limited = 0;  ///< 0, or the fixed turn in degrees (4 or 6)
  int32_t rear_grabber = 0;  ///< turns at twice the limit and walks
  int32_t held_keep = 0;     ///< the held object is of type class 6 with +0x5a = 0 (never dropped)
  int32_t airborne = 0;      ///< 0x00227f90
  int32_t reacting = 0;      ///< in a standing reaction (MoveMelee step 1)
  int32_t down = 0;          ///< not up (knocked down, dead)
  int32_t side_flag = 0;     ///< the human flag 0x10000 (PickSide's choice when both sides are free)
  int32_t fast_climber = 0;  ///< human +0xe0 flag 0x2 (HuSetFastClimber)
  int32_t follows = -1;      ///< +0x1a4: the leader (slot) of the formation he follows, -1 none
  int32_t gang = 0;          ///< the gang he belongs to (Warriors' gang +0x48 slots), 0 none
  int32_t gang_leader = 0;   ///< he leads his gang
  int32_t gang_timer_ms = 0; ///< WarriorFollowTactic's timer: the time Gang_ClearWayForLeader is next due
  Vec3 leg_from;             ///< a climb's or jump's start point
  Vec3 leg_to;               ///< its end point (the far node, or the landing point)
  float leg_vz = 0;          ///< a jump's vertical launch speed, m/s
  int32_t leg_elapsed = 0;   ///< updates since the climb or jump started
  int32_t leg_updates = 0;   ///< updates it lasts
  int32_t nav_area = -1;     ///< +0x1b4: the cached polygon (area) of Human_GetNavPolygon, -1 none
  Vec3 nav_point;            ///< +0x2b0: the point it was found for
  Brain brain;
  Sectors sectors;

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"position"}, s.position);
    v(FieldInfo{"heading"}, s.heading);
    v(FieldInfo{"speed", 0x1ac}, s.speed);
    v(FieldInfo{"gait", 0x1a8}, s.gait);
    v(FieldInfo{"detail", 0x333}, s.detail);
    v(FieldInfo{"index", 0x92}, s.index);
    v(FieldInfo{"cls", 0xd4}, s.cls);
    v(FieldInfo{"action"}, s.action);
    v(FieldInfo{"clip"}, s.clip);
    v(FieldInfo{"action_updates"}, s.action_updates);
    v(FieldInfo{"turn_target"}, s.turn_target);
    v(FieldInfo{"pad_step"}, s.pad_step);
    v(FieldInfo{"pad_error"}, s.pad_error);
    v(FieldInfo{"held_object"}, s.held_object);
    v(FieldInfo{"in_use"}, s.in_use);
    v(FieldInfo{"has_pad", 0x1b}, s.has_pad);
    v(FieldInfo{"is_ai"}, s.is_ai);
    v(FieldInfo{"wounded"}, s.wounded);
    v(FieldInfo{"fight_stance"}, s.fight_stance);
    v(FieldInfo{"grabbing"}, s.grabbing);
    v(FieldInfo{"held_flags"}, s.held_flags);
    v(FieldInfo{"hold"}, s.hold);
    v(FieldInfo{"turn_limited"}, s.turn_limited);
    v(FieldInfo{"rear_grabber"}, s.rear_grabber);
    v(FieldInfo{"held_keep"}, s.held_keep);
    v(FieldInfo{"airborne"}, s.airborne);
    v(FieldInfo{"reacting"}, s.reacting);
    v(FieldInfo{"down"}, s.down);
    v(FieldInfo{"side_flag"}, s.side_flag);
    v(FieldInfo{"fast_climber"}, s.fast_climber);
    v(FieldInfo{"follows", 0x1a4}, s.follows);
    v(FieldInfo{"gang"}, s.gang);
    v(FieldInfo{"gang_leader"}, s.gang_leader);
    v(FieldInfo{"gang_timer_ms"}, s.gang_timer_ms);
    v(FieldInfo{"leg_from"}, s.leg_from);
    v(FieldInfo{"leg_to"}, s.leg_to);
    v(FieldInfo{"leg_vz"}, s.leg_vz);
    v(FieldInfo{"leg_elapsed"}, s.leg_elapsed);
    v(FieldInfo{"leg_updates"}, s.leg_updates);
    v(FieldInfo{"nav_area", 0x1b4}, s.nav_area);
    v(FieldInfo{"nav_point", 0x2b0}, s.nav_point);
    v(FieldInfo{"brain"}, s.brain);
    v(FieldInfo{"sectors"}, s.sectors);
  }
};

struct Clock {
  int32_t now_ms = 0;  ///< the time of the current update, integer ms
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"now_ms"}, s.now_ms);
  }
};

/// The world's random streams (rng.h): Random_IntRange for the goals.
struct Rng {
  RngStream goals;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"goals"}, s.goals);
  }
};

/// A waypoint queue (20 records of 0x90 at 0x006cde30; seed 000, "Waypoint queues"; Q1-Q5): up to 6
/// points one metre apart along a choke edge, the humans holding them and their settled flags.
struct WaypointQueue {
  int32_t in_use = 0;                  ///< the mask at 0x006ce970
  std::array<Vec3, kQueuePoints> points{};  ///< +0x00, 16 bytes each
  Vec3 end_a, end_b;                   ///< +0x60 / +0x64: the edge's endpoints
  std::array<int32_t, kQueuePoints> humans{-1, -1, -1, -1, -1, -1};  ///< +0x68: the human at point k, -1 none
  std::array<int32_t, kQueuePoints> settled{};  ///< +0x80: settled at his point
  int32_t count = 0;                   ///< +0x88: the points laid
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"in_use"}, s.in_use);
    v(FieldInfo{"points", 0x00}, s.points);
    v(FieldInfo{"end_a", 0x60}, s.end_a);
    v(FieldInfo{"end_b", 0x64}, s.end_b);
    v(FieldInfo{"humans", 0x68}, s.humans);
    v(FieldInfo{"settled", 0x80}, s.settled);
    v(FieldInfo{"count", 0x88}, s.count);
  }
};

/// The whole state. Subsystems (one hash each) are its top-level fields.
struct State {
  uint64_t tick = 0;
  Clock clock;
  Rng rng;
  std::array<Human, kSlots> humans{};
  NavState nav;  ///< part 2: the level's live navigation state
  std::array<WaypointQueue, kQueueRecords> queues{};  ///< part 3: the waypoint queues

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"clock"}, s.clock);
    v(FieldInfo{"rng"}, s.rng);
    v(FieldInfo{"humans"}, s.humans);
    v(FieldInfo{"nav"}, s.nav);
    v(FieldInfo{"queues"}, s.queues);
  }
};

// ---------------------------------------------------------------- inputs

/// A player's pad for one update (sticks in [-1, 1], +y forward = world +y).
struct Pad {
  uint32_t human = 0;
  float stick_x = 0, stick_y = 0;
  uint32_t buttons = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"human"}, s.human);
    v(FieldInfo{"stick_x"}, s.stick_x);
    v(FieldInfo{"stick_y"}, s.stick_y);
    v(FieldInfo{"buttons"}, s.buttons);
  }
};

enum class CommandKind : int32_t {
  MoveTo = 1,         ///< a move action to `point` with `gait`, `radius`, `delay_ms`, `face`
  MoveToHuman = 2,    ///< a MoveMelee on `target` with `near`, `far`, `limit_ms`, `delay_ms`
  Stop = 3,           ///< Brain_ClearActions
  Set = 4,            ///< set `field` (SetField) to `value`
  Goal = 5,           ///< a goal of the gait table: `goal` (GoalId), to `point`
  Door = 6,           ///< open (`field` 1) or close (0) the level's door number `value` (any `human`)
  GiveWay = 7,        ///< the script's ActGiveWay: `human` (the stander) gives way to `target` (Action_GiveWay)
  JoinQueue = 8,      ///< `human` joins waypoint queue `value` (Q2)
  LeaveQueue = 9,     ///< `human` leaves his waypoint queue
};

enum class SetField : int32_t {
  Detail = 1, TurnBoost, StartBoost, Wounded, FightStance, Grabbing, HeldFlags, Hold, TurnLimited, RearGrabber,
  HeldObject, HeldKeep, Airborne, Reacting, Down, SideFlag, Target, FastClimber,
  Follows, Gang, GangLeader, Steering
};

/// One script command, as the input carries it (the scenario's names resolved).
struct Command {
  uint32_t human = 0;
  CommandKind kind = CommandKind::Stop;
  Vec3 point;
  int32_t gait = 0;
  float radius = 0;
  int32_t delay_ms = 0;
  int32_t face = -1;
  int32_t target = -1;
  float near_dist = 0, far_dist = 0;
  int32_t limit_ms = 0;
  int32_t field = 0;   ///< SetField
  int32_t value = 0;
  int32_t goal = 0;    ///< index into goal_table()
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"human"}, s.human);
    v(FieldInfo{"kind"}, s.kind);
    v(FieldInfo{"point"}, s.point);
    v(FieldInfo{"gait"}, s.gait);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"delay_ms"}, s.delay_ms);
    v(FieldInfo{"face"}, s.face);
    v(FieldInfo{"target"}, s.target);
    v(FieldInfo{"near"}, s.near_dist);
    v(FieldInfo{"far"}, s.far_dist);
    v(FieldInfo{"limit_ms"}, s.limit_ms);
    v(FieldInfo{"field"}, s.field);
    v(FieldInfo{"value"}, s.value);
    v(FieldInfo{"goal"}, s.goal);
  }
};

/// One tick's input: the players' pads, then script commands, in order.
struct Input {
  std::vector<Pad> pads;
  std::vector<Command> commands;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"pads"}, s.pads);
    v(FieldInfo{"commands"}, s.commands);
  }
};

// ---------------------------------------------------------------- scenario

/// A class's anim-record speeds (Human_SpeedForGait, record +0xd4), m/s.
struct ClassSpec {
  std::string name;
  int32_t id = 0;          ///< the class number (Diego 0x77, Vargas 0x78 stop at once)
  int32_t kind = 0;        ///< class +0x11b: 6 or 7 fight without the stance ("no stance")
  bool anim_record = true; ///< false: Human_SpeedForGait gives 0 for every gait
  bool start_clips = true; ///< false: the anim set's kind is 3 or 7 or its +0x18 is 4 (no start actions)
  float sneak = 1.585f;    ///< +0x16c
  float walk = 1.629f;     ///< +0x170
  float jog = 4.857f;      ///< +0x174
  float run = 7.801f;      ///< +0x178
  float sprint = 10.245f;  ///< +0x17c
  float stance = 3.429f;   ///< +0x164: the fight-stance walk
  float melee_far = 2.0f;  ///< +0x140: the far melee range
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"id"}, s.id);
    v(FieldInfo{"kind", 0x11b}, s.kind);
    v(FieldInfo{"anim_record"}, s.anim_record);
    v(FieldInfo{"start_clips"}, s.start_clips);
    v(FieldInfo{"sneak", 0x16c}, s.sneak);
    v(FieldInfo{"walk", 0x170}, s.walk);
    v(FieldInfo{"jog", 0x174}, s.jog);
    v(FieldInfo{"run", 0x178}, s.run);
    v(FieldInfo{"sprint", 0x17c}, s.sprint);
    v(FieldInfo{"stance", 0x164}, s.stance);
    v(FieldInfo{"melee_far", 0x140}, s.melee_far);
  }
};

/// A named point with a heading (degrees).
struct FlagSpec {
  std::string name;
  Vec3 position;
  float heading = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"position"}, s.position);
    v(FieldInfo{"heading"}, s.heading);
  }
};

struct HumanSpec {
  std::string name;
  std::string cls = "rembrandt";
  Vec3 position;
  float heading = 0;  ///< degrees
  bool pad = false;   ///< a player (moved by the stick) rather than an AI
  int32_t detail = 0;
  int32_t turn_boost = 0, start_boost = 0;
  bool wounded = false, fight_stance = false;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"class"}, s.cls);
    v(FieldInfo{"position"}, s.position);
    v(FieldInfo{"heading"}, s.heading);
    v(FieldInfo{"pad"}, s.pad);
    v(FieldInfo{"detail"}, s.detail);
    v(FieldInfo{"turn_boost"}, s.turn_boost);
    v(FieldInfo{"start_boost"}, s.start_boost);
    v(FieldInfo{"wounded"}, s.wounded);
    v(FieldInfo{"fight_stance"}, s.fight_stance);
  }
};

/// A script command at a tick, by names (docs/warriors.md, "Scenarios").
struct ScriptSpec {
  uint64_t tick = 0;
  std::string human;       ///< a human's name, or its slot as a decimal string
  std::string command;     ///< move_to | move_to_human | stop | set | goal
  std::vector<float> point;  ///< [x, y, z] (or use `flag`)
  std::string flag;        ///< a flag's name: its position is the point
  std::string goal;        ///< for `goal`: a goal name of the seed's gait table
  int32_t gait = 2;
  float radius = 0.5f;
  int32_t delay_ms = 0;
  std::string face;        ///< a human to face while moving
  std::string target;      ///< move_to_human: the human
  float near = 1.0f, far = 2.0f;
  int32_t limit_ms = 10000;
  std::string field;       ///< set: detail, turn_boost, wounded, ...
  int32_t value = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"human"}, s.human);
    v(FieldInfo{"command"}, s.command);
    v(FieldInfo{"point"}, s.point);
    v(FieldInfo{"flag"}, s.flag);
    v(FieldInfo{"goal"}, s.goal);
    v(FieldInfo{"gait"}, s.gait);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"delay_ms"}, s.delay_ms);
    v(FieldInfo{"face"}, s.face);
    v(FieldInfo{"target"}, s.target);
    v(FieldInfo{"near"}, s.near);
    v(FieldInfo{"far"}, s.far);
    v(FieldInfo{"limit_ms"}, s.limit_ms);
    v(FieldInfo{"field"}, s.field);
    v(FieldInfo{"value"}, s.value);
  }
};

/// A waypoint queue at a choke edge, from a to b (laid at the start, 0x00299538).
struct QueueSpec {
  Vec3 a, b;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"a"}, s.a);
    v(FieldInfo{"b"}, s.b);
  }
};

/// A scripted pad: from `tick` on (until the next entry for the same human)
/// the stick and buttons are held.
struct PadSpec {
  uint64_t tick = 0;
  std::string human;
  float stick_x = 0, stick_y = 0;
  uint32_t buttons = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"human"}, s.human);
    v(FieldInfo{"stick_x"}, s.stick_x);
    v(FieldInfo{"stick_y"}, s.stick_y);
    v(FieldInfo{"buttons"}, s.buttons);
  }
};

/// The open floor of part 1: one level at height z.
struct GroundSpec {
  float z = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"z"}, s.z);
  }
};

struct Scenario {
  std::string model = "warriors";
  std::string name;
  std::string description;
  uint64_t seed = 1;
  uint64_t ticks = 900;  ///< the default run length (30 s)
  GroundSpec ground;
  Level level;  ///< part 2: the path data (docs/warriors-level.md); empty: part 1's open floor
  std::vector<ClassSpec> classes;  ///< added to the built-in table (rembrandt); a same name replaces
  std::vector<FlagSpec> flags;
  std::vector<HumanSpec> humans;   ///< slots 0.. in order
  std::vector<ScriptSpec> script;
  std::vector<PadSpec> pads;
  std::vector<QueueSpec> queues;  ///< part 3: waypoint queues (at most 20)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"model"}, s.model);
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"description"}, s.description);
    v(FieldInfo{"seed"}, s.seed);
    v(FieldInfo{"ticks"}, s.ticks);
    v(FieldInfo{"ground"}, s.ground);
    v(FieldInfo{"level"}, s.level);
    v(FieldInfo{"classes"}, s.classes);
    v(FieldInfo{"flags"}, s.flags);
    v(FieldInfo{"humans"}, s.humans);
    v(FieldInfo{"script"}, s.script);
    v(FieldInfo{"pads"}, s.pads);
    v(FieldInfo{"queues"}, s.queues);
  }
};

/// A goal of the seed's gait table: its name, its gait (-1: the script's
/// argument) and whether its start delay is Random_IntRange(0, 250) ms.
struct GoalEntry {
  const char* name;
  int32_t gait;
  bool random_delay;
};
/// The goals of the gait table that only choose a gait and a move.
const std::vector<GoalEntry>& goal_table();
/// The index of a goal by name, -1 when unknown.
int32_t goal_index(const std::string& name);

// ---------------------------------------------------------------- pure rules

/// Human_SpeedForGait (0x0022ae40): the anim record's speed, 0 for gait 0 or
/// no anim record (the +0x3a4 multiplier is not applied).
float speed_for_gait(const ClassSpec& c, int32_t gait);
/// Human_GaitForSpeed (0x00221760): 5 at or above sprint, 4 run, 3 jog, 2 walk, else 0.
int32_t gait_for_speed(const ClassSpec& c, float v);
/// Human_GaitForSpeed (0x0022aeb0), the nearest-gait variant: 0 below 0.5 m/s,
/// else the gait (1..5) whose speed is nearest (the lower on a tie).
int32_t nearest_gait_for_speed(const ClassSpec& c, float v);
/// Human_GetTurnRateForGait (0x002212d0): the AI word of the gait's row, rad
/// per update (2.5 deg gait 5, 4 gait 4, 6 gait 3, 12 below), times the turn
/// boost b: x (b + 1), or / (1 - b) when b < 0.
float turn_rate_for_gait(int32_t gait, int32_t boost);
/// Human_MaxTurn (0x002213d8): rad per update, rows tested top down; `pad`
/// picks the player's word (a pad human whose brain is not dead).
float max_turn(const Human& h, bool pad);
/// The right vector of heading h: facing x up = (cos h, -sin h, 0).
Vec3 right_of(float heading);
/// Math_CircleRadius2D (0x003375d0): the radius of the circle through P and X
/// tangent at P to the direction perpendicular to `axis`; 0 when X = P or X
/// lies dead ahead or behind (d . axis = 0).
float circle_radius_2d(Vec3 p, Vec3 x, Vec3 axis);
/// v(g) = 2R tan(w(g)/2) / (1/30): the speed whose per-update chord at radius
/// R, turning at gait g's rate, stays on the circle.
float corner_speed_for_gait(float radius, int32_t gait, int32_t boost);
/// Move_CornerSpeedLimit (0x002fcd90)(s, brain, A, P, X).
float corner_speed_limit(const ClassSpec& c, int32_t boost, float s, Vec3 axis, Vec3 p, Vec3 x);

// ---------------------------------------------------------------- the model

/// Counts of what happened (diagnostics for tests and tools; not state, not hashed).
struct Counters {
  uint64_t turn_on_spot = 0, starts = 0, stops_at_once = 0, drops = 0;
  uint64_t move_done_arrived = 0, move_done_stuck = 0, move_done_floor = 0, move_done_straight = 0, move_done_route = 0;
  uint64_t corner_recomputes = 0, trial_simulations = 0, melee_done = 0, jumps = 0;
  uint64_t steer_decisions = 0, detours = 0, give_ways = 0;
};

struct MovePoints {
  std::array<Vec3, 3> p{};
  int32_t n = 0;
};

class WarriorsModel {
 public:
  using Scenario = warriors::Scenario;
  using Input = warriors::Input;
  using State = warriors::State;
  static constexpr std::string_view kName = "warriors";
  /// 2: part 2's navigation state (the `nav` subsystem, route states, climbs and jumps).
  /// 3: the supplement's arrival rule (speed / 30, 3D beyond 1 m), the new leg read on the update after
  ///    moving on (N19), the charge breaking its door open, Route_TryClimbNear's state 3.
  /// 4: part 3 (issue 18): the players' bit 8 and the wall probe in the sector record, steering round
  ///    humans, giving way (GiveWay actions, the leg checks' pushes, gangs), the gait-0 turn on the spot
  ///    starting while the human still slides (A4).
  static constexpr uint32_t kVersion = 4;
  static constexpr uint32_t kTickRateHz = 30;
  /// The step's phases, in order (phases.h; `lockstep profile`).
  static constexpr std::array<std::string_view, 3> kPhases{"inputs", "think", "control"};
  enum StepPhase : uint32_t { kInputs, kThink, kControl };
  void set_phase_observer(PhaseObserver* o) { phases_.set(o); }
  /// The model contract's entity count (model.h): the humans in use.
  uint64_t entity_count() const {
    uint64_t n = 0;
    for (const auto& h : state_.humans) n += h.in_use ? 1 : 0;
    return n;
  }

  static Scenario load_scenario(const Json& j, const JsonReader& reader);
  explicit WarriorsModel(Scenario scenario);

  /// Refuse an input this model cannot step (InputError naming the field, "pads[0].stick_x"): a slot
  /// without the human it needs, a value outside its range or the limits. step() runs it first.
  void check_input(const Input& input) const;
  void step(const Input& input);
  Input scripted_input() const;
  uint64_t tick() const { return state_.tick; }
  const State& state() const { return state_; }
  /// Adopt a state (a restored snapshot); refused (InputError naming the field, state unchanged) when
  /// it cannot belong to this scenario or holds a value beyond the limits (docs/warriors.md, "Limits").
  void set_state(const State& s);
  State& mutable_state() { return state_; }
  const Scenario& scenario() const { return scenario_; }
  const Counters& counters() const { return counters_; }
  const ClassSpec& class_of(const Human& h) const { return classes_[static_cast<std::size_t>(h.cls)]; }
  const std::vector<ClassSpec>& classes() const { return classes_; }
  /// The slot of a human by name or decimal slot, -1 when none.
  int32_t human_slot(const std::string& name) const;
  /// The model contract's drawing (drawing.h), in plan (x, y): the level's areas, holes, route
  /// nodes and links, and the flags, once; each tick the humans (heading, state), each brain's aim
  /// (+0x90) and its radius (+0x118), its route's waypoints, the claims and the hazard spheres (draw.cpp).
  lockstep::Drawing scene_drawing() const;
  lockstep::Drawing tick_drawing() const;

  // ---- the seed's operations, public so tests can drive them one by one
  void apply_command(const Command& c);
  void apply_pad(const Pad& p);
  /// Brain_UpdateGoals (0x0028fbb0): Brain_StopMove, then the front action.
  void think(int32_t slot);
  /// Human_UpdateControl (0x00243848), the non-pad branch, then the move.
  void control(int32_t slot);
  /// Human_PlayerLocomotion (0x00240e38) with the slot's held pad, then the move.
  void player_locomotion(int32_t slot);
  /// Brain_SetMoveGait (0x0028aac0) and Brain_SetMoveSpeed (0x0028ab28).
  void set_move_gait(int32_t slot, int32_t gait);
  static void set_move_speed(Brain& b, float v) { b.move_speed = v; }
  /// Brain_StopMove (0x0028ac18): speed 0, heading = the human's facing.
  void stop_move(int32_t slot);
  /// Brain_ClearActions: every queued action aborted and removed.
  void clear_actions(int32_t slot);
  /// Queue an action (refused, false, when the queue is full).
  bool queue_action(int32_t slot, const Action& a);
  /// The human is busy (a turn on the spot, a climb or a jump plays).
  bool busy(const Human& h) const {
    return h.action == kActTurnOnSpot || h.action == kActClimb || h.action == kActJump;
  }
  /// 0x00223b70: the human is at the move's destination, within its radius in plan (A9).
  bool at_destination(const Human& h, const Action& a) const;
  /// Brain_CheckMoveArrival (0x0023f9d0): sets +0x11d at the aim (run after each AI's move).
  void check_move_arrival(int32_t slot);

  /// MoveAction Start (0x002fc420): 0 running, 2 done.
  int32_t move_start(int32_t slot, Action& a);
  /// MoveAction_Update (0x002fc5c0): 0 running, 2 done.
  int32_t move_update(int32_t slot, Action& a);
  /// MoveAction_CollectPoints (0x002fbd18).
  MovePoints collect_points(int32_t slot, const Action& a, Vec3 aim);
  /// MoveAction_CornerSpeed (0x002fc158): +0x0c, +0x44, +0x48 of `a`.
  void corner_speed(int32_t slot, Action& a, float cap, const MovePoints& pts);
  /// MoveAction_TrialSpeed (0x002fbef0)(v, trial, from, to).
  float trial_speed(int32_t slot, float v, float trial, Vec3 from, Vec3 to);
  /// Human_SimulateMove (0x0022aae8): the recorded points (at most `n`).
  std::vector<Vec3> simulate_move(int32_t slot, Vec3 from, Vec3 to, float v, float trial, int32_t k, int32_t n) const;
  /// MoveMelee Start (0x002fcff0) and Update (0x002fd4e8): 0 running, 2 done.
  int32_t melee_start(int32_t slot, Action& a);
  int32_t melee_update(int32_t slot, Action& a);
  /// MoveMeleeAction_PickSide (0x002fd158): 2, 6 or 8.
  int32_t pick_side(int32_t slot, const Action& a);
  /// Brain_GetSectors (0x0028fe90): the record, rebuilt when older than max_age_ms.
  const Sectors& sectors_of(int32_t slot, int32_t max_age_ms);
  /// Sectors_SectorOf / Human_GetSectorOf: the sector (0-7) of a point round a human.
  static int32_t sector_of(const Human& owner, Vec3 point);
  /// Human_GetSectorOf (0x0029eb38) of a heading relative to a facing: wrapped to [0, 2 pi), sector k
  /// centred on k x 45 degrees, rising clockwise (toward the human's right).
  static int32_t sector_of_relative(float rel);
  // ---- part 3: neighbour sectors (steer.cpp)
  /// Sectors_ProbeWall (0x0029e4b0): the lazy wall probe of sector k of `slot`'s record (bit 4).
  void sectors_probe(int32_t slot, int32_t k);
  bool sectors_is_blocked(int32_t slot, int32_t k);  ///< Sectors_IsBlocked (0x0029e9c8)
  bool sectors_is_free(int32_t slot, int32_t k);     ///< Sectors_IsFree (0x0029ea48)
  bool sectors_is_wall(int32_t slot, int32_t k);     ///< Sectors_IsWall (0x0029ea10)
  int32_t sectors_cost(int32_t slot, int32_t k);     ///< Sectors_GetCost (0x0029e980): flags + 2 x count
  static bool sectors_all_clear(const Sectors& s);  ///< Sectors_AllClear (0x0029eaa0)
  static bool sectors_held_by(const Sectors& s, int32_t human);  ///< Sectors_IsHeldBy (0x0029ead8)
  static int32_t sectors_turn_way(int32_t from, int32_t to);     ///< Sectors_TurnWay (0x0029ec90): +1 or -1
  /// Sectors_GetPoint (0x0029e350): the owner's position + distance along his live heading + k x 45.
  Vec3 sectors_point(int32_t slot, float distance, int32_t k) const;
  /// Sectors_ResetHeading (0x0029e2e8): the current heading stored, the probes re-armed, bit 4 kept.
  void sectors_reset_heading(int32_t slot);
  // ---- part 3: steering round humans (steer.cpp)
  /// Human_SteerAroundHumans (0x00289138): 0 no steering, 1 steering (the aim may have changed).
  int32_t steer(int32_t slot, float speed, Vec3& aim, Vec3 dest, float radius);
  /// Steering_FindBlocker (0x00288cc8) over the list: the blocker's slot (-1 none) and t.
  int32_t find_blocker(int32_t slot, const std::vector<int32_t>& list, Vec3 p, Vec3 dir, Vec3 step, float* frac) const;
  /// Steering_ClampStep (0x00288f40)(f) of a human: unit(aim - position) x min(+0x114 x f, distance).
  Vec3 clamp_step(int32_t slot, float f) const;
  /// Humans_FindAhead (0x002274a8): every human in use within r of p (3D), by slot, not `except`.
  std::vector<int32_t> humans_within(Vec3 p, float r, int32_t except) const;
  /// Steering_TryDetour (0x00289010): the point walkable and Ground_ProbeBelow not 1 -> the detour held.
  bool try_detour(int32_t slot, Vec3 point, int32_t blocker, float t);
  /// Ground_ProbeBelow (0x00249050): 1 when the ray from 0.1 m above, 2 m down, first hits a bit-4 triangle.
  int32_t ground_probe_below(Vec3 p) const;
  /// Steering_SetAvoiding / Steering_Clear / Steering_EndAvoid.
  void set_avoiding(int32_t slot, int32_t who);
  void steering_clear(int32_t slot);
  void steering_end_avoid(int32_t slot);
  /// Steering_SetSpeed (speed, n).
  static void steering_set_speed(Brain& b, float speed, int32_t n) {
    b.steering.override_speed = speed;
    b.steering.override_count = n;
  }
  // ---- part 3: giving way (steer.cpp)
  /// Brain_PushAside (0x0028a248)(mover, stander, point, step): yes or no.
  bool push_aside(int32_t mover, int32_t stander, Vec3 point, Vec3 step);
  /// Brain_GiveWayTo (0x00289ed0).
  bool give_way_to(int32_t mover, int32_t stander, Vec3 point, Vec3 step);
  /// Brain_IsThreat / Human_IsThreatTo (docs/spec-notes.md G1).
  bool is_threat_to(int32_t a, int32_t b) const;
  /// Human_IsIdleUnderControl (0x00225390) (G2).
  bool idle_under_control(int32_t slot) const;
  /// GiveWay's Update (the stander's side): 0 running, 2 done.
  int32_t give_way_update(int32_t slot, Action& a);
  /// Gang_ClearWayForLeader (0x002942c8)(angle, gang) with the leader's timer (WarriorFollowTactic).
  bool gang_clear_way(int32_t leader, float angle_deg);
  /// A Warrior's push on the thinks where step 9 runs (every 12 thinks).
  void warrior_make_room(int32_t slot);
  // ---- part 3: waypoint queues (queue.cpp)
  /// 0x00299538: lay up to 6 points one metre apart from a toward b.
  static void lay_queue(WaypointQueue& q, Vec3 a, Vec3 b);
  /// The queues' update after the brains (0x00299778).
  void update_queues();
  void update_queue(int32_t index);
  /// A human joins (false when the record is full or unused) or leaves a queue.
  bool join_queue(int32_t slot, int32_t index);
  void leave_queue(int32_t slot);

  // ---- part 2: navigation (core/warriors/follow.cpp). Without a level (part 1's open floor)
  // every point has an area, every straight line is walkable and no route is ever needed.
  const Level& level() const { return scenario_.level; }
  /// Nav_FindArea (0x00250708) of a point (no fallback); 0 on the open floor.
  int32_t find_area(Vec3 p) const;
  bool point_has_area(Vec3 p) const { return find_area(p) >= 0; }
  /// Human_GetNavPolygon (0x00247958): the human's area with the fallbacks, cached at +0x1b4 for
  /// the point +0x2b0. -1 when none.
  int32_t human_area(int32_t slot);
  /// Human_CanWalkStraightTo (0x002221e0): the walkable line (mask 0) from the human's area and
  /// position to the point (no trains in this port).
  bool can_walk_straight(int32_t slot, Vec3 p);
  /// Nav_LineClearWithin (0x0024f718) for the trial speed's points: the walkable line (mask 0)
  /// from a's area.
  bool line_clear(Vec3 a, Vec3 b) const;
  /// The route request (0x0029a8c0): 0 no route needed (straight), 1 a route was made, 2 failed
  /// (brain +0x284 = 1).
  int32_t route_request(int32_t slot, Vec3 point);
  /// Route_Follow (0x0029aa88): 0 hold this update, 1 keep walking to the waypoint, 2 the end.
  int32_t route_follow(int32_t slot);
  /// Route_SkipReachable (0x0029b4b8) of waypoint i.
  bool skip_reachable(int32_t slot, int32_t i);
  /// Route_Advance (0x0029b6d8): false when past the last waypoint (the route is freed).
  bool route_advance(int32_t slot);
  /// The flags of the D record stepping from waypoint i - 1 to waypoint i (0x00251070); 0 when none.
  uint16_t leg_flags(int32_t route, int32_t i) const;
  /// The same record's bit 31 as it stands (file, doors, hazard spheres).
  bool leg_avoided(int32_t route, int32_t i) const;
  /// Nav_ClaimWaypoint (0x00293e40): true when the human holds the node's claim this update.
  bool claim_waypoint(int32_t slot, uint16_t node);
  /// Nav_ReleaseClaims (0x00294088): every claim the human holds.
  void release_claims(int32_t slot);
  /// RouteState_Release: the route freed (use counts lowered) and the brain's route state cleared.
  void release_route(int32_t slot);
  /// A door opened or closed by number (flag 8 on its hole; its D records' bit 31).
  void set_door_open(uint32_t number, bool open);
  /// Route_IsJumpLegClear (0x0029a3f0) / Route_IsClimbLegClear (0x0029a6c8) for the leg into
  /// waypoint n: false when a human is in the way (blocked).
  bool leg_clear(int32_t slot, int32_t n);
  /// Climb_TryStart (0x002826f0) toward waypoint n (N11): starts the climb when in reach.
  bool climb_try_start(int32_t slot, int32_t n, uint16_t kind);
  void charge_break(int32_t slot);
  /// The jump handler (0x0029baa8): 0 flying (or about to), 2 refused.
  int32_t jump_leg(int32_t slot);
  /// One update of a climb or jump in progress (the human is busy).
  void leg_motion(int32_t slot);

 private:
  void move_along(Human& h, float dir_heading);
  void end_clip_if_done(Human& h);
  void pop_action(int32_t slot);

  Scenario scenario_;
  AStarScratch scratch_;  ///< the C records' search fields (route.h): scratch of one search
  std::vector<ClassSpec> classes_;
  State state_;
  Counters counters_;
  std::array<Pad, kSlots> pads_{};  ///< the pad each player holds (set by inputs; part of the input, not state)
  std::vector<std::pair<uint64_t, Command>> script_;  ///< by tick, stable
  std::vector<std::pair<uint64_t, Pad>> pad_script_;  ///< by tick, stable
  PhaseHook phases_;  ///< the profiler's observer, if any (not state)
  /// The think phase's copy of the humans' positions (nobody moves while brains think): Humans_FindAhead
  /// reads this compact list instead of the 60 whole records (not state; valid only inside step()).
  std::array<Vec3, kSlots> think_pos_{};
  std::array<uint8_t, kSlots> think_used_{};
  bool think_pos_valid_ = false;
  std::vector<int32_t> steer_list_;  ///< the steering's scratch list (capacity kept between calls)
};

}  // namespace lockstep::warriors
