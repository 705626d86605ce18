// The `station` model: a transit-station crowd (seed 002, "Behaviours"; issue
// 7 part 1). Walkers are point bodies with a radius moved by a social-force
// law (docs/station-forces.md) toward the nearest point of their destination
// portal; portals spawn and absorb them; measurement areas count density and
// Fruin's level of service. The step order is docs/station-step.md, the model
// and its scenario docs/station.md, the gaps the seed leaves docs/spec-notes.md
// ("station", S1...).
//
// Floors joined by stairs, escalators, fare gates and elevators (issue 19:
// stairs.cpp, lifts.cpp). Not yet here (later parts of issue 7): trains,
// crossings, vehicles, attractors, visitors and groups. Paths come
// from the 0.7 m routing grid (core/station/grid.h) with the wall comfort cost
// and the crowd's soft cost (route.cpp, plan_path).
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lockstep/core/body_view.h"
#include "lockstep/core/drawing.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/phases.h"
#include "lockstep/core/reflect.h"
#include "lockstep/core/rng.h"
#include "lockstep/core/workers.h"
#include "station/geom.h"
#include "station/grid.h"
#include "station/walls.h"

namespace lockstep::station {

// ---------------------------------------------------------------- constants

/// The model's tick: 20 Hz. A scenario's dt must be 0.05 s (spec note S1).
inline constexpr uint32_t kTickRateHz = 20;
inline constexpr float kDt = 0.05f;

// seed 002, Population.
inline constexpr float kMinSpeed = 0.2f;          ///< m/s floor of a sampled desired speed
inline constexpr float kMaxJitter = 0.9f;         ///< speed_jitter clamped to 0..0.9
inline constexpr float kRatioLo = 0.8f, kRatioHi = 1.2f;  ///< sampled/mean speed ratio clamp
inline constexpr float kMinRadius = 0.12f;        ///< m
// seed 002, Spawn and arrival.
inline constexpr int kSpawnTries = 48;
// seed 002, Route.
inline constexpr float kPassedWaypoint = 1.5f;    ///< m: a passed waypoint within this counts as reached
inline constexpr float kTouchWaypoint = 0.5f;     ///< m: S7, a waypoint this close is reached even if not passed
inline constexpr float kLegRecheckS = 0.5f;       ///< s between re-checks of the current leg
inline constexpr float kWallComfort = 0.35f;      ///< m comfort gap from walls
inline constexpr float kNavCell = 0.7f;           ///< m, the routing grid's cell
inline constexpr float kMaxSlack = NavGrid::kMaxSlack_m;  ///< m, lane slack cap per side
inline constexpr float kDefaultStairFactor = 0.5f;  ///< S30: a stair's speed_factor when the zone gives none
inline constexpr float kMinStairFactor = 0.1f;      ///< S30: speed_factor limits
inline constexpr float kMaxStairFactor = 1.5f;
inline constexpr float kMaxSpeedFactor = 1.3f;      ///< |v| <= 1.3 v0 (HM 1995's v_max; docs/station-forces.md)
inline constexpr int kSubSteps = 4;                 ///< dt / 4 = 12.5 ms per sub-step (stability, S16)
/// S31: the centre this near the landing line, plus the farthest it moves in
/// a tick, has stepped past it. The integrator keeps a centre 2 cm off the
/// line on the floor being left; with a tick's move more it never gets there,
/// so a walker is handed over at full speed, never stopped by the line.
inline constexpr float kLandingReach = 0.03f;
inline constexpr float kFirstLeg = 1.8f;            ///< seed 002: the first leg off a flight, m
inline constexpr float kFirstLegNearWall = 1.1f;    ///< ... "1.1 m if a wall is closer"
inline constexpr float kStairUpEffortS = 6.0f;      ///< seed 002: "6 s of extra effort going up"
inline constexpr float kStairDownEffortS = 2.0f;    ///< "or 2 s going down"
inline constexpr float kTreadGap = 0.2f;            ///< S35: m more a walker keeps free before the one ahead on a flight
inline constexpr float kApronDepth = 4.0f;          ///< seed 002: mouth aprons fade "to normal 4 m out"
inline constexpr float kApronSide = 1.0f;           ///< "across the mouth width plus 1 m each side"
inline constexpr float kApronAcross = 4.0f;         ///< "Crossing the front of the mouth costs up to 5 times its length (4 extra)"
inline constexpr float kApronAlongShare = 0.15f;    ///< "along the mouth's axis costs only 15 % of that"
inline constexpr float kApronIgnoreStair = 2.0f;    ///< "Someone heading for that mouth ignores its apron: ... 2 m of a stair mouth"
inline constexpr float kApronIgnoreBelt = 10.0f;    ///< "... within 10 m of a gate or escalator they will board"
inline constexpr float kBandStairWidth = 2.0f;      ///< seed 002: lane bands "On a stair at least 2 m wide that is not single file"
inline constexpr float kBandWallOff = 0.4f;         ///< "out to 0.4 m off the side wall"
inline constexpr float kBandCountReach = 6.0f;      ///< "those within 6 m of a mouth who have picked this stair"
inline constexpr float kBandShareMin = 0.3f;        ///< "between 30 % and 70 %"
inline constexpr float kSightHeight = 3.0f;         ///< seed 002: "Anyone within 3 m of that height sees them"
inline constexpr float kPushHeight = 0.6f;          ///< "push on each other across the mouth when their heights are within 0.6 m"
inline constexpr uint64_t kReweighTicks = 20;        ///< seed 002: "They re-weigh about once a second" (20 ticks at 20 Hz)
inline constexpr float kSwitchSavingS = 3.0f;       ///< seed 002: "switch only for a saving of at least 3 s"
inline constexpr float kFinalChoiceM = 2.0f;        ///< seed 002: "Within 2 m of the held mouth the choice is final"
// seed 002, Escalator and Queues: the belt (spec notes S39-S42).
inline constexpr float kDefaultBeltSpeed = 0.5f;    ///< S39: m/s when the zone gives none (crowd.md's 0.5 m/s escalator)
inline constexpr float kMinBeltSpeed = 0.1f;        ///< S39: belt_speed limits
inline constexpr float kMaxBeltSpeed = 1.0f;
inline constexpr float kBoardReach = 0.3f;          ///< seed 002: "boards within 0.3 m of the entry edge"
inline constexpr float kBeltDraw = 0.9f;            ///< "draws them sideways onto the centreline at 0.9 m/s"
inline constexpr float kEscalatorSpacing = 0.6f;    ///< seed 002, Queues: "0.6 m at an escalator" (S40: the belt's one body spacing too)
inline constexpr float kGateSpacing = 0.75f;        ///< "0.75 m at a gate"
inline constexpr float kBusyStand = 0.55f;          ///< gates: "If their gate is busy they slow to a stand 0.55 m short of the mouth" (S45)
inline constexpr float kGateReach = 12.0f;          ///< "Within 12 m of the mouths a walker weighs each gate that serves the crossing"
inline constexpr float kGatePerPerson = 1.5f;       ///< "plus 1.5 m for every person already bound for it and closer to the mouth, or riding it"
inline constexpr float kGateSwitchM = 1.6f;         ///< "switch only when another gate is at least 1.6 m cheaper"
inline constexpr float kGateOffset = 0.3f;          ///< S46: "a small per-walker offset", m at most
// seed 002, Queues (S47, S48).
inline constexpr float kStripMin = 0.45f;           ///< "the strip around the axis (half the zone width, at least 0.45 m, plus 0.15 m)"
inline constexpr float kStripPlus = 0.15f;
inline constexpr float kLineGap = 1.3f;             ///< "each is within 1.3 m of the one in front"
inline constexpr float kLineHead = 1.4f;            ///< "the first is within 1.4 m of the mouth"
inline constexpr float kLineHeadKept = 3.0f;        ///< "For someone already in the line that first gap may be up to 3 m"
inline constexpr float kMergeAhead = 1.4f;          ///< "heads for a point on the axis 1.4 m ahead of them"
inline constexpr float kQueueShuffle = 0.14f;       ///< "Stopped bodies are capped near 0.14 m/s" (m/s)
inline constexpr float kPullFullOffset = 0.6f;      ///< "up to 0.9 m/s² at 0.6 m offset": the full pull from this offset
inline constexpr float kSpotReached = 0.05f;        ///< S48: m of room along the axis below which a member stands at its spot
inline constexpr float kOnAxis = 0.02f;             ///< S48: m off the axis that counts as on it
inline constexpr float kQueueBandMinM = 1.8f;       ///< seed 002, Route: "A formed line behind a gate or escalator mouth (1.8 m or longer)"
inline constexpr float kQueueBandHalf = 0.6f;       ///< "marks a band 0.6 m either side of it"
inline constexpr float kQueueBandExtra = 6.0f;      ///< "Walking through that band costs 7 times its length": 6 extra per metre
inline constexpr float kLineSideM = 2.5f;           ///< Queues: "or more than 2.5 m out to the side, walks to the back of the line first"
inline constexpr float kBackMovedM = 1.5f;          ///< "if the back has moved more than 1.5 m from where it was going, the path is rebuilt"
inline constexpr std::size_t kHeadingWaypoints = 4; ///< "A walker counts as heading for a mouth when it is among their next four waypoints"
inline constexpr float kMaxStopDelayS = 60.0f;      ///< S49: a zone's stop_delay_s at most
inline constexpr float kStepOffPast = 0.05f;        ///< S41: "just past the end edge": the centre this far past it
inline constexpr float kMouthLineReach = 10.0f;     ///< seed 002, Queues: "Anyone else within 10 m behind the mouth" (S42)
inline constexpr float kWaitPerPersonS = 1.3f;      ///< seed 002: "at 1.3 s each per one-file lane"
inline constexpr float kStairLaneWidth = 0.7f;      ///< "a stair is one lane per 0.7 m of width"
inline constexpr float kSameWalkS = 2.0f;           ///< S43: walks "about the same" within this, the escalator preferred
// seed 002, Elevator (spec notes S50-S55).
inline constexpr float kDefaultHoldS = 3.0f;        ///< S50: s the car stands after the last boarder (a door dwell)
inline constexpr float kDefaultLiftDelayS = 5.0f;   ///< S50: s per storey of a ride
inline constexpr float kRiderArea = 0.25f;          ///< S50: m² of car per rider when the zone gives no capacity
inline constexpr float kMaxHoldS = 60.0f;           ///< hold_s, delay_s at most
inline constexpr float kMaxLiftDelayS = 120.0f;
inline constexpr uint32_t kMaxCapacity = 100;
inline constexpr uint32_t kHoldCapTimes = 3;      ///< "someone still walking up holds it, but never past 3 x hold_s"
inline constexpr float kDefaultTeleportLockS = 0.75f;  ///< seed 002: "teleport_lock_s (default 0.75 s)"
inline constexpr float kMaxTeleportLockS = 10.0f;
inline constexpr float kLiftWaitBack = 1.4f;        ///< "stand about 1.4 m back from the door (or the landing)"
inline constexpr float kLiftWaitSide = 1.0f;        ///< S52: m beside the door the waiters' first row reaches
inline constexpr float kLiftSpotSpacing = 0.75f;    ///< S52: m between waiters' spots (the gate spacing: standing bodies clear of each other's push)
inline constexpr float kLiftWaitReach = 3.0f;       ///< S52: m from the door (landing) within which one is waiting there
inline constexpr float kLiftWalkUp = 10.0f;         ///< S52: m within which one bound for it is "walking up"
inline constexpr float kRowPitch = 0.55f;           ///< "as many abreast as the doorway fits (0.55 m each, at most 3)"
inline constexpr uint32_t kMaxRow = 3;
inline constexpr uint32_t kRowWaitTicks = 40;      ///< "each row once the one before has walked clear (or after 2 s)"
inline constexpr float kRowClear = 0.9f;            ///< S53: m in front of the door a row must have walked past
inline constexpr float kLaneCloseM = 6.0f;        ///< m: a leg into the goal closes the shift over its last 6 m
// seed 002, Recovery.
inline constexpr float kDefaultUnstickS = 3.0f;
inline constexpr float kIgnoreObstacleS = 1.6f;
inline constexpr float kProgressStep = 0.3f;      ///< m: S9, progress is getting this much closer
inline constexpr uint32_t kGrain = 64;           ///< walkers per range of a step's parallel parts (workers.h; any value gives the same bits)
/// Fewer walkers than this step on the calling thread alone: waking the pool for a few hundred
/// walkers costs more than it saves (the demo station, 300 walkers: 1.06 s on one thread, 1.68 s on
/// two). Any value gives the same bits.
inline constexpr std::size_t kParallelWalkers = 2000;
inline constexpr uint32_t kCellGrain = 4096;     ///< routing cells per range of the crowd field's parallel parts (the same)
inline constexpr float kTimeGap = 0.42f;          ///< s: headway speed = (gap - g0) / T (docs/station-forces.md, "Headway"; 0.35 s before model version 17, 0.36 s before 18, 0.40 s before 19)
inline constexpr float kHeadwayAcross = 0.7f;     ///< the headway's corridor: a walker limits my speed within this share of our two half-widths across my heading (S61)
inline constexpr float kStandGap = 0.2f;          ///< m: g0, the standing gap kept to the one ahead, fading as the walker nears its desired speed and beside a wall (S61)
inline constexpr float kHeadwayCap = 3.0f;        ///< m: the headway looked for (nobody nearer: 3 m)
inline constexpr float kOncomingRange = 20.0f;     ///< m ahead a walker looks for someone coming the other way (S25)
inline constexpr float kOncomingHalf = 3.0f;       ///< m to either side of its line
inline constexpr float kOncomingPassReach = 8.0f;  ///< m past the one overtaken an oncoming walker closes the passing line (S25)
// S29: in a passage with someone coming, the seed's stair lane band (docs/station-forces.md, "The keep-side band").
inline constexpr float kBandReach = 4.0f;          ///< m looked across to each side: a passage has walls on both sides within it
inline constexpr float kBandPastDivide = 0.2f;     ///< m: the band starts this far past the divide on the walker's side
inline constexpr float kBandAhead = 1.0f;          ///< m along the leg to the point aimed at
inline constexpr float kBandMaxOffset = 1.0f;      ///< m: its sideways offset at most (a turn of at most 45 degrees)
inline constexpr float kBandStraightCos = 0.70710678f;  ///< a corner turning less than 45 degrees does not close the band (S29)
inline constexpr float kSway = 0.2f;              ///< a body's half-width r (1 - kSway min(1, speed / desired speed)): the generalised centrifugal-force model's 0.25 m at rest, 0.20 m at its desired speed (S59)
inline constexpr float kTurnNear = 0.3f;          ///< m: within r + this of a wall across its heading a moving body is turned in full, kDepth r across (S60)
inline constexpr float kTurnFar = 0.7f;           ///< m: from r + this on it is not turned; linear between (S60)
inline constexpr float kTurnAhead = 0.4f;         ///< m: the turn also reads the room at the point this far ahead along the heading, so a body turns as it steps into a narrow opening (S62)
inline constexpr float kTurnSpeed = 0.25f;        ///< the turn grows with the speed up to this fraction of the desired speed: a body at rest stands square (S60)
inline constexpr float kSlideGap = 0.1f;          ///< m: a wall this near along my direction turns it along the wall (docs/station-forces.md)
inline constexpr float kHeldFraction = 0.5f;      ///< S20: held by the one ahead below this share of v0 ...
inline constexpr float kHeldStuckRate = 0.25f;    ///< ... the stuck timer then runs at a quarter of the rate
// seed 002, Crowds: the Fruin walkway LOS B/C boundary.
inline constexpr float kFruinBCDensity = 0.35f;   ///< ped/m^2
// seed 002, Route, Crowds (docs/station.md, "Crowd costs"; spec notes C1...).
inline constexpr float kCrowdWeight = 2.5f;       ///< extra cost per metre per ped/m^2 of felt excess
inline constexpr float kCrowdMaxExcess = 2.0f;    ///< ped/m^2: the excess counted at most
inline constexpr float kSameWayShare = 0.25f;     ///< people walking the same way count a quarter
inline constexpr float kCrowdWindowS = 3.0f;      ///< C1: "the last few seconds", an exponential window
inline constexpr float kStandingSpeed = 0.2f;     ///< m/s: C2, slower is standing
inline constexpr int32_t kCrowdBox = 1;           ///< C3: felt density over the 3 x 3 cells round a cell
inline constexpr float kCrowdCheckS = 2.0f;       ///< s between crowd checks
inline constexpr float kCrowdCheckM = 15.0f;      ///< m of path ahead checked
inline constexpr float kCrowdGrowthM = 1.5f;      ///< m equivalent of growth that rebuilds the path
inline constexpr float kCrowdHorizonM = 20.0f;    ///< C6: the crowd counts within this (square) of the walker
inline constexpr float kGoalFreeM = 2.0f;         ///< C5: the free radius round the walker's goal portal

// Limits (docs/station.md, "Limits"; spec note S23): what a scenario, an input
// and a restored state may hold, so that every sum and every conversion to an
// integer stays in range for any finite value.
inline constexpr float kMaxCoord = 10000.0f;       ///< m: every coordinate within +-10 km (float spacing <= 1 mm)
inline constexpr float kMaxImpulse = 50.0f;        ///< m/s per component: an impulse, a placed walker's velocity
inline constexpr float kMaxDesiredSpeed = 10.0f;   ///< m/s: the fastest desired speed (placed or sampled)
inline constexpr float kMaxRadius = NavGrid::kMaxRadius_m;  ///< m: the largest body (placed or sampled)
inline constexpr float kMaxWeight = 1e6f;          ///< a target's weight (their sum stays finite)
inline constexpr uint64_t kMaxTicks = 0xFFFFFFFFu; ///< a run's length: done_tick is a u32
inline constexpr uint64_t kMaxWalkers = 2'000'000; ///< placed plus every portal's count
inline constexpr float kStateMargin = 1.0f;        ///< m: a restored position may lie this far outside its floor's box

/// A float in its shortest round-trip decimal form (for error messages).
inline std::string num_text(float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// ---------------------------------------------------------------- scenario

/// A wall segment: [x0, y0, x1, y1].
struct WallSpec {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x0"}, s.x0);
    v(FieldInfo{"y0"}, s.y0);
    v(FieldInfo{"x1"}, s.x1);
    v(FieldInfo{"y1"}, s.y1);
  }
};

/// One floor: walkable outlines (their union is the floor), solids cut out of
/// it, and extra wall segments. Polygons are lists of [x, y] corners.
struct FloorSpec {
  std::string id;
  float z = 0;                           ///< m, the floor's height (drawing; a flight's tread height runs between its floors', seed 002 "drawn height")
  std::vector<Polygon> walkable;         ///< outlines, union
  std::vector<Polygon> obstacles;        ///< columns, furniture: solid
  std::vector<Polygon> holes;            ///< floor openings: solid
  std::vector<Polygon> voids;            ///< shafts, atria: solid, never ignored by recovery
  std::vector<WallSpec> walls;           ///< extra wall segments
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"id"}, s.id);
    v(FieldInfo{"z"}, s.z);
    v(FieldInfo{"walkable"}, s.walkable);
    v(FieldInfo{"obstacles"}, s.obstacles);
    v(FieldInfo{"holes"}, s.holes);
    v(FieldInfo{"voids"}, s.voids);
    v(FieldInfo{"walls"}, s.walls);
  }
};

struct TargetSpec {
  std::string portal;
  float weight = 1;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"portal"}, s.portal);
    v(FieldInfo{"weight"}, s.weight);
  }
};

struct PortalSpec {
  std::string id;               ///< "street_..." ids are street portals (seed 002, Population)
  std::string floor;            ///< floor id; empty = the first floor
  Polygon polygon;
  std::string mode = "both";    ///< spawn | despawn | both
  uint32_t count = 0;           ///< walkers to emit (a finite budget)
  float rate_per_min = 0;       ///< 0: as fast as clear spots allow
  float start_s = 0;            ///< the first spawn's time
  std::vector<TargetSpec> targets;  ///< weighted exits drawn at spawn
  std::string target;           ///< a named exit (used when targets is empty)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"id"}, s.id);
    v(FieldInfo{"floor"}, s.floor);
    v(FieldInfo{"polygon"}, s.polygon);
    v(FieldInfo{"mode"}, s.mode);
    v(FieldInfo{"count"}, s.count);
    v(FieldInfo{"rate_per_min"}, s.rate_per_min);
    v(FieldInfo{"start_s"}, s.start_s);
    v(FieldInfo{"targets"}, s.targets);
    v(FieldInfo{"target"}, s.target);
  }
};

/// seed 002, Population: the sampling parameters of spawned walkers.
struct PopulationSpec {
  float desired_speed = 1.34f;  ///< m/s mean (Weidmann's v0; crowd.md)
  float speed_jitter = 0.2f;    ///< fraction of the mean, clamped to 0..0.9 (S2)
  float radius = 0.25f;         ///< m base radius (S3)
  float p_impaired = 0;
  float p_disable = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"desired_speed"}, s.desired_speed);
    v(FieldInfo{"speed_jitter"}, s.speed_jitter);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"p_impaired"}, s.p_impaired);
    v(FieldInfo{"p_disable"}, s.p_disable);
  }
};

/// A walker placed by the scenario (lane share 0, seed 002 Route).
struct WalkerSpec {
  V2 position;
  V2 velocity;
  std::string floor;                ///< empty = the first floor
  std::string destination;          ///< portal id (must accept arrivals)
  std::string trip;                 ///< "board" | "alight"; empty: alight for a street_ destination, else board
  float desired_speed = 0;          ///< m/s; 0 = the population's mean
  float radius = 0;                 ///< m; 0 = the population's base radius
  std::vector<V2> waypoints;        ///< corners to pass before the destination (the grid plans each leg)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"position"}, s.position);
    v(FieldInfo{"velocity"}, s.velocity);
    v(FieldInfo{"floor"}, s.floor);
    v(FieldInfo{"destination"}, s.destination);
    v(FieldInfo{"trip"}, s.trip);
    v(FieldInfo{"desired_speed"}, s.desired_speed);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"waypoints"}, s.waypoints);
  }
};

/// A measurement area (density, Fruin level of service).
struct AreaSpec {
  std::string id;
  std::string floor;
  Polygon polygon;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"id"}, s.id);
    v(FieldInfo{"floor"}, s.floor);
    v(FieldInfo{"polygon"}, s.polygon);
  }
};

/// seed 002, "A different floor inserts a connector": a zone, of kind "stair",
/// "escalator", "gate" or "elevator". A flight or a belt is a rectangle: its
/// edge 0 (corners 0 -> 1) is the mouth on `floor`, edge 2 (corners 2 -> 3)
/// the mouth on `to_floor` (a gate: both on `floor`), edges 1 and 3 its side
/// walls (docs/station-connectors.md). An elevator landing is a rectangle on
/// `floor` whose edge 0 is its door (S51); the landings sharing a pair_id are
/// one car's.
struct ZoneSpec {
  std::string id;
  std::string kind = "stair";
  std::string pair_id;          ///< names the pair (seed: "a zone with a pair_id that is not an escalator")
  std::string floor;            ///< the floor of mouth 0; empty = the first floor
  std::string to_floor;         ///< the floor of mouth 2
  Polygon polygon;              ///< four corners, right angles
  std::string dir;              ///< both | along (floor -> to_floor; a gate: mouth 0 -> 2) | against; empty: a stair both, a belt along
  float speed_factor = kDefaultStairFactor;  ///< speed on the flight = desired_speed x this (stairs)
  bool single_file = false;
  float belt_speed = kDefaultBeltSpeed;      ///< m/s the belt carries its riders (escalators; S39)
  float stop_delay_s = 0;                    ///< s a walker is held the first time it enters (seed 002, Queues; S49)
  bool door = true;                          ///< an elevator landing: its edge 0 (corners 0 -> 1) is a door (S51)
  float hold_s = kDefaultHoldS;              ///< an elevator: s the car stands after the last boarder (S50)
  float delay_s = kDefaultLiftDelayS;        ///< an elevator: s per storey of a ride
  uint32_t capacity = 0;                     ///< an elevator: riders at most; 0: the landing's area at 0.25 m² each (S50)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"id"}, s.id);
    v(FieldInfo{"kind"}, s.kind);
    v(FieldInfo{"pair_id"}, s.pair_id);
    v(FieldInfo{"floor"}, s.floor);
    v(FieldInfo{"to_floor"}, s.to_floor);
    v(FieldInfo{"polygon"}, s.polygon);
    v(FieldInfo{"dir"}, s.dir);
    v(FieldInfo{"speed_factor"}, s.speed_factor);
    v(FieldInfo{"single_file"}, s.single_file);
    v(FieldInfo{"belt_speed"}, s.belt_speed);
    v(FieldInfo{"stop_delay_s"}, s.stop_delay_s);
    v(FieldInfo{"door"}, s.door);
    v(FieldInfo{"hold_s"}, s.hold_s);
    v(FieldInfo{"delay_s"}, s.delay_s);
    v(FieldInfo{"capacity"}, s.capacity);
  }
};

struct ScriptEvent {
  uint64_t tick = 0;
  uint32_t walker = 0;
  std::string kind = "impulse";  ///< impulse (velocity += value) | remove
  V2 value;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"walker"}, s.walker);
    v(FieldInfo{"kind"}, s.kind);
    v(FieldInfo{"value"}, s.value);
  }
};

struct Scenario {
  std::string model = "station";
  std::string name;
  std::string description;
  uint64_t seed = 1;
  uint64_t ticks = 1200;         ///< the default run length
  float dt = kDt;                ///< s; only 0.05 (S1)
  std::string keep = "right";    ///< sight yaw convention: "right" or "left"
  float unstick_s = kDefaultUnstickS;
  std::string route = "stair";   ///< seed 002: "A scenario-wide elevator route" ("elevator") forces the lift for everyone
  float teleport_lock_s = kDefaultTeleportLockS;  ///< s after stepping out of a car before one may board again
  PopulationSpec population;
  std::vector<FloorSpec> floors;
  std::vector<PortalSpec> portals;
  std::vector<WalkerSpec> walkers;
  std::vector<AreaSpec> areas;
  std::vector<ZoneSpec> zones;
  std::vector<ScriptEvent> script;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"model"}, s.model);
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"description"}, s.description);
    v(FieldInfo{"seed"}, s.seed);
    v(FieldInfo{"ticks"}, s.ticks);
    v(FieldInfo{"dt"}, s.dt);
    v(FieldInfo{"keep"}, s.keep);
    v(FieldInfo{"unstick_s"}, s.unstick_s);
    v(FieldInfo{"route"}, s.route);
    v(FieldInfo{"teleport_lock_s"}, s.teleport_lock_s);
    v(FieldInfo{"population"}, s.population);
    v(FieldInfo{"floors"}, s.floors);
    v(FieldInfo{"portals"}, s.portals);
    v(FieldInfo{"walkers"}, s.walkers);
    v(FieldInfo{"areas"}, s.areas);
    v(FieldInfo{"zones"}, s.zones);
    v(FieldInfo{"script"}, s.script);
  }
};

// ---------------------------------------------------------------- state

enum class Trip : uint8_t { Board = 0, Alight = 1 };
/// Riding: inside an elevator's car, out of the crowd (seed 002: "stands still inside the car").
enum class Phase : uint8_t { Walking = 0, Done = 1, Removed = 2, Riding = 3 };
enum class PortalMode : uint8_t { Spawn = 0, Despawn = 1, Both = 2 };

/// One walker. Laid out with no padding (4-byte fields, then bytes), so a
/// frame of walkers hashes as one block. Done and removed walkers keep their
/// slot (seed 002, States).
struct Walker {
  V2 pos;                    ///< m
  V2 vel;                    ///< m/s
  V2 dir;                    ///< unit desired direction this tick (after sight yaw)
  V2 drive;                  ///< m: the point driven toward this tick (lane shift included)
  float desired_speed = 0;   ///< m/s, sampled once at spawn
  float radius = 0;          ///< m
  float lane_share = 0;      ///< -1 (right) .. 1 (left)
  float slack_left = 0;      ///< m, this leg's lane slack on the left
  float slack_right = 0;     ///< m, on the right
  float sight_yaw = 0;       ///< rad, counter-clockwise, this tick's sidestep/follow yaw
  float headway = kHeadwayCap;  ///< m: body gap to the nearest walker ahead going my way (capped, docs/station-forces.md)
  float progress_ref = 0;    ///< m: distance to the drive point at the last progress
  float stuck_s = 0;         ///< s without progress
  float recheck_s = 0;       ///< s until the current leg is re-checked
  float ignore_s = 0;        ///< s left of the recovery's muted obstacle
  float crowd_check_s = 0;   ///< s until the next 2 s crowd check
  float crowd_ref = 0;       ///< m equivalent: the crowd cost of the next 15 m at the last check (or rebuild)
  float hold_s = 0;          ///< s left of a zone's stop_delay_s (S49): on a belt it is not carried, on a stair it stands
  V2 step_off;               ///< m: where the first leg off a flight ends (seed 002: 1.8 m straight out), while off_flight >= 0
  int32_t ignore_blocker = -1;  ///< floor-local blocker index whose soft wall force is muted, -1 none
  uint32_t floor = 0;
  int32_t origin = -1;       ///< spawn portal, -1 placed by the scenario
  uint32_t destination = 0;  ///< portal index
  uint32_t done_tick = 0;    ///< the tick it became Done or Removed
  uint32_t unsticks = 0;     ///< recoveries so far
  int32_t flight = -1;       ///< the stair (zone index) whose flight the walker is on, -1 none
  int32_t via = -1;          ///< the stair or escalator this floor's route leads through to another floor, -1 none
  int32_t gate = -1;         ///< the fare gate the route leads through first (on this floor), -1 none
  int32_t off_flight = -1;   ///< the stair just stepped off while its first leg (to step_off) is ahead, -1 none
  int32_t sense = 0;         ///< on a belt (flight): the way it rides, +1 mouth 0 -> 2, -1 the reverse; 0 off a belt
  int32_t line = -1;         ///< its place in the line at the belt it heads for (0 the head), -1 not in a line (S47)
  int32_t lift = -1;         ///< the elevator (car index) it heads for on this floor, or rides; -1 none (S54)
  uint32_t lock_ticks = 0;   ///< ticks left of teleport_lock_s after stepping out of a car
  Trip trip = Trip::Board;
  Phase phase = Phase::Walking;
  bool prefers_lift_impaired = false;  ///< seed 002: p_impaired roll
  bool prefers_lift_disable = false;   ///< seed 002: p_disable roll

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"pos"}, s.pos);
    v(FieldInfo{"vel"}, s.vel);
    v(FieldInfo{"dir"}, s.dir);
    v(FieldInfo{"drive"}, s.drive);
    v(FieldInfo{"desired_speed"}, s.desired_speed);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"lane_share"}, s.lane_share);
    v(FieldInfo{"slack_left"}, s.slack_left);
    v(FieldInfo{"slack_right"}, s.slack_right);
    v(FieldInfo{"sight_yaw"}, s.sight_yaw);
    v(FieldInfo{"headway"}, s.headway);
    v(FieldInfo{"progress_ref"}, s.progress_ref);
    v(FieldInfo{"stuck_s"}, s.stuck_s);
    v(FieldInfo{"recheck_s"}, s.recheck_s);
    v(FieldInfo{"ignore_s"}, s.ignore_s);
    v(FieldInfo{"crowd_check_s"}, s.crowd_check_s);
    v(FieldInfo{"crowd_ref"}, s.crowd_ref);
    v(FieldInfo{"hold_s"}, s.hold_s);
    v(FieldInfo{"step_off"}, s.step_off);
    v(FieldInfo{"ignore_blocker"}, s.ignore_blocker);
    v(FieldInfo{"floor"}, s.floor);
    v(FieldInfo{"origin"}, s.origin);
    v(FieldInfo{"destination"}, s.destination);
    v(FieldInfo{"done_tick"}, s.done_tick);
    v(FieldInfo{"unsticks"}, s.unsticks);
    v(FieldInfo{"flight"}, s.flight);
    v(FieldInfo{"via"}, s.via);
    v(FieldInfo{"gate"}, s.gate);
    v(FieldInfo{"off_flight"}, s.off_flight);
    v(FieldInfo{"sense"}, s.sense);
    v(FieldInfo{"line"}, s.line);
    v(FieldInfo{"lift"}, s.lift);
    v(FieldInfo{"lock_ticks"}, s.lock_ticks);
    v(FieldInfo{"trip"}, s.trip);
    v(FieldInfo{"phase"}, s.phase);
    v(FieldInfo{"prefers_lift_impaired"}, s.prefers_lift_impaired);
    v(FieldInfo{"prefers_lift_disable"}, s.prefers_lift_disable);
  }
};

/// A walker's route: the planned leg toward the next anchor (a scenario
/// waypoint or, last, the destination), and the anchors still ahead.
struct Route {
  uint32_t next = 0;            ///< index into waypoints of the current corner
  uint32_t next_anchor = 0;     ///< index into anchors of the anchor being planned to
  V2 leg_start;                 ///< m: where the current leg began (lane slack is measured from it)
  std::vector<V2> waypoints;    ///< planned corners; the last is the anchor (or the goal point)
  std::vector<V2> anchors;      ///< scenario waypoints (placed walkers)
  std::vector<uint32_t> stopped;  ///< the zones whose stop_delay_s has held the walker, in the order they did (S49)
  V2 back;                      ///< the back of the escalator's line it walks round to (S56), while back_k >= 0
  int32_t back_k = -1;          ///< the index in waypoints of that corner; -1: not walking round a line
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"next"}, s.next);
    v(FieldInfo{"next_anchor"}, s.next_anchor);
    v(FieldInfo{"leg_start"}, s.leg_start);
    v(FieldInfo{"waypoints"}, s.waypoints);
    v(FieldInfo{"anchors"}, s.anchors);
    v(FieldInfo{"stopped"}, s.stopped);
    v(FieldInfo{"back"}, s.back);
    v(FieldInfo{"back_k"}, s.back_k);
  }
};

struct PortalState {
  uint32_t emitted = 0;    ///< walkers spawned so far (of count)
  uint32_t rotation = 0;   ///< next destination in the trip-side rotation
  uint32_t failed = 0;     ///< spawns that found no clear spot in 48 tries (retried next tick)
  uint32_t arrived = 0;    ///< walkers that became Done here
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"emitted"}, s.emitted);
    v(FieldInfo{"rotation"}, s.rotation);
    v(FieldInfo{"failed"}, s.failed);
    v(FieldInfo{"arrived"}, s.arrived);
  }
};

/// Fruin walkway level of service, A (free) .. F (jammed).
enum class Los : uint8_t { A = 0, B = 1, C = 2, D = 3, E = 4, F = 5 };

/// One measurement area's figures this tick (measurements, not feedback).
struct AreaState {
  uint32_t count = 0;          ///< walking walkers inside
  float density = 0;           ///< ped/m^2
  float mean_speed = 0;        ///< m/s of those inside
  float flow_per_min = 0;      ///< specific flow density x mean speed x 60, ped/(m min)
  uint32_t ticks_above_bc = 0; ///< ticks with density above 0.35 ped/m^2 (seed 002, Crowds)
  Los los = Los::A;            ///< Fruin walkway LOS from flow_per_min (crowd.md)
  Los los_peak = Los::A;       ///< worst so far
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"count"}, s.count);
    v(FieldInfo{"density"}, s.density);
    v(FieldInfo{"mean_speed"}, s.mean_speed);
    v(FieldInfo{"flow_per_min"}, s.flow_per_min);
    v(FieldInfo{"ticks_above_bc"}, s.ticks_above_bc);
    v(FieldInfo{"los"}, s.los);
    v(FieldInfo{"los_peak"}, s.los_peak);
  }
};

struct Stats {
  uint32_t spawned = 0;
  uint32_t done = 0;
  uint32_t removed = 0;
  uint32_t unsticks = 0;
  uint32_t refused_moves = 0;   ///< integrator steps refused by a solid (then slid)
  uint32_t rebuilt_paths = 0;
  uint32_t crowd_rebuilds = 0;  ///< of rebuilt_paths: by the 2 s crowd check
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"spawned"}, s.spawned);
    v(FieldInfo{"done"}, s.done);
    v(FieldInfo{"removed"}, s.removed);
    v(FieldInfo{"unsticks"}, s.unsticks);
    v(FieldInfo{"refused_moves"}, s.refused_moves);
    v(FieldInfo{"rebuilt_paths"}, s.rebuilt_paths);
    v(FieldInfo{"crowd_rebuilds"}, s.crowd_rebuilds);
  }
};

/// seed 002, Route, Crowds: the crowd on one floor over the last few seconds,
/// one value per cell of the floor's routing grid (row-major, NavGrid layout).
/// Each tick every value decays by 1 - dt/3 s and gains dt/3 s x this tick's
/// count (an exponential window of 3 s, C1): standing bodies, moving bodies,
/// and the sums of the moving bodies' unit velocities.
struct CrowdField {
  std::vector<float> standing, moving, vx, vy;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"standing"}, s.standing);
    v(FieldInfo{"moving"}, s.moving);
    v(FieldInfo{"vx"}, s.vx);
    v(FieldInfo{"vy"}, s.vy);
  }
};

/// One elevator's car (seed 002, Elevator). It stands at a landing (doors
/// open: riders for the floor step out, then walkers board) or runs to one.
struct CarState {
  uint32_t at = 0;          ///< the landing (index in the car's landings, lowest floor first) it stands at or runs to
  uint32_t run_ticks = 0;   ///< ticks left of the ride to `at`; 0: standing there
  uint32_t since_ticks = 0; ///< standing: ticks since it arrived, the last boarder, or the last rider stepped out
  uint32_t row_ticks = 0;   ///< standing: ticks since the last row stepped out (the next row's 2 s)
  uint32_t riders = 0;      ///< walkers inside
  int32_t going = 0;        ///< the way of its last ride: +1 up, -1 down, 0 none yet (S53)
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"at"}, s.at);
    v(FieldInfo{"run_ticks"}, s.run_ticks);
    v(FieldInfo{"since_ticks"}, s.since_ticks);
    v(FieldInfo{"row_ticks"}, s.row_ticks);
    v(FieldInfo{"riders"}, s.riders);
    v(FieldInfo{"going"}, s.going);
  }
};

/// The whole state. Subsystems (one hash each) are its top-level fields.
struct State {
  uint64_t tick = 0;
  RngStream rng;               ///< "station.spawn": every spawn draw (seed 002: the scenario's stream)
  uint32_t spawn_serial = 0;   ///< spawned walkers so far (lane shares count per portal: PortalState::emitted)
  std::vector<PortalState> portals;
  std::vector<Walker> walkers;
  std::vector<Route> routes;   ///< one per walker, same index
  std::vector<AreaState> areas;
  std::vector<CrowdField> crowd;  ///< one per floor
  std::vector<CarState> cars;     ///< one per elevator (pair_id), in the order of their first landing zone
  Stats stats;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"rng"}, s.rng);
    v(FieldInfo{"spawn_serial"}, s.spawn_serial);
    v(FieldInfo{"portals"}, s.portals);
    v(FieldInfo{"walkers"}, s.walkers);
    v(FieldInfo{"routes"}, s.routes);
    v(FieldInfo{"areas"}, s.areas);
    v(FieldInfo{"crowd"}, s.crowd);
    v(FieldInfo{"cars"}, s.cars);
    v(FieldInfo{"stats"}, s.stats);
  }
};

// ---------------------------------------------------------------- inputs

enum class EventKind : int32_t { Impulse = 0, Remove = 1 };

struct Event {
  uint32_t walker = 0;
  EventKind kind = EventKind::Impulse;
  V2 value;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"walker"}, s.walker);
    v(FieldInfo{"kind"}, s.kind);
    v(FieldInfo{"value"}, s.value);
  }
};

struct Input {
  std::vector<Event> events;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"events"}, s.events);
  }
};

// ---------------------------------------------------------------- compiled geometry (not state)

/// A uniform grid of cells holding indices (walls, walkers), rebuilt or built
/// in index order, so iteration is deterministic.
struct CellGrid {
  float x0 = 0, y0 = 0, cell = 2.0f;
  int32_t nx = 1, ny = 1;
  std::vector<uint32_t> start;  ///< nx*ny+1 offsets into items
  std::vector<uint32_t> items;
  // The column (row) of x (y), clipped to the grid. Clipped in float before
  // the conversion, so that any value (a far-away point, even a NaN) gives a
  // cell of the grid and never an out-of-range conversion; inside the grid
  // the result is the truncation it always was.
  int32_t cx(float x) const { return clip((x - x0) / cell, nx); }
  int32_t cy(float y) const { return clip((y - y0) / cell, ny); }
  static int32_t clip(float f, int32_t n) {
    if (!(f >= 0.0f)) return 0;  // below the grid, or NaN
    if (!(f < static_cast<float>(n))) return n - 1;
    const int32_t c = static_cast<int32_t>(f);
    return c >= n ? n - 1 : c;
  }
  /// An inclusive range of cells.
  struct Box {
    int32_t x0, x1, y0, y1;
  };
  /// The cells under the axis-aligned box [lx, hx] x [ly, hy], clipped to the grid.
  Box box(float lx, float ly, float hx, float hy) const { return {cx(lx), cx(hx), cy(ly), cy(hy)}; }
  /// Calls f(item) for every item listed in the box's cells, row by row,
  /// until f returns false; returns false then, else true.
  template <class F>
  bool each(const Box& b, F&& f) const {
    return each_at(b, [&](uint32_t, uint32_t item) { return f(item); });
  }
  /// The same, f(k, item) with k the item's place in `items` (for records kept alongside them).
  template <class F>
  bool each_at(const Box& b, F&& f) const {
    // A row's cells x0..x1 are neighbours in the row-major order, so their items are one run.
    if (b.x0 > b.x1) return true;
    for (int32_t y = b.y0; y <= b.y1; ++y) {
      const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(nx);
      const uint32_t end = start[row + static_cast<std::size_t>(b.x1) + 1];
      for (uint32_t k = start[row + static_cast<std::size_t>(b.x0)]; k < end; ++k)
        if (!f(k, items[k])) return false;
    }
    return true;
  }
};

/// What the scans over the walker grid test first, one record per grid item
/// in the grid's order (per-tick scratch): a cell's walkers lie side by side,
/// so a scan reads 16 bytes a candidate and touches the walker itself only
/// for those near enough (the same candidates in the same order: the same bits).
struct WalkerSpot {
  V2 pos;
  float radius = 0;
  uint32_t floor = 0;  ///< its floor, or kOnFlight: on a flight (meets() then asks by height)
  static constexpr uint32_t kOnFlight = 0xffffffffu;
};

struct FloorGeom {
  std::vector<Polygon> walkable;
  std::vector<Polygon> blockers;         ///< obstacles, holes, voids (in that order)
  std::vector<WallKind> blocker_kind;
  std::vector<Wall> walls;
  CellGrid wall_grid;                    ///< walls by 2 m cell (a wall is in every cell its box touches)
  float minx = 0, miny = 0, maxx = 0, maxy = 0;
};

/// A stair's flight on the floors it joins (docs/station-connectors.md).
/// Mouth 0 (corners 0 -> 1) opens on `from`, mouth 2 (corners 2 -> 3) on `to`.
struct FlightGeom {
  uint32_t from = 0, to = 0;   ///< floor indices
  V2 c[4];                     ///< the corners, as given
  V2 mid0, mid2;               ///< the mouths' middles
  V2 axis;                     ///< unit, mouth 0 -> mouth 2
  V2 across;                   ///< unit, corner 0 -> 1 (along mouth 0)
  float length = 0, width = 0; ///< m
  float z0 = 0, z2 = 0;        ///< the floors' heights at mouth 0 and mouth 2
  bool up_allowed = true;      ///< from -> to may be walked (dir both or along)
  bool down_allowed = true;    ///< to -> from (both or against)
  float factor = kDefaultStairFactor;
  bool belt = false;           ///< an escalator or a gate: riders are carried one file (seed 002, Escalator)
  bool gate = false;           ///< a fare gate: the belt on one floor (from == to), mouths 0 and 2 both on it
  float belt_speed = 0;        ///< m/s
  float spacing = 0;           ///< m: the belt's one body spacing (S40: 0.6 at an escalator, 0.75 at a gate)
  int32_t bank = -1;           ///< a gate's bank (gates side by side, S44), -1 for the other kinds
  /// An elevator landing (kind elevator): on floor `from` (== to), its car; its door is edge 0 (mid0,
  /// `across`, `width`), `axis` points into the car. Not a walked zone: every flight loop skips it.
  bool lift = false;
  bool door = false;
  int32_t car = -1;
  float bank_place = 0;        ///< a gate's place across its bank, -1 .. 1 from one end gate to the other (S46)
  /// A belt's ways: sense +1 runs mouth 0 -> mouth 2, -1 the reverse. An escalator runs its one way.
  int sense_of_escalator() const { return up_allowed ? 1 : -1; }
  bool runs(int sense) const { return sense > 0 ? up_allowed : down_allowed; }
  /// The floor a belt is boarded on, its travel (unit), its entry and exit mouths' middles, along `sense`.
  uint32_t entry_floor(int sense) const { return sense > 0 ? from : to; }
  V2 travel(int sense) const { return sense > 0 ? axis : axis * -1.0f; }
  V2 entry_mid(int sense) const { return sense > 0 ? mid0 : mid2; }
  V2 exit_mid(int sense) const { return sense > 0 ? mid2 : mid0; }
  /// How far p is past the entry line along the travel of `sense` (negative: before it).
  float travelled(V2 p, int sense) const { return sense > 0 ? along_of(p) : length - along_of(p); }
  /// Along the axis from mouth 0's line, and across from the flight's middle line.
  float along_of(V2 p) const { return dot(p - mid0, axis); }
  float across_of(V2 p) const { return dot(p - mid0, across); }
  bool contains(V2 p) const {
    const float a = along_of(p), s = across_of(p);
    return a >= 0.0f && a <= length && s >= -0.5f * width && s <= 0.5f * width;
  }
  /// An offset across the flight kept a body of `radius` and 0.1 m off its side walls (0 when none fits).
  float inside_offset(float s, float radius) const {
    const float room = 0.5f * width - radius - 0.1f;
    return room > 0.0f ? (s < -room ? -room : (s > room ? room : s)) : 0.0f;
  }
  /// The floor whose mouth is at the far end for a walker on `floor`.
  uint32_t other(uint32_t floor) const { return floor == from ? to : from; }
};

/// An elevator: its car's landings (zone indices, lowest floor first; seed 002, "one per floor the car stops on").
struct LiftGeom {
  std::vector<uint32_t> landings;
  uint32_t capacity = 1;
  uint32_t hold_ticks = 0, delay_ticks = 0;  ///< hold_s, delay_s per storey, in ticks
};

struct PortalGeom {
  uint32_t floor = 0;
  PortalMode mode = PortalMode::Both;
  bool street = false;
  float minx = 0, miny = 0, maxx = 0, maxy = 0;
  V2 centre;
  std::vector<uint32_t> target_portals;  ///< weighted draw candidates (accept arrivals, weight > 0)
  std::vector<float> target_weights;
  int32_t named_target = -1;
  bool accepts() const { return mode != PortalMode::Spawn; }
};

struct AreaGeom {
  uint32_t floor = 0;
  float area_m2 = 0;
};

// ---------------------------------------------------------------- the model

/// Population sampling (seed 002, Population), exposed for tests.
struct Sampled {
  float desired_speed = 0;
  float radius = 0;
};
/// desired × (1 + u × jitter), jitter clamped to 0..0.9, floor 0.2 m/s; radius
/// base × (0.9 + 0.1 × clamp(speed / desired, 0.8, 1.2)), at least 0.12 m.
Sampled sample_body(const PopulationSpec& pop, float u);
/// The lane share of the n-th spawned walker (n from 0): spread evenly over −1..1 (spec note S5).
float lane_share_of(uint32_t n);
/// Fruin walkway level of service of a specific flow in ped/(m min) (crowd.md thresholds).
Los fruin_los(float flow_per_min);
/// seed 002, Crowds: the extra cost per metre of a felt density (ped/m^2):
/// 2.5 x (felt - 0.35), at least 0, the excess capped at 2 (so at most 5).
float crowd_cost_per_metre(float felt_density);

class StationModel {
 public:
  using Scenario = station::Scenario;
  using Input = station::Input;
  using State = station::State;

  static constexpr std::string_view kName = "station";
  static constexpr uint32_t kVersion = 19;  // 3: walls steer, the wall gap, per-portal lane shares; 4: the swept headway, the wall range 0.06 m; 5: the body shape, T = 0.35 s; 6: the keep-side band in a passage (issue 14); 7: the goal's queue is free (C5); 8: one wall set for the forces and the route (S4, G7); 9: stairs (zones, the walker's flight, via, off_flight, step_off); 10: escalators (the belt), the wait in the stair choice; 11: fare gates (the walker's gate and sense); 12: lines at the belts' mouths (the walker's line); 13: a zone's stop_delay_s (the walker's hold_s, the route's stopped); 14: elevators (the cars, the walker's lift and lock_ticks, the riding phase); 15: the queue lines' soft cost, the walk round a line to its back (the route's back, back_k); 16: the body narrows as it walks (S59); 17: a moving body turns its shoulders beside a wall (S60), T = 0.36 s; 18: the standing gap, the headway's narrower corridor, T = 0.40 s (S61); 19: the turn reads the room ahead, T = 0.42 s (S62)
  static constexpr uint32_t kTickRateHz = station::kTickRateHz;
  /// The step's phases, in order (phases.h; `lockstep profile`; docs/station-step.md).
  static constexpr std::array<std::string_view, 9> kPhases{"inputs", "spawn",      "neighbours", "plan",   "forces",
                                                           "connectors", "arrival", "crowd",     "measure"};
  enum StepPhase : uint32_t { kInputs, kSpawn, kNeighbours, kPlan, kForces, kConnectors, kArrival, kCrowd, kMeasure };
  void set_phase_observer(PhaseObserver* o) { phases_.set(o); }
  /// Threads for the step (workers.h): sight, the wall gaps, the headways and the force law's
  /// sub-steps compute every walker from the same state on them (docs/station-step.md).
  void set_workers(Workers* w) { pool_ = w; }
  /// The model contract's entity count (model.h): the walkers walking now (as bodies() lists them).
  uint64_t entity_count() const {
    uint64_t n = 0;
    for (const auto& w : state_.walkers) n += w.phase == Phase::Walking ? 1 : 0;
    return n;
  }

  static Scenario load_scenario(const Json& j, const JsonReader& reader);
  explicit StationModel(Scenario scenario);

  void step(const Input& input);
  /// The model contract's input check (model.h): an unknown event kind, a walker the world does not have
  /// at this tick, an impulse beyond kMaxImpulse are refused by field ("events[2].value"). step() runs it too.
  void check_input(const Input& input) const;
  Input scripted_input() const;
  uint64_t tick() const { return state_.tick; }
  const State& state() const { return state_; }
  State& mutable_state() {
    crowd_fresh_.clear();  // the caller may change the crowd field
    return state_;
  }
  void set_state(const State& s);
  const Scenario& scenario() const { return scenario_; }
  const std::vector<FloorGeom>& floors() const { return floors_; }
  /// The half-width across its motion walker w had in the last step (S59, S60),
  /// or its radius before the first step. Not state: made from it each step.
  float half_width(uint32_t w) const { return w < half_w_.size() ? half_w_[w] : state_.walkers.at(w).radius; }
  /// The model contract's body view (body_view.h): each floor's outlines and
  /// solids as the scenario gives them; the walking bodies, by walker index,
  /// heading along their velocity (their direction when they stand).
  std::vector<lockstep::FloorView> floor_views() const;
  std::vector<lockstep::BodyView> bodies() const;
  /// The model contract's drawing (drawing.h): the floors, their solids and walls, the portals and
  /// measurement areas once; each tick the walking bodies coloured by their state (trip, stuck,
  /// recovering) and the path each still has to walk.
  lockstep::Drawing scene_drawing() const;
  lockstep::Drawing tick_drawing() const;

  /// Is a body of `radius` along a→b on `floor` clear of every wall (and not
  /// crossing one)? The routing grid's test (NavGrid::segment_clear): one
  /// wall set and one segment test for the route, the lanes and the overtake.
  bool segment_clear(uint32_t floor, V2 a, V2 b, float radius) const;
  /// Stairs (stairs.cpp): the speed a walker wants now (desired_speed, times
  /// its stair's speed_factor on a flight); the floors' stair graph; the
  /// stair a route leads through; the point driven at (a portal, or the
  /// landing line of the stair); the hand-over and the step off.
  float speed_goal(const Walker& w) const;
  /// seed 002, "Walkers see by drawn height": the height a walker is drawn at
  /// (its floor's z; on a flight, the tread's, along the flight between the
  /// two floors' z); and whether walker o is within `limit` of w's height
  /// where they can meet: on the same floor, or across a mouth through the
  /// flight one of them is on.
  float drawn_height(const Walker& w) const;
  bool meets(const Walker& w, const Walker& o, float limit) const {
    if (w.flight < 0 && o.flight < 0) return w.floor == o.floor;  // both on open floor (inline: every neighbour pair asks)
    return meets_by_height(w, o, limit);
  }
  /// meets(w, walkers[j]) from o's grid record: the walker is read only when one of them is on a flight.
  bool meets(const Walker& w, const WalkerSpot& o, uint32_t j, float limit) const {
    if (w.flight < 0 && o.floor != WalkerSpot::kOnFlight) return w.floor == o.floor;
    return meets_by_height(w, state_.walkers[j], limit);
  }
  bool meets_by_height(const Walker& w, const Walker& o, float limit) const;
  int32_t floor_hops(uint32_t from, uint32_t to) const;
  V2 goal_point(uint32_t w) const;
  /// The seam for the routing grid (route.cpp): corners from `from` to `to`, the last being `to`.
  /// `crowd`: the crowd field as the walker feels it (crowd_view), or nullptr.
  std::vector<V2> plan_path(uint32_t floor, V2 from, V2 to, float radius, const LinearField* crowd = nullptr,
                            const CheckedDirCosts* aprons = nullptr) const;
  /// The mouth aprons walker w's path pays on its floor (nullptr: none on it): every stair mouth's, but
  /// not the one of the stair it heads for once it is within 2 m of that mouth (seed 002, Route; S37).
  const CheckedDirCosts* apron_view(uint32_t w) const;
  void build_aprons();
  /// The goal point of portal p as seen from `from`: its nearest point, nudged 0.3 m inward (S6).
  V2 portal_goal(uint32_t portal, V2 from) const;
  /// seed 002, Crowds: the density (ped/m^2) felt at p on `floor` by someone
  /// walking along the unit u: (S + 0.625 M - 0.375 V.u) / area over the 3 x 3
  /// cells round p's cell (C3), from the state's crowd field (nobody excluded).
  float felt_density(uint32_t floor, V2 p, V2 u) const;
  /// The hook for the states the seed exempts from the crowd check (queued,
  /// door-line aim, curb, captured, held, belt, connector: none exists in part
  /// 1); part 1 exempts only a walker in recovery (its muted obstacle's 1.6 s).
  bool crowd_check_exempt(const Walker& w) const;

 private:
  // step phases, in order (docs/station-step.md)
  void apply_inputs(const Input& input);
  void spawn_phase();
  void rebuild_neighbours();
  void plan_phase();
  void force_phase();
  void arrival_phase();
  void connectors_phase();
  void crowd_phase();
  void build_floor_hops();
  bool flight_leads(uint32_t z, uint32_t floor, uint32_t goal_floor) const;
  float flight_seconds(uint32_t w, uint32_t z, float* wait_s = nullptr) const;
  int32_t choose_flight(uint32_t w) const;
  V2 landing_goal(uint32_t w) const;
  void count_stair_traffic();
  int walk_sense(const Walker& wk, uint32_t z) const;
  bool stair_band(uint32_t w, uint32_t z, int sense, float* lo, float* hi, float* target) const;
  V2 stair_band_aim(uint32_t w, V2 drive) const;
  V2 short_of_landing(uint32_t w, V2 p) const;
  bool reweigh_due(uint32_t w) const;
  void reweigh_connector(uint32_t w, V2& corner);
  void hand_over(uint32_t w, uint32_t z);
  // the belt (escalators: stairs.cpp; seed 002, Escalator)
  bool on_belt(const Walker& w) const { return w.flight >= 0 && flights_[static_cast<std::size_t>(w.flight)].belt; }
  /// The connector a walker heads for now: its gate, else the stair or escalator of its route (-1 none).
  static int32_t heading(const Walker& w) { return w.gate >= 0 ? w.gate : w.via; }
  /// The way walker w rides belt z, or would: its own on it; an escalator's one way; at a gate, away from
  /// the mouth on its side, 0 when the gate does not run that way.
  int belt_sense(const Walker& w, uint32_t z) const;
  /// Fare gates (S44-S46): the gate a walker on its goal's floor takes, and what it costs.
  int32_t choose_gate(uint32_t w) const;
  float gate_cost(uint32_t w, uint32_t z, int sense) const;
  void count_belts();
  float belt_hold_gap(uint32_t w) const;
  /// seed 002, Queues (S47, S48): the lines at the belts' mouths, formed as the tick starts; the point a
  /// walker heading for a belt aims at in or behind its line (drive unchanged where no rule applies).
  void form_lines();
  V2 queue_aim(uint32_t w, V2 drive) const;
  /// The tail of belt z's line for `sense` when it is formed (1.8 m or longer from the mouth): how far past
  /// the entry edge it stands (negative). False with no formed line.
  /// `kept`: any line at all (one already walking round keeps doing so while the line lasts).
  bool formed_tail(uint32_t z, int sense, float* tail, bool kept = false) const;
  /// S56: whether walker w, heading for escalator `to` with a formed line from off its side behind the back or
  /// more than 2.5 m out, walks to the back first, and where that is (`kept`: one walking round already,
  /// while there is any line).
  bool line_back(uint32_t w, int32_t to, V2* back, bool kept = false) const;
  /// seed 002, Route, "Queue lines" (S57): the bands of the floor's formed lines in its crowd costs, and
  /// per belt and way the mask of its band's cells (the walker's own queue costs nothing).
  void queue_bands(uint32_t floor);
  bool waiting_for_belt(const Walker& w) const;
  void board_belts();
  void carry_belts();
  void step_off_belt(uint32_t w, uint32_t z, float across);
  void set_first_leg(uint32_t w, uint32_t z, V2 foot);
  void stop_once(uint32_t w, uint32_t z);  ///< S49: the zone's stop_delay_s, the first time the walker enters it
  // elevators (lifts.cpp; seed 002, Elevator; S50-S55)
  bool prefers_lift(const Walker& w) const;
  /// The car walker w takes from its floor to its goal's, -1 none (the nearest landing of those serving both).
  int32_t choose_lift(uint32_t w) const;
  /// The landing of car c on floor f, -1 none.
  int32_t landing_on(uint32_t c, uint32_t f) const;
  /// Whether walker w's car stands at its floor's landing open to boarders (riders for the floor all
  /// out), with room, and w's teleport lock has run out.
  bool may_board(const Walker& w) const;
  bool waiting_for_lift(const Walker& w) const;  ///< bound for its car, in front of the door within 3 m
  V2 lift_goal(uint32_t w) const;                 ///< the point routed to: just in front of the door, or the landing
  V2 lift_aim(uint32_t w, V2 drive) const;        ///< the drive point: the door when it may board, else its spot 1.4 m back
  float lift_gap(uint32_t w) const;               ///< the headway cap of one waiting: its room to the spot
  void count_lifts();  ///< as the tick starts: the locks run down; who waits at or walks up to each landing
  void lifts_phase();
  V2 car_spot(uint32_t z, uint32_t k) const;
  void step_out(uint32_t w, uint32_t z, V2 at, V2 out);
  /// Floors joined for a walker: a chain of stairs and escalators, or one car with a landing on each.
  bool floors_joined(uint32_t from, uint32_t to) const;
  void measure_phase();

  // scenario.cpp: the geometry checks that need the built floors (S26)
  void check_layout() const;
  // spawn.cpp
  bool try_spawn(uint32_t portal);
  uint32_t draw_destination(uint32_t portal, Trip trip, bool* rotated);
  // route.cpp
  void start_route(uint32_t w);
  void rebuild_path(uint32_t w);
  void begin_leg(uint32_t w);
  void plan_walker(uint32_t w, std::vector<uint8_t>& rebuild);
  // plan_walker's phases, in order: a waypoint passed; the corner aimed at; the 2 s crowd check; the 0.5 s
  // leg re-check; the drive point (the corner shifted to the walker's lane); recovery when stuck.
  bool on_goal_leg(uint32_t w) const;
  /// pass_waypoint's test: the current waypoint (not the goal) is reached.
  bool waypoint_reached(uint32_t w) const;
  /// Whether plan_walker may, this tick, plan a path, check the crowd or
  /// recover (each reads the floor's crowd field): plan_phase builds the field
  /// of those walkers' floors before it plans everyone on the workers. Errs
  /// only toward true.
  bool plan_may_search(uint32_t w) const;
  V2 route_corner(uint32_t w) const;
  void pass_waypoint(uint32_t w);
  void check_crowd_ahead(uint32_t w, V2& corner);
  void recheck_leg(uint32_t w, V2& corner);
  /// `coming`: S25's someone coming the other way along the leg (oncoming_ahead).
  V2 lane_drive(uint32_t w, V2 corner, bool coming) const;
  /// S29: the point a walker in a passage with someone coming aims at inside
  /// its keep-side band; returns `drive` unchanged where the rule does not apply.
  V2 band_aim(uint32_t w, V2 drive, bool coming) const;
  /// How far the ray from p along the unit n runs before it meets a wall of
  /// the floor, at most `reach`.
  float ray_room(uint32_t floor, V2 p, V2 n, float reach) const;
  /// S60's t_room (0..1): the nearer of the walls straight across a walker's
  /// heading (last tick's direction) on either side, 1 within r + kTurnNear,
  /// 0 from r + kTurnFar, linear between; 0 before its first heading. The
  /// standing gap (S61) uses it at the body (`at` the walker's position); the
  /// shoulders' turn (S60, times the speed's share) the larger of it there
  /// and kTurnAhead ahead (turn_room, S62).
  float wall_room(const Walker& w, V2 at) const;
  /// S62: the turn's room, max(t_room at the body, t_room at the point
  /// kTurnAhead along the heading); the point ahead counts only when no wall
  /// lies between. `here` is wall_room at the body.
  float turn_room(const Walker& w, float here) const;
  void recover_if_stuck(uint32_t w, V2 drive, std::vector<uint8_t>& kick);
  bool crowd_check(uint32_t w);  // true: the path was rebuilt
  // crowd costs (route.cpp): the floor's field of linear costs, built at most once per step
  const std::vector<LinearCost>& crowd_costs(uint32_t floor);
  LinearCost crowd_cell_value(uint32_t floor, std::size_t c, float ds, float dm, V2 dv) const;
  LinearField crowd_view(uint32_t w) const;  // the field as w feels it (overrides on the shared field)
  struct CellRect {
    int32_t x0 = 0, x1 = -1, y0 = 0, y1 = -1;  ///< columns x0..x1, rows y0..y1; empty when x0 > x1
  };
  CellRect goal_patch(uint32_t p) const;     // C5: the cells of portal p's free radius
  void goal_queues(uint32_t floor);          // C5: each portal's queue on the floor
  // sight
  float sight_yaw(uint32_t w, V2 e) const;
  float headway_of(uint32_t w) const;
  float wall_gap_of(uint32_t w, V2 e, V2* normal) const;
  bool oncoming_ahead(uint32_t w, V2 u) const;
  bool overtake_clear(uint32_t w, V2 e, float shift, float ahead, V2 target) const;
  // forces.cpp
  void accelerations(float h);
  void accelerations(float h, uint32_t begin, uint32_t end);  ///< walkers begin..end (one range of workers.h)
  void integrate(float h);
  void integrate(float h, uint32_t begin, uint32_t end);
  bool move_refused(const Walker& wk, V2 from, V2 to, int32_t* hit) const;
  void gather_walls(uint32_t w, std::vector<uint32_t>& out) const;  ///< walker w's nearby walls, appended to out

  Scenario scenario_;
  State state_;
  std::vector<FloorGeom> floors_;
  std::vector<FlightGeom> flights_;  ///< one per zone (stairs), scenario order
  std::vector<float> floors_z_;      ///< each floor's height (the scenario's z)
  std::vector<int32_t> hops_;        ///< fewest stairs from floor a to floor b at [a * floors + b], -1 none
  std::vector<LiftGeom> lifts_;      ///< one per car (state_.cars)
  std::vector<uint32_t> floor_rank_; ///< each floor's place by height (storeys between floors: S50)
  bool lift_route_ = false;          ///< the scenario's route is "elevator"
  uint32_t lock_ticks_ = 0;          ///< teleport_lock_s in ticks
  /// As the tick starts (count_lifts): per zone, those waiting at a landing and those walking up to it
  /// (within 10 m, not yet waiting); per car, its riders for the floor it stands at.
  std::vector<uint32_t> lift_wait_, lift_coming_, lift_unload_;
  std::vector<V2> lift_spot_;  ///< per walker waiting at a door landing: its spot (S52), x = kNoRider none
  /// Mouth aprons (S37), per floor one DirCost per routing cell, checked by the floor's grid once:
  /// every stair mouth's on the floor (empty: none), and per stair (its index) the same without its
  /// own mouth's (empty: not on the floor).
  std::vector<CheckedDirCosts> aprons_;
  std::vector<std::vector<CheckedDirCosts>> aprons_without_;
  /// Per stair, this tick's traffic each way (S38): [0] toward mouth 2, [1] toward mouth 0.
  std::vector<std::array<uint32_t, 2>> stair_traffic_;
  /// Per zone, as the tick starts: the distances to its mouth of the walkers bound through it and not on it,
  /// sorted (the choice's wait: those nearer the mouth); for a belt, how far its last boarder is past the
  /// entry edge (the rider least far along; kNoRider with none: S40).
  std::vector<std::vector<float>> bound_dist_;
  std::vector<std::array<float, 2>> belt_last_;  ///< [0] the riders of sense +1, [1] of sense -1
  std::vector<uint32_t> belt_riders_;            ///< per zone: riders on it as the tick starts (a gate's choice)
  std::vector<uint8_t> floor_gates_;             ///< per floor: it has a gate (walkers there re-weigh)
  /// Per belt and way ([0] sense +1, [1] sense -1), as the tick starts: its line, head first (walker
  /// indices), and how far each member stands past the entry edge (negative: before it).
  std::vector<std::array<std::vector<uint32_t>, 2>> line_of_;
  std::vector<std::array<std::vector<float>, 2>> line_t_;
  std::vector<float> spot_t_;  ///< per walker: the spot behind its line's tail it takes (S48), kNoRider none
  std::vector<std::array<std::vector<uint8_t>, 2>> band_cells_;  ///< per belt and way: its line's band on its entry floor's grid (S57)
  static constexpr float kNoRider = 1e30f;
  /// The 0.7 m routing grid of each floor (grid.h), shared by copies of the model: it is built from the
  /// scenario once and never changes in part 1 (full attractors, which rebuild it, come with part 3).
  std::vector<std::shared_ptr<const NavGrid>> grids_;
  std::vector<PortalGeom> portals_;
  std::vector<AreaGeom> areas_;
  std::vector<uint32_t> script_by_tick_;  ///< indices into scenario_.script, by tick (stable: file order within a tick)
  bool keep_right_ = true;

  // per-tick scratch (derived, not state)
  CellGrid walker_grid_;
  std::vector<WalkerSpot> walker_spots_;           ///< walker_grid_.items' positions, radii and floors, in its order
  /// What the force law reads of a neighbour, per walker (made as the force phase starts; integrate() keeps pos and vel current).
  struct Body {
    V2 pos, vel, dir, move_dir;
    float radius = 0, half_w = 0;
  };
  std::vector<Body> bodies_;
  float max_radius_ = 0;                           ///< the largest walking body this tick (sight's reach)
  std::vector<uint32_t> nb_start_, nb_items_;      ///< force neighbours per walker (CSR)
  std::vector<uint32_t> wall_start_, wall_items_;  ///< nearby walls per walker (CSR)
  std::vector<float> wall_gap_;                    ///< this tick's wall gap per walker (plan phase; wall_gap_of)
  std::vector<V2> move_dir_;                       ///< this tick's direction of motion: dir, or dir slid along a wall
  std::vector<float> half_w_;                      ///< this tick's half-width per walker (S59: narrower as it walks)
  std::vector<float> stand_room_;                  ///< this tick's room factor of the standing gap per walker: 1 - t_room (S61)
  std::vector<V2> acc_;                            ///< accelerations of one sub-step
  // crowd costs (derived from state_.crowd, rebuilt lazily each step; route.cpp)
  std::vector<uint8_t> crowd_fresh_;                       ///< per floor: built this step
  std::vector<std::vector<std::array<float, 4>>> crowd_box_;  ///< per floor, cell: 3 x 3 sums S, M, Vx, Vy
  std::vector<std::vector<LinearCost>> crowd_cost_;       ///< per floor, cell
  std::vector<std::vector<std::vector<uint8_t>>> crowd_queue_;  ///< per floor, portal: its queue's cells (C5), or empty
  std::vector<CellRect> goal_patch_;  ///< per portal: its free patch's cells (C5; the constructor)
  std::vector<int64_t> crowd_count_;                      ///< crowd_phase scratch: per cell S, M, Vx, Vy (fixed point)
  PhaseHook phases_;  ///< the profiler's observer, if any (not state)
  Workers* pool_ = nullptr;             ///< threads for the step, if any (not state)
  Workers* workers_ = nullptr;          ///< this tick's: the pool with kParallelWalkers or more walkers, else none (not state)
  std::vector<uint8_t> refused_;        ///< per walker: its move refused this sub-step (summed after)
  /// plan_phase's counts per walker, summed into the state's statistics after the parallel pass.
  enum PlanCount : std::size_t { kCountRebuilt, kCountCrowdRebuilds, kCountUnsticks, kPlanCounts };
  std::vector<std::array<uint32_t, kPlanCounts>> plan_counts_;
  bool planning_on_workers_ = false;  ///< plan_phase's parallel pass is running: crowd_costs must not build (not state)
  std::array<std::vector<std::vector<uint32_t>>, 2> list_parts_;  ///< per range: neighbours, walls (rebuild_neighbours)
  std::array<std::vector<uint32_t>, 2> list_counts_;              ///< per walker: neighbours, walls
  std::vector<uint32_t> cell_of_;                                 ///< per walker: its walker_grid_ cell (rebuild_neighbours)
  std::vector<float> range_max_;                                  ///< per range: the largest walking radius (rebuild_neighbours)
};

}  // namespace lockstep::station
